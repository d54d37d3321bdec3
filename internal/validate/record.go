package validate

import "github.com/schemarpc/schemarpc/internal/jsonwrite"

// AppendRecord appends to b one transcript record, the JSON Lines form
// Read takes back: {"from":…,"session":…,"protocolVersion":…,"message":…}
// and a newline, with msg, which must be JSON, as it travelled. session and
// version are left out when "".
func AppendRecord(b, msg []byte, from Direction, session, version string) []byte {
	b = append(b, `{"from":"`...)
	b = append(b, from.String()...)
	b = append(b, '"')
	if session != "" {
		b = jsonwrite.String(append(b, `,"session":`...), session)
	}
	if version != "" {
		b = jsonwrite.String(append(b, `,"protocolVersion":`...), version)
	}
	b = append(b, `,"message":`...)
	b = append(b, msg...)
	return append(b, "}\n"...)
}
