package rpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
)

// HTTPClient calls a JSON-RPC server over HTTP POST, one HTTP request per
// call, notification or batch. It is safe for concurrent use.
type HTTPClient struct {
	url    string
	hc     *http.Client
	header http.Header
	limit  int
	nextID atomic.Int64
}

// HTTPError reports an HTTP status other than the ones JSON-RPC over HTTP
// uses (200 with a body, 204 without).
type HTTPError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Body is the start of the response body (at most 1 KiB).
	Body string
}

// Error gives the status and the start of the body.
func (e *HTTPError) Error() string {
	return fmt.Sprintf("rpc: HTTP %d: %s", e.StatusCode, e.Body)
}

// NewHTTPClient returns a client posting to url with hc (nil means
// http.DefaultClient). Options: [WithMaxMessageSize] bounds the response
// body, [WithHeader] adds request headers.
func NewHTTPClient(url string, hc *http.Client, opts ...Option) *HTTPClient {
	o := buildOptions(opts)
	if hc == nil {
		hc = http.DefaultClient
	}
	return &HTTPClient{url: url, hc: hc, header: http.Header(o.header), limit: o.maxMessageSize}
}

// WithHeader adds a header to every request an [HTTPClient] sends.
func WithHeader(key, value string) Option {
	return func(o *options) {
		if o.header == nil {
			o.header = make(map[string][]string)
		}
		http.Header(o.header).Add(key, value)
	}
}

// Call sends a request and decodes its result into result (nil discards
// it). A JSON-RPC error is returned as an *Error, an unexpected HTTP status
// as an *HTTPError.
func (c *HTTPClient) Call(ctx context.Context, method string, params, result any) error {
	id := Int64ID(c.nextID.Add(1))
	msg, err := encodeRequest(id, method, params)
	if err != nil {
		return err
	}
	body, err := c.post(ctx, msg)
	if err != nil {
		return err
	}
	if body == nil {
		return errors.New("rpc: the server sent no response to a request")
	}
	resps, err := decodeResponses(body)
	if err != nil {
		return err
	}
	if len(resps) != 1 {
		return fmt.Errorf("rpc: expected one response, got %d", len(resps))
	}
	r := resps[0]
	if r.ID != id && !(r.Error != nil && r.ID.IsNull()) {
		return fmt.Errorf("rpc: response id %s does not match request id %s", r.ID, id)
	}
	return r.decode(result)
}

// Notify sends a notification.
func (c *HTTPClient) Notify(ctx context.Context, method string, params any) error {
	msg, err := encodeRequest(ID{}, method, params)
	if err != nil {
		return err
	}
	_, err = c.post(ctx, msg)
	return err
}

// Batch sends the calls as one batch and stores each outcome in its call.
// When the server answers the whole batch with one error (for example, too
// many elements), every request gets that error.
func (c *HTTPClient) Batch(ctx context.Context, calls []*BatchCall) error {
	if len(calls) == 0 {
		return errors.New("rpc: empty batch")
	}
	msg, ids, err := encodeBatch(calls, func() ID { return Int64ID(c.nextID.Add(1)) })
	if err != nil {
		return err
	}
	body, err := c.post(ctx, msg)
	if err != nil {
		return err
	}
	var resps []*Response
	if body != nil {
		if resps, err = decodeResponses(body); err != nil {
			return err
		}
	}
	byID := make(map[ID]*Response, len(resps))
	var whole *Error
	for _, r := range resps {
		byID[r.ID] = r
		if r.Error != nil && r.ID.IsNull() {
			whole = r.Error
		}
	}
	for i, call := range calls {
		if call.Notify {
			continue
		}
		r, ok := byID[ids[i]]
		switch {
		case ok:
			call.Err = r.decode(call.Result)
		case whole != nil:
			call.Err = whole
		default:
			call.Err = fmt.Errorf("rpc: no response for request %s", ids[i])
		}
	}
	return nil
}

// post sends one message and returns the response body, nil for 204.
func (c *HTTPClient) post(ctx context.Context, msg []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(msg))
	if err != nil {
		return nil, err
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		body, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.limit)+1))
		if err != nil {
			return nil, err
		}
		if len(body) > c.limit {
			return nil, &MessageTooLargeError{Limit: c.limit}
		}
		if len(bytes.TrimSpace(body)) == 0 {
			return nil, nil
		}
		return body, nil
	case http.StatusNoContent, http.StatusAccepted:
		return nil, nil
	case http.StatusTooManyRequests:
		// A JSON-RPC server answers a lone refused request with 429 and
		// the refusal in the body: the call returns it as an *Error, with
		// its retry hint.
		body, _ := io.ReadAll(io.LimitReader(resp.Body, int64(c.limit)+1))
		if _, limited := ResponseRetryAfter(body); limited {
			return body, nil
		}
		return nil, &HTTPError{StatusCode: resp.StatusCode, Body: string(bytes.TrimSpace(body[:min(len(body), 1024)]))}
	default:
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return nil, &HTTPError{StatusCode: resp.StatusCode, Body: string(bytes.TrimSpace(snippet))}
	}
}

// decodeResponses parses a body holding one response or an array of them.
func decodeResponses(body []byte) ([]*Response, error) {
	items, _, perr := decodeFrame(body, DefaultMaxDepth)
	if perr != nil {
		return nil, fmt.Errorf("rpc: malformed response: %s", perr.Message)
	}
	out := make([]*Response, 0, len(items))
	for _, it := range items {
		switch {
		case it.resp != nil:
			out = append(out, it.resp)
		case it.dropped != nil:
			return nil, fmt.Errorf("rpc: malformed response: %v", it.dropped)
		default:
			return nil, errors.New("rpc: the server sent something other than a response")
		}
	}
	return out, nil
}
