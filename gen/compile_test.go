package gen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// behaviourTests are Go tests run inside the module the generated packages
// are compiled in: they pin what the generated code does, not just that it
// builds. Keyed by golden case.
var behaviourTests = map[string]string{
	"nullable": `package nullable

import (
	"encoding/json"
	"testing"
)

func TestZeroValuesAbsenceAndNullRoundTrip(t *testing.T) {
	base := ` + "`" + `"reqString": "", "reqNullString": null, "reqList": [], "reqNullList": null, "reqMap": {}, "reqNullObject": null` + "`" + `
	roundTrip[Presence](t,
		` + "`" + `{` + "`" + `+base+` + "`" + `}` + "`" + `,
		` + "`" + `{` + "`" + `+base+` + "`" + `, "optString": "", "optInt": 0, "optBool": false, "optNumber": 0, "optList": [], "optMap": {}, "optObject": {"x": 0, "y": 0}}` + "`" + `,
		` + "`" + `{` + "`" + `+base+` + "`" + `, "optNullString": null, "optNullInt": null, "optNullBool": null, "optNullList": null, "optNullMap": null, "optNullObject": null, "optRaw": null, "optNullOnly": null}` + "`" + `,
		` + "`" + `{` + "`" + `+base+` + "`" + `, "optNullString": "", "optNullInt": 0, "optNullBool": false, "optNullList": [], "optNullMap": {}, "optNullObject": {"x": 1, "y": 2}}` + "`" + `,
		` + "`" + `{"reqString": "a", "reqNullString": "", "reqList": ["x"], "reqNullList": [], "reqMap": {"k": 0}, "reqNullObject": {"x": 0, "y": 0}, "optNonEmpty": "z", "optMode": "fast", "optRaw": {"deep": [1, 2.50]}}` + "`" + `,
	)
}

func TestRequiredListsAndMapsNeverMarshalAsNull(t *testing.T) {
	b, err := json.Marshal(Presence{})
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, string(b), ` + "`" + `{"reqString": "", "reqNullString": null, "reqList": [], "reqNullList": null, "reqMap": {}, "reqNullObject": null}` + "`" + `) {
		t.Errorf("got %s", b)
	}
}
`,
	"unions": `package unions

import (
	"encoding/json"
	"testing"
)

func TestUnionsRoundTrip(t *testing.T) {
	roundTrip[Message](t,
		` + "`" + `{"content": []}` + "`" + `,
		` + "`" + `{"content": [{"type": "text", "text": "hi"}, {"type": "image", "data": "AA==", "mimeType": "image/png"}, {"type": "audio", "data": "x"}]}` + "`" + `,
		` + "`" + `{"content": [{"type": "video", "url": "v", "extra": [1, 2]}, {"type": 7}, "just a string", null]}` + "`" + `,
		` + "`" + `{"content": [], "resource": {"uri": "a", "text": "t"}}` + "`" + `,
		` + "`" + `{"content": [], "resource": {"uri": "a", "blob": "Ymxv"}}` + "`" + `,
		` + "`" + `{"content": [], "resource": {"uri": "a"}}` + "`" + `,
		` + "`" + `{"content": [], "token": "tok"}` + "`" + `,
		` + "`" + `{"content": [], "token": 17}` + "`" + `,
		` + "`" + `{"content": [], "token": 1.5}` + "`" + `,
		` + "`" + `{"content": [], "request": {"mode": "url", "url": "https://x"}}` + "`" + `,
		` + "`" + `{"content": [], "request": {"message": "no mode: the default variant"}}` + "`" + `,
		` + "`" + `{"content": [], "request": {"mode": "form", "message": "m"}}` + "`" + `,
		` + "`" + `{"content": [], "request": {"mode": "telepathy"}}` + "`" + `,
		` + "`" + `{"content": [], "value": null}` + "`" + `,
		` + "`" + `{"content": [], "value": {"a": [1, 2.5, "s", true, null, {"b": {}}]}}` + "`" + `,
		` + "`" + `{"content": [], "maybe": null}` + "`" + `,
		` + "`" + `{"content": [], "maybe": {"type": "text", "text": ""}}` + "`" + `,
		` + "`" + `{"content": [], "single": {"type": "text", "text": "one"}}` + "`" + `,
		` + "`" + `{"content": [], "nested": "s"}` + "`" + `,
		` + "`" + `{"content": [], "nested": 3}` + "`" + `,
		` + "`" + `{"content": [], "nested": {"type": "text", "text": "t"}}` + "`" + `,
		` + "`" + `{"content": [], "nested": ["a", "b"]}` + "`" + `,
		` + "`" + `{"content": [], "nested": false}` + "`" + `,
		` + "`" + `{"content": [], "jvalue": {"a": [1, "s", true, {"b": []}]}}` + "`" + `,
		` + "`" + `{"content": [], "jvalue": 3}` + "`" + `,
		` + "`" + `{"content": [], "result": {}}` + "`" + `,
		` + "`" + `{"content": [], "result": {"_meta": {"k": 1}, "other": [1]}}` + "`" + `,
		` + "`" + `{"content": [], "result": {"items": ["a"], "more": true}}` + "`" + `,
	)
}

func TestUnionsDecodeToTheRightVariant(t *testing.T) {
	var m Message
	in := ` + "`" + `{"content": [{"type": "text", "text": "hi"}, {"type": "audio", "data": "d"}, {"type": "video"}], "resource": {"uri": "u", "blob": "b"}, "token": 5, "request": {"message": "m"}, "value": 2.5}` + "`" + `
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if txt, ok := m.Content[0].AsText(); !ok || txt.Text != "hi" {
		t.Errorf("content[0] = %#v", m.Content[0].Value)
	}
	if _, ok := m.Content[0].AsImage(); ok {
		t.Error("a text block is also an image")
	}
	if a, ok := m.Content[1].AsAudio(); !ok || a.Data != "d" {
		t.Errorf("content[1] = %#v", m.Content[1].Value)
	}
	if u, ok := m.Content[2].Value.(UnknownContentBlock); !ok || string(u.Raw) != ` + "`" + `{"type": "video"}` + "`" + ` {
		t.Errorf("content[2] = %#v", m.Content[2].Value)
	}
	if b, ok := m.Resource.AsBlobResourceContents(); !ok || b.Blob != "b" {
		t.Errorf("resource = %#v", m.Resource.Value)
	}
	if n, ok := m.Token.AsInteger(); !ok || *n != 5 {
		t.Errorf("token = %#v", m.Token.Value)
	}
	if f, ok := m.Request.AsForm(); !ok || f.Message != "m" {
		t.Errorf("request = %#v", m.Request.Value)
	}
	if n, ok := m.Value.Value.AsNumber(); !ok || *n != 2.5 {
		t.Errorf("value = %#v", m.Value.Value.Value)
	}
}

func TestUnionsEncodeVariantsAndFillTheirConst(t *testing.T) {
	msg := Message{Content: []ContentBlock{{Value: TextContent{Text: "a"}}, {Value: &ImageContent{Data: "d", MIMEType: "m"}}, {Value: ContentBlockAudio{Data: "x"}}}}
	b, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	want := ` + "`" + `{"content": [{"type": "text", "text": "a"}, {"type": "image", "data": "d", "mimeType": "m"}, {"type": "audio", "data": "x"}]}` + "`" + `
	if !sameJSON(t, string(b), want) {
		t.Errorf("got %s", b)
	}
	var empty ContentBlock
	if b, _ := json.Marshal(empty); string(b) != "null" {
		t.Errorf("an empty union encodes as %s", b)
	}
}
`,
	"discriminators": `package discriminators

import (
	"encoding/json"
	"testing"
)

func TestDiscriminatedUnionsRoundTrip(t *testing.T) {
	roundTrip[SendParams](t,
		` + "`" + `{"tx": {"type": "0x0", "gasPrice": "1"}}` + "`" + `,
		` + "`" + `{"tx": {"type": "0x2", "maxFee": "2"}}` + "`" + `,
		` + "`" + `{"tx": {"type": "0x7", "blob": [1, 2.50]}}` + "`" + `,
		` + "`" + `{"tx": {"type": "0x0", "gasPrice": "1", "v": "0x1b", "accessList": [{"address": "a"}], "chainId": 1.0}}` + "`" + `,
	)
	roundTrip[Receipt](t, ` + "`" + `{"status": "ok", "gasUsed": 21000}` + "`" + `, ` + "`" + `{"status": "failed", "reason": "out of gas"}` + "`" + `)
	roundTrip[FilterParams](t,
		` + "`" + `{"f": {"address": "a", "block": "b"}, "topics": ["0xaa"]}` + "`" + `,
		` + "`" + `{"f": {"address": "a", "from": "1", "to": "2", "block": "b"}, "topics": [1, 2]}` + "`" + `,
		` + "`" + `{"f": {"address": "a"}, "topics": []}` + "`" + `,
	)
}

func TestVariantsAreChosenByPatternConstThroughAllOfRequiredSetsAndItemKind(t *testing.T) {
	var p SendParams
	if err := json.Unmarshal([]byte(` + "`" + `{"tx": {"type": "0x2", "maxFee": "9"}}` + "`" + `), &p); err != nil {
		t.Fatal(err)
	}
	if d, ok := p.Tx.AsDynamicFee(); !ok || d.MaxFee != "9" {
		t.Errorf("tx = %#v", p.Tx.Value)
	}
	var r Receipt
	if err := json.Unmarshal([]byte(` + "`" + `{"status": "failed", "reason": "r"}` + "`" + `), &r); err != nil {
		t.Fatal(err)
	}
	if f, ok := r.AsFailure(); !ok || *f.Reason != "r" {
		t.Errorf("receipt = %#v", r.Value)
	}
	for in, want := range map[string]string{
		` + "`" + `{"address": "a", "block": "b"}` + "`" + `:                     "block",
		` + "`" + `{"address": "a", "from": "1", "to": "2", "block": "b"}` + "`" + `: "range",
		` + "`" + `{"address": "a", "from": "1"}` + "`" + `:                      "any",
	} {
		var f Filter
		if err := json.Unmarshal([]byte(in), &f); err != nil {
			t.Fatal(err)
		}
		got := ""
		switch f.Value.(type) {
		case FilterByBlock:
			got = "block"
		case FilterByRange:
			got = "range"
		case FilterAny:
			got = "any"
		}
		if got != want {
			t.Errorf("%s decoded as %T, want %s", in, f.Value, want)
		}
	}
	for in, want := range map[string]string{` + "`" + `"latest"` + "`" + `: "latest", ` + "`" + `"0x10"` + "`" + `: "0x10"} {
		var ref BlockRef
		if err := json.Unmarshal([]byte(in), &ref); err != nil {
			t.Fatal(err)
		}
		if s, ok := ref.AsString(); !ok || string(*s) != want {
			t.Errorf("%s decoded as %#v", in, ref.Value)
		}
	}
	roundTrip[BlockRef](t, ` + "`" + `"latest"` + "`" + `, ` + "`" + `"0x10"` + "`" + `, ` + "`" + `{"blockHash": "0xab"}` + "`" + `)
	var tp Topics
	if err := json.Unmarshal([]byte(` + "`" + `[3, 4]` + "`" + `), &tp); err != nil {
		t.Fatal(err)
	}
	if n, ok := tp.AsPositions(); !ok || len(*n) != 2 {
		t.Errorf("topics = %#v", tp.Value)
	}
}
`,
	"allofunion": `package allofunion

import (
	"encoding/json"
	"testing"
)

func TestDistributedVariantsCarryTheSharedProperties(t *testing.T) {
	roundTrip[LabelledShape](t,
		` + "`" + `{"kind": "circle", "radius": 2, "label": "sun", "style": {"colour": "gold"}}` + "`" + `,
		` + "`" + `{"kind": "square", "side": 1.5, "label": "box", "note": "kept"}` + "`" + `,
	)
	roundTrip[Event](t, ` + "`" + `{"at": "t0", "x": 3}` + "`" + `, ` + "`" + `{"at": "t1", "code": "Enter"}` + "`" + `)
	var s LabelledShape
	if err := json.Unmarshal([]byte(` + "`" + `{"kind": "square", "side": 1, "label": "box"}` + "`" + `), &s); err != nil {
		t.Fatal(err)
	}
	if sq, ok := s.AsSquare(); !ok || sq.Label != "box" || sq.Side != 1 {
		t.Errorf("shape = %#v", s.Value)
	}
	var _ NotEmpty = Shape{} // only constraints beside the union: the union's type
}
`,
	"nullref": `package nullref

import "testing"

func TestARefToNullMakesTheTypeNullable(t *testing.T) {
	roundTrip[*Block](t, ` + "`" + `{"hash": "a", "parent": null}` + "`" + `, ` + "`" + `{"hash": "b", "parent": {"hash": "a"}}` + "`" + `, ` + "`" + `{"hash": "c"}` + "`" + `, ` + "`" + `{"hash": "d", "other": 1}` + "`" + `)
	roundTrip[*Block](t, "null") // the result of getBlock when nothing has that number
	var b Block
	if b.Parent.Set || b.Parent.Valid {
		t.Error("an absent parent is neither set nor valid")
	}
}
`,
	"jsonschema04": `package jsonschema04

import (
	"encoding/json"
	"testing"
)

func TestDraft04MessagesRoundTripWithTheirNarrowedMembers(t *testing.T) {
	roundTrip[LaunchRequest](t, ` + "`" + `{"seq": 1, "type": "request", "command": "launch", "arguments": {"noDebug": true, "__restart": {"any": [1]}, "program": "a.out"}}` + "`" + `)
	roundTrip[StoppedEvent](t, ` + "`" + `{"seq": 2, "type": "event", "event": "stopped", "body": {"reason": "step", "threadId": 1, "hitBreakpointIds": [4, 5]}}` + "`" + `)
	roundTrip[Range](t, ` + "`" + `[1, 2]` + "`" + `)
	var r LaunchRequest
	if err := json.Unmarshal([]byte(` + "`" + `{"seq": 1, "type": "request", "command": "launch", "arguments": {}}` + "`" + `), &r); err != nil {
		t.Fatal(err)
	}
	if r.Command != LaunchRequestCommandLaunch || r.Type != RequestTypeRequest {
		t.Errorf("got %+v", r)
	}
}
`,
	"refpointer": `package refpointer

import "testing"

func TestRefsIntoPropertiesShareTheTargetsType(t *testing.T) {
	var p MoveParams
	var ship Ship
	p.To = ShipPosition{X: 1, Y: 2}
	ship.Position = &p.To // one Go type for the $ref and the property it points at
	var cargo ShipHoldsItem = ShipHoldsItem{Inner: &ShipHoldsItem{}}
	p.Cargo = &cargo
	var s ScanParams = ScanParams{Area: ship.Position}
	_ = s
	roundTrip[MoveParams](t, ` + "`" + `{"to": {"x": 1, "y": 2.5}, "owner": "me", "cargo": {"name": "tea", "inner": {"name": "cup"}}}` + "`" + `)
	roundTrip[Fleet](t, ` + "`" + `{"last": {"at": {"x": 0, "y": 0}}}` + "`" + `)
	// A variant that is a $ref to a string property: the property's own
	// type, wrapped in a type named for the target.
	roundTrip[ScanParams](t, ` + "`" + `{"label": "me"}` + "`" + `, ` + "`" + `{"label": 3}` + "`" + `)
	label := ScanParamsLabel{Value: ScanParamsLabelShipOwner("me")}
	if v, ok := label.AsShipOwner(); !ok || string(*v) != "me" {
		t.Errorf("AsShipOwner() = %v, %v", v, ok)
	}
}
`,
	"extras": `package extras

import (
	"encoding/json"
	"testing"
)

func TestExtraMembersRoundTrip(t *testing.T) {
	roundTrip[Open](t,
		` + "`" + `{"name": "n", "tags": []}` + "`" + `,
		` + "`" + `{"name": "n", "tags": ["a"], "x-vendor": {"deep": [1, 2.50, null]}, "z": "", "n": 0}` + "`" + `,
	)
	roundTrip[Typed](t, ` + "`" + `{}` + "`" + `, ` + "`" + `{"total": 0}` + "`" + `, ` + "`" + `{"total": 1.5, "a": 0, "b": -2.5}` + "`" + `, ` + "`" + `{"a": 1}` + "`" + `)
}

func TestMemberNamesMatchExactly(t *testing.T) {
	// encoding/json would put "Name" into the name field as well: the
	// handler would see a value the schema never validated.
	var v Open
	if err := json.Unmarshal([]byte(` + "`" + `{"name": "n", "Name": "x", "tags": []}` + "`" + `), &v); err != nil {
		t.Fatal(err)
	}
	if v.Name != "n" || string(v.Extra["Name"]) != ` + "`" + `"x"` + "`" + ` {
		t.Errorf("got name %q, extra %s", v.Name, v.Extra)
	}
	roundTrip[Open](t, ` + "`" + `{"name": "n", "Name": "x", "NAME": 1, "tags": []}` + "`" + `)
	if err := json.Unmarshal([]byte(` + "`" + `{"name": "a", "name": "b", "tags": []}` + "`" + `), &v); err == nil {
		t.Error("a duplicate member name was accepted")
	}
}

func TestExtraMembersAreDecodedAndDeclaredOnesWin(t *testing.T) {
	var v Typed
	if err := json.Unmarshal([]byte(` + "`" + `{"total": 1, "a": 2}` + "`" + `), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Extra) != 1 || v.Extra["a"] != 2 {
		t.Errorf("Extra = %v", v.Extra)
	}
	v.Extra["total"] = 99
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, string(b), ` + "`" + `{"total": 1, "a": 2}` + "`" + `) {
		t.Errorf("got %s", b)
	}
}

func TestPlainStructsDropUnknownMembers(t *testing.T) {
	var v Plain
	if err := json.Unmarshal([]byte(` + "`" + `{"a": "x", "b": 1}` + "`" + `), &v); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(v); string(b) != ` + "`" + `{"a":"x"}` + "`" + ` {
		t.Errorf("got %s", b)
	}
}
`,
	"tuples": `package tuples

import (
	"encoding/json"
	"testing"
)

func TestTuplesRoundTripAsArrays(t *testing.T) {
	roundTrip[Point](t, ` + "`" + `[1, 2]` + "`" + `, ` + "`" + `[0, 0, ""]` + "`" + `, ` + "`" + `[1.5, -2, "label"]` + "`" + `)
	roundTrip[Range](t, ` + "`" + `[1]` + "`" + `, ` + "`" + `[1, null]` + "`" + `, ` + "`" + `[1, 2]` + "`" + `, ` + "`" + `[1, 2, "a", "b"]` + "`" + `, ` + "`" + `[0, null, ""]` + "`" + `)
	roundTrip[Row](t, ` + "`" + `["a", []]` + "`" + `, ` + "`" + `["a", [1, 2]]` + "`" + `, ` + "`" + `["a", [1], {"any": true}, null]` + "`" + `)
}

func TestTupleFieldsAreThePositions(t *testing.T) {
	var p Point
	if err := json.Unmarshal([]byte(` + "`" + `[3, 4, "x"]` + "`" + `), &p); err != nil {
		t.Fatal(err)
	}
	if p.X != 3 || p.Y != 4 || p.Label == nil || *p.Label != "x" {
		t.Errorf("got %+v", p)
	}
	b, err := json.Marshal(Row{Item0: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != ` + "`" + `["r",[]]` + "`" + ` {
		t.Errorf("a nil required list position encodes as %s", b)
	}
}
`,
	"defaults": `package defaults

import (
	"encoding/json"
	"testing"
)

func TestDefaultsComeFromAccessorsNotFromDecoding(t *testing.T) {
	var p ListParams
	if err := json.Unmarshal([]byte(` + "`" + `{"required": 0}` + "`" + `), &p); err != nil {
		t.Fatal(err)
	}
	if p.Limit != nil || p.Destructive != nil || p.Order != "" || p.Fields != nil || p.Filter != nil {
		t.Fatalf("decoding filled defaults in: %+v", p)
	}
	if p.GetLimit() != 50 || p.GetRatio() != 0.5 || !p.GetDestructive() || p.GetCursor() != "" || p.GetOrder() != ListParamsOrderAsc {
		t.Errorf("scalar defaults: %d %v %v %q %q", p.GetLimit(), p.GetRatio(), p.GetDestructive(), p.GetCursor(), p.GetOrder())
	}
	if f := p.GetFields(); len(f) != 2 || f[0] != "id" || f[1] != "name" {
		t.Errorf("GetFields() = %v", f)
	}
	if f := p.GetFilter(); f.Q == nil || *f.Q != "*" {
		t.Errorf("GetFilter() = %+v", f)
	}
	if h := p.GetHint(); string(h) != ` + "`" + `{"any":"json"}` + "`" + ` {
		t.Errorf("GetHint() = %s", h)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != ` + "`" + `{"required":0}` + "`" + ` {
		t.Errorf("absent fields came back as %s", b)
	}
}

func TestPresentValuesWinOverDefaults(t *testing.T) {
	var p ListParams
	if err := json.Unmarshal([]byte(` + "`" + `{"required": 1, "limit": 0, "destructive": false, "cursor": "c", "order": "desc", "fields": []}` + "`" + `), &p); err != nil {
		t.Fatal(err)
	}
	if p.GetLimit() != 0 || p.GetDestructive() || p.GetCursor() != "c" || p.GetOrder() != ListParamsOrderDesc || len(p.GetFields()) != 0 || p.GetFields() == nil {
		t.Errorf("got %+v", p)
	}
}
`,
	"cycles": `package cycles

import (
	"testing"
)

func TestRecursiveTypesRoundTrip(t *testing.T) {
	roundTrip[Node](t, ` + "`" + `{"children": []}` + "`" + `, ` + "`" + `{"children": [{"children": [], "parent": {"children": []}}], "byName": {"a": {"children": []}}}` + "`" + `)
	roundTrip[JSONValue](t, ` + "`" + `null` + "`" + `, ` + "`" + `1.5` + "`" + `, ` + "`" + `"s"` + "`" + `, ` + "`" + `true` + "`" + `, ` + "`" + `[1, [2, null], {"a": {"b": []}}]` + "`" + `)
	roundTrip[Ring](t, ` + "`" + `{"next": {"ring": null}}` + "`" + `, ` + "`" + `{"next": {"ring": {"next": {"ring": null, "label": ""}}}}` + "`" + `)
}
`,
	"typearrays": `package typearrays

import (
	"encoding/json"
	"testing"
)

func TestTypeListsRoundTrip(t *testing.T) {
	roundTrip[Holder](t,
		` + "`" + `{"id": "a", "nullableID": null}` + "`" + `,
		` + "`" + `{"id": 7, "nullableID": "x", "amount": 3, "nullableString": null}` + "`" + `,
		` + "`" + `{"id": 0, "nullableID": 0, "amount": 2.5, "objectOrList": {"a": ""}, "nullableString": ""}` + "`" + `,
		` + "`" + `{"id": "", "nullableID": "", "objectOrList": [1, 2]}` + "`" + `,
	)
	var h Holder
	if err := json.Unmarshal([]byte(` + "`" + `{"id": 7, "nullableID": null, "amount": 7}` + "`" + `), &h); err != nil {
		t.Fatal(err)
	}
	if n, ok := h.ID.AsInteger(); !ok || *n != 7 {
		t.Errorf("id = %#v", h.ID.Value)
	}
	if h.NullableID.Value != nil {
		t.Errorf("nullableID = %#v", h.NullableID.Value)
	}
	if _, ok := h.Amount.AsInteger(); !ok {
		t.Errorf("amount = %#v", h.Amount.Value)
	}
}
`,
	"config": `package config

import (
	"encoding/json"
	"testing"

	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestConfigTypesAndRenamesAreUsed(t *testing.T) {
	var p ConnectParams
	in := ` + "`" + `{"requestId": 9007199254740993, "when": "2025-01-02T03:04:05Z", "kind": {"b": "x"}, "blob": "AAE="}` + "`" + `
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	var id rpc.ID = p.RequestID
	if id.String() != "9007199254740993" {
		t.Errorf("id = %s", id)
	}
	var at *time.Time = p.At
	if at == nil || at.Year() != 2025 {
		t.Errorf("when = %v", at)
	}
	if k, ok := p.Kind.AsKindB(); !ok || k.B != "x" {
		t.Errorf("kind = %#v", p.Kind.Value)
	}
	roundTrip[ConnectParams](t, in)
	var _ ServerEvent = ServerEvent{Level: &[]ServerEventLevel{LevelNone}[0]}
	var _ Thing
}
`,
	"mapping": `package mapping

import (
	"encoding/json"
	"testing"
)

func TestRequiredListsAndMapsMarshalAsEmptyNotNull(t *testing.T) {
	b, err := json.Marshal(Record{})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"lines": "[]", "attributes": "{}", "names": "[]", "maybeTags": "null", "parent": "null", "child": "null"} {
		if string(got[name]) != want {
			t.Errorf("%s = %s, want %s (all: %s)", name, got[name], want, b)
		}
	}
	for _, absent := range []string{"nickname", "age", "owner", "tags", "labels", "extra", "aliases", "amount"} {
		if _, ok := got[absent]; ok {
			t.Errorf("optional %s is present in %s", absent, b)
		}
	}
}

func TestOptionalZeroValuesSurviveWhenSet(t *testing.T) {
	zero, no := int64(0), false
	b, err := json.Marshal(Record{Age: &zero, Active: &no, Tags: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if string(got["age"]) != "0" || string(got["active"]) != "false" || string(got["tags"]) != "[]" {
		t.Errorf("set zero values were dropped: %s", b)
	}
}
`,
	"methods": `package methods

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

type store struct{ UnimplementedStoreServer }

func (store) Get(_ context.Context, p *GetParams) (*GetResult, error) {
	d := ""
	if p.Default != nil {
		d = *p.Default
	}
	return &GetResult{Value: p.Key + "=" + d, Found: true}, nil
}

func (store) List(context.Context, map[string]string) ([]Entry, error) { return nil, nil }

func handle(t *testing.T, r *rpc.Router, method, params string) (any, error) {
	t.Helper()
	req := &rpc.Request{Method: method}
	if params != "" {
		req.Params = json.RawMessage(params)
	}
	return r.Handle(context.Background(), req)
}

func TestByPositionParamsReachTheServerByName(t *testing.T) {
	r := rpc.NewRouter()
	RegisterStoreServer(r, store{})
	res, err := handle(t, r, MethodGet, ` + "`" + `["k", "d"]` + "`" + `)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.(*GetResult); got.Value != "k=d" {
		t.Errorf("got %+v", got)
	}
}

func TestParamsFailingTheSchemaNeverReachTheServer(t *testing.T) {
	r := rpc.NewRouter()
	RegisterStoreServer(r, store{})
	_, err := handle(t, r, MethodGet, ` + "`" + `[1]` + "`" + `)
	if e, ok := err.(*rpc.Error); !ok || e.Code != -32602 {
		t.Fatalf("got %v, want -32602", err)
	}
}

func TestNilListResultIsSentAsEmpty(t *testing.T) {
	r := rpc.NewRouter()
	RegisterStoreServer(r, store{})
	res, err := handle(t, r, MethodList, "")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res); string(b) != "[]" {
		t.Errorf("got %s", b)
	}
}

func TestUnimplementedMethodsAnswerMethodNotFound(t *testing.T) {
	r := rpc.NewRouter()
	RegisterStoreServer(r, store{})
	_, err := handle(t, r, MethodCount, "")
	if e, ok := err.(*rpc.Error); !ok || e.Code != -32601 {
		t.Fatalf("got %v, want -32601", err)
	}
}

func TestDeclaredErrorsCarryTheirCode(t *testing.T) {
	if e := NewNotFoundError(); e.Code != CodeNotFound || e.Message != "key not found" {
		t.Errorf("got %+v", e)
	}
}
`,
}

// TestGeneratedCodeCompilesAndVets builds every golden case, and the
// behaviour tests above, in a throwaway module that uses this repository's
// rpc package. It needs no network: modules come from the local cache.
func TestGeneratedCodeCompilesAndVets(t *testing.T) {
	dir, goCmd := tempModule(t)
	for _, name := range goldenCases(t) {
		pkgDir := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(pkgDir, 0o755))
		for _, f := range generateCase(t, name) {
			target := pkgDir
			if f.Dir != "" { // another package, beside the case's (Config.Aliases)
				target = filepath.Join(dir, filepath.Base(f.Dir))
				require.NoError(t, os.MkdirAll(target, 0o755))
			}
			require.NoError(t, os.WriteFile(filepath.Join(target, f.Name), f.Content, 0o644))
		}
		if src, ok := behaviourTests[name]; ok {
			require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "behaviour_test.go"), []byte(src), 0o644))
			helper := "package " + name + "\n" + roundTripHelper
			require.NoError(t, os.WriteFile(filepath.Join(pkgDir, "roundtrip_test.go"), []byte(helper), 0o644))
		}
	}
	out, err := vetAndTest(t, goCmd)
	require.NoError(t, err, "go test:\n%s", out)
}

// vetAndTest vets every package of a module made by tempModule, then runs
// its tests with testArgs (added to -count=1 ./...); go test's own vet step
// is off, go vet having run every check on every package already. It returns
// the tests' output and error.
func vetAndTest(t *testing.T, goCmd func(args ...string) (string, error), testArgs ...string) (string, error) {
	t.Helper()
	out, err := goCmd("vet", "./...")
	require.NoError(t, err, "go vet ./...:\n%s", out)
	args := append([]string{"test", "-vet=off", "-count=1"}, testArgs...)
	return goCmd(append(args, "./...")...)
}

// tempModule makes a throwaway module that requires this repository (by a
// replace directive) and returns its directory and a function that runs the
// go command in it, offline: modules come from the local cache. Builds use
// -trimpath, so that the build cache, which otherwise keys a package by its
// directory, serves generated packages that have not changed since the last
// run from another temporary directory. It skips the test with -short or
// without a go command.
func tempModule(t *testing.T) (dir string, goCmd func(args ...string) (string, error)) {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles generated code; skipped with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	dir = t.TempDir()
	goMod := "module example.test/generated\n\ngo 1.26\n\n" +
		"require github.com/schemarpc/schemarpc v0.0.0-00010101000000-000000000000\n\n" +
		"replace github.com/schemarpc/schemarpc => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	env := append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod -trimpath"), "GOWORK=off")
	return dir, func(args ...string) (string, error) {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
}

// roundTripHelper follows a package clause in a file written next to every
// behaviour test, so that each generated package's tests share one copy.
const roundTripHelper = `
import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var _ = roundTrip[struct{}] // not every package's tests round-trip

// roundTrip decodes each input into a value of type T, encodes it again and
// requires the same JSON (members in any order, numbers as written).
func roundTrip[T any](t *testing.T, inputs ...string) {
	t.Helper()
	for _, in := range inputs {
		var v T
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Errorf("decoding %s: %v", in, err)
			continue
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Errorf("encoding %s: %v", in, err)
			continue
		}
		if !sameJSON(t, in, string(out)) {
			t.Errorf("round trip changed the value:\n in: %s\nout: %s", in, out)
		}
	}
}

func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	decode := func(s string) any {
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return v
	}
	return reflect.DeepEqual(decode(a), decode(b))
}
`
