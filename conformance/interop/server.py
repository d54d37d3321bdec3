"""A small MCP server on the official Python SDK, for the schemarpc client interop tests.

Usage: server.py stdio | server.py http PORT

It serves two plain tools (add, echo), one tool that asks the client to sample
(ask_sampling) and one that asks it for input (ask_elicitation), a static text resource,
a resource template and a prompt with an argument. On the handshake era the two asking
tools send sampling/createMessage and elicitation/create to the client; on the stateless
2026-07-28 wire, which has no channel for server requests, they answer with an
input_required result and read the client's answer on the retry.
"""

import sys

import mcp_types as types
from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import NoBackChannelError

server = MCPServer("schemarpc-interop-python", version="1.0.0", instructions="Interop server for the schemarpc client tests.")

SAMPLING_QUESTION = "What is the capital of France?"
ELICITATION_MESSAGE = "Which colour do you like?"


class Colour(BaseModel):
    """The form ask_elicitation sends."""

    colour: str
    shade: int = 3


@server.tool()
def add(a: int, b: int) -> str:
    """Adds two integers."""
    return f"sum={a + b}"


@server.tool()
def echo(message: str) -> str:
    """Echoes its argument."""
    return f"echo:{message}"


def _sampling_params() -> types.CreateMessageRequestParams:
    return types.CreateMessageRequestParams(
        messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=SAMPLING_QUESTION))],
        max_tokens=50,
    )


def _sampled_text(result) -> str:
    content = result.content
    if isinstance(content, list):
        content = content[0]
    return f"sampled:{content.text} model:{result.model}"


@server.tool()
async def ask_sampling(ctx: Context):
    """Asks the client's model a question and returns its answer."""
    answers = ctx.input_responses
    if answers and "question" in answers:
        return _sampled_text(answers["question"])
    try:
        params = _sampling_params()
        result = await ctx.session.create_message(params.messages, max_tokens=params.max_tokens, related_request_id=ctx.request_id)
        return _sampled_text(result)
    except NoBackChannelError:
        return types.InputRequiredResult(input_requests={
            "question": types.CreateMessageRequest(method="sampling/createMessage", params=_sampling_params()),
        })


@server.tool()
async def ask_elicitation(ctx: Context):
    """Asks the user for a colour and returns what came back."""
    answers = ctx.input_responses
    if answers and "colour" in answers:
        answer = answers["colour"]
        if answer.action != "accept":
            return f"elicited:{answer.action}"
        data = Colour.model_validate(answer.content or {})
        return f"elicited:{answer.action} colour={data.colour} shade={data.shade}"
    try:
        result = await ctx.elicit(ELICITATION_MESSAGE, Colour)
    except NoBackChannelError:
        return types.InputRequiredResult(input_requests={
            "colour": types.ElicitRequest(method="elicitation/create", params=types.ElicitRequestFormParams(
                message=ELICITATION_MESSAGE,
                requested_schema=Colour.model_json_schema(),
            )),
        })
    if result.action != "accept":
        return f"elicited:{result.action}"
    return f"elicited:accept colour={result.data.colour} shade={result.data.shade}"


@server.resource("info://server", mime_type="text/plain")
def info() -> str:
    """A static text resource."""
    return "schemarpc interop server"


@server.resource("greeting://{name}", mime_type="text/plain")
def greeting(name: str) -> str:
    """A greeting per name (a resource template)."""
    return f"hello, {name}"


@server.prompt()
def review(code: str) -> str:
    """Asks for a review of some code."""
    return f"please review: {code}"


def main(argv: list[str]) -> None:
    if argv == ["stdio"]:
        server.run("stdio")
    elif len(argv) == 2 and argv[0] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(argv[1]))
    else:
        print("usage: server.py stdio | server.py http PORT", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
