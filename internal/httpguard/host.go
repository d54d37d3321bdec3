package httpguard

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
)

// HostPolicy says which Host and Origin headers a request may carry.
//
// A web page can make a browser send requests to a server on the user's own
// machine by pointing a domain it controls at 127.0.0.1; such requests carry
// the attacker's name in Host and Origin. So on a connection that arrived on
// a loopback address, Host must be a loopback name (localhost, 127.0.0.1,
// [::1], any port) or an allowed host, and an Origin, when present, must be
// an http(s) origin with a loopback name, an allowed origin, or the request's
// own Host. On other connections Host is checked only against the allowed
// hosts, when there are any, and Origin as above minus the loopback rule.
//
// The zero HostPolicy checks with no allowed names besides those rules.
type HostPolicy struct {
	off     bool
	hosts   map[string]bool // lower case, "name" (any port) or "name:port"
	origins map[string]bool // lower case, "scheme://host[:port]" or "null"

	// accepted is the last Host header value accepted, and whether on a
	// loopback connection: the Host check's verdict depends on nothing
	// else, and a client sends the same value on every request, so that
	// one comparison stands for parsing it again (nil in the zero policy,
	// which checks every request in full). Origin is checked every time.
	accepted *atomic.Pointer[acceptedHost]
}

// acceptedHost is a Host header value the policy accepted on a connection
// of this kind.
type acceptedHost struct {
	host  string
	local bool
}

// NewHostPolicy builds a policy. hosts are Host header values accepted besides the
// loopback names, "name" (any port) or "name:port"; origins are Origin
// header values accepted besides loopback origins and the request's own
// host, "scheme://host[:port]" (or "null"). off turns the checks off, for
// a server behind a proxy that does them.
func NewHostPolicy(hosts, origins []string, off bool) HostPolicy {
	p := HostPolicy{off: off, hosts: map[string]bool{}, origins: map[string]bool{}, accepted: new(atomic.Pointer[acceptedHost])}
	for _, h := range hosts {
		p.hosts[strings.ToLower(strings.TrimSpace(h))] = true
	}
	for _, o := range origins {
		p.origins[strings.ToLower(strings.TrimSuffix(strings.TrimSpace(o), "/"))] = true
	}
	return p
}

// Check returns why r must be refused (with 403), or "" when it may be
// served.
func (p HostPolicy) Check(r *http.Request) string {
	if p.off {
		return ""
	}
	local := onLoopback(r)
	if !p.acceptedBefore(r.Host, local) {
		host, _ := splitHostPort(r.Host)
		hostOK := (local && isLoopbackName(host)) || p.allowedHost(r.Host, host) || (!local && len(p.hosts) == 0)
		if !hostOK {
			return "the Host header names a host this server does not answer for"
		}
		if p.accepted != nil {
			p.accepted.Store(&acceptedHost{host: r.Host, local: local})
		}
	}
	origin, present := r.Header["Origin"]
	if !present {
		return ""
	}
	if len(origin) != 1 || !p.originOK(origin[0], r.Host, local) {
		return "the Origin header names an origin this server does not accept"
	}
	return ""
}

// acceptedBefore reports whether host is the Host header value the policy
// accepted last, on a connection as local as this one.
func (p HostPolicy) acceptedBefore(host string, local bool) bool {
	if p.accepted == nil {
		return false
	}
	a := p.accepted.Load()
	return a != nil && a.local == local && a.host == host
}

// allowedHost reports whether a Host header value, or its name without the
// port (lower case), is one of the allowed hosts.
func (p HostPolicy) allowedHost(hostport, name string) bool {
	return len(p.hosts) > 0 && (p.hosts[strings.ToLower(hostport)] || p.hosts[name])
}

// originOK reports whether an Origin header value is acceptable for a
// request to reqHost.
func (p HostPolicy) originOK(origin, reqHost string, local bool) bool {
	o := strings.ToLower(strings.TrimSpace(origin))
	if p.origins[o] {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	name, port := splitHostPort(u.Host)
	if local && isLoopbackName(name) {
		return true
	}
	// Same origin: the page was served by this very host and port.
	rname, rport := splitHostPort(strings.ToLower(reqHost))
	if port == "" {
		port = defaultPort(u.Scheme)
	}
	if rport == "" {
		rport = defaultPort(u.Scheme)
	}
	return name == rname && port == rport
}

// onLoopback reports whether r arrived on a loopback address. When the
// address is unknown (the handler called outside net/http's server) it
// assumes so, the stricter choice.
func onLoopback(r *http.Request) bool {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || addr == nil {
		return true
	}
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp != nil {
		return tcp.IP == nil || tcp.IP.IsLoopback()
	}
	host, _ := splitHostPort(addr.String())
	ip := net.ParseIP(host)
	return ip == nil || ip.IsLoopback()
}

// isLoopbackName reports whether a host name (no port) is one of the names
// of the local machine: localhost, or a loopback IP address.
func isLoopbackName(name string) bool {
	if strings.EqualFold(name, "localhost") {
		return true
	}
	// netip reads the address without making a slice of it, as
	// net.ParseIP does; a zone is not part of a host name.
	ip, err := netip.ParseAddr(name)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}

// splitHostPort splits "name:port", "[v6]:port", "name" or "[v6]" into a
// lower-case name without brackets and a port ("" when absent).
func splitHostPort(hostport string) (name, port string) {
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		return strings.ToLower(h), p
	}
	return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")), ""
}

// defaultPort is the port a URL scheme implies.
func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}
