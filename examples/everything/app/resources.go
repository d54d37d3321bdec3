package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
)

// staticCache is the caching hint of the resources whose content never changes: any
// client may reuse a read for an hour (2026-07-28 ttlMs and cacheScope). The watched
// resource keeps the server's default, which says not to reuse it.
var staticCache = mcp.WithCache(mcp.CacheHint{TTL: time.Hour, Scope: mcp.CachePublic})

// addResources registers the resources and the template the conformance scenarios read.
func addResources(s *mcp.Server, w *watched) error {
	resources := []struct {
		resource mcp.Resource
		handler  mcp.ResourceHandler
		opts     []mcp.RegisterOption
	}{
		{mcp.Resource{URI: uriStaticText, Name: "static-text", Description: "A text resource that never changes.", MIMEType: "text/plain"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return contents(mcp.TextResource(uriStaticText, "text/plain", textStatic)), nil
			}, []mcp.RegisterOption{staticCache}},
		{mcp.Resource{URI: uriStaticBinary, Name: "static-binary", Description: "A binary resource: a 1×1 PNG image.", MIMEType: "image/png"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				png, err := base64.StdEncoding.DecodeString(pngBase64)
				if err != nil {
					return nil, err
				}
				return contents(mcp.BlobResource(uriStaticBinary, "image/png", png)), nil
			}, []mcp.RegisterOption{staticCache}},
		{mcp.Resource{URI: uriWatched, Name: "watched-resource", Description: "A resource that changes now and then; subscribe to hear about it.", MIMEType: "text/plain"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return contents(mcp.TextResource(uriWatched, "text/plain", fmt.Sprintf("Watched resource content, version %d", w.version.Load()))), nil
			}, nil},
	}
	for _, r := range resources {
		if err := s.AddResource(&r.resource, r.handler, r.opts...); err != nil {
			return err
		}
	}
	return s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: uriTemplate, Name: "template-data", Description: "Data for any id.", MIMEType: "application/json",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		id := mcp.TemplateVars(ctx)["id"]
		text := fmt.Sprintf(`{"id":%q,"templateTest":true,"data":"Data for ID: %s"}`, id, id)
		return contents(mcp.TextResource(req.Params.URI, "application/json", text)), nil
	}, staticCache)
}

func contents(c mcp.AnyResourceContents) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{c}}
}

// watched is the state of test://watched-resource: a version that run increments.
type watched struct {
	version atomic.Int64
}

// run changes the watched resource every interval and tells subscribed sessions, until
// ctx ends.
func (w *watched) run(ctx context.Context, s *mcp.Server, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.version.Add(1)
			s.ResourceUpdated(ctx, uriWatched)
		}
	}
}
