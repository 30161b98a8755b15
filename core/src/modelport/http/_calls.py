"""What the kit does for every call, sync and async: build the request with the plugin's pure hooks,
send it to the model's :class:`~modelport.http.Endpoint` (:mod:`._sync`, :mod:`._async`), and decode
the answer with the plugin's hooks again, turning a decoder's bare Python error into a typed one.

The plugin is reached through :class:`Codec` (the hooks of :class:`~modelport.http.HttpProvider`),
so this module never imports the kit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from .._runtime import retry as _retry
from .._runtime.decode_guard import DECODE_ERRORS, decode_error
from ..deadlines import current as current_deadline
from ..errors import ModelportError, ProviderError, ProviderResponseError
from ..wire import decoding, dumps
from ._async import abody_of, asend, asend_json, astream_frames
from ._codec import Codec
from ._file_body import FileBody
from ._stream_steps import StreamSteps
from ._sync import receive_json, send, send_json, stream_frames
from ._types import HttpRequest, HttpResponse

if TYPE_CHECKING:
    from ..deadlines import Deadline
    from ..events import StreamEvent
    from ..provider import EmbedRequest, ModelInfo, TokenCount
    from ..types import EmbeddingResult, Request, Result
    from ._endpoint import Endpoint

__all__ = [
    "DECODE_ERRORS",
    "Codec",
    "acall",
    "acall_json",
    "acount_tokens",
    "aembed",
    "agenerate",
    "alist_models",
    "astream",
    "call",
    "call_json",
    "count_tokens",
    "embed",
    "generate",
    "list_models",
    "stream",
]

_T = TypeVar("_T")


_IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
#: At most this many pages of a model list are read: a list that never ends is an error.
MAX_MODEL_PAGES = 100


# Generation ---------------------------------------------------------------------------------------


# Each takes the request as the codec built it, once a call (``HttpProvider.prepare``).


def generate(codec: Codec, model_name: str, spec: HttpRequest) -> Result:
    try:
        return _result(codec, *receive_json(codec.endpoint(), spec, model=model_name), spec)
    except ProviderError as error:
        outcome = codec.outcome_of_error(error)
        if outcome is None:
            raise
        return outcome


async def agenerate(codec: Codec, model_name: str, spec: HttpRequest) -> Result:
    try:
        exchange, reply, body = await abody_of(codec.endpoint(), spec, model_name)  # receive_json
        return _result(codec, exchange.answer(reply, body), len(body), spec)
    except ProviderError as error:
        outcome = codec.outcome_of_error(error)
        if outcome is None:
            raise
        return outcome


def stream(
    codec: Codec, model_name: str, spec: HttpRequest, deadline: Deadline | None
) -> Iterator[StreamEvent]:
    """The events of a stream, within the call's ``deadline`` (read when the call was made)."""
    steps = StreamSteps(codec, spec)
    yield steps.start
    frames = stream_frames(
        steps.endpoint, spec, model=model_name, ended=steps.ended, deadline=deadline, size=steps.size
    )
    try:
        for frame in frames:
            yield from steps.events(frame)
    except ModelportError as error:
        yield from steps.flushed()  # events a decoder held back are not lost
        yield steps.outcome(error)  # or the error raised
        return
    yield from steps.finished()
    steps.check_complete()


async def astream(
    codec: Codec, model_name: str, spec: HttpRequest, deadline: Deadline | None
) -> AsyncIterator[StreamEvent]:
    """:func:`stream`, driven by the async reader (whose frames are closed however the loop ends)."""
    steps = StreamSteps(codec, spec)
    yield steps.start
    frames = astream_frames(
        steps.endpoint, spec, model=model_name, ended=steps.ended, deadline=deadline, size=steps.size
    )
    try:
        async for frame in frames:
            for event in steps.events(frame):
                yield event
    except ModelportError as error:
        for event in steps.flushed():
            yield event
        yield steps.outcome(error)  # or the error raised
        return
    finally:
        await frames.aclose()
    for event in steps.finished():
        yield event
    steps.check_complete()


# Embeddings and token counts ----------------------------------------------------------------------


def embed(codec: Codec, model_name: str, request: EmbedRequest) -> EmbeddingResult:
    specs = _embed_specs(codec, model_name, request)
    endpoint = codec.endpoint()
    policy = endpoint.retry
    responses = [_retry.call(policy, partial(send_json, endpoint, spec, model=model_name)) for spec in specs]
    return _embeddings(codec, request, specs, responses)


async def aembed(codec: Codec, model_name: str, request: EmbedRequest) -> EmbeddingResult:
    specs = _embed_specs(codec, model_name, request)
    endpoint = codec.endpoint()
    policy = endpoint.retry
    responses = [
        await _retry.acall(policy, partial(asend_json, endpoint, spec, model=model_name)) for spec in specs
    ]
    return _embeddings(codec, request, specs, responses)


def count_tokens(codec: Codec, model_name: str, request: Request) -> TokenCount:
    spec = codec.count_tokens_request(model_name, request)
    data = send_json(codec.endpoint(), spec, model=model_name)
    return _guard(codec, lambda: codec.decode_token_count(data, spec))


async def acount_tokens(codec: Codec, model_name: str, request: Request) -> TokenCount:
    spec = codec.count_tokens_request(model_name, request)
    data = await asend_json(codec.endpoint(), spec, model=model_name)
    return _guard(codec, lambda: codec.decode_token_count(data, spec))


# Model lists --------------------------------------------------------------------------------------


def list_models(codec: Codec) -> list[ModelInfo]:
    """Every page of the provider's model list, in order (an idempotent request is retried)."""
    models: list[ModelInfo] = []
    page: str | None = None
    for _ in range(MAX_MODEL_PAGES):
        spec = codec.list_models_request(page)
        data = call_json(codec.endpoint(), spec, retry=_retried(spec, None))
        page = _next_page(codec, data, spec, page, models)
        if page is None:
            return models
    raise _endless(codec)


async def alist_models(codec: Codec) -> list[ModelInfo]:
    """Async twin of :func:`list_models`."""
    models: list[ModelInfo] = []
    page: str | None = None
    for _ in range(MAX_MODEL_PAGES):
        spec = codec.list_models_request(page)
        data = await acall_json(codec.endpoint(), spec, retry=_retried(spec, None))
        page = _next_page(codec, data, spec, page, models)
        if page is None:
            return models
    raise _endless(codec)


def _next_page(
    codec: Codec, data: Any, spec: HttpRequest, page: str | None, models: list[ModelInfo]
) -> str | None:
    """The decoded page's models added to ``models``; the next page's token (``None``: the end)."""
    decoded = _guard(codec, lambda: codec.decode_model_page(data, spec))
    models.extend(decoded.models)
    if decoded.next_page is not None and decoded.next_page == page:
        raise ProviderResponseError(
            "the model list names the same page as its next page", provider=codec.name
        )
    return decoded.next_page or None


def _endless(codec: Codec) -> ProviderResponseError:
    return ProviderResponseError(
        f"the model list did not end within {MAX_MODEL_PAGES} pages", provider=codec.name
    )


# Any other endpoint -------------------------------------------------------------------------------


def call_json(endpoint: Endpoint, spec: HttpRequest, *, retry: bool = False) -> Any:
    """See :meth:`~modelport.http.HttpProvider.call_json`."""
    spec = _encoded(spec)
    if retry:
        return _retry.call(endpoint.retry, partial(send_json, endpoint, spec, allow_empty=True))
    return send_json(endpoint, spec, allow_empty=True)


async def acall_json(endpoint: Endpoint, spec: HttpRequest, *, retry: bool = False) -> Any:
    spec = _encoded(spec)
    if retry:
        return await _retry.acall(endpoint.retry, partial(asend_json, endpoint, spec, allow_empty=True))
    return await asend_json(endpoint, spec, allow_empty=True)


def call_lines(endpoint: Endpoint, spec: HttpRequest, *, bad_lines: bool = False) -> Iterator[Any]:
    """See :meth:`~modelport.http.HttpProvider.call_lines`; ``bad_lines=True`` yields a
    :class:`~._lines.BadLine` for a line that is not JSON and goes on (a batch's results)."""
    return stream_frames(
        endpoint, _encoded(spec), lines=True, deadline=current_deadline(), bad_lines=bad_lines
    )


def acall_lines(endpoint: Endpoint, spec: HttpRequest, *, bad_lines: bool = False) -> AsyncIterator[Any]:
    return astream_frames(
        endpoint, _encoded(spec), lines=True, deadline=current_deadline(), bad_lines=bad_lines
    )


def call(endpoint: Endpoint, spec: HttpRequest, *, retry: bool | None = None) -> HttpResponse:
    """See :meth:`~modelport.http.HttpProvider.call`."""
    spec = _encoded(spec)
    if _retried(spec, retry):
        return _retry.call(endpoint.retry, partial(send, endpoint, spec))
    return send(endpoint, spec)


async def acall(endpoint: Endpoint, spec: HttpRequest, *, retry: bool | None = None) -> HttpResponse:
    spec = _encoded(spec)
    if _retried(spec, retry):
        return await _retry.acall(endpoint.retry, partial(asend, endpoint, spec))
    return await asend(endpoint, spec)


# Helpers ------------------------------------------------------------------------------------------


def _encoded(spec: HttpRequest) -> HttpRequest:
    """``spec`` with its JSON body encoded (and so checked) once, before any attempt."""
    if spec.body is None or isinstance(spec.body, (bytes, FileBody)):
        return spec
    return spec._replace(body=dumps(spec.body))


def _retried(spec: HttpRequest, retry: bool | None) -> bool:
    return spec.method.upper() in _IDEMPOTENT if retry is None else retry


def _embed_specs(codec: Codec, model_name: str, request: EmbedRequest) -> list[HttpRequest]:
    # Every body is encoded (and so checked) before the first is sent.
    return [_encoded(spec) for spec in codec.embed_requests(model_name, request)]


def _embeddings(
    codec: Codec, request: EmbedRequest, specs: Sequence[HttpRequest], responses: Sequence[Any]
) -> EmbeddingResult:
    return _guard(codec, lambda: _counted(request, codec.decode_embeddings(request, specs, responses)))


def _counted(request: EmbedRequest, result: EmbeddingResult) -> EmbeddingResult:
    # One vector per value, whatever the plugin decoded: a short answer is never passed on as whole.
    if len(result.embeddings) != len(request.values):
        raise ValueError(f"{len(result.embeddings)} embeddings for {len(request.values)} values")
    return result


def _result(codec: Codec, data: Any, size: int | None, spec: HttpRequest) -> Result:
    try:
        with decoding(size):
            result = codec.decode_response(data, spec)
    except DECODE_ERRORS as error:
        raise decode_error(codec.name, error) from error
    if spec.warnings:
        result = result._with_warnings_first(list(spec.warnings))
    return result


def decode_result(codec: Codec, data: Any, spec: HttpRequest) -> Result:
    """The :class:`Result` of a response body that came another way than its own exchange (a
    batch's result line): the plugin's ``decode_response``, guarded and warned as :func:`generate`."""
    return _result(codec, data, None, spec)  # no source size: bounds are measured


def decode_embedding_result(
    codec: Codec, request: EmbedRequest, spec: HttpRequest, data: Any
) -> EmbeddingResult:
    """The embeddings of one response body that came another way (a batch's result line)."""
    return _embeddings(codec, request, [spec], [data])


def _guard(codec: Codec, decode: Callable[[], _T]) -> _T:
    """Run a plugin decoder; a bare Python error from malformed data becomes a typed error."""
    try:
        return decode()
    except DECODE_ERRORS as error:
        raise decode_error(codec.name, error) from error
