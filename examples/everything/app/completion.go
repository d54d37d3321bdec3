package app

import (
	"context"
	"strings"

	"github.com/schemarpc/schemarpc/mcp"
)

// suggestions are the values offered for each prompt argument and template variable.
var suggestions = map[string][]string{
	"arg1":        {"test", "testValue1", "paris", "park"},
	"arg2":        {"testValue2", "london", "lima"},
	"resourceUri": {uriStaticText, uriStaticBinary, uriWatched},
	"id":          {"1", "2", "3", "123"},
}

// complete offers the suggestions that start with what the user typed so far, for the
// arguments of the registered prompts and the variable of the registered template.
func complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	known := false
	if p, ok := req.Params.Ref.AsRefPrompt(); ok {
		known = strings.HasPrefix(p.Name, "test_prompt_")
	} else if r, ok := req.Params.Ref.AsRefResource(); ok {
		known = r.URI == uriTemplate
	}
	res := &mcp.CompleteResult{}
	if !known {
		return res, nil
	}
	for _, v := range suggestions[req.Params.Argument.Name] {
		if strings.HasPrefix(v, req.Params.Argument.Value) {
			res.Completion.Values = append(res.Completion.Values, v)
		}
	}
	return res, nil
}
