package harness_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// retryTiming is the sse-retry timing check as the 0.1.16 suite writes it.
func retryTiming(status, details string) harness.Check {
	c := harness.Check{ID: "client-sse-retry-timing", Name: "ClientRespectsRetryField", Status: status,
		ErrorMessage: "Client reconnected slightly late (737ms instead of 500ms)."}
	if details != "" {
		c.Details = []byte(details)
	}
	return c
}

const slightlyLate = `{"expectedRetryMs":500,"actualDelayMs":737,"minAcceptableMs":450,"maxAcceptableMs":700,` +
	`"tooEarly":false,"slightlyLate":true,"veryLate":false,"withinTolerance":false}`

func TestExcuseLateReconnects(t *testing.T) {
	tests := []struct {
		name    string
		check   harness.Check
		excused bool
	}{
		{"a reconnection late within the suite's acceptable band", retryTiming(harness.StatusWarning, slightlyLate), true},
		{"a reconnection on time", retryTiming(harness.StatusSuccess, strings.Replace(slightlyLate, `"slightlyLate":true`, `"slightlyLate":false`, 1)), false},
		{"a reconnection very late fails as the suite says", retryTiming(harness.StatusFailure, strings.Replace(slightlyLate, `"veryLate":false`, `"veryLate":true`, 1)), false},
		{"a warning that says it came early", retryTiming(harness.StatusWarning, strings.Replace(slightlyLate, `"tooEarly":false`, `"tooEarly":true`, 1)), false},
		{"a warning with a delay past twice the retry", retryTiming(harness.StatusWarning, strings.Replace(slightlyLate, `"actualDelayMs":737`, `"actualDelayMs":1001`, 1)), false},
		{"a warning without the measurements", retryTiming(harness.StatusWarning, ""), false},
		{"a warning whose measurements lack a field", retryTiming(harness.StatusWarning, `{"expectedRetryMs":500,"actualDelayMs":737}`), false},
		{"another check's warning", harness.Check{ID: "x", Name: "ClientSendsLastEventId", Status: harness.StatusWarning, Details: []byte(slightlyLate)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok := harness.Check{ID: "client-sse-graceful-reconnect", Name: "ClientGracefulReconnect", Status: harness.StatusSuccess}
			kept, excused := harness.ExcuseLateReconnects([]harness.Scenario{
				{Name: "sse-retry", Checks: []harness.Check{ok, tt.check}}, scenario("tools_call", "SUCCESS"),
			})
			require.Len(t, kept, 2)
			assert.Equal(t, []harness.Check{check("tools_call", "SUCCESS", "msg")}, kept[1].Checks, "other scenarios are untouched")
			if !tt.excused {
				assert.Equal(t, []harness.Check{ok, tt.check}, kept[0].Checks)
				assert.Empty(t, excused)
				return
			}
			assert.Equal(t, []harness.Check{ok}, kept[0].Checks)
			require.Len(t, excused, 1)
			assert.Equal(t, "sse-retry:ClientRespectsRetryField", excused[0].Scenario)
			assert.Contains(t, excused[0].Excuse, "came back 737 ms after the 500 ms the server asked for")
		})
	}
}

func TestJudgeClientLegStaysGreenWithAReconnectionLateOnABusyMachine(t *testing.T) {
	s := harness.Scenario{Name: "sse-retry", Checks: []harness.Check{
		{ID: "client-sse-graceful-reconnect", Name: "ClientGracefulReconnect", Status: harness.StatusSuccess},
		retryTiming(harness.StatusWarning, slightlyLate),
	}}
	req := harness.Requirements{Scored: []string{"sse-retry"}}
	// The CLI of a --suite run exits 1 for the warning.
	r := harness.JudgeClientLeg([]harness.Scenario{s}, req, harness.ClientLeg{Suite: "all"}, 1)
	assert.True(t, r.Green(true), r.Lines())
	assert.Contains(t, strings.Join(r.Lines(), "\n"), "(excused) WARN  sse-retry:ClientRespectsRetryField")

	s.Checks[1] = retryTiming(harness.StatusFailure, strings.Replace(slightlyLate, `"veryLate":false`, `"veryLate":true`, 1))
	r = harness.JudgeClientLeg([]harness.Scenario{s}, req, harness.ClientLeg{Suite: "all"}, 1)
	assert.False(t, r.Green(true), "a very late reconnection fails")
}

func TestExitWithoutSolo(t *testing.T) {
	late := harness.Scenario{Name: "sse-retry", Checks: []harness.Check{retryTiming(harness.StatusFailure, slightlyLate)}}
	tests := []struct {
		name      string
		scenarios []harness.Scenario
		exit      int
		want      int
	}{
		{"only the solo scenario failed", []harness.Scenario{late, scenario("tools_call", "SUCCESS")}, 1, 0},
		{"another scenario failed too", []harness.Scenario{late, scenario("tools_call", "FAILURE")}, 1, 1},
		{"another scenario warned", []harness.Scenario{late, scenario("tools_call", "WARNING")}, 1, 1},
		{"nothing failed, yet the CLI did: it stays for the cross-check", []harness.Scenario{scenario("sse-retry", "SUCCESS"), scenario("tools_call", "SUCCESS")}, 1, 1},
		{"all passed", []harness.Scenario{scenario("sse-retry", "SUCCESS")}, 0, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, harness.ExitWithoutSolo(tt.scenarios, tt.exit), tt.name)
	}
}
