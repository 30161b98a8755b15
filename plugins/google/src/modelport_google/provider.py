"""The Google providers: ``google`` (Gemini API) and ``google-vertex`` (Vertex AI).

Only I/O lives here; bodies come from :mod:`._request`, decoding from :mod:`._decode` and
:mod:`._stream`, errors from :mod:`._errors`. Sync and async differ only in the transport calls.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, ClassVar

from modelport.provider import Capabilities, EmbedRequest, Provider, ProviderConfig

from ._backends import GeminiBackend, VertexBackend

if TYPE_CHECKING:
    from modelport.events import StreamEvent
    from modelport.types import EmbeddingResult, Request, Result, Warning

# The mapping modules (pydantic types, the SSE parser) are imported on first use, inside the methods,
# so that resolving "google/..." in get_model stays as cheap as the core (P1).

__all__ = ["GoogleProvider", "VertexProvider"]

_CAPABILITIES = Capabilities(
    generate=True,
    stream=True,
    embed=True,
    function_tools=True,
    provider_tools=True,
    reasoning=True,
    structured_output=True,
)


class _GeminiFamily(Provider):
    """What the Gemini API and Vertex AI share: the same bodies, frames and errors."""

    capabilities: ClassVar[Capabilities] = _CAPABILITIES
    tool_namespace: ClassVar[str | None] = "google"
    #: Keys of ``provider_options`` this provider reads, later ones winning.
    option_keys: ClassVar[tuple[str, ...]] = ("google",)

    _backend: GeminiBackend | VertexBackend
    _prepared: tuple[Request, bytes, list[Warning]] | None = None

    @property
    def name(self) -> str:
        """The provider's name in errors (the ``name`` option, else the provider id)."""
        return str(self.config.options.get("name") or self.id)

    def _body(self, request: Request) -> tuple[bytes, list[Warning]]:
        # check_request already built the body for this very request object: reuse it (the
        # request is immutable and held by the cache, so identity cannot be recycled).
        cached = self._prepared
        if cached is not None and cached[0] is request:
            return cached[1], list(cached[2])
        from ._request import build_body, encode_body

        wire, warnings = build_body(request, backend=self.backend, option_keys=self.option_keys)
        body = encode_body(wire)
        self._prepared = (request, body, warnings)
        return body, list(warnings)

    def check_request(self, model_name: str, request: Request) -> None:
        """Build the body once: every mapping rule that can reject a request does so here."""
        self._body(request)

    # Generation -----------------------------------------------------------------------------

    def generate(self, model_name: str, request: Request) -> Result:
        """``:generateContent``."""
        from ._decode import decode_response
        from ._transport import post_json

        body, warnings = self._body(request)
        endpoint = self._backend.endpoint(model_name)
        data = post_json(self.http.sync(), endpoint, "generateContent", body, self.name)
        return decode_response(data, provider=self.name, warnings=warnings, from_wire=True)

    async def agenerate(self, model_name: str, request: Request) -> Result:
        """Async ``:generateContent``."""
        from ._decode import decode_response
        from ._transport import apost_json

        body, warnings = self._body(request)
        endpoint = await self._backend.aendpoint(model_name)
        data = await apost_json(self.http.async_(), endpoint, "generateContent", body, self.name)
        return decode_response(data, provider=self.name, warnings=warnings, from_wire=True)

    def stream(self, model_name: str, request: Request) -> Iterator[StreamEvent]:
        """``:streamGenerateContent?alt=sse``."""
        from ._stream import StreamDecoder
        from ._transport import stream_frames

        body, warnings = self._body(request)
        endpoint = self._backend.endpoint(model_name)
        decoder = StreamDecoder(provider=self.name, warnings=warnings)
        yield decoder.start()
        for frame in stream_frames(self.http.sync(), endpoint, body, self.name):
            yield from decoder.feed(frame)
        yield from decoder.finish()

    async def astream(self, model_name: str, request: Request) -> AsyncIterator[StreamEvent]:  # type: ignore[override]
        """Async ``:streamGenerateContent?alt=sse``."""
        from ._stream import StreamDecoder
        from ._transport import astream_frames

        body, warnings = self._body(request)
        endpoint = await self._backend.aendpoint(model_name)
        decoder = StreamDecoder(provider=self.name, warnings=warnings)
        yield decoder.start()
        async for frame in astream_frames(self.http.async_(), endpoint, body, self.name):
            for event in decoder.feed(frame):
                yield event
        for event in decoder.finish():
            yield event

    # Embeddings -----------------------------------------------------------------------------

    def embed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        """``:embedContent`` / ``:batchEmbedContents`` (batches of at most 100)."""
        from ._embed import decode_embeddings, embed_calls
        from ._request import encode_body
        from ._transport import post_json

        endpoint = self._backend.endpoint(model_name)
        calls = embed_calls(model_name, request, vertex=endpoint.vertex)
        encoded = [(method, encode_body(body)) for method, body, _ in calls]  # all checked first
        client = self.http.sync()
        responses = [post_json(client, endpoint, method, body, self.name) for method, body in encoded]
        return decode_embeddings(calls, responses, provider=self.name)

    async def aembed(self, model_name: str, request: EmbedRequest) -> EmbeddingResult:
        """Async twin of :meth:`embed`."""
        from ._embed import decode_embeddings, embed_calls
        from ._request import encode_body
        from ._transport import apost_json

        endpoint = await self._backend.aendpoint(model_name)
        calls = embed_calls(model_name, request, vertex=endpoint.vertex)
        encoded = [(method, encode_body(body)) for method, body, _ in calls]  # all checked first
        client = self.http.async_()
        responses = [await apost_json(client, endpoint, m, body, self.name) for m, body in encoded]
        return decode_embeddings(calls, responses, provider=self.name)


class GoogleProvider(_GeminiFamily):
    """Gemini API (generativelanguage.googleapis.com)."""

    id: ClassVar[str] = "google"
    display_name: ClassVar[str] = "Google"
    backend: ClassVar[str] = "gemini"

    def __init__(self, config: ProviderConfig) -> None:
        super().__init__(config)
        self._backend = GeminiBackend(config)


class VertexProvider(_GeminiFamily):
    """Vertex AI ({location}-aiplatform.googleapis.com)."""

    id: ClassVar[str] = "google-vertex"
    display_name: ClassVar[str] = "Google Vertex AI"
    backend: ClassVar[str] = "vertex"
    option_keys: ClassVar[tuple[str, ...]] = ("google", "google-vertex")

    def __init__(self, config: ProviderConfig) -> None:
        super().__init__(config)
        self._backend = VertexBackend(config)
