"""The tools of MCP servers from the command line: ``generate --mcp CMD_OR_URL`` and ``chat --mcp
CMD_OR_URL`` (repeatable).

A value that is an ``http://`` or ``https://`` URL is a server over streamable HTTP (with every
``--mcp-header 'Name: value'``); anything else is the command that starts a server over stdio, split
as a shell would (:func:`shlex.split`), run without a shell. ``--mcp-timeout SECONDS`` bounds each
server's start and handshake and each of its requests. The servers are opened (:mod:`modelport.mcp`)
before the model is called, once for a ``generate`` run or for a whole ``chat``, and closed when it
ends, however it ends (the end of input, Ctrl-C, an error); their tools (listed again for a turn
after a server said they changed) join those of ``-T`` / ``--functions`` in the tool loop
(:mod:`._functions`), with the same approval.

What goes wrong is one line: a value that cannot be a server, a header that is not ``Name: value``
(exit status 2, before anything starts); a server that cannot be started, reached or listed
(``error: ...``, exit status 1, before the model is called). Header values are never printed: the
core replaces them in its errors. A tool call that fails (an error result, a timeout, a server that
died) is the call's error result, which the model sees and ``-v`` shows (:func:`result_line`).
"""

from __future__ import annotations

import base64
import binascii
import json
import shlex
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

import click

from ._templates import Refused
from .terminal import safe

__all__ = ["mcp_options", "mcp_servers", "opened", "result_line", "served_tools"]

#: The longest tool result ``-v`` shows (characters).
_MAX_SHOWN = 300


def mcp_options(command: Any) -> Any:
    """``--mcp``, ``--mcp-header`` and ``--mcp-timeout``."""
    options = (
        click.option(
            "--mcp-timeout",
            type=click.FloatRange(min=0, min_open=True),
            default=30.0,
            show_default=True,
            metavar="SECONDS",
            help="With --mcp: how long a server has to start, and to answer each request.",
        ),
        click.option(
            "--mcp-header",
            "mcp_headers",
            multiple=True,
            metavar="'NAME: VALUE'",
            help="A header for the --mcp servers reached by URL, e.g. an Authorization (repeatable; "
            "never printed).",
        ),
        click.option(
            "--mcp",
            "mcp_specs",
            multiple=True,
            metavar="CMD|URL",
            help="The tools of an MCP server: a command that starts it (stdio) or its streamable "
            "HTTP URL (repeatable); each call is asked about on a terminal, unless --yes.",
        ),
    )
    for option in options:
        command = option(command)
    return command


def _is_url(spec: str) -> bool:
    return spec.strip().lower().startswith(("http://", "https://"))


def _headers(given: Sequence[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for item in given:
        name, sep, value = item.partition(":")
        name, value = name.strip(), value.strip()
        # The value is never shown: a header is named by its name alone.
        if not sep or not name or any(c.isspace() or not c.isprintable() for c in name):
            shown = repr(name) if sep else "a value without a colon"
            raise Refused(f"--mcp-header: expected 'Name: value', got {safe(shown)}")
        if any(c in value for c in "\r\n\0"):
            raise Refused(f"--mcp-header {safe(name)}: the value holds a line break")
        if name.lower() in (key.lower() for key in headers):
            raise Refused(f"--mcp-header {safe(name)} is given twice")
        headers[name] = value
    return headers


def mcp_servers(specs: Sequence[str], headers: Sequence[str], timeout: float) -> list[Any]:
    """The :class:`~modelport.mcp.McpServer` of each ``--mcp`` value, in order, not opened yet;
    :class:`Refused` for a value or header that cannot be one (nothing is started)."""
    if headers and not any(_is_url(spec) for spec in specs):
        raise Refused("--mcp-header is for MCP servers reached by URL: give one with --mcp URL")
    if not specs:
        return []
    given = _headers(headers)
    from modelport.errors import ModelportError

    try:
        from modelport import mcp

        return [_server(mcp, spec, given, timeout) for spec in specs]
    except ModelportError as error:  # the SDK missing, a URL the core refuses
        raise Refused(f"--mcp: {error}") from None


def _server(mcp: Any, spec: str, headers: dict[str, str], timeout: float) -> Any:
    if _is_url(spec):
        return mcp.http(spec.strip(), headers=headers, timeout=timeout, connect_timeout=timeout)
    try:
        words = shlex.split(spec)
    except ValueError as error:
        raise Refused(f"--mcp {spec}: {error}") from None
    if not words:
        raise Refused("--mcp: an empty command")
    return mcp.stdio(words[0], words[1:], timeout=timeout, connect_timeout=timeout)


@contextmanager
def opened(servers: Sequence[Any]) -> Iterator[None]:
    """Open every server, in order; every server is closed when the block ends, however it ends. A
    server that fails to open is an :class:`~modelport.mcp.McpError` of one line."""
    from modelport.mcp import McpError

    with ExitStack() as stack:
        try:
            for server in servers:
                stack.enter_context(server)
        except McpError as error:
            raise _one_line(error) from error
        yield


def served_tools(servers: Sequence[Any], taken: Sequence[str] = ()) -> list[Any]:
    """All the tools of the open ``servers`` (listed again after a server said its list changed);
    a listing that fails is an :class:`~modelport.mcp.McpError` of one line; two tools of one name
    (of two servers, or a server's and a function's) are :class:`Refused`."""
    from modelport.mcp import McpError

    try:
        tools = [tool for server in servers for tool in server.tools()]
    except McpError as error:
        raise _one_line(error) from error
    names = [*taken, *(tool.name for tool in tools)]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        owners = [f"MCP server {t.server.name}" for t in tools if t.name == twice[0]]
        owners += ["a function"] * list(taken).count(twice[0])
        raise Refused(f"two tools are named {twice[0]!r}: of {' and of '.join(owners)}")
    return tools


def _one_line(error: Any) -> Any:
    from modelport.mcp import McpError

    text = " ".join(str(error).split())
    try:
        return type(error)(text)
    except TypeError:  # a subclass made another way: the base keeps the message
        return McpError(text)


def result_line(part: Any) -> str:
    """A tool result as ``-v`` shows it, on one line: the text; an image, audio or resource as
    ``[image image/png 67 bytes]``, ``[resource file:///a.csv text/csv 19 bytes]``; a resource
    link as ``[link file:///index.md]``; anything else as JSON; bounded and made safe."""
    output = part.output
    if isinstance(output, str):
        text = output
    elif isinstance(output, list) and all(isinstance(block, dict) and "type" in block for block in output):
        text = " ".join(_block(block) for block in output)
    else:
        text = json.dumps(output, ensure_ascii=False, default=str)
    text = " ".join(safe(text).split())
    if len(text) > _MAX_SHOWN:
        text = text[:_MAX_SHOWN] + "..."
    return f"{part.name} {'failed' if part.is_error else 'gave'}: {text}"


def _block(block: dict[str, Any]) -> str:
    """One block of an MCP result (:func:`modelport.mcp.tool_output`) as a few words."""
    kind = block["type"]
    if kind == "text":
        return str(block.get("text", ""))
    if kind == "structured":
        return json.dumps(block.get("content"), ensure_ascii=False, default=str)
    words = [str(kind) if kind != "resource_link" else "link"]
    words += [str(block[key]) for key in ("uri", "media_type") if block.get(key)]
    if isinstance(block.get("data"), str):
        words.append(_size(block["data"]))
    elif isinstance(block.get("text"), str):
        words.append(f"{len(block['text'].encode('utf-8'))} bytes")
    return f"[{' '.join(words)}]"


def _size(data: str) -> str:
    try:
        return f"{len(base64.b64decode(data, validate=True))} bytes"
    except (binascii.Error, ValueError):
        return f"{len(data)} characters of data that is not base64"
