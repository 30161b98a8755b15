"""The ``anthropic`` provider: the Messages API (``POST /v1/messages``) on the core's HTTP kit.

Pure mapping: bodies come from :mod:`._request` (messages from :mod:`._messages`), decoding from
:mod:`._decode` and :mod:`._stream` (blocks from :mod:`._blocks`), errors from :mod:`._errors`.
The core sends, reads, bounds, retries and scrubs, the same way for sync and async. The mapping
modules are imported on first use, so resolving ``"anthropic/..."`` in ``get_model`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from modelport.errors import ConfigurationError
from modelport.http import HeaderAuth, HttpProvider, HttpRequest, Steps, StreamEnd, check_header_value
from modelport.provider import Capabilities, ModelPage, ProviderConfig, TokenCount
from modelport.wire_map import WireMap

from ._versions import API_VERSIONS, BEARER_VERSIONS, DEFAULT_API_VERSION, api_version, refuse_sampling
from ._wire_map import ANTHROPIC_WIRE_MAP

if TYPE_CHECKING:
    import httpx

    from modelport.batches import BatchDownload, BatchLine, BatchRequest, BatchState
    from modelport.errors import ProviderError
    from modelport.tools import NeutralToolMapping
    from modelport.types import Request, Result

    from ._stream import MessageStream

__all__ = ["ANTHROPIC_API_VERSIONS", "ANTHROPIC_BASE_URL", "ANTHROPIC_VERSION", "AnthropicProvider"]

#: The Anthropic API's base URL (the ``anthropic`` provider's default).
ANTHROPIC_BASE_URL = "https://api.anthropic.com"
#: The default ``anthropic-version`` header (every recorded case was made against it).
ANTHROPIC_VERSION = DEFAULT_API_VERSION
#: The versions ``api_version=`` accepts: ``2023-06-01`` and ``2026-10-21`` (``Authorization:
#: Bearer``, no ``temperature``, ``top_p`` or ``top_k``).
ANTHROPIC_API_VERSIONS = API_VERSIONS


def _beta_names(beta: object) -> list[str]:
    """The beta names of ``beta=``: one name, or a list or tuple of them (``None`` or empty: none).
    Anything else, bytes included, is a ``ConfigurationError`` before any request, never sent as
    its ``str()`` (``b"files-api-…"`` was sent as ``102,105,108,…``)."""
    if beta is None:
        return []
    names = [beta] if isinstance(beta, str) else beta
    if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
        raise ConfigurationError(f"beta= takes a beta name or a list of them (strings), got {_shape(beta)}")
    return [name for name in names if name]


def _shape(value: object) -> str:
    if isinstance(value, (list, tuple)):
        kinds = sorted({type(item).__name__ for item in value if not isinstance(item, str)})
        return f"a {type(value).__name__} holding {', '.join(kinds)}"
    return type(value).__name__


class AnthropicProvider(HttpProvider):
    """Anthropic (``https://api.anthropic.com``); key in ``ANTHROPIC_API_KEY`` (sent as ``x-api-key``),
    URL in ``ANTHROPIC_BASE_URL``.

    ``beta=`` (a string or a list of strings) is sent as the ``anthropic-beta`` header.
    ``api_version=`` is the ``anthropic-version`` header: ``2023-06-01`` (the default) or
    ``2026-10-21``, which takes the key as ``Authorization: Bearer`` and refuses ``temperature``,
    ``top_p`` and ``top_k`` before any I/O; any other is a ``ConfigurationError``.
    """

    id: ClassVar[str] = "anthropic"
    display_name: ClassVar[str] = "Anthropic"
    telemetry_name: ClassVar[str | None] = "anthropic"
    #: Where the Messages wire carries what is decoded, for the conformance suite's edits.
    wire_map: ClassVar[WireMap | None] = ANTHROPIC_WIRE_MAP
    capabilities: ClassVar[Capabilities] = Capabilities(
        generate=True,
        stream=True,
        function_tools=True,
        reasoning=True,
        structured_output=True,
        provider_tools=True,
        count_tokens=True,
        batch=True,
        list_models=True,
        prompt_cache=True,
        web_search=True,
        web_fetch=True,
        code_execution=True,
        mcp_server=True,
        documents=True,
    )
    default_base_url: ClassVar[str | None] = ANTHROPIC_BASE_URL
    base_url_env: ClassVar[str | None] = "ANTHROPIC_BASE_URL"
    api_key_env: ClassVar[tuple[str, ...]] = ("ANTHROPIC_API_KEY",)
    api_key_header: ClassVar[str] = "x-api-key"
    credential_headers: ClassVar[frozenset[str]] = frozenset({"x-api-key"})
    secret_patterns: ClassVar[Mapping[str, str]] = {
        "Anthropic API key": r"(?<![0-9A-Za-z])sk-ant-[0-9A-Za-z_\-]{20,}"
    }
    config_options: ClassVar[frozenset[str] | None] = frozenset({"api_version", "beta", "name"})
    #: ``temperature`` ranges from 0 to 1 on the Messages API.
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = {"temperature": (0, 1)}
    saved_options: ClassVar[frozenset[str]] = frozenset({"api_version", "beta", "name"})
    tool_namespace: ClassVar[str | None] = "anthropic"
    api: ClassVar[str | None] = "messages"
    #: ``message_stop`` ends a complete stream, after ``message_start`` and the ``message_delta``
    #: that carries the stop reason and final usage.
    stream_end: ClassVar[StreamEnd | None] = StreamEnd(
        kind="type",
        terminal=frozenset({"message_stop"}),
        required=frozenset({"message_start", "message_delta"}),
    )
    #: Thinking signatures belong to the model that wrote them: another Claude model gets the turn
    #: without its thinking (the contract's replay policy warns about what was dropped).
    cross_model_replay: ClassVar[Literal["keep", "drop"]] = "drop"

    def __init__(self, config: ProviderConfig) -> None:
        version = api_version(config.options)  # an unknown one is refused before any client exists
        super().__init__(config)
        #: The ``anthropic-version`` sent (``api_version=``).
        self.api_version = version

    def auth(self) -> httpx.Auth | None:
        """The key as ``x-api-key``, or as ``Authorization: Bearer`` for a version that takes it so."""
        if self.api_version not in BEARER_VERSIONS:
            return super().auth()
        key = self.api_key()
        return None if key is None else HeaderAuth("authorization", f"Bearer {key}")

    def neutral_tool(self, name: str) -> NeutralToolMapping | None:
        """``anthropic.web_search`` / ``web_fetch`` / ``code_execution`` / ``mcp_server``."""
        from ._neutral import neutral_tool

        return neutral_tool(name)

    def headers(self) -> Mapping[str, str]:
        sent = {"anthropic-version": self.api_version}
        names = _beta_names(self.config.options.get("beta"))
        if names:
            sent["anthropic-beta"] = check_header_value(",".join(names), "beta")
        return sent

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        """``POST /v1/messages`` (with ``stream: true`` for a stream)."""
        from ._request import build_body

        body, warnings, answer = build_body(model_name, request, stream=stream)
        refuse_sampling(self.api_version, request, body)
        return HttpRequest(
            "/v1/messages",
            body=body,
            stream=stream,
            warnings=warnings,
            context=answer,
            **self._connector(request, body),
        )

    def _connector(self, request: Request, body: dict[str, Any]) -> dict[str, Any]:
        """For a request with the MCP connector (``anthropic.mcp_server``): its beta added to the
        ``anthropic-beta`` header, and the tokens of ``mcp_servers`` for the kit to scrub."""
        if "mcp_servers" not in body:
            return {}  # here: a request without the connector imports no tool modules
        from modelport.types import ProviderTool

        from ._request import MCP_SERVER, mcp_secrets
        from .tools import mcp_beta

        extra: dict[str, Any] = {}
        secrets = mcp_secrets(body)
        if secrets:
            extra["secrets"] = secrets
        connectors = [t for t in request.tools or [] if isinstance(t, ProviderTool) and t.id == MCP_SERVER]
        if connectors:
            names, version = _beta_names(self.config.options.get("beta")), mcp_beta(connectors)
            beta = ",".join(names if version in names else [*names, version])
            extra["headers"] = {"anthropic-beta": check_header_value(beta, "beta")}
        return extra

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        from ._decode import decode_message

        return decode_message(data, spec.context)

    def stream_decoder(self, spec: HttpRequest) -> MessageStream:
        from ._stream import MessageStream

        return MessageStream(spec.context)

    def count_tokens_request(self, model_name: str, request: Request) -> HttpRequest:
        """``POST /v1/messages/count_tokens``."""
        from ._request import count_body

        body = count_body(model_name, request)
        return HttpRequest("/v1/messages/count_tokens", body=body, **self._connector(request, body))

    def decode_token_count(self, data: Any, spec: HttpRequest) -> TokenCount:
        return TokenCount(input_tokens=data["input_tokens"])

    def batch_submit(self, model_name: str, requests: Sequence[BatchRequest]) -> Steps[BatchState]:
        """``POST /v1/messages/batches``."""
        from ._batches import submit_steps

        return submit_steps(requests)

    def batch_get(self, batch_id: str) -> Steps[BatchState]:
        from ._batches import get_steps

        return get_steps(batch_id)

    def batch_cancel(self, batch_id: str) -> Steps[BatchState]:
        from ._batches import cancel_steps

        return cancel_steps(batch_id)

    def batch_results(self, state: BatchState) -> Steps[Iterable[BatchLine | BatchDownload]]:
        from ._batches import results_steps

        return results_steps(state, self.name, self.error_from_response)

    def list_models_request(self, page: str | None) -> HttpRequest:
        """``GET /v1/models``, a page of up to 1000 models (after the model id ``page``)."""
        from ._models import model_list_url

        return HttpRequest(model_list_url(page), method="GET")

    def decode_model_page(self, data: Any, spec: HttpRequest) -> ModelPage:
        from ._models import decode_model_page

        return decode_model_page(data)

    def error_from_response(self, status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        from ._errors import error_from_response

        return error_from_response(status, headers, body, provider=self.name)
