"""The Google providers: ``google`` (Gemini API) and ``google-vertex`` (Vertex AI), on the core's
HTTP kit. Pure mapping only: bodies come from :mod:`._request`, decoding from :mod:`._decode` and
:mod:`._stream`, errors from :mod:`._errors`, URLs and authentication from :mod:`._backends`. The
core sends, reads, bounds, retries and scrubs, identically for sync and async.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from modelport.http import HttpProvider, HttpRequest, Steps, StreamEnd
from modelport.provider import Capabilities, EmbedRequest, ModelPage, ProviderConfig, TokenCount
from modelport.wire_map import WireMap

from ._backends import (
    API_KEY_ENV_VARS,
    BASE_URL_ENV_VAR,
    GEMINI_BASE_URL,
    GeminiBackend,
    VertexBackend,
    with_credential,
)
from ._wire_map import GEMINI_WIRE_MAP

if TYPE_CHECKING:
    import httpx

    from modelport.batches import BatchDownload, BatchLine, BatchRequest, BatchState, BatchValues
    from modelport.errors import ProviderError
    from modelport.tools import NeutralToolMapping
    from modelport.types import EmbeddingResult, Message, Origin, Request, Result

    from ._stream import StreamDecoder
    from ._vertex_batches import BatchBucket

# The mapping modules (pydantic types, the grounding code) are imported on first use, inside the
# methods, so that resolving "google/..." in get_model stays as cheap as the core (P1).

__all__ = ["GoogleProvider", "VertexProvider"]

_CAPABILITIES = Capabilities(
    generate=True,
    stream=True,
    embed=True,
    function_tools=True,
    provider_tools=True,
    reasoning=True,
    structured_output=True,
    count_tokens=True,
    web_search=True,
    web_fetch=True,
    code_execution=True,
)


class _GeminiFamily(HttpProvider):
    """What the Gemini API and Vertex AI share: the same bodies, frames and errors."""

    capabilities: ClassVar[Capabilities] = _CAPABILITIES
    tool_namespace: ClassVar[str | None] = "google"
    #: Keys of ``provider_options`` this provider reads, later ones winning.
    option_keys: ClassVar[tuple[str, ...]] = ("google",)
    api: ClassVar[str | None] = "generate-content"
    #: Frames have no kind: the one that says how the answer finished (or that the prompt was
    #: blocked) ends the stream.
    stream_end: ClassVar[StreamEnd | None] = StreamEnd(
        kind=None, status=("candidates.*.finishReason", "promptFeedback.blockReason")
    )
    #: Where the Gemini wire carries what is decoded, for the conformance suite's edits.
    wire_map: ClassVar[WireMap | None] = GEMINI_WIRE_MAP
    #: The Gemini API and Vertex express mode send the key in ``x-goog-api-key``.
    credential_headers: ClassVar[frozenset[str]] = frozenset({"x-goog-api-key"})
    #: API keys (``AIza`` and 35 more characters) and OAuth access tokens (``ya29.``).
    secret_patterns: ClassVar[Mapping[str, str]] = {
        "Google API key": r"(?<![0-9A-Za-z_\-])AIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])",
        "Google OAuth access token": r"ya29\.[0-9A-Za-z_\-.]{16,}",
    }

    #: ``temperature`` 0 to 2 (the API reference's range); ``topK``, ``maxOutputTokens`` and ``seed``
    #: are int32 fields of ``GenerationConfig`` on the wire (a larger value is Google's 400).
    request_bounds: ClassVar[Mapping[str, tuple[float, float]]] = {
        "temperature": (0, 2),
        "top_k": (1, 2**31 - 1),
        "max_output_tokens": (1, 2**31 - 1),
        "seed": (-(2**31), 2**31 - 1),
    }

    _backend: GeminiBackend | VertexBackend

    def neutral_tool(self, name: str) -> NeutralToolMapping | None:
        """``google.google_search`` / ``url_context`` / ``code_execution`` by this backend's rules."""
        from ._neutral import neutral_tool

        return neutral_tool(self.backend, name)

    def replay_from_model(self, message: Message, origin: Origin, model_name: str) -> Message:
        """Google's rule for a turn another Gemini model produced: its thought signatures and thoughts
        are dropped, and a model that validates signatures gets Google's stand-in signature on the
        turn's first function call (see :func:`._replay.from_other_model`)."""
        from ._replay import from_other_model

        return from_other_model(message, model_name)

    # Mapping ----------------------------------------------------------------------------------

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        """``:generateContent``, or ``:streamGenerateContent?alt=sse`` for a stream."""
        body, warnings = self._body(model_name, request)
        method = "streamGenerateContent?alt=sse" if stream else "generateContent"
        url = f"{self._backend.model_url(model_name)}:{method}"
        return HttpRequest(url, body=body, stream=stream, warnings=warnings)

    def cache_name(self, name: str) -> str:
        """A cached-content name as the backend expects it (``cachedContents/{id}``, expanded to
        ``projects/{p}/locations/{l}/cachedContents/{id}`` on Vertex)."""
        return self._backend.resource_name(name, "cachedContents")

    def model_resource(self, model_name: str) -> str:
        """The model as a resource name (``models/{m}``; on Vertex the full publisher model name)."""
        from ._backends import model_path, publisher_model

        backend = self._backend
        if not isinstance(backend, VertexBackend) or model_name.startswith("projects/"):
            return model_path(model_name)
        model = publisher_model(model_name)
        return model if backend.express() else f"{backend.parent()}/{model}"

    def cache_collection(self) -> str:
        """Where cached contents live: ``cachedContents`` (with the project and location on Vertex)."""
        backend = self._backend
        if isinstance(backend, VertexBackend) and not backend.express():
            return f"{backend.parent()}/cachedContents"
        return "cachedContents"

    def body_for(self, model_name: str, request: Request) -> tuple[dict[str, Any], list[Any]]:
        """The ``generateContent`` body and warnings for a validated canonical request (pure)."""
        return self._body(model_name, request)

    def _body(self, model_name: str, request: Request) -> tuple[dict[str, Any], list[Any]]:
        from ._request import build_body

        body, warnings = build_body(
            request, backend=self.backend, option_keys=self.option_keys, model=model_name
        )
        cached = body.get("cachedContent")
        if isinstance(cached, str) and cached:
            body["cachedContent"] = self._backend.resource_name(cached, "cachedContents")
        return body, warnings

    def count_tokens_request(self, model_name: str, request: Request) -> HttpRequest:
        """``:countTokens`` with the body ``generate`` would send (what counts of it)."""
        from ._backends import model_path
        from ._count import count_body

        body, _ = self._body(model_name, request)
        vertex = self._backend.vertex
        wire = count_body(body, model_path(model_name), vertex=vertex)
        return HttpRequest(f"{self._backend.model_url(model_name)}:countTokens", body=wire)

    def decode_token_count(self, data: Any, spec: HttpRequest) -> TokenCount:
        from ._count import decode_count

        return decode_count(data)

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        from ._decode import decode_response

        return decode_response(data, provider=self.name, from_wire=True)

    def stream_decoder(self, spec: HttpRequest) -> StreamDecoder:
        from ._stream import StreamDecoder

        return StreamDecoder(provider=self.name)

    def error_from_response(self, status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        from ._errors import error_from_response

        return error_from_response(status, headers, body, provider=self.name)

    def embed_requests(self, model_name: str, request: EmbedRequest) -> Sequence[HttpRequest]:
        """``:embedContent`` / ``:batchEmbedContents`` (batches of at most 100), ``:predict`` on Vertex."""
        from ._embed import embed_calls

        url = self._backend.model_url(model_name)
        calls = embed_calls(model_name, request, vertex=self._backend.vertex)
        return [HttpRequest(f"{url}:{call[0]}", body=call[1], context=call) for call in calls]

    def decode_embeddings(
        self, request: EmbedRequest, specs: Sequence[HttpRequest], responses: Sequence[Any]
    ) -> EmbeddingResult:
        from ._embed import decode_embeddings

        return decode_embeddings([spec.context for spec in specs], responses, provider=self.name)


class GoogleProvider(_GeminiFamily):
    """Gemini API (generativelanguage.googleapis.com)."""

    id: ClassVar[str] = "google"
    display_name: ClassVar[str] = "Google"
    telemetry_name: ClassVar[str | None] = "gcp.gemini"
    backend: ClassVar[str] = "gemini"
    capabilities: ClassVar[Capabilities] = replace(_CAPABILITIES, list_models=True, batch=True)
    default_base_url: ClassVar[str | None] = GEMINI_BASE_URL
    base_url_env: ClassVar[str | None] = BASE_URL_ENV_VAR
    api_key_env: ClassVar[tuple[str, ...]] = API_KEY_ENV_VARS
    api_key_header: ClassVar[str] = "x-goog-api-key"
    #: ``credential=`` is an alias of ``api_key=`` here (on Vertex AI it is a google-auth credential).
    config_options: ClassVar[frozenset[str] | None] = frozenset({"credential", "name"})
    saved_options: ClassVar[frozenset[str]] = frozenset({"name"})

    _backend: GeminiBackend

    def __init__(self, config: ProviderConfig) -> None:
        super().__init__(with_credential(config))
        self._backend = GeminiBackend(self.base_url)

    # Batch mode (the Gemini API's; Vertex runs batch prediction jobs on Cloud Storage instead) ----

    def batch_submit(self, model_name: str, requests: Sequence[BatchRequest]) -> Steps[BatchState]:
        """``POST models/{model}:batchGenerateContent``, the requests inline or as an uploaded file."""
        from ._backends import model_path
        from ._batches import submit_steps

        base = self._backend.base_url()
        return submit_steps(
            base, self._backend.model_url(model_name), model_path(model_name), requests, self.name
        )

    def batch_get(self, batch_id: str) -> Steps[BatchState]:
        from ._batches import get_steps

        return get_steps(batch_id)

    def batch_cancel(self, batch_id: str) -> Steps[BatchState]:
        from ._batches import cancel_steps

        return cancel_steps(batch_id)

    def batch_results(self, state: BatchState) -> Steps[Iterable[BatchLine | BatchDownload | BatchValues]]:
        from ._batches import results_steps

        return results_steps(self._backend.base_url(), state, self.name, self.error_from_response)

    def list_models_request(self, page: str | None) -> HttpRequest:
        """``GET models`` (``models.list``), a page of up to 1000 models."""
        from ._models import model_list_url

        return HttpRequest(model_list_url(page), method="GET")

    def decode_model_page(self, data: Any, spec: HttpRequest) -> ModelPage:
        from ._models import decode_model_page

        return decode_model_page(data)


class VertexProvider(_GeminiFamily):
    """Vertex AI ({location}-aiplatform.googleapis.com)."""

    id: ClassVar[str] = "google-vertex"
    display_name: ClassVar[str] = "Google Vertex AI"
    telemetry_name: ClassVar[str | None] = "gcp.vertex_ai"
    backend: ClassVar[str] = "vertex"
    option_keys: ClassVar[tuple[str, ...]] = ("google", "google-vertex")
    capabilities: ClassVar[Capabilities] = replace(_CAPABILITIES, batch=True)
    config_options: ClassVar[frozenset[str] | None] = frozenset(
        {"project", "location", "token", "token_provider", "credential", "name", "batch_bucket"}
    )
    #: Besides the base URL's host: another location's host (a tuned model's endpoint) and Cloud
    #: Storage (a batch's files), all on the same OAuth credentials.
    credential_origins: ClassVar[tuple[str, ...]] = (
        "https://*-aiplatform.googleapis.com",
        "https://aiplatform.googleapis.com",
        "https://aiplatform.*.rep.googleapis.com",
        "https://storage.googleapis.com",
    )
    saved_options: ClassVar[frozenset[str]] = frozenset({"project", "location", "batch_bucket", "name"})

    _backend: VertexBackend

    def __init__(self, config: ProviderConfig) -> None:
        super().__init__(config)
        self._backend = VertexBackend(config)
        bucket = config.options.get("batch_bucket")
        if bucket is not None:
            from ._vertex_batches import parse_batch_bucket

            self._batch_bucket: BatchBucket | None = parse_batch_bucket(bucket)
        else:
            self._batch_bucket = None

    # Where and who: Vertex AI's own (a token, a token provider, ADC or the express-mode key) ----

    def base_url(self) -> str:
        return self._backend.base_url()

    def auth(self) -> httpx.Auth:
        return self._backend.auth()

    def secrets(self) -> list[str]:
        return self._backend.secrets()

    # Batch prediction jobs (their requests and predictions in Cloud Storage: ``batch_bucket``) ----

    def saved_connection(self) -> dict[str, Any]:
        """The kit's, with the project and location in use (from the environment too): a restored
        job names the same job resource, whatever the environment says then."""
        kept = super().saved_connection()
        project = self._backend.project()
        kept.update({"location": self._backend.location(), **({"project": project} if project else {})})
        return kept

    def batch_submit(self, model_name: str, requests: Sequence[BatchRequest]) -> Steps[BatchState]:
        """Upload the requests to ``batch_bucket``, then ``POST {parent}/batchPredictionJobs``."""
        from modelport.errors import InvalidRequestError

        from ._vertex_batches import submit_steps

        if self._batch_bucket is None:
            raise InvalidRequestError(
                "google-vertex runs a batch as a Vertex AI batch prediction job, whose requests and "
                "predictions live in Cloud Storage: pass batch_bucket='gs://bucket/folder' to get_model"
            )
        if self._backend.express():
            raise InvalidRequestError(
                "Vertex AI batch prediction needs a project and OAuth credentials (Cloud Storage takes "
                "no API key): pass project= and token=, token_provider= or application default credentials"
            )
        from ._backends import publisher_model

        # The documented model forms: publishers/google/models/{m}, or a tuned model's full name.
        return submit_steps(self._backend.parent(), publisher_model(model_name), self._batch_bucket, requests)

    def batch_get(self, batch_id: str) -> Steps[BatchState]:
        from ._vertex_batches import get_steps, job_name

        return get_steps(job_name(self._backend.parent(), batch_id))

    def batch_cancel(self, batch_id: str) -> Steps[BatchState]:
        from ._vertex_batches import cancel_steps, job_name

        return cancel_steps(job_name(self._backend.parent(), batch_id))

    def batch_results(self, state: BatchState) -> Steps[Iterable[BatchLine | BatchDownload]]:
        from ._vertex_batches import job_name, results_steps

        name = job_name(self._backend.parent(), state.id)
        return results_steps(name, self.name, self.error_from_response)
