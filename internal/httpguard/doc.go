// Package httpguard holds the checks that the HTTP handlers of packages rpc
// and mcp make on a request before they read its body: the DNS-rebinding
// defence (which Host and Origin headers a request may carry) and the
// refusal of an encoded body. Both packages take the same options for them
// and answer with the same statuses, so the rules live here once.
package httpguard
