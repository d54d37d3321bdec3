package rpc_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestIDsComeBackByteForByte(t *testing.T) {
	ids := []string{`9007199254740993`, `123456789012345678901234567890`, `-0`, `1e3`, `1.5`, `"\u00e9"`, `"é"`, `""`, `0`, `-12E-7`, `null`}
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		for _, id := range ids {
			got := p.call(t, `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":`+id+`}`)
			assert.Equal(t, `{"jsonrpc":"2.0","id":`+id+`,"result":3}`, got)
		}
	})
}

func TestParseErrorsAnswerMinus32700WithNullID(t *testing.T) {
	cases := map[string]string{
		"not JSON":            `{not json`,
		"truncated":           `{"jsonrpc":"2.0","method":"add"`,
		"trailing data":       `{"jsonrpc":"2.0","method":"add","id":1} x`,
		"two values":          `{"jsonrpc":"2.0","method":"add","id":1}{"jsonrpc":"2.0","method":"add","id":2}`,
		"invalid UTF-8":       "{\"jsonrpc\":\"2.0\",\"method\":\"echo\",\"params\":[\"\xff\"],\"id\":1}",
		"lone surrogate":      `{"jsonrpc":"2.0","method":"echo","params":["\ud800"],"id":1}`,
		"duplicate key":       `{"jsonrpc":"2.0","method":"echo","method":"add","id":1}`,
		"duplicate escaped":   `{"jsonrpc":"2.0","method":"echo","\u006dethod":"add","id":1}`,
		"duplicate in params": `{"jsonrpc":"2.0","method":"echo","params":{"a":1,"a":2},"id":1}`,
		"too deep":            `{"jsonrpc":"2.0","method":"echo","params":` + deep(1000) + `,"id":1}`,
		"bad escape":          `{"jsonrpc":"2.0","method":"e\qcho","id":1}`,
		"leading zero":        `{"jsonrpc":"2.0","method":"echo","id":01}`,
		"NaN":                 `{"jsonrpc":"2.0","method":"echo","params":[NaN],"id":1}`,
		"control character":   "{\"jsonrpc\":\"2.0\",\"method\":\"ec\x01ho\",\"id\":1}",
	}
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		for name, raw := range cases {
			t.Run(name, func(t *testing.T) {
				r := decodeReply(t, p.call(t, raw))
				assert.Equal(t, "null", string(r.ID))
				require.NotNil(t, r.Error)
				assert.Equal(t, rpc.CodeParseError, r.Error.Code, r.Error.Message)
			})
		}
		// The connection lives on.
		assert.Contains(t, p.call(t, `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`), `"result":3`)
	})
}

func TestDepthLimitIsExact(t *testing.T) {
	// The message object is level 1, params level 2: 998 more arrays inside
	// params reach 1000 levels in all.
	at := `{"jsonrpc":"2.0","method":"echo","params":` + deep(999) + `,"id":1}`
	past := `{"jsonrpc":"2.0","method":"echo","params":` + deep(1000) + `,"id":1}`
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		r := decodeReply(t, p.call(t, at))
		assert.Nil(t, r.Error)
		r = decodeReply(t, p.call(t, past))
		require.NotNil(t, r.Error)
		assert.Equal(t, rpc.CodeParseError, r.Error.Code)
		assert.Contains(t, r.Error.Message, "deeper than 1000")
	})
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		r := decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"echo","params":`+deep(10)+`,"id":1}`))
		assert.Nil(t, r.Error)
		r = decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"echo","params":`+deep(11)+`,"id":1}`))
		require.NotNil(t, r.Error)
		assert.Equal(t, rpc.CodeParseError, r.Error.Code)
	}, rpc.WithMaxDepth(11))
}

func TestInvalidRequestsAnswerMinus32600(t *testing.T) {
	cases := []struct {
		name, raw, id, location string
	}{
		{"wrong version", `{"jsonrpc":"1.0","method":"add","id":7}`, `7`, "/jsonrpc"},
		{"version as number", `{"jsonrpc":2.0,"method":"add","id":7}`, `7`, "/jsonrpc"},
		{"missing version", `{"method":"add","id":7}`, `7`, ""},
		{"method not a string", `{"jsonrpc":"2.0","method":1,"params":"bar"}`, `null`, "/method"},
		{"params a string", `{"jsonrpc":"2.0","method":"add","params":"bar","id":"x"}`, `"x"`, "/params"},
		{"params null", `{"jsonrpc":"2.0","method":"add","params":null,"id":"x"}`, `"x"`, "/params"},
		{"id an object", `{"jsonrpc":"2.0","method":"add","id":{}}`, `null`, "/id"},
		{"id an array", `{"jsonrpc":"2.0","method":"add","id":[1]}`, `null`, "/id"},
		{"id a boolean", `{"jsonrpc":"2.0","method":"add","id":true}`, `null`, "/id"},
		{"case-variant key", `{"jsonrpc":"2.0","method":"add","Method":"echo","id":3}`, `3`, ""},
		{"extra member", `{"jsonrpc":"2.0","method":"add","id":3,"extra":true}`, `3`, ""},
		{"no method", `{"jsonrpc":"2.0","id":9}`, `9`, ""},
		{"not an object", `"hello"`, `null`, ""},
		{"a number", `42`, `null`, ""},
	}
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := decodeReply(t, p.call(t, c.raw))
				assert.Equal(t, c.id, string(r.ID))
				require.NotNil(t, r.Error)
				assert.Equal(t, rpc.CodeInvalidRequest, r.Error.Code, r.Error.Message)
				assert.NotContains(t, r.Error.Message, "\n")
				if c.location != "" {
					var data rpc.ValidationData
					require.NoError(t, json.Unmarshal(r.Error.Data, &data), "data: %s", r.Error.Data)
					require.NotEmpty(t, data.Errors)
					assert.Equal(t, c.location, data.Errors[0].InstanceLocation)
					assert.Contains(t, data.Errors[0].KeywordLocation, "https://schemarpc.dev/schema/jsonrpc/")
					assert.Contains(t, r.Error.Message, c.location+": ")
				}
			})
		}
	})
}

func TestInvalidParamsNameTheLocation(t *testing.T) {
	cases := []struct {
		name, params, location, param, message string
	}{
		{"wrong type by name", `{"a":1,"b":"two"}`, "/b", "", "not number"},
		{"wrong type by position", `[1,"two"]`, "/1", "b", "not number"},
		{"missing member", `{"a":1}`, "", "", "missing required member \"b\""},
		{"missing by position", `[1]`, "", "", "missing required member \"b\""},
		{"absent params", ``, "", "", "missing required members \"a\", \"b\""},
		{"empty array", `[]`, "", "", "missing required members \"a\", \"b\""},
		{"extra member", `{"a":1,"b":2,"c":3}`, "", "", "member \"c\" is not allowed here"},
		{"too many by position", `[1,2,3]`, "", "", "at most 2 positional params"},
	}
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				msg := `{"jsonrpc":"2.0","method":"add","id":5}`
				if c.params != "" {
					msg = `{"jsonrpc":"2.0","method":"add","params":` + c.params + `,"id":5}`
				}
				r := decodeReply(t, p.call(t, msg))
				assert.Equal(t, "5", string(r.ID))
				require.NotNil(t, r.Error)
				assert.Equal(t, rpc.CodeInvalidParams, r.Error.Code)
				assert.Contains(t, r.Error.Message, c.message)
				if c.location != "" {
					named := c.location
					if c.param != "" {
						named += " (" + c.param + ")" // by position and by name
					}
					assert.Contains(t, r.Error.Message, named+": ")
					var data rpc.ValidationData
					require.NoError(t, json.Unmarshal(r.Error.Data, &data))
					assert.Equal(t, c.location, data.Errors[0].InstanceLocation)
					assert.Equal(t, c.param, data.Errors[0].Param)
					assert.Equal(t, testSchemaURL+"#/$defs/add/properties/b/type", data.Errors[0].KeywordLocation)
				}
			})
		}
	})
}

func TestInvalidParamsDataIsBounded(t *testing.T) {
	var members []string
	for i := range 25 {
		members = append(members, fmt.Sprintf(`"k%02d":"x"`, i))
	}
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		r := decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"wide","params":{`+strings.Join(members, ",")+`},"id":1}`))
		require.NotNil(t, r.Error)
		assert.Equal(t, rpc.CodeInvalidParams, r.Error.Code)
		var data rpc.ValidationData
		require.NoError(t, json.Unmarshal(r.Error.Data, &data))
		assert.Len(t, data.Errors, rpc.MaxViolations)
		assert.True(t, data.Truncated)
		assert.Contains(t, r.Error.Message, "(and 24 more)")

		r = decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"wide","params":{"a":"x"},"id":1}`))
		require.NoError(t, json.Unmarshal(r.Error.Data, &data))
		assert.Len(t, data.Errors, 1)
		assert.False(t, data.Truncated)
	})
}

func TestInvalidParamsPickTheBestAnyOfBranch(t *testing.T) {
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		r := decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"shape","params":{"shape":{"kind":"square","side":"wide"}},"id":1}`))
		require.NotNil(t, r.Error)
		assert.Equal(t, "invalid params: /shape/side: is string, not number", r.Error.Message)

		r = decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"shape","params":{"shape":{"kind":"hexagon"}},"id":1}`))
		require.NotNil(t, r.Error)
		assert.Contains(t, r.Error.Message, "/shape: ")
	})
}

func TestMethodNotFound(t *testing.T) {
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		r := decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"nope","id":"n"}`))
		assert.Equal(t, `"n"`, string(r.ID))
		assert.Equal(t, rpc.CodeMethodNotFound, r.Error.Code)
		assert.Equal(t, `method not found: "nope"`, r.Error.Message)
	})
}

func TestNotificationsAreNeverAnswered(t *testing.T) {
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		for _, raw := range []string{
			`{"jsonrpc":"2.0","method":"tick"}`,
			`{"jsonrpc":"2.0","method":"nope"}`,
			`{"jsonrpc":"2.0","method":"add","params":{"a":"x"}}`,
			`{"jsonrpc":"2.0","method":"fail"}`,
			`{"jsonrpc":"2.0","method":"secret"}`,
			`{"jsonrpc":"2.0","method":"panic"}`,
			`{"jsonrpc":"2.0","method":"unencodable"}`,
		} {
			p.silent(t, raw)
		}
	})
}

func TestNotificationMethodCalledAsRequestAnswersNull(t *testing.T) {
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":null}`, p.call(t, `{"jsonrpc":"2.0","method":"tick","id":1}`))
	})
}

func TestResponsesSentToTheServerAreIgnored(t *testing.T) {
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		p.silent(t, `{"jsonrpc":"2.0","result":1,"id":1}`)
		p.silent(t, `{"jsonrpc":"2.0","error":{"code":1,"message":"x"},"id":null}`)
		p.silent(t, `{"jsonrpc":"2.0","result":1,"error":{"code":1,"message":"x"},"id":1}`)
		p.silent(t, `[{"jsonrpc":"2.0","result":1,"id":1},{"jsonrpc":"2.0","result":2,"id":2}]`)
	})
}

func TestErrorsFromHandlers(t *testing.T) {
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		t.Run("our error type is sent exactly", func(t *testing.T) {
			assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":42,"message":"deliberate failure","data":{"attempt":1}}}`,
				p.call(t, `{"jsonrpc":"2.0","method":"fail","id":1}`))
		})
		t.Run("a wrapped error of our type is sent exactly", func(t *testing.T) {
			assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32050,"message":"backend unavailable"}}`,
				p.call(t, `{"jsonrpc":"2.0","method":"wrapped","id":1}`))
		})
		t.Run("a plain error is a generic -32603", func(t *testing.T) {
			assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}`,
				p.call(t, `{"jsonrpc":"2.0","method":"secret","id":1}`))
		})
		t.Run("a panic is a generic -32603 and the server lives on", func(t *testing.T) {
			for range 3 {
				assert.Equal(t, `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"internal error"}}`,
					p.call(t, `{"jsonrpc":"2.0","method":"panic","id":2}`))
			}
			assert.Contains(t, p.call(t, `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":3}`), `"result":3`)
		})
		t.Run("a result that cannot be encoded is a generic -32603", func(t *testing.T) {
			assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}`,
				p.call(t, `{"jsonrpc":"2.0","method":"unencodable","id":1}`))
		})
	})
}

func TestEchoKeepsParamsExactly(t *testing.T) {
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":{"n":123456789012345678901234567890,"s":"<&>\u00e9","a":[1e3,-0]}}`,
			p.call(t, `{"jsonrpc":"2.0","method":"echo","params":{"n":123456789012345678901234567890, "s":"<&>\u00e9", "a":[1e3,-0]},"id":1}`))
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":null}`, p.call(t, `{"jsonrpc":"2.0","method":"echo","id":1}`))
	})
}

func TestBatches(t *testing.T) {
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		t.Run("answered in request order", func(t *testing.T) {
			var elems []string
			for i := range 50 {
				elems = append(elems, fmt.Sprintf(`{"jsonrpc":"2.0","method":"add","params":[%d,0],"id":%d}`, i, i))
				elems = append(elems, `{"jsonrpc":"2.0","method":"tick"}`)
			}
			rs := decodeBatchReply(t, p.call(t, "["+strings.Join(elems, ",")+"]"))
			require.Len(t, rs, 50)
			for i, r := range rs {
				assert.Equal(t, fmt.Sprint(i), string(r.ID))
				assert.Equal(t, fmt.Sprint(i), string(r.Result))
			}
		})
		t.Run("a panic loses no other element", func(t *testing.T) {
			rs := decodeBatchReply(t, p.call(t, `[{"jsonrpc":"2.0","method":"panic","id":1},{"jsonrpc":"2.0","method":"add","params":[1,1],"id":2}]`))
			require.Len(t, rs, 2)
			assert.Equal(t, rpc.CodeInternalError, rs[0].Error.Code)
			assert.Equal(t, "2", string(rs[1].Result))
		})
	})
}

func TestBatchLimitIsExact(t *testing.T) {
	batch := func(n int) string {
		elems := make([]string, n)
		for i := range elems {
			elems[i] = fmt.Sprintf(`{"jsonrpc":"2.0","method":"add","params":[1,1],"id":%d}`, i)
		}
		return "[" + strings.Join(elems, ",") + "]"
	}
	check := func(t *testing.T, p peer, limit int) {
		assert.Len(t, decodeBatchReply(t, p.call(t, batch(limit))), limit)
		r := decodeReply(t, p.call(t, batch(limit+1)))
		assert.Equal(t, "null", string(r.ID))
		assert.Equal(t, rpc.CodeInvalidRequest, r.Error.Code)
		assert.Contains(t, r.Error.Message, fmt.Sprintf("exceeds the limit of %d", limit))
	}
	t.Run("default", func(t *testing.T) {
		forEachTransport(t, testService(t), func(t *testing.T, p peer) { check(t, p, rpc.DefaultMaxBatch) })
	})
	t.Run("configured", func(t *testing.T) {
		forEachTransport(t, testService(t), func(t *testing.T, p peer) { check(t, p, 3) }, rpc.WithMaxBatch(3))
	})
}

func TestMessageSizeLimitIsExact(t *testing.T) {
	// A message of exactly n bytes: echo with a padded string.
	msg := func(n int) string {
		head, tail := `{"jsonrpc":"2.0","method":"echo","params":["`, `"],"id":1}`
		return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	}
	const limit = 4096
	t.Run("stream", func(t *testing.T) {
		p := newStreamPeer(t, testService(t), rpc.WithMaxMessageSize(limit))
		r := decodeReply(t, p.call(t, msg(limit)))
		assert.Nil(t, r.Error)
		r = decodeReply(t, p.call(t, msg(limit+1)))
		assert.Equal(t, "null", string(r.ID))
		require.NotNil(t, r.Error)
		assert.Equal(t, rpc.CodeInvalidRequest, r.Error.Code)
		assert.Contains(t, r.Error.Message, "exceeds the limit of 4096 bytes")
		// The stream is still in step.
		assert.Contains(t, p.call(t, `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":3}`), `"result":3`)
	})
	t.Run("stream default", func(t *testing.T) {
		p := newStreamPeer(t, testService(t))
		r := decodeReply(t, p.call(t, msg(rpc.DefaultMaxMessageSize)))
		assert.Nil(t, r.Error)
		r = decodeReply(t, p.call(t, msg(rpc.DefaultMaxMessageSize+1)))
		require.NotNil(t, r.Error)
		assert.Equal(t, rpc.CodeInvalidRequest, r.Error.Code)
	})
	t.Run("http", func(t *testing.T) {
		p := newHTTPPeer(t, testService(t), rpc.WithMaxMessageSize(limit)).(*httpPeer)
		status, _ := p.post(t, msg(limit))
		assert.Equal(t, 200, status)
		status, _ = p.post(t, msg(limit+1))
		assert.Equal(t, 413, status)
	})
}

func TestTheSameInputGetsTheSameAnswer(t *testing.T) {
	msgs := []string{
		`{"jsonrpc":"2.0","method":1,"params":"bar","id":{}}`,
		`{"jsonrpc":"2.0","method":"wide","params":{"a":"x","b":"y","c":"z","d":"w"},"id":1}`,
		`{"jsonrpc":"2.0","method":"add","params":{"a":"x","b":"y","c":1},"id":1}`,
	}
	forEachTransport(t, testService(t), func(t *testing.T, p peer) {
		for _, m := range msgs {
			first := p.call(t, m)
			for range 20 {
				require.Equal(t, first, p.call(t, m))
			}
		}
	})
}

func TestTheStreamReportsTheLimitItEnforces(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	conn := rpc.NewConn(rpc.NewStreamTransport(inR, outW, rpc.WithMaxMessageSize(100)), rpc.WithHandler(testService(t)))
	defer conn.Close()
	go io.WriteString(inW, `{"jsonrpc":"2.0","method":"echo","params":["`+strings.Repeat("x", 100)+`"],"id":1}`+"\n")
	line, err := bufio.NewReader(outR).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: message exceeds the limit of 100 bytes"}}`+"\n", line)
}
