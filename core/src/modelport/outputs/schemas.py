"""JSON schemas compiled into each provider's structured-output dialect (pure functions).

A canonical ``response_format`` schema is plain JSON Schema (what pydantic generates, or what the
caller wrote). Providers accept different subsets of it, so a plugin compiles the schema into its
dialect when it builds the request body:

- :func:`openai_strict_schema`: OpenAI's strict structured outputs (and the servers that copy
  them): an object root, every object closed (``additionalProperties: false``) with all its
  properties required, no ``$ref`` with sibling keywords, only the keywords strict mode takes.
- :func:`gemini_schema`: Gemini's ``responseJsonSchema`` subset (``$defs``, ``$ref``, ``type``,
  ``format``, ``title``, ``description``, ``enum``, ``items``, ``prefixItems``, ``minItems``,
  ``maxItems``, ``minimum``, ``maximum``, ``anyOf``, ``oneOf``, ``properties``,
  ``additionalProperties``, ``required``, ``propertyOrdering``), with no keyword beside a ``$ref``;
  a recursive schema only where an optional property breaks the cycle (Gemini unrolls the
  recursion to a limited depth and needs a way to stop).
- :func:`anthropic_tool_schema`: Anthropic's tool ``input_schema`` (an object root); with
  ``strict=True`` the subset its strict tool use and JSON outputs take (closed objects, no
  numeric or length bounds, ``minItems`` 0 or 1, no recursion).

Every function returns a :class:`CompiledSchema`: the schema to send and the warnings to put on the
result. Nothing that constrains an answer is dropped silently: a keyword the dialect cannot express
is removed and named in one ``unsupported-setting`` warning (with where it was), except the
annotations that never constrain an answer (``default``, ``examples``, ``deprecated``,
``readOnly``, ``writeOnly``, ``$comment``, ``$schema``), which are dropped without one; a schema
the dialect cannot express at all (an array root for OpenAI, free-form object keys under strict
mode, a recursive schema for Anthropic's strict mode, an external ``$ref``) raises
:class:`~modelport.errors.InvalidRequestError` before any I/O. Property names are names, never
keywords: a field called ``default``, ``properties`` or ``required`` is kept like any other. The
input is never modified, and compiling a compiled schema again changes nothing.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import InvalidRequestError

if TYPE_CHECKING:
    from ..types import CallWarning

__all__ = ["CompiledSchema", "anthropic_tool_schema", "gemini_schema", "openai_strict_schema"]


@dataclass(frozen=True)
class CompiledSchema:
    """A schema in one provider's dialect and the warnings for what it could not express."""

    schema: dict[str, Any]
    warnings: list[CallWarning] = field(default_factory=list)


# Keywords whose value is one schema, a list of schemas, or a map from names to schemas: the only
# places a walk descends. Everything else (``enum``, ``const``, ``default``, ``required`` ...) is a
# value, never read as a schema.
_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedProperties", "unevaluatedItems", "additionalItems")  # fmt: skip
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")
_MAP = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")

_ANNOTATIONS = frozenset({"title", "description"})
# Annotations that never constrain an answer (JSON Schema's own definition): a dialect without them
# drops them without a warning. ``default`` is one: under OpenAI's strict mode every property is
# required, so no default could ever apply.
_INERT = frozenset({"default", "examples", "deprecated", "readOnly", "writeOnly", "$comment", "$schema"})
_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)


@dataclass(frozen=True)
class _Dialect:
    name: str
    keywords: frozenset[str]
    formats: frozenset[str] | None = None  # None: any format
    object_root: bool = False
    closed: bool = False  # every object gets additionalProperties: false (and may have no other)
    all_required: bool = False
    const_as_enum: bool = False
    max_min_items: int | None = None
    recursion: str = "any"  # "optional": only through an optional property; "none": never


_OPENAI = _Dialect(
    "OpenAI strict mode",
    frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "enum",
               "const", "$ref", "$defs", "definitions", "pattern", "format", "minimum", "maximum",
               "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems"})
    | _ANNOTATIONS,
    formats=_STRICT_FORMATS,
    object_root=True,
    closed=True,
    all_required=True,
)  # fmt: skip
_GEMINI = _Dialect(
    "Gemini responseJsonSchema",
    frozenset({"$id", "$defs", "$ref", "$anchor", "type", "format", "enum", "items", "prefixItems",
               "minItems", "maxItems", "minimum", "maximum", "anyOf", "properties",
               "additionalProperties", "required", "propertyOrdering"})
    | _ANNOTATIONS,
    const_as_enum=True,
    recursion="optional",
)  # fmt: skip
_ANTHROPIC = _Dialect(
    "Anthropic tool input_schema",
    frozenset(),  # not strict: any keyword
    object_root=True,
)
_ANTHROPIC_STRICT = _Dialect(
    "Anthropic strict tool use",
    frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "allOf",
               "enum", "const", "$ref", "$defs", "definitions", "pattern", "format", "minItems"})
    | _ANNOTATIONS,
    formats=_STRICT_FORMATS | {"uri"},
    object_root=True,
    closed=True,
    max_min_items=1,
    recursion="none",
)  # fmt: skip


def openai_strict_schema(schema: dict[str, Any], *, setting: str = "response_format") -> CompiledSchema:
    """``schema`` in OpenAI's strict structured-output dialect (see the module docs).

    The result is a fixed point of the ``openai`` package's own strict-schema helper. ``setting``
    names what the schema belongs to in warnings and errors.
    """
    return _Compiler(_OPENAI, schema, setting).run()


def gemini_schema(schema: dict[str, Any], *, setting: str = "response_format") -> CompiledSchema:
    """``schema`` in Gemini's ``responseJsonSchema`` subset (see the module docs).

    ``oneOf`` is sent as ``anyOf`` and ``const`` as a one-value ``enum`` (what Gemini reads);
    optional properties stay optional.
    """
    return _Compiler(_GEMINI, schema, setting).run()


def anthropic_tool_schema(
    schema: dict[str, Any], *, strict: bool = False, setting: str = "response_format"
) -> CompiledSchema:
    """``schema`` as an Anthropic tool ``input_schema`` (see the module docs).

    Without ``strict`` the schema is sent as given once its root is an object; with it, the subset
    of Anthropic's strict tool use and JSON outputs.
    """
    return _Compiler(_ANTHROPIC_STRICT if strict else _ANTHROPIC, schema, setting).run()


class _Compiler:
    def __init__(self, dialect: _Dialect, schema: dict[str, Any], setting: str) -> None:
        if not isinstance(schema, dict):
            raise InvalidRequestError(f"{setting}: a JSON schema must be an object")
        self.dialect = dialect
        self.root = schema
        self.setting = setting
        self.dropped: dict[str, list[str]] = {}  # keyword -> where

    def run(self) -> CompiledSchema:
        dialect, root = self.dialect, self.root
        out = self.node(self.resolved_root(root), "", ())
        for key in ("$defs", "definitions"):
            if isinstance(root.get(key), dict):
                out[key] = {name: self.node(s, f"{key}.{name}", ()) for name, s in root[key].items()}
        if dialect.object_root and out.get("type") != "object":
            found = out.get("type") or ("anyOf" if "anyOf" in out else "no type")
            raise InvalidRequestError(
                f"{self.setting}: {dialect.name} needs an object at the schema's root, not {found}; wrap it "
                "in an object (a Python type as response_format is wrapped and unwrapped for you)"
            )
        if dialect.recursion != "any":
            self.refuse_recursion(out, through_required=dialect.recursion == "optional")
        return CompiledSchema(out, self.warnings())

    def resolved_root(self, root: dict[str, Any]) -> dict[str, Any]:
        """The root without ``$defs``; a root that is only a ``$ref`` (a recursive model) resolved."""
        node = {k: v for k, v in root.items() if k not in ("$defs", "definitions")}
        if isinstance(node.get("$ref"), str):
            target = self.resolve(node["$ref"], "")
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return node

    def resolve(self, ref: str, where: str) -> dict[str, Any]:
        if not ref.startswith("#/"):
            raise InvalidRequestError(f"{self.setting}: {_at(where)}$ref {ref!r} is not local (#/...)")
        found: Any = self.root
        for name in ref[2:].split("/"):
            name = name.replace("~1", "/").replace("~0", "~")
            if not isinstance(found, dict) or name not in found:
                raise InvalidRequestError(f"{self.setting}: {_at(where)}$ref {ref!r} points nowhere")
            found = found[name]
        if not isinstance(found, dict):
            raise InvalidRequestError(f"{self.setting}: {_at(where)}$ref {ref!r} is not a schema")
        return found

    def drop(self, keyword: str, where: str) -> None:
        self.dropped.setdefault(keyword, []).append(where or "root")

    def node(self, schema: Any, where: str, inlining: tuple[str, ...]) -> Any:
        if not isinstance(schema, dict):
            return schema  # a boolean schema
        dialect = self.dialect
        node = dict(schema)
        ref = node.get("$ref")
        if isinstance(ref, str) and any(k != "$ref" and not k.startswith("$") for k in node):
            if ref in inlining:  # a sibling of a ref to itself: keep the ref, lose the sibling
                for key in [k for k in node if k != "$ref" and not k.startswith("$")]:
                    self.drop(key, where)
                return {"$ref": ref}
            target = {k: v for k, v in self.resolve(ref, where).items() if k not in ("$defs", "definitions")}
            merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            return self.node(merged, where, (*inlining, ref))
        if isinstance(ref, str):
            self.resolve(ref, where)  # a reference that points nowhere is refused here, not by the server
            return {"$ref": ref}
        all_of = node.get("allOf")
        if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
            del node["allOf"]
            inner = self.node(all_of[0], where, inlining)
            return self.node({**inner, **node}, where, inlining)
        if "oneOf" in node and "anyOf" not in node and dialect.keywords and "oneOf" not in dialect.keywords:
            node["anyOf"] = node.pop("oneOf")
            if "discriminator" not in node:  # a discriminator makes the branches disjoint
                self.drop("oneOf (sent as anyOf)", where)
            node.pop("discriminator", None)
        if dialect.const_as_enum and "const" in node and "enum" not in node:
            node["enum"] = [node.pop("const")]
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in ("$defs", "definitions") and where == "" and not inlining:
                continue  # compiled by run(), once
            if dialect.keywords and key not in dialect.keywords:
                if key not in _INERT:
                    self.drop(key, where)
                continue
            if key == "format" and dialect.formats is not None and value not in dialect.formats:
                self.drop(f"format {value!r}", where)
                continue
            if (
                key == "minItems"
                and dialect.max_min_items is not None
                and not (isinstance(value, int) and value <= dialect.max_min_items)
            ):
                self.drop(f"minItems {value}", where)
                continue
            out[key] = self.value(key, value, where, inlining)
        if dialect.closed and (out.get("type") == "object" or "properties" in out):
            self.close(out, where)
        if dialect.all_required and isinstance(out.get("properties"), dict):
            out["required"] = list(out["properties"])
        return out

    def value(self, key: str, value: Any, where: str, inlining: tuple[str, ...]) -> Any:
        if key in _MAP and isinstance(value, dict):
            return {name: self.node(s, _join(where, key, name), inlining) for name, s in value.items()}
        if key in _LIST and isinstance(value, list):
            return [self.node(s, _join(where, key, str(i)), inlining) for i, s in enumerate(value)]
        if key in _ONE:
            return self.node(value, _join(where, key), inlining)
        return copy.deepcopy(value)

    def close(self, out: dict[str, Any], where: str) -> None:
        extra = out.get("additionalProperties", False)
        if extra is not False:
            raise InvalidRequestError(
                f"{self.setting}: {_at(where)}{self.dialect.name} cannot express an object with free-form "
                "keys (additionalProperties); list its properties, or use a list of key/value pairs"
            )
        out.setdefault("properties", {})
        out["additionalProperties"] = False
        if "type" not in out:
            out["type"] = "object"

    def refuse_recursion(self, out: dict[str, Any], *, through_required: bool) -> None:
        """Raise for a cycle of references (only one through required properties alone, when
        ``through_required``: a cycle an optional property breaks can be unrolled)."""
        defs = {
            f"#/{key}/{name}": schema
            for key in ("$defs", "definitions")
            for name, schema in (out.get(key) or {}).items()
        }

        def refs(node: Any) -> set[str]:
            if not isinstance(node, dict):
                return set()
            found = {node["$ref"]} if isinstance(node.get("$ref"), str) else set()
            for key, value in node.items():
                if key in _MAP and isinstance(value, dict):
                    if key == "properties" and through_required:
                        required = node.get("required") or []
                        value = {name: s for name, s in value.items() if name in required}
                    found |= set().union(*(refs(s) for s in value.values()))
                elif key in _LIST and isinstance(value, list):
                    found |= set().union(*(refs(s) for s in value))
                elif key in _ONE:
                    found |= refs(value)
            return found

        edges = {name: refs(schema) for name, schema in defs.items()}
        for start in edges:
            seen, todo = set(), list(edges[start])
            while todo:
                ref = todo.pop()
                if ref == start:
                    how = "through required properties alone " if through_required else ""
                    raise InvalidRequestError(
                        f"{self.setting}: {self.dialect.name} cannot express a schema that refers to itself "
                        f"{how}({start}){'; make a property on the way optional' if through_required else ''}"
                    )
                if ref not in seen:
                    seen.add(ref)
                    todo.extend(edges.get(ref, ()))

    def warnings(self) -> list[CallWarning]:
        if not self.dropped:
            return []
        from ..types import CallWarning

        described = "; ".join(
            f"{keyword} (at {', '.join(places[:3])}{', ...' if len(places) > 3 else ''})"
            for keyword, places in self.dropped.items()
        )
        details = f"{self.dialect.name} cannot express these schema keywords; not sent: {described}"
        return [CallWarning(type="unsupported-setting", setting=self.setting, details=details)]


def _join(where: str, *names: str) -> str:
    return ".".join((where, *names)) if where else ".".join(names)


def _at(where: str) -> str:
    return f"at {where}: " if where else ""
