package inspect_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/cmd/rpcgen/internal/inspect"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

func TestSessionShowsTheServerAndTheEra(t *testing.T) {
	tests := []struct {
		versions  []string
		version   string
		stateless bool
	}{
		{nil, "2026-07-28", true},
		{[]string{"2025-11-25"}, "2025-11-25", false},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			c := pageClient(t, start(t, greeter(), tt.versions...))
			var s inspect.Session
			c.json("GET", "/api/session", "", http.StatusOK, &s)
			assert.Equal(t, "test", s.Target)
			assert.Equal(t, tt.version, s.ProtocolVersion)
			assert.Equal(t, tt.stateless, s.Stateless)
			assert.Equal(t, "greeter", s.ServerInfo.Name)
			assert.Equal(t, "Say hello.", s.Instructions)
			require.NotNil(t, s.Capabilities)
			assert.NotNil(t, s.Capabilities.Tools)
		})
	}
}

func TestToolCallIsCheckedAgainstItsOutputSchema(t *testing.T) {
	tests := []struct {
		tool     string
		server   mcp.ClientTransport
		pointers []string
	}{
		{"greet", greeter(), nil},
		{"bad_greet", brokenServer(0), []string{"/structuredContent/greeting"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			c := pageClient(t, start(t, tt.server, "2025-06-18"))
			var list struct{ Tools []mcp.Tool }
			c.json("GET", "/api/tools", "", http.StatusOK, &list)
			require.NotEmpty(t, list.Tools)
			var res inspect.CallResult
			c.json("POST", "/api/tools/call", `{"name":"`+tt.tool+`","arguments":{"name":"Ada"}}`, http.StatusOK, &res)
			require.NotNil(t, res.Result)
			var pointers []string
			for _, f := range res.OutputFindings {
				pointers = append(pointers, f.Pointer)
				assert.NotEmpty(t, f.Reason)
			}
			assert.Equal(t, tt.pointers, pointers)
		})
	}
}

func TestCallErrorsComeBackAsTheServerSentThem(t *testing.T) {
	c := pageClient(t, start(t, greeter(), "2025-11-25"))
	var res struct{ Error struct{ Code int } }
	c.json("POST", "/api/prompts/get", `{"name":"none"}`, http.StatusBadGateway, &res)
	assert.NotZero(t, res.Error.Code)

	c.json("POST", "/api/logging", `{"level":"loudest"}`, http.StatusBadGateway, &res)

	var bad struct{ Message string }
	c.json("POST", "/api/tools/call", `{"name":`, http.StatusBadRequest, &bad)
	assert.Contains(t, bad.Message, "request body")
	c.json("POST", "/api/asks/x", `{}`, http.StatusBadRequest, &bad)
	assert.Contains(t, bad.Message, "not a number")
	c.json("POST", "/api/logging", `[`, http.StatusBadRequest, &bad)
	c.json("POST", "/api/asks/1", `[`, http.StatusBadRequest, &bad)
	c.json("POST", "/api/prompts/get", `[`, http.StatusBadRequest, &bad)
}

func TestAListTheServerRefusesIsItsError(t *testing.T) {
	c := pageClient(t, start(t, brokenServer(0), "2025-06-18"))
	var res struct{ Error struct{ Code int } }
	c.json("GET", "/api/prompts", "", http.StatusBadGateway, &res)
	assert.Equal(t, -32601, res.Error.Code)
}

func TestLoggingLevelIsSet(t *testing.T) {
	c := pageClient(t, start(t, everythingStdio(t), "2025-11-25"))
	var ok struct{}
	c.json("POST", "/api/logging", `{"level":"debug"}`, http.StatusOK, &ok)
}

func TestEveryMessageIsShownLiveWithTheValidatorsFindings(t *testing.T) {
	c := pageClient(t, start(t, brokenServer(0), "2025-06-18"))
	ev := c.events()
	var first inspect.Message
	require.NoError(t, json.Unmarshal(ev.until(t, func(e event) bool { return e.Type == "message" }).Data, &first))
	assert.Equal(t, 1, first.Seq)
	assert.Equal(t, "client", first.From)
	assert.Equal(t, "initialize", first.Method)
	assert.Empty(t, first.Findings)

	var answer inspect.Message
	require.NoError(t, json.Unmarshal(ev.until(t, func(e event) bool { return e.Type == "message" }).Data, &answer))
	assert.Equal(t, "server", answer.From)
	assert.Equal(t, "response", answer.Kind)
	assert.Equal(t, "initialize", answer.Method, "a response is labelled with its request's method")

	var planted inspect.Message
	require.NoError(t, json.Unmarshal(ev.until(t, func(e event) bool {
		return e.Type == "message" && strings.Contains(string(e.Data), `"notifications/message"`)
	}).Data, &planted))
	require.Len(t, planted.Findings, 1)
	assert.Equal(t, plantedPointer, planted.Findings[0].Pointer)
	assert.Equal(t, -32602, planted.Findings[0].Code)
	assert.NotEmpty(t, planted.Findings[0].Reason)
}

func TestServerRequestsWaitForThePersonsAnswer(t *testing.T) {
	c := pageClient(t, start(t, greeter(), "2025-11-25"))
	ev := c.events()
	type call struct {
		res  inspect.CallResult
		code int
	}
	done := make(chan call, 1)
	go func() {
		resp := c.do("POST", "/api/tools/call", `{"name":"ask_name","arguments":{}}`)
		var out call
		out.code = resp.StatusCode
		json.NewDecoder(resp.Body).Decode(&out.res)
		done <- out
	}()
	var ask inspect.Ask
	require.NoError(t, json.Unmarshal(ev.until(t, func(e event) bool { return e.Type == "ask" }).Data, &ask))
	assert.Equal(t, "elicitation/create", ask.Method)
	assert.Contains(t, string(ask.Params), `"requestedSchema"`)

	path := fmt.Sprintf("/api/asks/%d", ask.ID)
	var refused struct{ Message string }
	c.json("POST", path, `{}`, http.StatusBadRequest, &refused)
	assert.Contains(t, refused.Message, "needs a result or a refusal")
	c.json("POST", path, `{"result":{"action":5}}`, http.StatusBadRequest, &refused)
	assert.Contains(t, refused.Message, "not a result of elicitation/create")

	var ok struct{}
	c.json("POST", path, `{"result":{"action":"accept","content":{"name":"Ada"}}}`, http.StatusOK, &ok)
	c.json("POST", path, `{"result":{"action":"accept","content":{"name":"Ada"}}}`, http.StatusNotFound, &refused)

	out := <-done
	require.Equal(t, http.StatusOK, out.code)
	b, _ := json.Marshal(out.res.Result.Content)
	assert.Contains(t, string(b), `Ada`)
}

func TestARefusedServerRequestFailsTheServersCall(t *testing.T) {
	c := pageClient(t, start(t, greeter(), "2025-11-25"))
	ev := c.events()
	done := make(chan []byte, 1)
	go func() {
		resp := c.do("POST", "/api/tools/call", `{"name":"ask_name","arguments":{}}`)
		var b json.RawMessage
		json.NewDecoder(resp.Body).Decode(&b)
		done <- b
	}()
	var ask inspect.Ask
	require.NoError(t, json.Unmarshal(ev.until(t, func(e event) bool { return e.Type == "ask" }).Data, &ask))
	var ok struct{}
	c.json("POST", fmt.Sprintf("/api/asks/%d", ask.ID), `{"refuse":"not now"}`, http.StatusOK, &ok)
	var answered struct{ Refused bool }
	require.NoError(t, json.Unmarshal(ev.until(t, func(e event) bool { return e.Type == "answered" }).Data, &answered))
	assert.True(t, answered.Refused)
	<-done
	// The server saw the refusal as the JSON-RPC error answering its request.
	refusal := ev.until(t, func(e event) bool {
		return e.Type == "message" && strings.Contains(string(e.Data), `"not now"`)
	})
	assert.Contains(t, string(refusal.Data), `"from":"client"`)
}

func TestPromptsResourcesTemplatesAndCompletion(t *testing.T) {
	for _, versions := range [][]string{nil, {"2025-11-25"}} {
		t.Run(fmt.Sprint(versions), func(t *testing.T) {
			c := pageClient(t, start(t, everythingStdio(t), versions...))
			var prompts struct{ Prompts []mcp.Prompt }
			c.json("GET", "/api/prompts", "", http.StatusOK, &prompts)
			assert.NotEmpty(t, prompts.Prompts)
			var resources struct{ Resources []mcp.Resource }
			c.json("GET", "/api/resources", "", http.StatusOK, &resources)
			assert.NotEmpty(t, resources.Resources)
			var templates struct{ ResourceTemplates []mcp.ResourceTemplate }
			c.json("GET", "/api/templates", "", http.StatusOK, &templates)
			assert.NotEmpty(t, templates.ResourceTemplates)

			var prompt struct{ Result mcp.GetPromptResult }
			c.json("POST", "/api/prompts/get", `{"name":"test_prompt_with_arguments","arguments":{"arg1":"a","arg2":"b"}}`, http.StatusOK, &prompt)
			assert.NotEmpty(t, prompt.Result.Messages)
			var read struct{ Result mcp.ReadResourceResult }
			c.json("POST", "/api/resources/read", `{"uri":"test://static-text"}`, http.StatusOK, &read)
			assert.NotEmpty(t, read.Result.Contents)
			var done struct{ Result mcp.CompleteResult }
			c.json("POST", "/api/complete", `{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"pa"}}`, http.StatusOK, &done)
			assert.Equal(t, []string{"paris", "park"}, done.Result.Completion.Values)
		})
	}
}

func TestLiveStreamResumesAfterTheLastEventSeen(t *testing.T) {
	c := pageClient(t, start(t, greeter(), "2025-11-25"))
	// initialize, its answer and notifications/initialized are events 1-3.
	tests := []struct {
		name   string
		header string
		query  string
		first  string
	}{
		{"from the start", "", "", "id: 1"},
		{"after", "", "?after=2", "id: 3"},
		{"Last-Event-ID", "1", "", "id: 2"},
		{"past the end", "", "?after=99", "id: 4"},
		{"negative", "", "?after=-5", "id: 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", c.base+"/api/events"+tt.query, nil)
			require.NoError(t, err)
			req.Header.Set(inspect.TokenHeader, c.token)
			if tt.header != "" {
				req.Header.Set("Last-Event-ID", tt.header)
			}
			ctx, cancel := context.WithTimeout(context.Background(), bound)
			defer cancel()
			resp, err := http.DefaultClient.Do(req.WithContext(ctx))
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
			lines := make(chan string, 1)
			go func() {
				sc := bufio.NewScanner(resp.Body)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "id: ") {
						lines <- sc.Text()
						return
					}
				}
			}()
			if tt.first == "id: 4" {
				// The next event comes once the stream is open.
				var list struct{ Tools []mcp.Tool }
				c.json("GET", "/api/tools", "", http.StatusOK, &list)
			}
			select {
			case got := <-lines:
				assert.Equal(t, tt.first, got)
			case <-ctx.Done():
				t.Fatal("no event")
			}
		})
	}
}

func TestTheEndOfTheSessionIsShownLive(t *testing.T) {
	srv, cli := rpc.NewPipe()
	s := mcp.NewServer(&mcp.Implementation{Name: "short-lived", Version: "1"}, nil)
	go s.Serve(context.Background(), srv)
	in := start(t, &mcp.StreamTransport{Transport: cli}, "2025-11-25")
	ev := pageClient(t, in).events()
	srv.Close()
	ev.until(t, func(e event) bool { return e.Type == "closed" })
	assert.NoError(t, in.Close())
	assert.NoError(t, in.Close(), "a second Close")
}

func TestStartNeedsAServer(t *testing.T) {
	_, err := inspect.Start(context.Background(), inspect.Config{})
	assert.ErrorContains(t, err, "no server to inspect")
}
