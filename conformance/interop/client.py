"""Interop client built on the official MCP Python SDK (the `mcp` package).

It drives an MCP server through every feature the examples/everything server offers and
prints one JSON summary line on stdout. The SDK validates every result against the wire
schema of the negotiated protocol version; anything that fails on the protocol level (a
request that raised, a notification the SDK could not validate, a transport fault, a
server request this client had to refuse, a notification after its response) is listed
under "problems" and makes the exit status 1.

Usage:
    python client.py stdio <command> [args...]   spawn the server, talk over stdin/stdout
    python client.py http <url>                  talk Streamable HTTP to a running server
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import warnings
from typing import Any

import anyio

from mcp import types
from mcp.client.session import ClientRequestContext, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

REQUEST_TIMEOUT_S = 20.0
OVERALL_TIMEOUT_S = 90.0
# How long to wait for notifications/resources/updated after subscribing
# (INTEROP_UPDATE_WAIT_MS overrides it; 0 does not wait).
UPDATE_WAIT_S = float(os.environ.get("INTEROP_UPDATE_WAIT_MS", "3000")) / 1000
events: dict[str, anyio.Event] = {}  # "updated": set when notifications/resources/updated arrives

summary: dict[str, Any] = {
    "client": "python",
    "transport": "",
    "protocolVersion": "",
    "server": None,
    "ping": False,
    "logLevelSet": False,
    "tools": {"listed": 0, "called": 0, "taskOnly": 0, "errors": []},
    "resources": {"listed": 0, "read": 0},
    "templates": {"listed": 0, "read": 0},
    "prompts": {"listed": 0, "got": 0},
    "completions": 0,
    "cancelled": False,
    "subscribed": False,
    "unsubscribed": False,
    "notifications": {"progress": 0, "message": 0, "resourceUpdated": 0, "other": 0},
    "requests": {"sampling": 0, "elicitation": 0, "roots": 0},
    "progressDelivered": 0,
    "problems": [],
}


def problem(what: str, err: BaseException | None = None) -> None:
    summary["problems"].append(what if err is None else f"{what}: {type(err).__name__}: {err}")


class ProblemLogHandler(logging.Handler):
    """Turns the SDK's warnings (a notification that failed validation, a callback that
    returned an invalid result, a transport read failure) into problems."""

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.levelno >= logging.WARNING or message.startswith("dropping response for unknown/late request id"):
            problem(f"sdk log {record.name}: {message}")


# ---- values that satisfy a JSON Schema (arguments, elicitation content) -------------------


def resolve_ref(root: dict[str, Any], schema: Any) -> dict[str, Any]:
    s = schema
    for _ in range(8):
        if not (isinstance(s, dict) and isinstance(s.get("$ref"), str) and s["$ref"].startswith("#/")):
            break
        node: Any = root
        for key in s["$ref"][2:].split("/"):
            node = node.get(key) if isinstance(node, dict) else None
        s = node
    return s if isinstance(s, dict) else {}


def sample_string(name: str, prop: dict[str, Any]) -> str:
    fmt = prop.get("format")
    if fmt == "email":
        return "interop@example.com"
    if fmt == "uri":
        return "https://example.com/interop"
    if fmt == "date":
        return "2025-01-02"
    if fmt == "date-time":
        return "2025-01-02T03:04:05Z"
    value = f"interop-{name}"
    if isinstance(prop.get("maxLength"), int):
        value = value[: prop["maxLength"]]
    if isinstance(prop.get("minLength"), int):
        value = value.ljust(prop["minLength"], "x")
    return value


def sample_value(root: dict[str, Any], name: str, schema: Any, depth: int = 0) -> Any:
    prop = resolve_ref(root, schema)
    if "default" in prop:
        return prop["default"]
    if "const" in prop:
        return prop["const"]
    if isinstance(prop.get("enum"), list) and prop["enum"]:
        return prop["enum"][0]
    for key in ("oneOf", "anyOf"):
        if isinstance(prop.get(key), list) and prop[key]:
            first = resolve_ref(root, prop[key][0])
            return first["const"] if "const" in first else sample_value(root, name, first, depth + 1)
    kind = prop.get("type")
    if isinstance(kind, list):
        kind = kind[0] if kind else None
    if kind == "string":
        return sample_string(name, prop)
    if kind == "integer":
        minimum = prop.get("minimum")
        return int(-(-minimum // 1)) if isinstance(minimum, (int, float)) else 1
    if kind == "number":
        minimum = prop.get("minimum")
        return minimum if isinstance(minimum, (int, float)) else 1.5
    if kind == "boolean":
        return True
    if kind == "array":
        return [] if depth > 4 else [sample_value(root, name, prop.get("items", {}), depth + 1)]
    if kind == "object":
        return {} if depth > 4 else sample_object(root, prop, depth + 1)
    return f"interop-{name}"


def sample_object(root: dict[str, Any], schema: Any, depth: int = 0, fill_all: bool = False) -> dict[str, Any]:
    obj = resolve_ref(root, schema)
    required = set(obj.get("required") or [])
    return {
        name: sample_value(root, name, prop, depth)
        for name, prop in (obj.get("properties") or {}).items()
        if fill_all or name in required
    }


KNOWN_TOOL_ARGUMENTS: dict[str, dict[str, Any]] = {
    "test_sampling": {"prompt": "What is the capital of France?"},
    "test_elicitation": {"message": "Please tell us who you are"},
    # its schema's requirements sit in allOf/anyOf and if/then/else, not in a top-level required
    "json_schema_2020_12_tool": {"name": "Ada", "contactMethod": "email", "email": "ada@example.com"},
}


def tool_arguments(tool: types.Tool) -> dict[str, Any] | None:
    if tool.name in KNOWN_TOOL_ARGUMENTS:
        return KNOWN_TOOL_ARGUMENTS[tool.name]
    schema = tool.input_schema or {}
    if not schema.get("required"):
        return None  # exercise calls with arguments omitted
    return sample_object(schema, schema)


KNOWN_PROMPT_ARGUMENTS = {"arg1": "testValue1", "arg2": "testValue2", "resourceUri": "test://static-text"}


def prompt_arguments(prompt: types.Prompt) -> dict[str, str]:
    return {a.name: KNOWN_PROMPT_ARGUMENTS.get(a.name, f"interop-{a.name}") for a in prompt.arguments or []}


def expand_template(template: str) -> str:
    def one(match: re.Match[str]) -> str:
        names = [re.sub(r"\*$|:\d+$", "", n) for n in match.group(2).split(",")]
        return ",".join("123" if n == "id" else "interop" for n in names)

    return re.sub(r"\{([+#./;?&]?)([^}]+)\}", one, template)


# ---- callbacks ---------------------------------------------------------------------------


async def on_sampling(
    context: ClientRequestContext, params: types.CreateMessageRequestParams
) -> types.CreateMessageResult | types.ErrorData:
    summary["requests"]["sampling"] += 1
    said = ""
    if params.messages and isinstance(params.messages[0].content, types.TextContent):
        said = params.messages[0].content.text
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text=f"Sampled answer to: {said}"),
        model="interop-model",
        stop_reason="endTurn",
    )


async def on_elicitation(
    context: ClientRequestContext, params: types.ElicitRequestParams
) -> types.ElicitResult | types.ErrorData:
    summary["requests"]["elicitation"] += 1
    if getattr(params, "mode", None) == "url":
        return types.ElicitResult(action="accept")
    schema = params.requested_schema
    if not isinstance(schema, dict):
        schema = schema.model_dump(by_alias=True, exclude_none=True)
    return types.ElicitResult(action="accept", content=sample_object(schema, schema, 0, True))


async def on_roots(context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
    summary["requests"]["roots"] += 1
    return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/interop", name="interop")])


async def on_message(message: Any) -> None:
    if isinstance(message, Exception):
        problem("transport", message)
    elif isinstance(message, types.LoggingMessageNotification):
        summary["notifications"]["message"] += 1
    elif isinstance(message, types.ProgressNotification):
        summary["notifications"]["progress"] += 1
    elif isinstance(message, types.ResourceUpdatedNotification):
        summary["notifications"]["resourceUpdated"] += 1
        events["updated"].set()
    else:
        summary["notifications"]["other"] += 1


# ---- the run -----------------------------------------------------------------------------


class Step:
    """Runs one protocol step; an exception becomes a problem instead of ending the run."""

    def __init__(self, what: str) -> None:
        self.what = what

    async def __aenter__(self) -> Step:
        return self

    async def __aexit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> bool:
        if exc is not None and isinstance(exc, Exception):
            problem(self.what, exc)
            return True
        return False


async def paginate(fetch: Any, key: str) -> list[Any]:
    items: list[Any] = []
    cursor: str | None = None
    for _ in range(100):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        result = await fetch(params=params)
        items.extend(getattr(result, key))
        cursor = result.next_cursor
        if not cursor:
            return items
    raise RuntimeError(f"{key}: more than 100 pages")


async def cancel_in_flight(session: ClientSession, tools: list[types.Tool]) -> None:
    """Start test_tool_with_progress and cancel it at its first progress notification.

    Leaving the cancel scope makes the SDK send notifications/cancelled. The session must
    stay usable, and no response to the cancelled request may follow (the SDK drops one
    with a debug log, which ProblemLogHandler turns into a problem).
    """
    if not any(t.name == "test_tool_with_progress" for t in tools):
        return
    with anyio.CancelScope() as scope:

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            scope.cancel()

        await session.call_tool("test_tool_with_progress", None, progress_callback=on_progress)
        raise RuntimeError("the cancelled call completed")
    await session.send_ping()
    await anyio.sleep(0.3)  # room for a late response
    summary["cancelled"] = True


async def exercise(session: ClientSession) -> None:
    init = await session.initialize()
    summary["protocolVersion"] = init.protocol_version
    summary["server"] = {"name": init.server_info.name, "version": init.server_info.version}
    caps = init.capabilities

    if caps.logging is not None:
        async with Step("logging/setLevel"):
            await session.set_logging_level("debug")
            summary["logLevelSet"] = True
    async with Step("ping"):
        await session.send_ping()
        summary["ping"] = True

    if caps.tools is not None:
        tools: list[types.Tool] = []
        async with Step("tools/list"):
            tools = await paginate(session.list_tools, "tools")
        summary["tools"]["listed"] = len(tools)
        for tool in tools:
            # A tool that runs only as a task cannot be called by a client without tasks.
            execution = getattr(tool, "execution", None)
            if execution is not None and getattr(execution, "task_support", None) == "required":
                summary["tools"]["taskOnly"] += 1
                continue
            async with Step(f"tools/call {tool.name}"):
                progress: list[float] = []

                async def on_progress(value: float, total: float | None, message: str | None) -> None:
                    progress.append(value)
                    summary["progressDelivered"] += 1

                result = await session.call_tool(tool.name, tool_arguments(tool), progress_callback=on_progress)
                summary["tools"]["called"] += 1
                if result.is_error:
                    summary["tools"]["errors"].append(tool.name)
                if progress != sorted(progress):
                    problem(f"tools/call {tool.name}: progress went backwards: {progress}")
        # The SDK routes a progress notification to its request's callback only while the
        # request is pending, in receive order: one seen on the wire but never delivered came
        # after its response. (Checked before the cancellation, after which a progress
        # notification for the cancelled call may legitimately still arrive.)
        await anyio.sleep(0.05)
        late = summary["notifications"]["progress"] - summary["progressDelivered"]
        if late > 0:
            problem(f"{late} progress notification(s) arrived after the response they belong to")
        async with Step("cancellation"):
            await cancel_in_flight(session, tools)

    if caps.resources is not None:
        resources: list[types.Resource] = []
        async with Step("resources/list"):
            resources = await paginate(session.list_resources, "resources")
        summary["resources"]["listed"] = len(resources)
        for resource in resources:
            async with Step(f"resources/read {resource.uri}"):
                read = await session.read_resource(str(resource.uri))
                if not read.contents:
                    raise RuntimeError("no contents")
                summary["resources"]["read"] += 1
        templates: list[types.ResourceTemplate] = []
        async with Step("resources/templates/list"):
            templates = await paginate(session.list_resource_templates, "resource_templates")
        summary["templates"]["listed"] = len(templates)
        for template in templates:
            uri = expand_template(template.uri_template)
            async with Step(f"resources/read {uri}"):
                read = await session.read_resource(uri)
                if not read.contents:
                    raise RuntimeError("no contents")
                summary["templates"]["read"] += 1
            variable = re.search(r"\{[+#./;?&]?([A-Za-z0-9_]+)", template.uri_template)
            if caps.completions is not None and variable:
                async with Step(f"completion/complete {template.uri_template}"):
                    await session.complete(
                        types.ResourceTemplateReference(type="ref/resource", uri=template.uri_template),
                        {"name": variable.group(1), "value": "1"},
                    )
                    summary["completions"] += 1
        if caps.resources.subscribe and resources:
            watched = next((r for r in resources if str(r.uri) == "test://watched-resource"), resources[0])
            async with Step(f"resources/subscribe {watched.uri}"):
                await session.subscribe_resource(str(watched.uri))
                summary["subscribed"] = True
                with anyio.move_on_after(UPDATE_WAIT_S):
                    await events["updated"].wait()  # a server that changes the resource tells us within the wait
            async with Step(f"resources/unsubscribe {watched.uri}"):
                await session.unsubscribe_resource(str(watched.uri))
                summary["unsubscribed"] = True

    if caps.prompts is not None:
        prompts: list[types.Prompt] = []
        async with Step("prompts/list"):
            prompts = await paginate(session.list_prompts, "prompts")
        summary["prompts"]["listed"] = len(prompts)
        for prompt in prompts:
            async with Step(f"prompts/get {prompt.name}"):
                got = await session.get_prompt(prompt.name, prompt_arguments(prompt))
                if not got.messages:
                    raise RuntimeError("no messages")
                summary["prompts"]["got"] += 1
            if caps.completions is not None and prompt.arguments:
                async with Step(f"completion/complete {prompt.name}"):
                    await session.complete(
                        types.PromptReference(type="ref/prompt", name=prompt.name),
                        {"name": prompt.arguments[0].name, "value": "test"},
                    )
                    summary["completions"] += 1



async def run(mode: str, rest: list[str]) -> None:
    callbacks: dict[str, Any] = {
        "read_timeout_seconds": REQUEST_TIMEOUT_S,
        "sampling_callback": on_sampling,
        "elicitation_callback": on_elicitation,
        "list_roots_callback": on_roots,
        "message_handler": on_message,
        "client_info": types.Implementation(name="schemarpc-interop-py", version="1.0.0"),
    }
    if mode == "stdio":
        params = StdioServerParameters(command=rest[0], args=rest[1:])
        async with stdio_client(params) as (read, write), ClientSession(read, write, **callbacks) as session:
            await exercise(session)
    else:
        async with streamable_http_client(rest[0]) as (read, write), ClientSession(read, write, **callbacks) as session:
            await exercise(session)


async def main() -> int:
    args = sys.argv[1:]
    if len(args) < 2 or args[0] not in ("stdio", "http") or (args[0] == "http" and len(args) != 2):
        print("usage: python client.py stdio <command> [args...] | http <url>", file=sys.stderr)
        return 2
    summary["transport"] = args[0]
    events["updated"] = anyio.Event()
    with anyio.move_on_after(OVERALL_TIMEOUT_S) as scope:
        try:
            await run(args[0], args[1:])
        except Exception as err:  # a failure outside any step: connect, initialize, teardown
            problem("fatal", err)
    if scope.cancelled_caught:
        problem(f"gave up after {OVERALL_TIMEOUT_S} s")
    return 0 if not summary["problems"] else 1


if __name__ == "__main__":
    warnings.simplefilter("ignore")  # deprecation notices for 2025-era methods are expected here
    logging.getLogger("mcp").addHandler(ProblemLogHandler())
    logging.getLogger("mcp").setLevel(logging.WARNING)
    # Late responses are logged at debug level only.
    logging.getLogger("mcp.shared.jsonrpc_dispatcher").setLevel(logging.DEBUG)
    code = anyio.run(main)
    print(json.dumps(summary), flush=True)
    sys.exit(code)
