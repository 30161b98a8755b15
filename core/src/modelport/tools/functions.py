"""Function tools from Python callables: ``@modelport.tool``.

The tool's name is the function's, its description the docstring's first paragraph, and its
parameter schema comes from the type hints and defaults (through pydantic). Arguments a model sends
are validated before the function runs; the function may be sync or async.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, overload

from ..errors import InvalidRequestError, validation_message

if TYPE_CHECKING:
    from ..types import FunctionTool

__all__ = ["PythonTool", "ToolArgumentsError", "tool"]


class ToolArgumentsError(InvalidRequestError):
    """The arguments a model sent do not validate against the tool's parameters."""


class PythonTool:
    """A function tool backed by a Python callable; calling it calls the function."""

    def __init__(
        self, fn: Callable[..., Any], *, name: str | None = None, description: str | None = None
    ) -> None:
        if not callable(fn):
            raise InvalidRequestError(f"a tool needs a callable, got {type(fn).__name__}")
        self.fn = fn
        self.name = name or fn.__name__
        self.description = description if description is not None else _first_paragraph(fn)
        self.is_async = inspect.iscoroutinefunction(fn)
        self._arguments = _arguments_model(fn, self.name)
        schema = self._arguments.model_json_schema()
        schema.pop("title", None)
        for prop in (schema.get("properties") or {}).values():
            if isinstance(prop, dict):
                prop.pop("title", None)
        self.parameters: dict[str, Any] = schema

    @property
    def spec(self) -> FunctionTool:
        """The canonical function tool sent to the provider."""
        from ..types import FunctionTool

        return FunctionTool(name=self.name, description=self.description, parameters=self.parameters)

    def arguments(self, args: dict[str, Any]) -> dict[str, Any]:
        """``args`` validated and converted to the function's parameter types."""
        from pydantic import ValidationError

        try:
            validated = self._arguments.model_validate(args)
        except ValidationError as error:
            problems = validation_message(error, root="arguments")
            raise ToolArgumentsError(f"invalid arguments for tool {self.name!r}: {problems}") from None
        fields = type(validated).model_fields
        return {field.alias or name: getattr(validated, name) for name, field in fields.items()}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<tool {self.name}>"


def _first_paragraph(fn: Callable[..., Any]) -> str | None:
    doc = inspect.getdoc(fn)
    return doc.split("\n\n")[0].strip() or None if doc else None


def _arguments_model(fn: Callable[..., Any], name: str) -> Any:
    from typing import get_type_hints

    from pydantic import ConfigDict, Field, create_model

    signature = inspect.signature(fn)
    try:
        hints = get_type_hints(fn)
    except Exception as error:  # an unresolvable annotation
        raise InvalidRequestError(f"tool {name!r}: cannot read its type hints ({error})") from None
    fields: dict[str, Any] = {}
    for index, parameter in enumerate(signature.parameters.values()):
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            raise InvalidRequestError(f"tool {name!r}: *args and **kwargs cannot be described to a model")
        annotation = hints.get(parameter.name, Any)
        # The parameter's name is the field's alias, never its attribute name: pydantic reserves
        # names (``model_config``, ``model_fields``, ``schema``, ``copy``...) and treats a leading
        # underscore as private, which would drop the parameter from the schema.
        if parameter.default is parameter.empty:
            fields[f"p{index}"] = (annotation, Field(alias=parameter.name))
        else:
            fields[f"p{index}"] = (annotation, Field(parameter.default, alias=parameter.name))
    return create_model(f"{name}_arguments", __config__=ConfigDict(extra="forbid"), **fields)


@overload
def tool(fn: Callable[..., Any], /) -> PythonTool: ...


@overload
def tool(
    *, name: str | None = None, description: str | None = None
) -> Callable[[Callable[..., Any]], PythonTool]: ...


def tool(
    fn: Callable[..., Any] | None = None, /, *, name: str | None = None, description: str | None = None
) -> PythonTool | Callable[[Callable[..., Any]], PythonTool]:
    """Make a function tool from a Python callable; usable as ``@tool`` or ``@tool(name=...)``."""
    if fn is not None:
        return PythonTool(fn, name=name, description=description)
    return lambda f: PythonTool(f, name=name, description=description)
