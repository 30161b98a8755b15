"""``Model``: a provider bound to a model name, with validation, retries and stream bookkeeping."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from sys import modules as _modules
from typing import TYPE_CHECKING, Any

from . import _retry
from .deadlines import Deadline
from .errors import InvalidRequestError, ModelportError, validation_message
from .provider import EmbedRequest, Provider, TokenCount

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._streams import AsyncResultStream, ResultStream
    from .approval import ApproveHook
    from .loop import RunResult, RunStream, Step
    from .outputs import OutputType
    from .types import CallWarning, EmbeddingResult, Origin, Request, Result

# The request and result types (pydantic) load on first use, not on import: ``import modelport`` and
# ``get_model`` stay as cheap as importing httpx.

__all__ = ["Model", "build_request"]

_log = logging.getLogger("modelport")

#: The key whose presence in ``sys.modules`` means the application imported OpenTelemetry: until
#: then no call is traced, and checking costs one dictionary lookup (see :mod:`modelport.telemetry`).
_OTEL = "opentelemetry"
_telemetry: Any = None


def _traced() -> Any:
    """:mod:`modelport.telemetry` when calls are traced now, else ``None``."""
    global _telemetry
    telemetry = _telemetry
    if telemetry is None:
        from . import telemetry

        _telemetry = telemetry
    return telemetry if telemetry.enabled() else None


_DROPPED = ("unsupported-setting", "unsupported-tool")


def log_dropped(model_id: str, warnings: Sequence[CallWarning]) -> None:
    """One WARNING line on the ``modelport`` logger for the settings and tools a call dropped."""
    dropped = [w for w in warnings if w.type in _DROPPED]
    if not dropped or not _log.isEnabledFor(logging.WARNING):
        return
    described = "; ".join(
        ("tool " if w.type == "unsupported-tool" else "")
        + (w.setting or "?")
        + (f" ({w.details})" if w.details else "")
        for w in dropped
    )
    _log.warning(
        "%s dropped unsupported settings: %s",
        model_id,
        described,
        extra={"modelport_model": model_id, "modelport_dropped": [w.setting for w in dropped]},
    )


def build_request(kwargs: dict[str, Any]) -> Request:
    """Validate request keywords into a :class:`Request`, or raise :class:`InvalidRequestError`."""
    try:
        return _request_type().model_validate(kwargs)
    except Exception as error:
        from pydantic import ValidationError  # imported here: the statement costs on every call

        if not isinstance(error, ValidationError):
            raise
        raise InvalidRequestError("invalid request: " + validation_message(error, root="request")) from None


_Request: Any = None


def _request_type() -> type[Request]:
    """:class:`~modelport.types.Request`, imported on first use (an import statement per call costs)."""
    global _Request
    if _Request is None:
        from .types import Request

        _Request = Request
    return _Request  # type: ignore[no-any-return]


_reasoning_module: Any = None


def _reasoning() -> Any:
    """:mod:`modelport.reasoning`, imported on first use (it loads the request types)."""
    global _reasoning_module
    if _reasoning_module is None:
        from . import reasoning

        _reasoning_module = reasoning
    return _reasoning_module


def _canonical(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Keywords with Python conveniences made canonical: :func:`modelport.tool` functions become
    their function-tool specs, and a Python type as ``response_format`` its JSON-schema format."""
    tools, response_format = kwargs.get("tools"), kwargs.get("response_format")
    if not tools and response_format is None:
        return kwargs
    from .functions import PythonTool
    from .outputs import is_output_type, output_type

    kwargs = dict(kwargs)
    if isinstance(tools, (list, tuple)) and any(isinstance(t, PythonTool) for t in tools):
        kwargs["tools"] = [t.spec if isinstance(t, PythonTool) else t for t in tools]
    if is_output_type(response_format):
        kwargs["response_format"] = output_type(response_format).response_format()
    return kwargs


def _output_of(kwargs: dict[str, Any]) -> OutputType | None:
    response_format = kwargs.get("response_format")
    if response_format is None:
        return None
    from .outputs import is_output_type, output_type

    return output_type(response_format) if is_output_type(response_format) else None


def _parsed(result: Result, kwargs: dict[str, Any]) -> Result:
    output = _output_of(kwargs)
    if output is not None:
        result._parsed = output.parse(result)
    return result


def _embed_request(
    values: str | Sequence[str],
    output_dimensionality: int | None,
    task_type: str | None,
    provider_options: dict[str, dict[str, Any]] | None,
) -> EmbedRequest:
    from collections.abc import Mapping

    from .types import MAX_SAFE_INTEGER

    single = isinstance(values, str)
    # A list or tuple of strings (any sequence but bytes); a mapping or a set has no input order.
    if not single and (
        not isinstance(values, Sequence) or isinstance(values, (bytes, bytearray, memoryview))
    ):
        raise InvalidRequestError(
            f"embed values must be a string or a list of strings, got {type(values).__name__}"
        )
    items = (values,) if isinstance(values, str) else tuple(values)
    if not items:
        raise InvalidRequestError("embed needs at least one value")
    wrong = [type(v).__name__ for v in items if not isinstance(v, str)]
    if wrong:
        raise InvalidRequestError(f"embed values must be strings, got {wrong[0]}")
    if output_dimensionality is not None and (
        not isinstance(output_dimensionality, int)
        or isinstance(output_dimensionality, bool)
        or not 0 < output_dimensionality <= MAX_SAFE_INTEGER
    ):
        raise InvalidRequestError(
            f"output_dimensionality must be a positive integer (at most {MAX_SAFE_INTEGER})"
        )
    if task_type is not None and not isinstance(task_type, str):
        raise InvalidRequestError(f"task_type must be a string, got {type(task_type).__name__}")
    if provider_options is not None and (
        not isinstance(provider_options, Mapping)
        or not all(isinstance(k, str) and isinstance(v, Mapping) for k, v in provider_options.items())
    ):
        raise InvalidRequestError(
            "provider_options must map provider ids to mappings of options, e.g. {'google': {...}}"
        )
    return EmbedRequest(
        values=items,
        single=single,
        output_dimensionality=output_dimensionality,
        task_type=task_type,
        provider_options=provider_options or {},
    )


class Model:
    """A provider bound to one model name. Create it with :func:`modelport.get_model`."""

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

    def prepare(self, **kwargs: Any) -> Request:
        """Build and fully validate a request without sending it: the request as it would be sent,
        the reasoning replay policy (:mod:`modelport.reasoning`) applied."""
        return self._validated(kwargs, check=True)[0]

    def _validated(self, kwargs: dict[str, Any], *, check: bool) -> tuple[Request, list[CallWarning]]:
        """The validated request as it is sent and the reasoning replay policy's warnings;
        ``check=False`` leaves the provider's own check to the call itself (an HTTP provider builds
        its request, and so rejects it, before any I/O)."""
        provider = self.provider
        request, replayed = _reasoning().apply_reasoning_replay(
            build_request(_canonical(kwargs)), provider, self.name
        )
        if request.tools:
            from .provider_tools import validate_provider_tools
            from .types import ProviderTool

            provider_tools = [t for t in request.tools if isinstance(t, ProviderTool)]
            if provider_tools:
                validate_provider_tools(
                    provider_tools, namespace=provider.tool_namespace, backend=provider.backend
                )
        if check or not provider.checks_on_send:
            provider.check_request(self.name, request)
        return request, replayed

    # Sync ------------------------------------------------------------------------------------

    def generate(self, **kwargs: Any) -> Result:
        """Generate a complete result. Keywords are those of :class:`~modelport.types.Request`."""
        if _OTEL in _modules and (telemetry := _traced()) is not None:
            return telemetry.generate(self, kwargs, self._generate)  # type: ignore[no-any-return]
        return self._generate(kwargs)

    def _generate(self, kwargs: dict[str, Any]) -> Result:
        request, replayed = self._validated(kwargs, check=False)
        result = _retry.call(self.retry_policy, lambda: self.provider.generate(self.name, request))
        result = result._stamped(self.origin, replayed)
        if known := result._known_warnings():  # what a call dropped is known without deriving
            log_dropped(self.id, known)
        return _parsed(result, kwargs)

    def stream(self, **kwargs: Any) -> ResultStream:
        """Stream events; iterate the returned :class:`ResultStream`, or call ``.result()``."""
        from ._streams import ResultStream

        request, replayed = self._validated(kwargs, check=True)
        return ResultStream(self, request, output=_output_of(kwargs), warnings=replayed)

    def embed(
        self,
        values: str | Sequence[str],
        *,
        output_dimensionality: int | None = None,
        task_type: str | None = None,
        provider_options: dict[str, dict[str, Any]] | None = None,
    ) -> EmbeddingResult:
        """Embed one value or a batch; embeddings come back in input order."""
        if _OTEL in _modules and (telemetry := _traced()) is not None:
            return telemetry.embed(  # type: ignore[no-any-return]
                self,
                values,
                output_dimensionality,
                lambda: self._embed(values, output_dimensionality, task_type, provider_options),
            )
        return self._embed(values, output_dimensionality, task_type, provider_options)

    def _embed(
        self,
        values: str | Sequence[str],
        output_dimensionality: int | None,
        task_type: str | None,
        provider_options: dict[str, dict[str, Any]] | None,
    ) -> EmbeddingResult:
        request = _embed_request(values, output_dimensionality, task_type, provider_options)
        if self.provider.embed_retries_per_request:  # each batch is retried alone, never resent
            with Deadline.for_call(self.retry_policy.deadline).applied():  # all batches, one deadline
                return self.provider.embed(self.name, request)
        return _retry.call(self.retry_policy, lambda: self.provider.embed(self.name, request))

    def count_tokens(self, **kwargs: Any) -> TokenCount:
        """The input tokens the request would use, counted by the provider without generating.

        Keywords are those of :meth:`generate`; the request is validated the same way, before any
        I/O. A provider without the ``count_tokens`` capability raises ``InvalidRequestError``.
        """
        request = self._counted(kwargs)
        return _retry.call(self.retry_policy, lambda: self.provider.count_tokens(self.name, request))

    def _counted(self, kwargs: dict[str, Any]) -> Request:
        if not self.provider.capabilities.count_tokens:
            raise InvalidRequestError(f"provider {self.provider.id!r} does not support count_tokens")
        return self._validated(kwargs, check=False)[0]

    # Async -----------------------------------------------------------------------------------

    async def acount_tokens(self, **kwargs: Any) -> TokenCount:
        """Async twin of :meth:`count_tokens`."""
        request = self._counted(kwargs)
        return await _retry.acall(self.retry_policy, lambda: self.provider.acount_tokens(self.name, request))

    async def agenerate(self, **kwargs: Any) -> Result:
        """Async twin of :meth:`generate`."""
        if _OTEL in _modules and (telemetry := _traced()) is not None:
            return await telemetry.agenerate(self, kwargs, self._agenerate)  # type: ignore[no-any-return]
        return await self._agenerate(kwargs)

    async def _agenerate(self, kwargs: dict[str, Any]) -> Result:
        request, replayed = self._validated(kwargs, check=False)
        provider, name = self.provider, self.name
        deadline = Deadline.for_call(self.retry_policy.deadline)
        with deadline.applied():  # every attempt, wait and read of the call keeps to it
            try:  # the first attempt made here, the retries by _retry (P4)
                result = await provider.agenerate(name, request)
            except ModelportError as error:
                retry = partial(provider.agenerate, name, request)
                result = await _retry.aretry(self.retry_policy, retry, error, deadline)
        result = result._stamped(self.origin, replayed)
        if known := result._known_warnings():  # what a call dropped is known without deriving
            log_dropped(self.id, known)
        return _parsed(result, kwargs)

    def astream(self, **kwargs: Any) -> AsyncResultStream:
        """Async twin of :meth:`stream`."""
        from ._streams import AsyncResultStream

        request, replayed = self._validated(kwargs, check=True)
        return AsyncResultStream(self, request, output=_output_of(kwargs), warnings=replayed)

    async def aembed(
        self,
        values: str | Sequence[str],
        *,
        output_dimensionality: int | None = None,
        task_type: str | None = None,
        provider_options: dict[str, dict[str, Any]] | None = None,
    ) -> EmbeddingResult:
        """Async twin of :meth:`embed`."""
        if _OTEL in _modules and (telemetry := _traced()) is not None:
            return await telemetry.aembed(  # type: ignore[no-any-return]
                self,
                values,
                output_dimensionality,
                lambda: self._aembed(values, output_dimensionality, task_type, provider_options),
            )
        return await self._aembed(values, output_dimensionality, task_type, provider_options)

    async def _aembed(
        self,
        values: str | Sequence[str],
        output_dimensionality: int | None,
        task_type: str | None,
        provider_options: dict[str, dict[str, Any]] | None,
    ) -> EmbeddingResult:
        request = _embed_request(values, output_dimensionality, task_type, provider_options)
        if self.provider.embed_retries_per_request:
            with Deadline.for_call(self.retry_policy.deadline).applied():  # all batches, one deadline
                return await self.provider.aembed(self.name, request)
        return await _retry.acall(self.retry_policy, lambda: self.provider.aembed(self.name, request))

    # The tool loop -------------------------------------------------------------------------------

    def run(
        self,
        *,
        max_steps: int = 8,
        stop_when: Callable[[Step], bool] | None = None,
        approve: ApproveHook | None = None,
        **kwargs: Any,
    ) -> RunResult:
        """Call the model, run the function tools it asks for, repeat until it answers (see
        :mod:`modelport.loop`). Keywords are those of :meth:`generate`; ``tools`` may hold
        :func:`modelport.tool` functions; ``approve`` allows, refuses or edits each call before it
        runs (see :mod:`modelport.approval`)."""
        from .loop import run

        return run(self, max_steps=max_steps, stop_when=stop_when, approve=approve, **kwargs)

    async def arun(
        self,
        *,
        max_steps: int = 8,
        stop_when: Callable[[Step], bool] | None = None,
        approve: ApproveHook | None = None,
        **kwargs: Any,
    ) -> RunResult:
        """Async twin of :meth:`run`."""
        from .loop import arun

        return await arun(self, max_steps=max_steps, stop_when=stop_when, approve=approve, **kwargs)

    def run_stream(
        self,
        *,
        max_steps: int = 8,
        stop_when: Callable[[Step], bool] | None = None,
        approve: ApproveHook | None = None,
        **kwargs: Any,
    ) -> RunStream:
        """The events of every step of :meth:`run`, as they arrive."""
        from .loop import run_stream

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
