"""The providers: OpenAI, any OpenAI-compatible server, and presets for well-known ones.

Pure mapping on the core's HTTP kit (:class:`modelport.http.HttpProvider`): bodies come from
:mod:`._request`, decoding from :mod:`._decode` and :mod:`._stream`, errors from :mod:`._errors`,
embeddings from :mod:`._embed`. The core sends, reads, bounds, retries and scrubs, the same way for
sync and async. The mapping modules are imported on first use, inside the methods, so that resolving
``"openai/..."`` in ``get_model`` stays as cheap as the core.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from modelport.http import HttpProvider, HttpRequest, Steps, StreamEnd, check_header_value
from modelport.provider import Capabilities, EmbedRequest, ModelPage, TokenCount
from modelport.wire_map import WireMap

from ._quirks import Quirks, ReasoningFamily
from ._wire_map import CHAT_WIRE_MAP, RESPONSES_WIRE_MAP

if TYPE_CHECKING:
    from modelport.batches import BatchDownload, BatchLine, BatchRequest, BatchState
    from modelport.errors import ProviderError
    from modelport.tools import NeutralToolMapping
    from modelport.types import EmbeddingResult, Message, Origin, Request, Result

    from ._responses_stream import ResponsesStream
    from ._stream import ChatStream

__all__ = [
    "CHAT_COMPLETIONS_BOUNDS",
    "OPENAI_BASE_URL",
    "OpenAICompatibleProvider",
    "OpenAIProvider",
    "OpenAIResponsesProvider",
]

#: The OpenAI API's base URL (the ``openai`` provider's default).
OPENAI_BASE_URL = "https://api.openai.com/v1"

#: OpenAI models that take ``reasoning_effort: "xhigh"``, sent for ``effort="max"`` (every model
#: from ``gpt-5.1-codex-max`` on; the others' highest level is ``high``).
#: https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort
OPENAI_XHIGH = ReasoningFamily(
    ("gpt-5.1-codex-max", "gpt-5.2", "gpt-5.3", "gpt-5.4", "gpt-5.5", "gpt-5.6"), efforts=(("max", "xhigh"),)
)

#: The ranges the OpenAI API reference gives Chat Completions' sampling settings
#: (https://platform.openai.com/docs/api-reference/chat/create): ``temperature`` 0 to 2,
#: ``presence_penalty`` and ``frequency_penalty`` -2 to 2 (``top_p`` 0 to 1 is the request model's
#: own bound, for every provider). Data: a preset whose server documents other ranges says so.
CHAT_COMPLETIONS_BOUNDS: Mapping[str, tuple[float, float]] = {
    "temperature": (0, 2),
    "presence_penalty": (-2, 2),
    "frequency_penalty": (-2, 2),
}

_CAPABILITIES = Capabilities(
    generate=True,
    stream=True,
    embed=True,
    function_tools=True,
    reasoning=True,
    structured_output=True,
    list_models=True,
)


class ChatCompletionsProvider(HttpProvider):
    """What every Chat Completions server shares; subclasses set the class attributes only."""

    capabilities: ClassVar[Capabilities] = _CAPABILITIES
    quirks: ClassVar[Quirks] = Quirks()
    config_options: ClassVar[frozenset[str] | None] = frozenset({"name"})
    api: ClassVar[str | None] = "chat-completions"
    #: ``data: [DONE]`` ends a complete stream; a ``finish_reason`` is not required (a recorded
    #: OpenRouter stream ends with usage and ``[DONE]`` but none).
    stream_end: ClassVar[StreamEnd | None] = StreamEnd(kind=None, done=True)
    #: Where the Chat Completions wire carries what is decoded, for the conformance suite's edits.
    wire_map: ClassVar[WireMap | None] = CHAT_WIRE_MAP
    #: Chat Completions carries no opaque reasoning state, and no reasoning text goes back (the API has
    #: no field for it; DeepSeek refuses ``reasoning_content`` in input): nothing changes across models.
    cross_model_replay: ClassVar[Literal["keep", "drop"]] = "keep"
    #: ``encoding_format`` ``"float"`` / ``"base64"``; no integer or binary embeddings (:mod:`._embed`).
    embedding_types: ClassVar[frozenset[str]] = frozenset({"float", "base64"})

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        """``POST /chat/completions`` (with ``stream: true`` for a stream)."""
        from ._request import build_body

        body, warnings = build_body(model_name, request, stream=stream, quirks=self.quirks, provider=self.id)
        return HttpRequest("/chat/completions", body=body, stream=stream, warnings=warnings)

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        from ._decode import decode_completion

        return decode_completion(data, quirks=self.quirks, provider=self.id)

    def stream_decoder(self, spec: HttpRequest) -> ChatStream:
        from ._stream import ChatStream

        return ChatStream(quirks=self.quirks, provider=self.id)

    def error_from_response(self, status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        from ._errors import error_from_response

        return error_from_response(status, headers, body, provider=self.name)

    def embed_requests(self, model_name: str, request: EmbedRequest) -> Sequence[HttpRequest]:
        """``POST /embeddings``, in batches of at most ``quirks.embed_batch`` values."""
        from ._embed import embed_bodies

        bodies = embed_bodies(model_name, request, quirks=self.quirks, provider=self.id)
        return [HttpRequest("/embeddings", body=body, context=count) for body, count in bodies]

    def decode_embeddings(
        self, request: EmbedRequest, specs: Sequence[HttpRequest], responses: Sequence[Any]
    ) -> EmbeddingResult:
        from ._embed import decode_embeddings

        counts = [spec.context for spec in specs]
        return decode_embeddings(counts, responses, provider=self.name, embedding_type=request.embedding_type)

    def list_models_request(self, page: str | None) -> HttpRequest:
        """``GET /models`` (the whole list in one answer)."""
        return HttpRequest("/models", method="GET")

    def decode_model_page(self, data: Any, spec: HttpRequest) -> ModelPage:
        from ._models import decode_model_page

        return decode_model_page(data)


class OpenAIProvider(ChatCompletionsProvider):
    """OpenAI (``https://api.openai.com/v1``); key in ``OPENAI_API_KEY``, URL in ``OPENAI_BASE_URL``.

    ``organization=`` / ``project=`` (or ``OPENAI_ORG_ID`` / ``OPENAI_PROJECT_ID``) are sent as the
    ``OpenAI-Organization`` / ``OpenAI-Project`` headers.
    """

    id: ClassVar[str] = "openai"
    display_name: ClassVar[str] = "OpenAI"
    telemetry_name: ClassVar[str | None] = "openai"
    #: ``sk-`` and ``sk-proj-`` keys (not the ``sk-ant-`` and ``sk-or-`` keys of other services).
    secret_patterns: ClassVar[Mapping[str, str]] = {
        "OpenAI API key": r"(?<![0-9A-Za-z])sk-(?!ant-|or-)[0-9A-Za-z_\-]{20,}"
    }
    default_base_url: ClassVar[str | None] = OPENAI_BASE_URL
    base_url_env: ClassVar[str | None] = "OPENAI_BASE_URL"
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = CHAT_COMPLETIONS_BOUNDS
    api_key_env: ClassVar[tuple[str, ...]] = ("OPENAI_API_KEY",)
    config_options: ClassVar[frozenset[str] | None] = frozenset({"organization", "project", "name"})
    saved_options: ClassVar[frozenset[str]] = frozenset({"organization", "project", "name"})
    capabilities: ClassVar[Capabilities] = replace(_CAPABILITIES, prompt_cache=True, batch=True)
    quirks: ClassVar[Quirks] = Quirks(
        reasoning_prefixes=("o1", "o3", "o4", "gpt-5"),
        reasoning_families=(OPENAI_XHIGH,),
        metadata=True,
        prompt_cache=True,
        # temperature 0 sent and answered 200 (tests/corpus/batch/tidyverse__ellmer, state-capitals).
        sampling_models=("gpt-5.4-nano",),
    )

    def batch_submit(self, model_name: str, requests: Sequence[BatchRequest]) -> Steps[BatchState]:
        """``POST /files`` (the requests as JSON Lines), then ``POST /batches``."""
        from urllib.parse import urlsplit

        from ._batches import submit_steps

        return submit_steps(requests, [urlsplit(self.url(request.spec)).path for request in requests])

    def batch_get(self, batch_id: str) -> Steps[BatchState]:
        from ._batches import get_steps

        return get_steps(batch_id)

    def batch_cancel(self, batch_id: str) -> Steps[BatchState]:
        from ._batches import cancel_steps

        return cancel_steps(batch_id)

    def batch_results(self, state: BatchState) -> Steps[Iterable[BatchLine | BatchDownload]]:
        from ._batches import results_steps

        return results_steps(state, self.error_from_response)

    def headers(self) -> Mapping[str, str]:
        options = self.config.options
        sent: dict[str, str] = {}
        for header, option, env in (
            ("openai-organization", "organization", "OPENAI_ORG_ID"),
            ("openai-project", "project", "OPENAI_PROJECT_ID"),
        ):
            value = options.get(option) or os.environ.get(env)
            if value:
                sent[header] = check_header_value(str(value), option)
        return sent


class OpenAICompatibleProvider(ChatCompletionsProvider):
    """Any server that speaks Chat Completions: ``base_url=`` (or ``OPENAI_COMPATIBLE_BASE_URL``)
    is required, a key optional."""

    id: ClassVar[str] = "openai-compatible"
    display_name: ClassVar[str] = "OpenAI-compatible server"
    api_key_env: ClassVar[tuple[str, ...]] = ("OPENAI_COMPATIBLE_API_KEY",)
    #: The server's URL when ``base_url=`` is not given (a local server set once in the shell).
    base_url_env: ClassVar[str | None] = "OPENAI_COMPATIBLE_BASE_URL"
    api_key_required: ClassVar[bool] = False
    #: Anthropic's OpenAI SDK compatibility endpoint (``https://api.anthropic.com/v1/``) is one
    #: such server, with its own key shape.
    secret_patterns: ClassVar[Mapping[str, str]] = {
        "Anthropic API key": r"(?<![0-9A-Za-z])sk-ant-[0-9A-Za-z_\-]{20,}"
    }


class OpenAIResponsesProvider(OpenAIProvider):
    """OpenAI's Responses API (``POST /responses``): same key, base URL, organization and project as
    ``openai``. Reasoning items come back with their encrypted state and are sent back in the next
    turn (stateless: ``store: false``); no embeddings (use ``openai``)."""

    id: ClassVar[str] = "openai-responses"
    display_name: ClassVar[str] = "OpenAI Responses API"
    api: ClassVar[str | None] = "responses"
    #: ``temperature`` 0 to 2, as the API reference gives it for ``POST /responses``
    #: (https://platform.openai.com/docs/api-reference/responses/create); the API takes no penalties
    #: (they are not sent, with a warning), so they have no range here.
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = {"temperature": (0, 2)}
    #: ``response.completed`` (status ``completed``) or ``response.incomplete`` ends a complete
    #: stream; ``response.failed`` is raised as its error by the decoder.
    stream_end: ClassVar[StreamEnd | None] = StreamEnd(
        kind="type",
        terminal=frozenset({"response.completed", "response.incomplete"}),
        status=("response.status",),
        complete=frozenset({"completed", "incomplete"}),
    )
    wire_map: ClassVar[WireMap | None] = RESPONSES_WIRE_MAP
    capabilities: ClassVar[Capabilities] = replace(
        _CAPABILITIES,
        embed=False,
        count_tokens=True,
        provider_tools=True,
        prompt_cache=True,
        batch=True,
        web_search=True,
        code_execution=True,
        mcp_server=True,
    )
    tool_namespace: ClassVar[str | None] = "openai"
    #: Encrypted reasoning items belong to the model that produced them: dropped for another model.
    cross_model_replay: ClassVar[Literal["keep", "drop"]] = "drop"

    def replay_from_model(self, message: Message, origin: Origin, model_name: str) -> Message:
        """Another model's turn without its reasoning state (:attr:`cross_model_replay`), but an
        MCP approval request keeps its item (id, server label): not stored, it goes back whole
        with the decision that answers it, which the API refuses without it."""
        from modelport.types import ToolCallPart

        sent = super().replay_from_model(message, origin, model_name)
        asked = {
            p.id: p for p in message.content if isinstance(p, ToolCallPart) and p.approval == "requested"
        }
        if sent is message or not asked:
            return sent
        content = [asked.get(p.id, p) if isinstance(p, ToolCallPart) else p for p in sent.content]
        return sent.model_copy(update={"content": content})

    def neutral_tool(self, name: str) -> NeutralToolMapping | None:
        """``openai.web_search`` / ``code_interpreter`` / ``mcp`` (the Responses API has no page fetch)."""
        from ._neutral import neutral_tool

        return neutral_tool(name)

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        """``POST /responses`` (with ``stream: true`` for a stream)."""
        from ._responses_request import build_body

        body, warnings = build_body(model_name, request, stream=stream, quirks=self.quirks, provider=self.id)
        return HttpRequest(
            "/responses", body=body, stream=stream, warnings=warnings, secrets=_mcp_secrets(body)
        )

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        from ._responses_stream import decode_response

        return decode_response(data, provider=self.name)

    def stream_decoder(self, spec: HttpRequest) -> ResponsesStream:  # type: ignore[override]
        from ._responses_stream import ResponsesStream

        return ResponsesStream(provider=self.name)

    def count_tokens_request(self, model_name: str, request: Request) -> HttpRequest:
        """``POST /responses/input_tokens`` with what the request would send as input."""
        from ._responses_request import count_body

        body = count_body(model_name, request, quirks=self.quirks, provider=self.id)
        return HttpRequest("/responses/input_tokens", body=body, secrets=_mcp_secrets(body))

    def decode_token_count(self, data: Any, spec: HttpRequest) -> TokenCount:
        return TokenCount(input_tokens=data["input_tokens"])


def _mcp_secrets(body: dict[str, Any]) -> list[str]:
    """The header values of a Responses body's ``mcp`` tools, for the kit to scrub."""
    if not any(isinstance(tool, dict) and tool.get("type") == "mcp" for tool in body.get("tools") or []):
        return []  # here: a body without MCP tools imports no tool modules
    from .tools import body_secrets

    return body_secrets(body)
