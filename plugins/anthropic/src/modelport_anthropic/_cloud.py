"""What the Claude-on-a-cloud providers (``anthropic-vertex``, ``anthropic-bedrock``) share: the
Messages body is the ``anthropic`` provider's, less what the cloud does not serve, refused before any
I/O, and ``response_format`` sent as the forced answer tool the clouds were recorded answering."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from modelport.errors import InvalidRequestError
from modelport.types import ProviderTool

if TYPE_CHECKING:
    from modelport.types import Request

__all__ = ["answer_as_tool", "refuse_file_ids", "refuse_server_tools"]


def _blocks(value: Any) -> Iterator[Mapping[str, Any]]:
    """Every mapping inside ``value`` (content blocks, nested tool results), depth first."""
    if isinstance(value, Mapping):
        yield value
        for item in value.values():
            yield from _blocks(item)
    elif isinstance(value, list):
        for item in value:
            yield from _blocks(item)


def refuse_server_tools(request: Request, provider: str) -> None:
    """An ``InvalidRequestError`` for any provider tool (web search, web fetch, code execution)."""
    tools = [t for t in request.tools or [] if isinstance(t, ProviderTool)]
    if tools:
        raise InvalidRequestError(
            f"{provider} offers no server tools ({', '.join(sorted({t.id for t in tools}))}): "
            "web search, web fetch and code execution go through the anthropic provider"
        )


def refuse_file_ids(body: Mapping[str, Any], provider: str) -> None:
    """An ``InvalidRequestError`` for a content block whose source is a Files API id."""
    for block in _blocks(body.get("messages")):
        source = block.get("source")
        if isinstance(source, Mapping) and source.get("type") == "file":
            raise InvalidRequestError(
                f"{provider} has no Files API: send the file's bytes (or a URL) instead of a file id"
            )


def answer_as_tool(request: Request) -> Request:
    """``request`` with ``structured_output="tool"`` unless another choice is given: the answer tool
    is what Claude on the clouds was recorded answering (native JSON outputs stay on request)."""
    if request.response_format is None or request.response_format.type == "text":
        return request
    options = dict(request.provider_options or {})
    own = dict(options.get("anthropic") or {})
    if own.get("structured_output") is not None:
        return request
    options["anthropic"] = {**own, "structured_output": "tool"}
    return request.model_copy(update={"provider_options": options})
