package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/schemarpc/schemarpc/mcp/auth"
)

// inspectOAuth is how "rpcgen inspect" authorizes with a server over
// HTTP, through mcp/auth: off unless --oauth.
type inspectOAuth struct {
	on                     bool
	clientCredentials      bool
	clientID, clientSecret string
	scopes                 []string
	redirect               string
}

func (o *inspectOAuth) flags(fs *flag.FlagSet) {
	fs.BoolVar(&o.on, "oauth", false, "authorize with the server with OAuth 2.1 (mcp/auth): you sign in at the URL printed, in your browser")
	fs.BoolVar(&o.clientCredentials, "oauth-client-credentials", false, "with --oauth, use the client credentials grant (--oauth-client-id and --oauth-client-secret) instead of signing in")
	fs.StringVar(&o.clientID, "oauth-client-id", "", "with --oauth, a pre-registered client `ID` (without one the client registers itself)")
	fs.StringVar(&o.clientSecret, "oauth-client-secret", "", "with --oauth, the `SECRET` of --oauth-client-id")
	fs.Func("oauth-scope", "with --oauth, a `SCOPE` to ask for besides those the server names (repeatable)", func(s string) error {
		o.scopes = append(o.scopes, s)
		return nil
	})
	fs.StringVar(&o.redirect, "oauth-redirect", auth.DefaultRedirectURL, "with --oauth, the loopback `URL` the authorization server sends your browser back to")
}

// check returns what is wrong with the OAuth flags, "" when nothing is.
func (o *inspectOAuth) check(command bool) string {
	switch {
	case !o.on && (o.clientCredentials || o.clientID != "" || o.clientSecret != "" || len(o.scopes) > 0 || o.redirect != auth.DefaultRedirectURL):
		return "the --oauth-* flags need --oauth"
	case o.on && command:
		return "--oauth is for a URL: stdio has no authorization"
	case o.clientCredentials && (o.clientID == "" || o.clientSecret == ""):
		return "--oauth-client-credentials needs --oauth-client-id and --oauth-client-secret"
	}
	if o.on && !o.clientCredentials {
		if _, err := loopbackAddr(o.redirect); err != nil {
			return "--oauth-redirect: " + err.Error()
		}
	}
	return ""
}

// client returns the HTTP client that authorizes the inspector's requests;
// show tells the person where to sign in.
func (o *inspectOAuth) client(show func(authURL string)) *http.Client {
	cfg := &auth.Config{ClientID: o.clientID, ClientSecret: o.clientSecret, ClientName: "rpcgen inspect", Scopes: o.scopes, RedirectURL: o.redirect}
	if o.clientCredentials {
		cfg.Grant = auth.GrantClientCredentials
	} else {
		cfg.Authorize = loopbackAuthorize(o.redirect, show)
	}
	return &http.Client{Transport: auth.NewTransport(nil, cfg)}
}

// loopbackAddr returns the host:port of a loopback http redirect URL.
func loopbackAddr(redirect string) (string, error) {
	u, err := url.Parse(redirect)
	if err != nil {
		return "", err
	}
	ip := net.ParseIP(u.Hostname())
	if u.Scheme != "http" || ip == nil || !ip.IsLoopback() || u.Port() == "" {
		return "", errors.New("want http://127.0.0.1:PORT/PATH, a loopback address with a port")
	}
	return u.Host, nil
}

// loopbackAuthorize is the person's part of the authorization code grant:
// it shows the authorization URL, then takes the one request the
// authorization server sends the browser back with, at redirect.
func loopbackAuthorize(redirect string, show func(authURL string)) auth.AuthorizeFunc {
	return func(ctx context.Context, authURL string) (*url.URL, error) {
		addr, err := loopbackAddr(redirect)
		if err != nil {
			return nil, err
		}
		want, _ := url.Parse(redirect)
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("listening for the redirect at %s: %w", redirect, err)
		}
		got := make(chan *url.URL, 1)
		var taken atomic.Bool
		srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != want.Path {
				http.NotFound(w, r)
				return
			}
			if !taken.CompareAndSwap(false, true) {
				http.Error(w, "rpcgen inspect: this sign-in is already done", http.StatusConflict)
				return
			}
			back := *r.URL
			back.Scheme, back.Host = want.Scheme, want.Host
			// The browser's answer is written before the redirect is
			// handed on: once it is, the server shuts down.
			fmt.Fprintln(w, "rpcgen inspect: signed in. You may close this tab.")
			got <- &back
		})}
		go srv.Serve(ln)
		defer func() {
			// Shutdown, not Close: the browser gets the whole answer.
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if srv.Shutdown(sctx) != nil {
				srv.Close()
			}
		}()
		show(authURL)
		select {
		case u := <-got:
			return u, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
