"""``Model``: a provider bound to a model name, with validation, retries and stream bookkeeping."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from typing_extensions import TypeVar

from .._runtime import retry as _retry
from ..deadlines import Deadline
from ..errors import InvalidRequestError, ModelportError, validation_message
from ..provider import EmbedRequest, Provider, TokenCount
from .batch_calls import BatchCalls
from .bounds import check_bounds
from .dropped import log_dropped

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import Unpack

    from .._contract.request import KeywordsBesidesFormat
    from ..loop import RunResult, RunStream, Step
    from ..loop.approval import ApproveHook
    from ..outputs import OutputType
    from ..types import (
        CallWarning,
        EmbeddingResult,
        EmbeddingType,
        Origin,
        Request,
        RequestKeywords,
        ResponseFormat,
        Result,
    )
    from .streams import AsyncResultStream, ResultStream

#: The type ``parsed`` is, from ``response_format`` (``Any`` when it is not a Python type).
_T = TypeVar("_T", default=Any)

# The request and result types (pydantic) load on first use, not on import: ``import modelport`` and
# ``get_model`` stay as cheap as importing httpx.

__all__ = ["Model", "ValidCall", "build_request"]


class ValidCall(NamedTuple):
    """One call validated: the request as it is sent (the reasoning replay policy applied), the
    policy's warnings, and the Python type the answer is parsed into. Only this travels on."""

    request: Request
    warnings: list[CallWarning]
    output: OutputType | None


def with_format(kwargs: Mapping[str, Any], response_format: object) -> Mapping[str, Any]:
    """The call's keywords with ``response_format`` back among them (a typed keyword of its own in
    the signatures that make :class:`~modelport.types.Result` generic in it)."""
    return kwargs if response_format is None else {**kwargs, "response_format": response_format}


def build_request(kwargs: Mapping[str, Any]) -> Request:
    """Validate request keywords into a :class:`Request`, or raise :class:`InvalidRequestError`."""
    try:
        return _request_type().model_validate(kwargs)
    except Exception as error:
        from pydantic import ValidationError  # imported here: the statement costs on every call

        if not isinstance(error, ValidationError):
            raise
        from .keywords import with_suggestions

        problems = with_suggestions(error.errors(include_url=False, include_input=False))
        raise InvalidRequestError(
            "invalid request: " + validation_message(problems, root="request")
        ) from None


_Request: Any = None


def _request_type() -> type[Request]:
    """:class:`~modelport.types.Request`, imported on first use (an import statement per call costs)."""
    global _Request
    if _Request is None:
        from ..types import Request

        _Request = Request
    return _Request  # type: ignore[no-any-return]


_reasoning_module: Any = None


def _reasoning() -> Any:
    """:mod:`modelport.reasoning`, imported on first use (it loads the request types)."""
    global _reasoning_module
    if _reasoning_module is None:
        from .. import reasoning

        _reasoning_module = reasoning
    return _reasoning_module


def _canonical(kwargs: Mapping[str, Any]) -> Mapping[str, Any]:
    """Keywords with Python conveniences made canonical: :func:`modelport.tool` functions become
    their function-tool specs, and a Python type as ``response_format`` its JSON-schema format."""
    tools, response_format = kwargs.get("tools"), kwargs.get("response_format")
    if not tools and response_format is None:
        return kwargs
    from ..outputs import is_output_type, output_type
    from ..tools.functions import PythonTool

    kwargs = dict(kwargs)
    if isinstance(tools, (list, tuple)) and any(isinstance(t, PythonTool) for t in tools):
        kwargs["tools"] = [t.spec if isinstance(t, PythonTool) else t for t in tools]
    if is_output_type(response_format):
        kwargs["response_format"] = output_type(response_format).response_format()
    return kwargs


def _compiled(kwargs: Mapping[str, Any], provider: Provider) -> tuple[Mapping[str, Any], list[CallWarning]]:
    """Keywords with each neutral tool (:mod:`modelport.tools`) compiled to ``provider``'s own
    provider tool, and the warnings of options left out under ``best_effort``."""
    tools = kwargs.get("tools")
    if not isinstance(tools, (list, tuple)) or not any(_is_neutral(tool) for tool in tools):
        return kwargs, []
    from ..tools import compile_tools

    compiled, warnings = compile_tools(tools, provider)
    return {**kwargs, "tools": compiled}, warnings


def _is_neutral(tool: object) -> bool:
    kind = tool.get("type") if isinstance(tool, Mapping) else getattr(tool, "type", None)
    return kind == "neutral"


def _output_of(kwargs: Mapping[str, Any]) -> OutputType | None:
    response_format = kwargs.get("response_format")
    if response_format is None:
        return None
    from ..outputs import is_output_type, output_type

    return output_type(response_format) if is_output_type(response_format) else None


def _parsed(result: Result, output: OutputType | None) -> Result:
    if output is not None:
        result._parsed = output.parse(result)
    return result


class Model(BatchCalls):
    """A provider bound to one model name. Create it with :func:`modelport.get_model`.

    Every call validates its keywords once into a :class:`ValidCall`; the provider prepares its wire
    request from it once (:meth:`~modelport.provider.Provider.prepare`), before any I/O, and sends
    what it prepared. Telemetry, when on, is :class:`modelport.telemetry.InstrumentedModel`: this
    class with spans around the same steps, chosen once when the model is made.
    """

    def __init__(self, provider: Provider, model_name: str) -> None:
        self.provider = provider
        self.name = model_name
        self.retry_policy = _retry.RetryPolicy(
            max_retries=provider.config.max_retries,
            max_delay=provider.config.max_retry_delay,
            deadline=provider.config.deadline,
        )

    @property
    def id(self) -> str:
        """``provider/model`` as given to :func:`modelport.get_model`."""
        return f"{self.provider.id}/{self.name}"

    def __repr__(self) -> str:
        return f"Model({self.id!r})"

    # Validation ------------------------------------------------------------------------------

    @property
    def origin(self) -> Origin:
        """The :class:`~modelport.types.Origin` stamped on this model's results."""
        return _reasoning().origin_of(self.provider, self.name)  # type: ignore[no-any-return]

    def prepare(self, **kwargs: Unpack[RequestKeywords]) -> Request:
        """Build and fully validate a request without sending it: the request as it would be sent,
        the reasoning replay policy (:mod:`modelport.reasoning`) applied."""
        request = self._validate(kwargs).request
        self.provider.prepare(self.name, request)
        return request

    def _validate(self, kwargs: Mapping[str, Any]) -> ValidCall:
        """Request keywords validated once into the :class:`ValidCall` that travels on; raises
        :class:`~modelport.errors.InvalidRequestError` (or ``ProviderToolError``) before any I/O.
        The provider's own rules run when it prepares the call (:meth:`Provider.prepare`)."""
        provider = self.provider
        canonical, compiled = _compiled(_canonical(kwargs), provider)
        request, replayed = _reasoning().apply_reasoning_replay(build_request(canonical), provider, self.name)
        check_bounds(request, provider)
        if request.tools:
            from .._registry.tool_table import validate_provider_tools

            validate_provider_tools(
                request.tools, namespace=provider.tool_namespace, backend=provider.backend
            )
        warnings = compiled + replayed + provider.unmapped_settings(request)
        return ValidCall(request, warnings, _output_of(kwargs))

    # Sync ------------------------------------------------------------------------------------

    def generate(
        self,
        *,
        response_format: type[_T]
        | ResponseFormat
        | Mapping[str, Any]
        | Literal["text", "json"]
        | None = None,
        **kwargs: Unpack[KeywordsBesidesFormat],
    ) -> Result[_T]:
        """Generate a complete result. Keywords are those of :class:`~modelport.types.Request`;
        with a Python type as ``response_format``, a ``Result`` of that type (its ``parsed``)."""
        return self._generate(self._validate(with_format(kwargs, response_format)))

    def _generate(self, call: ValidCall) -> Result:
        """:meth:`generate` of a call already validated (the tool loop's steps come this way)."""
        provider, name = self.provider, self.name
        prepared = provider.prepare(name, call.request)
        result = _retry.call(self.retry_policy, partial(provider.send, name, prepared))
        result = result._stamped(self.origin, call.warnings)
        if known := result._known_warnings():  # what a call dropped is known without deriving
            log_dropped(self.id, known)
        return _parsed(result, call.output)

    def stream(self, **kwargs: Unpack[RequestKeywords]) -> ResultStream:
        """Stream events; iterate the returned :class:`ResultStream`, or call ``.result()``."""
        return self._stream(self._validate(kwargs))

    def _stream(self, call: ValidCall) -> ResultStream:
        """:meth:`stream` of a call already validated."""
        prepared = self.provider.prepare(self.name, call.request, stream=True)
        return self._stream_type()(self, prepared, output=call.output, warnings=call.warnings)

    def _stream_type(self) -> type[ResultStream]:
        from .streams import ResultStream

        return ResultStream

    def embed(
        self,
        values: str | Sequence[str],
        *,
        output_dimensionality: int | None = None,
        task_type: str | None = None,
        provider_options: dict[str, dict[str, Any]] | None = None,
        embedding_type: EmbeddingType = "float",
    ) -> EmbeddingResult:
        """Embed one value or a batch; embeddings come back in input order, of ``embedding_type``
        (:data:`~modelport.types.EmbeddingType`) when the provider offers it, else refused before I/O."""
        return self._embed(
            EmbedRequest.checked(values, output_dimensionality, task_type, provider_options, embedding_type)
        )

    def _embed(self, request: EmbedRequest) -> EmbeddingResult:
        self.provider.check_embed(self.name, request)
        # Not retried here: the provider retries each request (batch) alone, so none is resent.
        with Deadline.for_call(self.retry_policy.deadline).applied():  # all batches, one deadline
            return self.provider.embed(self.name, request)

    def count_tokens(self, **kwargs: Unpack[RequestKeywords]) -> TokenCount:
        """The input tokens the request would use, counted by the provider without generating.

        Keywords are those of :meth:`generate`; the request is validated the same way, before any
        I/O. A provider without the ``count_tokens`` capability raises ``InvalidRequestError``.
        """
        request = self._counted(kwargs)
        return _retry.call(self.retry_policy, lambda: self.provider.count_tokens(self.name, request))

    def _counted(self, kwargs: Mapping[str, Any]) -> Request:
        provider = self.provider
        if not provider.capabilities.count_tokens:
            raise InvalidRequestError(f"provider {provider.id!r} does not support count_tokens")
        return self._validate(kwargs).request  # the provider's own rules: in its count_tokens, before I/O

    # Async -----------------------------------------------------------------------------------

    async def acount_tokens(self, **kwargs: Unpack[RequestKeywords]) -> TokenCount:
        """Async twin of :meth:`count_tokens`."""
        request = self._counted(kwargs)
        return await _retry.acall(self.retry_policy, lambda: self.provider.acount_tokens(self.name, request))

    async def agenerate(
        self,
        *,
        response_format: type[_T]
        | ResponseFormat
        | Mapping[str, Any]
        | Literal["text", "json"]
        | None = None,
        **kwargs: Unpack[KeywordsBesidesFormat],
    ) -> Result[_T]:
        """Async twin of :meth:`generate`."""
        return await self._agenerate(self._validate(with_format(kwargs, response_format)))

    async def _agenerate(self, call: ValidCall) -> Result:
        """Async twin of :meth:`_generate`."""
        provider, name = self.provider, self.name
        prepared = provider.prepare(name, call.request)
        deadline = Deadline.for_call(self.retry_policy.deadline)
        with deadline.applied():  # every attempt, wait and read of the call keeps to it
            try:  # the first attempt made here, the retries by _retry (P4)
                result = await provider.asend(name, prepared)
            except ModelportError as error:
                retry = partial(provider.asend, name, prepared)
                result = await _retry.aretry(self.retry_policy, retry, error, deadline)
        result = result._stamped(self.origin, call.warnings)
        if known := result._known_warnings():  # what a call dropped is known without deriving
            log_dropped(self.id, known)
        return _parsed(result, call.output)

    def astream(self, **kwargs: Unpack[RequestKeywords]) -> AsyncResultStream:
        """Async twin of :meth:`stream`."""
        return self._astream(self._validate(kwargs))

    def _astream(self, call: ValidCall) -> AsyncResultStream:
        """Async twin of :meth:`_stream`."""
        prepared = self.provider.prepare(self.name, call.request, stream=True)
        return self._astream_type()(self, prepared, output=call.output, warnings=call.warnings)

    def _astream_type(self) -> type[AsyncResultStream]:
        from .streams import AsyncResultStream

        return AsyncResultStream

    async def aembed(
        self,
        values: str | Sequence[str],
        *,
        output_dimensionality: int | None = None,
        task_type: str | None = None,
        provider_options: dict[str, dict[str, Any]] | None = None,
        embedding_type: EmbeddingType = "float",
    ) -> EmbeddingResult:
        """Async twin of :meth:`embed`."""
        return await self._aembed(
            EmbedRequest.checked(values, output_dimensionality, task_type, provider_options, embedding_type)
        )

    async def _aembed(self, request: EmbedRequest) -> EmbeddingResult:
        self.provider.check_embed(self.name, request)
        with Deadline.for_call(self.retry_policy.deadline).applied():  # all batches, one deadline
            return await self.provider.aembed(self.name, request)

    # The tool loop -------------------------------------------------------------------------------

    def run(
        self,
        *,
        max_steps: int = 8,
        stop_when: Callable[[Step], bool] | None = None,
        approve: ApproveHook | None = None,
        **kwargs: Unpack[RequestKeywords],
    ) -> RunResult:
        """Call the model, run the function tools it asks for, repeat until it answers (see
        :mod:`modelport.loop`). Keywords are those of :meth:`generate`; ``tools`` may hold
        :func:`modelport.tool` functions; ``approve`` allows, refuses or edits each call before it
        runs (see :mod:`modelport.loop.approval`)."""
        from ..loop import run

        return run(self, max_steps=max_steps, stop_when=stop_when, approve=approve, **kwargs)

    async def arun(
        self,
        *,
        max_steps: int = 8,
        stop_when: Callable[[Step], bool] | None = None,
        approve: ApproveHook | None = None,
        **kwargs: Unpack[RequestKeywords],
    ) -> RunResult:
        """Async twin of :meth:`run`."""
        from ..loop import arun

        return await arun(self, max_steps=max_steps, stop_when=stop_when, approve=approve, **kwargs)

    def run_stream(
        self,
        *,
        max_steps: int = 8,
        stop_when: Callable[[Step], bool] | None = None,
        approve: ApproveHook | None = None,
        **kwargs: Unpack[RequestKeywords],
    ) -> RunStream:
        """The events of every step of :meth:`run`, as they arrive."""
        from ..loop import run_stream

        return run_stream(self, max_steps=max_steps, stop_when=stop_when, approve=approve, **kwargs)

    def close(self) -> None:
        """Close the HTTP clients the provider created."""
        self.provider.close()

    async def aclose(self) -> None:
        """Close the HTTP clients the provider created (async)."""
        await self.provider.aclose()

    def __enter__(self) -> Model:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> Model:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
