package app

import (
	"context"
	"fmt"

	"github.com/schemarpc/schemarpc/mcp"
)

// addPrompts registers the prompts the conformance scenarios get, by their exact names.
func addPrompts(s *mcp.Server) error {
	required := true
	prompts := []struct {
		prompt  mcp.Prompt
		handler mcp.PromptHandler
	}{
		{simplePrompt, simplePromptHandler},
		{mcp.Prompt{Name: "test_prompt_with_arguments", Description: "A prompt that uses two arguments.", Arguments: []mcp.PromptArgument{
			{Name: "arg1", Description: "First test argument", Required: &required},
			{Name: "arg2", Description: "Second test argument", Required: &required},
		}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			a := req.Params.Arguments
			return messages(mcp.Text(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"]))), nil
		}},
		{mcp.Prompt{Name: "test_prompt_with_embedded_resource", Description: "A prompt that embeds a resource.", Arguments: []mcp.PromptArgument{
			{Name: "resourceUri", Description: "URI of the resource to embed", Required: &required},
		}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			uri := req.Params.Arguments["resourceUri"]
			return messages(
				mcp.Embedded(mcp.TextResource(uri, "text/plain", "Embedded resource content for testing.")),
				mcp.Text("Please process the embedded resource above."),
			), nil
		}},
		{mcp.Prompt{Name: "test_prompt_with_image", Description: "A prompt that carries an image."},
			func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return messages(imageBlock(), mcp.Text("Please analyze the image above.")), nil
			}},
		{inputRequiredPrompt, irPrompt},
	}
	for _, p := range prompts {
		if err := s.AddPrompt(&p.prompt, p.handler); err != nil {
			return err
		}
	}
	return nil
}

// simplePrompt is the prompt without arguments; test_trigger_prompt_change registers
// it again.
var simplePrompt = mcp.Prompt{Name: "test_simple_prompt", Description: "A prompt without arguments."}

func simplePromptHandler(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return messages(mcp.Text("This is a simple prompt for testing.")), nil
}

// messages makes a prompt result of user messages, one per block.
func messages(blocks ...mcp.ContentBlock) *mcp.GetPromptResult {
	out := &mcp.GetPromptResult{}
	for _, b := range blocks {
		out.Messages = append(out.Messages, mcp.PromptMessage{Role: "user", Content: b})
	}
	return out
}
