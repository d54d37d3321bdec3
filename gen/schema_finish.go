package gen

// finish completes the conversion once the front end has converted
// everything it needs: it plans how each union tells its variants apart,
// turns fields that would make a type contain itself into pointers, and
// reports config renames and types that matched nothing. Front ends call it
// once, before reading the types.
func (c *converter) finish() {
	if c.finished {
		return
	}
	c.finished = true
	c.planUnions()
	c.breakCycles()
	c.checkConfigUsed()
}

// breakCycles makes a type that contains itself by value (through required
// properties or tuple positions) hold itself through a pointer instead, at
// the field that closes the circle. Aliases and defined types that name
// each other in a circle have no type at all and are an error.
func (c *converter) breakCycles() {
	const (
		unvisited = iota
		active
		done
	)
	state := map[*namedType]int{}
	var visit func(nt *namedType)
	// follow visits the type t holds by value, and reports whether that
	// closes a circle.
	follow := func(t *typeRef) bool {
		next := valueNamed(*t)
		if next == nil {
			return false
		}
		switch state[next] {
		case active:
			return true
		case unvisited:
			visit(next)
		}
		return false
	}
	visit = func(nt *namedType) {
		state[nt] = active
		defer func() { state[nt] = done }()
		switch nt.kind {
		case namedStruct, namedTuple:
			for _, f := range nt.fields {
				t := &f.typ
				if t.kind == refNullable {
					t = t.elem
				}
				if follow(t) {
					t.ptr = true
				}
			}
		case namedAlias, namedDefined:
			if follow(&nt.underlying) {
				c.p.add(nt.origin, "%s contains itself through type names only, which makes it infinite", nt.name)
			}
		}
	}
	for _, nt := range c.types {
		if state[nt] == unvisited {
			visit(nt)
		}
	}
}

// valueNamed returns the named type t holds by value, if any. A union holds
// its variants behind an interface, so it is not followed.
func valueNamed(t typeRef) *namedType {
	if t.kind == refNamed && !t.ptr && t.named.kind != namedUnion {
		return t.named
	}
	if t.kind == refNullable {
		return valueNamed(*t.elem)
	}
	return nil
}

// checkConfigUsed reports each rename and type override of the config that
// matched no schema location (or generated name): most often a typo, which
// would otherwise be ignored silently.
func (c *converter) checkConfigUsed() {
	file := c.cfg.file
	if file == "" {
		file = "config"
	}
	for _, part := range []struct {
		member string
		keys   []string
	}{{"renames", sortedKeys(c.cfg.Renames)}, {"types", sortedKeys(c.cfg.Types)}} {
		for _, k := range part.keys {
			if !c.used[part.member+"\x00"+k] {
				c.p.list = append(c.p.list, &Error{File: file, Pointer: pointerJoin("", part.member, k),
					Message: "matches no schema location (file.json#/pointer, as in error messages) and no generated Go name"})
			}
		}
	}
}
