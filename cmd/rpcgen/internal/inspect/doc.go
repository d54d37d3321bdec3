// Package inspect is the server behind "rpcgen inspect": an MCP client of
// every protocol version, put in front of a person through a web page served
// on the loopback interface, with every message of the conversation checked
// by the validator of "rpcgen validate" as it travels.
//
// What it promises: the page is served on 127.0.0.1 only; every request,
// the live event stream included, must carry the random token printed with
// the URL, must name this very host and port in Host, and, when it has an
// Origin, must come from this very origin; the server to inspect is fixed
// when the inspector starts, and nothing the page sends can change it. What
// the page can do is what an MCP client does: list, call, read, complete,
// and answer the server's requests.
package inspect
