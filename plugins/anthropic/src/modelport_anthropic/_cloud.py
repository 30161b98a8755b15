"""What the Claude-on-a-cloud providers (``anthropic-vertex``, ``anthropic-bedrock``) share: the
Messages body is the ``anthropic`` provider's, less what the cloud does not serve, refused before any
I/O, and ``response_format`` sent as the forced answer tool the clouds were recorded answering."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from modelport.errors import InvalidRequestError
from modelport.http import HttpProvider
from modelport.provider import Capabilities
from modelport.types import ProviderTool

from .provider import AnthropicProvider

if TYPE_CHECKING:
    from modelport.tools import NeutralToolMapping
    from modelport.types import Request

__all__ = ["CloudClaudeProvider", "answer_as_tool", "refuse_file_ids", "refuse_server_tools"]


class CloudClaudeProvider(AnthropicProvider):
    """The ``anthropic`` provider as a cloud serves it: the features both clouds support, no base
    URL or key of the Anthropic API's, no server tools, and the kit's refusal, before any I/O, of
    token counts, batches and model lists. Each cloud adds its URL scheme, auth and version field."""

    capabilities: ClassVar[Capabilities] = Capabilities(
        generate=True,
        stream=True,
        function_tools=True,
        reasoning=True,
        structured_output=True,
        prompt_cache=True,
        documents=True,
    )
    default_base_url: ClassVar[str | None] = None
    base_url_env: ClassVar[str | None] = None
    api_key_required: ClassVar[bool] = False

    def neutral_tool(self, name: str) -> NeutralToolMapping | None:
        """None: the server tools are not offered on the clouds through these providers."""
        return None

    count_tokens_request = HttpProvider.count_tokens_request
    batch_submit = HttpProvider.batch_submit
    batch_get = HttpProvider.batch_get
    batch_cancel = HttpProvider.batch_cancel
    batch_results = HttpProvider.batch_results  # type: ignore[assignment]  # the kit's wider type
    list_models_request = HttpProvider.list_models_request


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
