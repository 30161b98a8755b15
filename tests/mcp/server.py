"""The MCP server of the tests, written with the ``mcp`` SDK's FastMCP: run over stdio as a script
(``python tests/mcp/server.py``), or served over streamable HTTP in-process (:data:`app`).

Its first two tools are the tools of the recorded OpenAI run the tool-loop tests replay
(simonw/llm's ``test_tool_use_chain_of_two_calls``, see tests/corpus/openai/MANIFEST.md): the model
asks ``lookup_population`` for Crumpet, then ``can_have_dragons`` for 123124; the third is the tool of
its streamed run (``test_tool_use_basic``: ``multiply`` 1231 by 2331). The rest exercise the
result conversion and the failure paths: an image, an embedded resource and a resource link, a
structured answer, a tool that raises, one that never answers and one that kills the server.
"""

from __future__ import annotations

import base64
import os
import sys

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.types import BlobResourceContents, EmbeddedResource, ImageContent, ResourceLink, TextContent

app = FastMCP("dragons")

#: The bytes of a 1×1 PNG (the smallest valid image), as ``picture`` returns it.
PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


@app.tool()
def lookup_population(country: str) -> int:
    """Returns the current population of the specified fictional country"""
    return 123124


@app.tool()
def can_have_dragons(population: int) -> bool:
    """Returns True if the specified population can have dragons, False otherwise"""
    return population > 10000


@app.tool()
def multiply(a: int, b: int) -> int:
    """Multiply two numbers."""
    return a * b


@app.tool(structured_output=False)
def picture(caption: str) -> list[TextContent | ImageContent]:
    """A captioned picture of a dragon."""
    data = base64.b64encode(PIXEL).decode("ascii")
    return [
        TextContent(type="text", text=caption),
        ImageContent(type="image", data=data, mimeType="image/png"),
    ]


@app.tool(structured_output=False)
def document() -> list[EmbeddedResource | ResourceLink]:
    """The dragon register, embedded, and a link to its index."""
    blob = base64.b64encode(b"name,wings\nSmaug,2\n").decode("ascii")
    register = BlobResourceContents(uri="file:///register.csv", mimeType="text/csv", blob=blob)
    link = ResourceLink(type="resource_link", uri="file:///index.md", name="index", mimeType="text/markdown")
    return [EmbeddedResource(type="resource", resource=register), link]


@app.tool()
def census(country: str) -> dict[str, int]:
    """The dragons and people of a country."""
    return {"dragons": 3, "people": 123124}


@app.tool()
def divide(a: float, b: float) -> float:
    """a divided by b."""
    if b == 0:
        raise ValueError("cannot divide by zero")
    return a / b


@app.tool()
def secret_population(country: str) -> int:
    """Like lookup_population, but the census is secret."""
    raise PermissionError(f"the census of {country} is secret")


@app.tool()
async def hang() -> str:
    """Never answers."""
    await anyio.sleep_forever()
    return "never"


@app.tool()
def die() -> str:
    """Kills the server in the middle of the call."""
    sys.stdout.flush()
    os._exit(3)


@app.tool()
async def grow(ctx: Context) -> str:  # type: ignore[type-arg]
    """Adds a tool, and tells the client its tool list changed."""

    def hatch(name: str) -> str:
        """Hatches a dragon."""
        return f"{name} hatched"

    app.add_tool(hatch)
    await ctx.session.send_tool_list_changed()
    return "grown"


if __name__ == "__main__":
    app.run("stdio")
