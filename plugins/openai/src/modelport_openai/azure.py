"""Azure OpenAI: Chat Completions (``azure-openai``) and the Responses API (``azure-openai-responses``).

The OpenAI mappings unchanged (the classes below subclass :class:`ChatCompletionsProvider` and
:class:`OpenAIResponsesProvider`), behind Azure's routes, credentials, content filter and error
shapes: see :mod:`modelport_openai._azure` (endpoint, API version, routes, ``api-key`` or Microsoft
Entra ID) and :mod:`modelport_openai._azure_filters` (filter annotations; a filtered prompt is the
``content-filter`` outcome, a result as Gemini's blocked prompt is, not an error; errors), and
:mod:`modelport_openai._azure_batches` (OpenAI's batch steps on Azure's routes). The model name is
the deployment's name::

    model = modelport.get_model("azure-openai/my-gpt-4o-deployment", endpoint="https://res.openai.azure.com")
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

import httpx

from modelport.http import HttpProvider, HttpRequest, Steps
from modelport.provider import Capabilities, EmbedRequest, ProviderConfig

from ._azure import API_KEY_ENV, AZURE_OPTIONS, AzureConnection
from ._quirks import Quirks
from .provider import (
    _CAPABILITIES,
    CHAT_COMPLETIONS_BOUNDS,
    ChatCompletionsProvider,
    OpenAIProvider,
    OpenAIResponsesProvider,
)

if TYPE_CHECKING:
    from modelport.batches import BatchDownload, BatchLine, BatchRequest, BatchState
    from modelport.errors import ProviderError
    from modelport.types import Result

    from ._azure_filters import FilteredStream

__all__ = ["AzureOpenAIProvider", "AzureOpenAIResponsesProvider", "filtered_categories"]

#: The operation of each path the OpenAI mappings build, and whether its Azure route names the
#: deployment (the deployment routes of a dated ``api_version``).
_OPERATIONS = {
    "/chat/completions": ("chat/completions", True),
    "/embeddings": ("embeddings", True),
    "/responses": ("responses", False),
    "/models": ("models", False),
}


def filtered_categories(metadata: Mapping[str, Any]) -> list[str]:
    """The categories Azure's content filter flagged in ``provider_metadata["azure-openai"]`` (or
    ``["azure-openai-responses"]``) of a result or finish event: prompt and answer, sorted."""
    from ._azure_filters import filtered_categories as categories

    return categories(metadata)


class _Azure(HttpProvider):
    """What both Azure providers add to their OpenAI mapping: routes, credentials, filters, errors."""

    default_base_url: ClassVar[str | None] = None
    api_key_env: ClassVar[tuple[str, ...]] = (API_KEY_ENV,)
    api_key_header: ClassVar[str] = "api-key"
    config_options: ClassVar[frozenset[str] | None] = AZURE_OPTIONS
    saved_options: ClassVar[frozenset[str]] = frozenset({"api_version", "name"})
    #: Whether the stream decoder is the Responses one (its filters are on the response object).
    _responses: ClassVar[bool] = False

    def __init__(self, config: ProviderConfig) -> None:
        super().__init__(config)
        self.azure = AzureConnection(config)

    # Where and who --------------------------------------------------------------------------------

    def base_url(self) -> str:
        return self.azure.endpoint()

    def api_key(self) -> str | None:
        return self.azure.api_key()

    def auth(self) -> httpx.Auth:
        return self.azure.auth()

    def secrets(self) -> list[str]:
        return self.azure.secrets()

    def headers(self) -> Mapping[str, str]:
        return {}  # no OpenAI-Organization / OpenAI-Project on Azure

    def saved_connection(self) -> dict[str, Any]:
        """The kit's, with the API version in use (from the environment too)."""
        return {**super().saved_connection(), "api_version": self.azure.api_version()}

    def _routed(self, spec: HttpRequest, model_name: str) -> HttpRequest:
        operation, by_deployment = _OPERATIONS[spec.url]
        return spec._replace(url=self.azure.route(operation, model_name if by_deployment else None))

    # The OpenAI mapping's requests, on Azure's routes -------------------------------------------

    def build_request(self, model_name: str, request: Any, *, stream: bool) -> HttpRequest:
        return self._routed(super().build_request(model_name, request, stream=stream), model_name)

    def embed_requests(self, model_name: str, request: EmbedRequest) -> Sequence[HttpRequest]:
        return [self._routed(spec, model_name) for spec in super().embed_requests(model_name, request)]

    def list_models_request(self, page: str | None) -> HttpRequest:
        return self._routed(super().list_models_request(page), "")

    # Batches: OpenAI's files + batches steps on Azure's routes (see ._azure_batches) ----------------

    def batch_submit(self, model_name: str, requests: Sequence[BatchRequest]) -> Steps[BatchState]:
        """``POST /openai/v1/files`` (or ``/openai/files?api-version=...``), then ``.../batches``."""
        from ._azure_batches import azure_submit

        return azure_submit(self.azure, requests)

    def batch_get(self, batch_id: str) -> Steps[BatchState]:
        from ._azure_batches import azure_get

        return azure_get(self.azure, batch_id)

    def batch_cancel(self, batch_id: str) -> Steps[BatchState]:
        from ._azure_batches import azure_cancel

        return azure_cancel(self.azure, batch_id)

    def batch_results(self, state: BatchState) -> Steps[Iterable[BatchLine | BatchDownload]]:
        from ._azure_batches import azure_results

        return azure_results(self.azure, state, self.error_from_response)

    # Filters and errors ---------------------------------------------------------------------------

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        from ._azure_filters import chat_filters, responses_filters, with_filters

        result = super().decode_response(data, spec)
        filters = responses_filters(data) if self._responses else chat_filters(data)
        if not filters:
            return result
        metadata = with_filters(result.provider_metadata, self.id, filters)
        return result.model_copy(update={"provider_metadata": metadata})

    def stream_decoder(self, spec: HttpRequest) -> FilteredStream:  # type: ignore[override]
        from ._azure_filters import FilteredStream

        return FilteredStream(super().stream_decoder(spec), key=self.id, responses=self._responses)

    def error_from_response(self, status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        from ._azure_filters import azure_error

        return azure_error(status, headers, body, provider=self.name, key=self.id)

    def outcome_of_error(self, error: ProviderError) -> Result | None:
        from ._azure_filters import outcome_of

        return outcome_of(error)  # a filtered prompt is an outcome, the result its 400 carries


class AzureOpenAIProvider(_Azure, ChatCompletionsProvider):  # type: ignore[misc]  # stream_decoder wraps
    """Azure OpenAI, Chat Completions: ``{endpoint}/openai/v1/chat/completions``, or the deployment
    route ``/openai/deployments/{deployment}/chat/completions?api-version=...`` for a dated
    ``api_version``. Key in ``AZURE_OPENAI_API_KEY`` (sent as ``api-key``) or Microsoft Entra ID;
    endpoint in ``AZURE_OPENAI_ENDPOINT``; version in ``OPENAI_API_VERSION``."""

    id: ClassVar[str] = "azure-openai"
    display_name: ClassVar[str] = "Azure OpenAI"
    telemetry_name: ClassVar[str | None] = "azure.ai.openai"
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = CHAT_COMPLETIONS_BOUNDS
    capabilities: ClassVar[Capabilities] = replace(_CAPABILITIES, list_models=False, batch=True)
    #: OpenAI's own models, served under deployment names: OpenAI's quirks, without prompt-cache keys.
    quirks: ClassVar[Quirks] = replace(OpenAIProvider.quirks, prompt_cache=False, metadata=False)


class AzureOpenAIResponsesProvider(_Azure, OpenAIResponsesProvider):  # type: ignore[misc]
    """Azure OpenAI, the Responses API: ``{endpoint}/openai/v1/responses``, or
    ``/openai/responses?api-version=...`` for a dated ``api_version``; credentials, endpoint and
    version as ``azure-openai``. No token counting here (Azure has no such route)."""

    id: ClassVar[str] = "azure-openai-responses"
    display_name: ClassVar[str] = "Azure OpenAI Responses API"
    telemetry_name: ClassVar[str | None] = "azure.ai.openai"
    _responses: ClassVar[bool] = True
    capabilities: ClassVar[Capabilities] = replace(
        OpenAIResponsesProvider.capabilities, count_tokens=False, list_models=False
    )
