package mcpcheck

import (
	"encoding/json"
	"errors"
	"fmt"
)

// errorDefs names the definitions of whole error responses, by error code:
// the codes 2026-07-28 defines, whose data has a shape of its own.
var errorDefs = map[int64]string{
	-32020: "HeaderMismatchError",
	-32021: "MissingRequiredClientCapabilityError",
	-32022: "UnsupportedProtocolVersionError",
}

// resourceNotFound is the handshake versions' code for an unknown resource;
// 2026-07-28 servers answer -32602 instead.
const resourceNotFound = -32002

// checkError validates an error response. Codes with a definition of their
// own are checked against it, in our schema and the published one; in a
// 2026-07-28 session, codes of the range the protocol reserves
// (-32020 … -32099) that it does not define, and the handshake versions'
// -32002, are reported.
func (c *Checker) checkError(m map[string]any) error {
	e, _ := m["error"].(map[string]any)
	num, ok := e["code"].(json.Number)
	if !ok {
		return nil // the envelope check reports it
	}
	code, err := num.Int64()
	if err != nil {
		return nil // likewise
	}
	def, defined := errorDefs[code]
	if c.version >= StatelessVersion {
		switch {
		case code == resourceNotFound:
			return fmt.Errorf("error code %d (resource not found) is not sent in %s: an unknown resource is -32602", code, c.version)
		case code <= -32020 && code >= -32099 && !defined:
			return fmt.Errorf("error code %d is in the range %s reserves for the protocol, which defines no such code", code, c.version)
		}
	}
	if !defined || !c.ours.HasDef(def) {
		return nil
	}
	var errs []error
	sch, err := c.ours.Def(def)
	if err != nil {
		return err
	}
	if err := sch.Validate(m); err != nil {
		errs = append(errs, fmt.Errorf("error %d against our %s: %w", code, def, err))
	}
	if c.published != nil && c.published.HasDef(def) {
		sch, err := c.published.Def(def)
		if err != nil {
			return err
		}
		if err := sch.Validate(nullIDAsZero(m)); err != nil {
			errs = append(errs, fmt.Errorf("error %d against the published %s %s: %w", code, c.version, def, err))
		}
	}
	return errors.Join(errs...)
}
