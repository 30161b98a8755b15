"""Typed outputs: a Python type as the response format, and the validated instance on the result.

``response_format=Person`` (a pydantic model, a dataclass, a TypedDict, ``list[Person]``: any type
pydantic can adapt) becomes a JSON-schema response format; the schema is generated once per type and
fitted to strict structured-output rules, which OpenAI's strict mode requires and Gemini's JSON-schema
field accepts (each provider sends it in its own field). The answer
is validated into ``result.parsed``; an answer that does not validate raises
:class:`OutputValidationError` with the raw text and pydantic's errors.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from .errors import ModelportError

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from .types import ResponseFormat, Result

__all__ = ["OutputType", "OutputValidationError", "is_output_type", "output_type", "strict_json_schema"]


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
    from .types import ResponseFormat

    if isinstance(value, ResponseFormat):
        return False
    return isinstance(value, type) or hasattr(value, "__origin__") or _is_typeddict(value)


def _is_typeddict(value: object) -> bool:
    return isinstance(value, type) and hasattr(value, "__total__")


class OutputType:
    """A Python type with its generated JSON schema and validator (built once per type)."""

    def __init__(self, tp: Any) -> None:
        from pydantic import TypeAdapter

        self.type = tp
        self.adapter: TypeAdapter[Any] = TypeAdapter(tp)
        self.name = _name(tp)
        # Fitted once for strict structured output (every property required, no others), which
        # OpenAI's strict mode demands and Gemini accepts: one schema for every provider.
        self.schema: dict[str, Any] = strict_json_schema(self.adapter.json_schema())

    def response_format(self) -> ResponseFormat:
        """The canonical response format that asks for this type's JSON."""
        from .types import ResponseFormat

        description = (self.schema.get("description") or None) if isinstance(self.schema, dict) else None
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
        """The validated instance of the result's text, or :class:`OutputValidationError`."""
        from pydantic import ValidationError

        text = result.text
        try:
            return self.adapter.validate_json(text)
        except ValidationError as error:
            errors = error.errors(include_url=False, include_input=False)
            summary = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'answer'}: {e['msg']}" for e in errors[:5])
            raise OutputValidationError(
                f"the answer is not a valid {self.name}: {summary}",
                text=text,
                errors=[dict(e) for e in errors],
                result=result,
            ) from None


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
    """``schema`` made to follow strict structured-output rules (OpenAI's strict mode and the
    servers that copy it): every object lists all its properties as required and allows no others.
    Optional fields stay nullable through their own ``anyOf``; the input is not modified."""

    def fit(node: Any) -> Any:
        if isinstance(node, list):
            return [fit(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: fit(value) for key, value in node.items()}
        if out.get("type") == "object" or "properties" in out:
            properties = out.get("properties") or {}
            out["properties"] = properties
            out["required"] = list(properties)
            out["additionalProperties"] = False
        out.pop("default", None)
        return out

    fitted = fit(schema)
    assert isinstance(fitted, dict)
    return fitted
