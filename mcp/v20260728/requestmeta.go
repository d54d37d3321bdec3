package v20260728

import "github.com/schemarpc/schemarpc/rpc"

// RequestMetaObject keeps the client's capabilities and identity as the
// request wrote them (rpcgen.json maps both to raw JSON): a server reads
// the capabilities from the request's bytes and the identity only for
// display, so decoding them into structs on every call would be wasted.
// These methods decode them when they are wanted.

// DecodeClientCapabilities decodes the capabilities the request declares
// (required: absent, they are an error).
func (m *RequestMetaObject) DecodeClientCapabilities() (ClientCapabilities, error) {
	var c ClientCapabilities
	err := rpc.DecodeJSON(m.ClientCapabilities, &c)
	return c, err
}

// DecodeClientInfo decodes who the client says it is; nil when the request
// does not say.
func (m *RequestMetaObject) DecodeClientInfo() (*Implementation, error) {
	if m.ClientInfo == nil {
		return nil, nil
	}
	info := new(Implementation)
	if err := rpc.DecodeJSON(m.ClientInfo, info); err != nil {
		return nil, err
	}
	return info, nil
}
