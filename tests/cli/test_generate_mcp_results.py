"""What an MCP tool gives under ``generate --mcp``: passed back to the model as the core converts
it, and shown by ``-v`` on one line (an image or a resource by its type and size); and the worked
example of docs/mcp.md, run from the command line."""

from __future__ import annotations

import base64
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from .mcp_servers import (  # noqa: E402
    MODEL,
    PIXEL,
    PROMPT,
    ToolServer,
    command,
    run,
    tool_content,
)


def test_an_image_and_an_embedded_resource_are_passed_back_and_shown_by_size(
    _command_home: Path, script: Path
) -> None:
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, "image"),
                     "-y", "-v", PROMPT)  # fmt: skip
    assert result.exit_code == 0, result.output
    pixel = base64.b64encode(PIXEL).decode("ascii")
    assert json.loads(tool_content(server)) == [
        {"type": "text", "text": "The sky over San Francisco"},
        {"type": "image", "media_type": "image/png", "data": pixel},
    ]
    assert result.output.splitlines()[1] == (
        f"modelport: weather gave: The sky over San Francisco [image image/png {len(PIXEL)} bytes]"
    )
    with ToolServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "--mcp", command(script, "resource"),
                     "-y", "-v", PROMPT)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(tool_content(server)) == [
        {
            "type": "resource",
            "uri": "file:///weather.csv",
            "media_type": "text/csv",
            "data": base64.b64encode(b"city,sky\nSF,sunny\n").decode("ascii"),
        },
        {"type": "resource_link", "uri": "file:///index.md", "name": "index"},
    ]
    assert result.output.splitlines()[1] == (
        "modelport: weather gave: [resource file:///weather.csv text/csv 18 bytes] [link file:///index.md]"
    )


#: The server of docs/mcp.md's worked example, as the page gives it.
DRAGONS = '''
from mcp.server.fastmcp import FastMCP

app = FastMCP("dragons", log_level="WARNING")


@app.tool()
def lookup_population(country: str) -> int:
    """Returns the current population of the specified fictional country"""
    return 123124


@app.tool()
def can_have_dragons(population: int) -> bool:
    """Returns True if the specified population can have dragons, False otherwise"""
    return population > 10000


if __name__ == "__main__":
    app.run("stdio")
'''


def test_the_worked_example_of_the_mcp_page(_command_home: Path, tmp_path: Path) -> None:
    """simonw/llm's recorded gpt-4o-mini run (tests/corpus/openai/MANIFEST.md: lookup_population,
    then can_have_dragons, then "YES") replayed by a loopback server, the tools on the real server."""
    from tests.loopback import Loopback, Received, Reply
    from tests.mcp.conftest import CHAIN
    from tests.openai.corpus import cassette

    (tmp_path / "dragons.py").write_text(DRAGONS, encoding="utf-8")
    replies = iter(cassette(CHAIN))
    bodies: list[dict[str, Any]] = []

    def answer(received: Received) -> Reply:
        bodies.append(json.loads(received.body))
        recorded = next(replies)
        # The recorded body, whole: its chunked transfer encoding is not replayed.
        return Reply(recorded.status, {"content-type": recorded.headers["content-type"]}, recorded.body)

    key = "-".join(["sk", "fake", str(os.getpid())])
    with Loopback(answer) as server:
        result = run("generate", "openai/gpt-4o-mini", "--base-url", f"{server.url}/v1", "--key", key,
                     "--mcp", f"{sys.executable} {tmp_path / 'dragons.py'}", "--yes", "-v",
                     "Can the country of Crumpet have dragons?")  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:5] == [
        'modelport: running lookup_population({"country": "Crumpet"})',
        "modelport: lookup_population gave: 123124",
        'modelport: running can_have_dragons({"population": 123124})',
        "modelport: can_have_dragons gave: true",
        "YES",
    ]
    assert re.fullmatch(r"modelport: openai/gpt-4o-mini: answered after \d+ ms", lines[5])
    assert len(lines) == 6
    assert [[m["content"] for m in body["messages"] if m["role"] == "tool"] for body in bodies] == [
        [],
        ["123124"],
        ["123124", "true"],
    ]


@pytest.mark.parametrize(
    ("output", "is_error", "shown"),
    [
        ({"sky": "sunny", "wind": 3}, False, 'weather gave: {"sky": "sunny", "wind": 3}'),
        ([{"type": "structured", "content": {"sky": "sunny"}}], False, 'weather gave: {"sky": "sunny"}'),
        ([{"type": "audio", "media_type": "audio/wav", "data": "UklGRg=="}], False,
         "weather gave: [audio audio/wav 4 bytes]"),
        ([{"type": "image", "media_type": "image/png", "data": "not base64!"}], False,
         "weather gave: [image image/png 11 characters of data that is not base64]"),
        ([{"type": "resource", "uri": "file:///a.txt", "text": "héllo"}], False,
         "weather gave: [resource file:///a.txt 6 bytes]"),
        ("line one\nline\x1b[31m two", True, "weather failed: line one line two"),
        ("x" * 400, False, "weather gave: " + "x" * 300 + "..."),
    ],
)  # fmt: skip
def test_a_result_is_shown_on_one_bounded_line(output: Any, is_error: bool, shown: str) -> None:
    from modelport.cli._mcp import result_line
    from modelport.types import ToolResultPart

    part = ToolResultPart(call_id="call_1", name="weather", output=output, is_error=is_error)
    assert result_line(part) == shown
