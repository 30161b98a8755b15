"""Typed outputs: a Python type as the response format, and the validated instance on the result.

``response_format=Person`` (a pydantic model, a dataclass, a TypedDict, ``list[Person]``: any type
pydantic can adapt) becomes a JSON-schema response format; the schema is generated once per type
(a non-object type wrapped in an object), and each plugin compiles it into its provider's dialect
(:mod:`modelport.outputs.schemas`). The answer is validated into ``result.parsed``; an answer that does not
validate raises :class:`OutputValidationError` with the raw text and pydantic's errors, and a
refusal raises :class:`~modelport.errors.OutputRefusedError` with the model's words.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import types
from typing import TYPE_CHECKING, Any

from .._contract.results import is_refusal
from ..errors import InvalidRequestError, ModelportError, OutputRefusedError, validation_message

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pydantic import TypeAdapter

    from ..events import PartialObjectEvent, StreamEvent
    from ..types import ResponseFormat, Result

__all__ = [
    "OutputRefusedError",
    "OutputType",
    "OutputValidationError",
    "PartialObjects",
    "is_output_type",
    "output_type",
    "partial_json",
    "strict_json_schema",
]


class OutputValidationError(ModelportError):
    """The answer does not validate against the requested output type.

    ``text`` is the raw answer; ``errors`` are pydantic's validation errors (without the input);
    ``result`` is the whole result, so nothing received is lost.
    """

    def __init__(self, message: str, *, text: str, errors: list[dict[str, Any]], result: Result) -> None:
        super().__init__(message)
        self.text = text
        self.errors = errors
        self.result = result


def is_output_type(value: object) -> bool:
    """Whether ``value`` is a Python type to validate answers with (not a response-format spec)."""
    if value is None or isinstance(value, (str, dict)):
        return False
    from ..types import ResponseFormat

    if isinstance(value, ResponseFormat):
        return False
    return isinstance(value, type) or hasattr(value, "__origin__") or _is_typeddict(value)


def _is_typeddict(value: object) -> bool:
    return isinstance(value, type) and hasattr(value, "__total__")


class OutputType:
    """A Python type with its generated JSON schema and validator (built once per type).

    A type whose JSON is not an object (``list[Person]``, ``int``, a union) is asked for wrapped in
    an object, ``{"response": <value>}`` (OpenAI and Anthropic take only object roots), and
    unwrapped when parsed; ``wrapped`` says so. ``schema`` is the plain JSON Schema; each plugin
    compiles it into its provider's dialect (:mod:`modelport.outputs.schemas`).
    """

    def __init__(self, tp: Any) -> None:
        from pydantic import TypeAdapter

        self.type = tp
        self.name = _name(tp)
        with _schema_errors(tp):
            adapted = portable(tp)
            self.adapter: TypeAdapter[Any] = TypeAdapter(adapted)
            schema = self.adapter.json_schema()
            self.wrapped = not _is_object(schema)
            if self.wrapped:
                self._wrapper: TypeAdapter[Any] = TypeAdapter(_wrapper(adapted))
                schema = self._wrapper.json_schema()
        self.schema: dict[str, Any] = schema

    def response_format(self) -> ResponseFormat:
        """The canonical response format that asks for this type's JSON."""
        from ..types import ResponseFormat

        description = None if self.wrapped else (self.schema.get("description") or None)
        return ResponseFormat.model_validate(
            {
                "type": "json_schema",
                "schema": self.schema,
                "name": self.name,
                "description": description,
                "strict": True,
            }
        )

    def parse(self, result: Result) -> Any:
        """The validated instance of the result's text, :class:`OutputValidationError`, or
        :class:`~modelport.errors.OutputRefusedError` when the model refused to answer."""
        from pydantic import ValidationError

        refusal = result.refusal
        if refusal is not None:
            raise OutputRefusedError(
                f"the model refused to give a {self.name}: {refusal}", refusal=refusal, result=result
            )
        text = result.text
        try:
            if self.wrapped:
                return self._wrapper.validate_json(text)[_ENVELOPE]
            return self.adapter.validate_json(text)
        except ValidationError as error:
            errors = error.errors(include_url=False, include_input=False)
            if self.wrapped:  # the envelope is modelport's, not the caller's: locations inside it
                errors = [{**e, "loc": e["loc"][1:]} if e["loc"][:1] == (_ENVELOPE,) else e for e in errors]
            summary = validation_message(errors, root="answer", limit=5)
            raise OutputValidationError(
                f"the answer is not a valid {self.name}: {summary}",
                text=text,
                errors=[dict(e) for e in errors],
                result=result,
            ) from None

    def partial(self, text: str) -> Any:
        """The best-effort value of the JSON ``text`` received so far (``None`` before any):
        complete members as they are, the last string cut where the text ends, not validated."""
        value = partial_json(text)
        if self.wrapped:
            return value.get(_ENVELOPE) if isinstance(value, dict) else None
        return value


_ENVELOPE = "response"


class PartialObjects:
    """Turns one stream's text deltas into ``partial-object`` events for ``output`` (the core runs it).

    Refusal text is skipped; an event is made only when the best-effort value changed.
    """

    def __init__(self, output: OutputType) -> None:
        self.output = output
        self.text = ""
        self.refusals: set[str] = set()  # the ids of text parts that hold a refusal
        self.last: Any = None

    def feed(self, event: StreamEvent) -> PartialObjectEvent | None:
        """The ``partial-object`` event ``event`` leads to, else ``None``."""
        from ..events import PartialObjectEvent, TextDeltaEvent, TextStartEvent

        if isinstance(event, TextStartEvent):
            if is_refusal(event.provider_metadata):
                self.refusals.add(event.id)
            return None
        if not isinstance(event, TextDeltaEvent) or event.id in self.refusals:
            return None
        self.text += event.delta
        value = self.output.partial(self.text)
        if value is None or value == self.last:
            return None
        self.last = value
        return PartialObjectEvent(value=value)


def partial_json(text: str) -> Any:
    """The JSON value ``text`` is the beginning of, as far as it goes (``None`` when nothing yet):
    an unfinished object or array holds its complete members, an unfinished string its text so far."""
    from pydantic_core import from_json

    if not text.strip():
        return None
    try:
        return from_json(text, allow_partial="trailing-strings")
    except ValueError:
        return None


def _is_object(schema: dict[str, Any]) -> bool:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        schema = (schema.get("$defs") or {}).get(ref[len("#/$defs/") :]) or {}
    return schema.get("type") == "object"


def _wrapper(tp: Any) -> Any:
    from typing_extensions import TypedDict

    return TypedDict("Response", {_ENVELOPE: tp})  # type: ignore[operator]


def portable(tp: Any) -> Any:
    """``tp`` with every ``typing.TypedDict`` in it made a ``typing_extensions.TypedDict``, which is
    what pydantic adapts on Python below 3.12 (same keys, types, optionality and docstring);
    ``tp`` itself on 3.12 and later, and for a type without one."""
    if sys.version_info >= (3, 12):
        return tp
    return _portable(tp, set())


def _portable(tp: Any, seen: set[Any]) -> Any:
    import typing
    from typing import Annotated, Literal, Union, get_args, get_origin, is_typeddict

    import typing_extensions

    make_typeddict: Any = typing_extensions.TypedDict
    annotated: Any = Annotated
    qualifiers: set[Any] = {typing_extensions.Required, typing_extensions.NotRequired}
    qualifiers |= {getattr(typing, name) for name in ("Required", "NotRequired") if hasattr(typing, name)}

    if isinstance(tp, type) and is_typeddict(tp) and type(tp).__module__ == "typing":
        if tp in seen:
            raise InvalidRequestError(
                f"response_format {_name(tp)}: a recursive typing.TypedDict needs "
                "typing_extensions.TypedDict on Python below 3.12 (from typing_extensions import TypedDict)"
            )
        hints = typing_extensions.get_type_hints(tp, include_extras=True)
        required: frozenset[str] = tp.__required_keys__  # type: ignore[attr-defined]
        fields = {}
        for key, hint in hints.items():
            while get_origin(hint) in qualifiers:
                hint = get_args(hint)[0]
            hint = _portable(hint, seen | {tp})
            fields[key] = hint if key in required else typing_extensions.NotRequired[hint]
        converted = make_typeddict(tp.__name__, fields)
        converted.__doc__, converted.__module__, converted.__qualname__ = (
            tp.__doc__,
            tp.__module__,
            tp.__qualname__,
        )
        return converted
    origin, args = get_origin(tp), get_args(tp)
    if origin is None or not args or origin is Literal:
        return tp
    converted_args = tuple(_portable(arg, seen) for arg in args)
    if all(new is old for new, old in zip(converted_args, args, strict=True)):
        return tp
    if origin is Annotated:
        parameters = (converted_args[0], *tp.__metadata__)
        return annotated[parameters]
    if origin is Union or isinstance(tp, types.UnionType):
        return Union[converted_args]
    return origin[converted_args]


@contextlib.contextmanager
def _schema_errors(tp: Any) -> Iterator[None]:
    """Pydantic's refusal to adapt ``tp`` as an :class:`InvalidRequestError` that says why."""
    from pydantic import PydanticUserError
    from pydantic.errors import PydanticSchemaGenerationError

    try:
        yield
    except PydanticUserError as error:
        if getattr(error, "code", None) == "typed-dict-version":
            raise InvalidRequestError(
                f"response_format {_name(tp)}: on Python below 3.12 pydantic needs a TypedDict from "
                "typing_extensions (from typing_extensions import TypedDict), not from typing"
            ) from None
        raise InvalidRequestError(f"response_format {_name(tp)}: {error.message}") from None
    except PydanticSchemaGenerationError as error:  # pragma: no cover - a subclass of the above
        raise InvalidRequestError(f"response_format {_name(tp)}: {error}") from None


@functools.lru_cache(maxsize=256)
def _cached(tp: Any) -> OutputType:
    return OutputType(tp)


def output_type(tp: Any) -> OutputType:
    """The :class:`OutputType` of ``tp`` (cached per hashable type)."""
    try:
        return _cached(tp)
    except TypeError:  # an unhashable type expression
        return OutputType(tp)


def _name(tp: Any) -> str:
    name = getattr(tp, "__name__", None) or str(tp)
    cleaned = "".join(c if c.isalnum() or c in "_-" else "_" for c in name).strip("_")
    return cleaned[:64] or "output"


def strict_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` in OpenAI's strict structured-output dialect: a shorthand for
    ``modelport.outputs.schemas.openai_strict_schema(schema).schema`` (the input is not modified)."""
    from .schemas import openai_strict_schema

    return openai_strict_schema(schema).schema
