package otelcore

import "go.opentelemetry.io/otel/attribute"

// The attribute keys of the OpenTelemetry semantic conventions for RPC,
// JSON-RPC and MCP that the instrumentation records.
const (
	KeyMCPMethod          = attribute.Key("mcp.method.name")
	KeyMCPSession         = attribute.Key("mcp.session.id")
	KeyMCPProtocolVersion = attribute.Key("mcp.protocol.version")
	KeyMCPResourceURI     = attribute.Key("mcp.resource.uri")
	KeyToolName           = attribute.Key("gen_ai.tool.name")
	KeyPromptName         = attribute.Key("gen_ai.prompt.name")
	KeyOperationName      = attribute.Key("gen_ai.operation.name")
	KeyRequestID          = attribute.Key("jsonrpc.request.id")
	KeyStatusCode         = attribute.Key("rpc.response.status_code")
	KeyErrorType          = attribute.Key("error.type")
	KeyRPCSystem          = attribute.Key("rpc.system.name")
	KeyRPCMethod          = attribute.Key("rpc.method")
	KeyRPCMethodOriginal  = attribute.Key("rpc.method_original")
	KeyNetworkTransport   = attribute.Key("network.transport")
	KeyNetworkProtocol    = attribute.Key("network.protocol.name")
	KeyNetworkVersion     = attribute.Key("network.protocol.version")
)

// OtherValue stands for a value kept out of metrics to bound their
// cardinality (an unknown method, say), as the conventions name it.
const OtherValue = "_OTHER"

// DurationBuckets are the explicit bucket boundaries, in seconds, that the
// MCP conventions give their duration histograms.
var DurationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// RPCDurationBuckets are the bucket boundaries, in seconds, of the RPC
// call duration histograms.
var RPCDurationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}
