"""Mutants of one Python module: small, plausible edits to its mapping code, found on its syntax tree.

:func:`find_mutants` lists every mutant of a source text, in a fixed order; :func:`mutated_code`
compiles the source with one of them applied, keeping the original line numbers (the source text
itself is never rewritten, so a traceback still points at the file). The operators:

- ``key``: a wire key renamed: an identifier-like string literal (``"role"``) gets a suffix
  (``"role_x"``); docstrings, f-string parts and annotations are left alone;
- ``swap``: two neighbouring keyword values of a call swapped (``f(a=x, b=y)`` → ``f(a=y, b=x)``),
  likewise two neighbouring values of a dict literal (not when both are written the same);
- ``compare``: a comparison flipped (``==``/``!=``, ``<``/``>=``, ``>``/``<=``, ``in``/``not in``,
  ``is``/``is not``);
- ``number``: an integer literal off by one (``n`` → ``n + 1`` and ``n - 1``);
- ``delete``: a statement of a function body deleted (replaced by ``pass``);
- ``boolean``: ``True``/``False`` flipped.

Code under ``if TYPE_CHECKING:`` is not mutated, nor a line that carries ``# pragma: no mutate``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import CodeType
from typing import Any

__all__ = ["OPERATORS", "Mutant", "find_mutants", "mutated_code"]

#: The operator names, in the order the module docstring gives them.
OPERATORS = ("key", "swap", "compare", "number", "delete", "boolean")
#: The suffix a renamed wire key gets.
KEY_SUFFIX = "_x"
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-/]{0,63}\Z")
_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_SYMBOL = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.GtE: ">=",
    ast.Gt: ">",
    ast.LtE: "<=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}
_DELETABLE = (
    ast.Expr,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.Return,
    ast.Raise,
    ast.Continue,
    ast.Break,
)
_PRAGMA = "pragma: no mutate"


@dataclass(frozen=True)
class Mutant:
    """One mutant of a module: its place (``line``, 1-based), its ``operator`` and what changed.

    ``in_function``: the mutated code runs only when a function of the module runs (not at import),
    so only the cases that reach its lines can tell it apart. ``span`` is the line range of the
    innermost statement holding it (what "reached" is judged on); ``scope`` the name of the
    module-level function, class or one-name assignment holding it (``""`` outside any).
    """

    index: int
    line: int
    operator: str
    change: str
    in_function: bool
    span: tuple[int, int]
    scope: str = ""


def _short(node: ast.AST, limit: int = 48) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_docstring(statement: ast.stmt, parent: ast.AST) -> bool:
    body = getattr(parent, "body", None)
    return (
        isinstance(body, list)
        and bool(body)
        and body[0] is statement
        and isinstance(parent, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None) if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


class _Walker:
    """Visits the tree in a fixed order and yields, for each mutation site, a description and an
    ``apply`` callable that edits the tree in place (used on a fresh parse for one mutant)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def _skipped(self, node: ast.AST) -> bool:
        line = getattr(node, "lineno", None)
        return line is not None and 0 < line <= len(self.lines) and _PRAGMA in self.lines[line - 1]

    def sites(self, tree: ast.Module) -> Iterator[tuple[ast.AST, str, str, Any, bool, tuple[int, int]]]:
        yield from self._body(tree, tree.body, False)

    def _body(
        self, parent: ast.AST, body: list[ast.stmt], in_function: bool
    ) -> Iterator[tuple[ast.AST, str, str, Any, bool, tuple[int, int]]]:
        for position, statement in enumerate(body):
            if _is_docstring(statement, parent) or _is_type_checking(statement):
                continue
            span = (statement.lineno, statement.end_lineno or statement.lineno)
            if in_function and isinstance(statement, _DELETABLE) and not self._skipped(statement):

                def delete(tree_body: list[ast.stmt] = body, at: int = position) -> None:
                    tree_body[at] = ast.copy_location(ast.Pass(), tree_body[at])

                yield statement, "delete", f"statement deleted: {_short(statement)}", delete, True, span
            yield from self._statement(statement, in_function, span)

    def _statement(
        self, statement: ast.stmt, in_function: bool, span: tuple[int, int]
    ) -> Iterator[tuple[ast.AST, str, str, Any, bool, tuple[int, int]]]:
        inner = in_function
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for expression in [*statement.decorator_list, *statement.args.defaults]:
                yield from self._expression(expression, in_function, span)
            yield from self._expression_list(statement.args.kw_defaults, in_function, span)
            yield from self._body(statement, statement.body, True)
            return
        if isinstance(statement, ast.ClassDef):
            yield from self._body(statement, statement.body, in_function)
            return
        if isinstance(statement, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
            return
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets
        ):
            return
        for name, value in ast.iter_fields(statement):
            if name in {"annotation", "returns", "type_comment"}:
                continue
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                yield from self._body(statement, value, inner)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.ExceptHandler):
                        yield from self._body(item, item.body, inner)
                    elif isinstance(item, ast.AST):
                        yield from self._node(item, inner, span)
            elif isinstance(value, ast.AST):
                yield from self._node(value, inner, span)

    def _node(
        self, node: ast.AST, in_function: bool, span: tuple[int, int]
    ) -> Iterator[tuple[ast.AST, str, str, Any, bool, tuple[int, int]]]:
        if isinstance(node, ast.expr):
            yield from self._expression(node, in_function, span)
        elif isinstance(node, ast.match_case):
            yield from self._body(node, node.body, in_function)
        elif not isinstance(node, ast.stmt):
            for child in ast.iter_child_nodes(node):
                yield from self._node(child, in_function, span)

    def _expression_list(
        self, nodes: Sequence[ast.expr | None], in_function: bool, span: tuple[int, int]
    ) -> Iterator[tuple[ast.AST, str, str, Any, bool, tuple[int, int]]]:
        for node in nodes:
            if node is not None:
                yield from self._expression(node, in_function, span)

    def _expression(
        self, node: ast.expr, in_function: bool, span: tuple[int, int]
    ) -> Iterator[tuple[ast.AST, str, str, Any, bool, tuple[int, int]]]:
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, ast.Lambda):
            yield from self._expression_list(node.args.defaults, in_function, span)
            yield from self._expression(node.body, True, span)
            return
        if not self._skipped(node):
            for operator, change, apply in _edits(node):
                yield node, operator, change, apply, in_function, span
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                yield from self._expression(child, in_function, span)
            elif isinstance(child, ast.comprehension):
                for part in (child.target, child.iter, *child.ifs):
                    yield from self._expression(part, in_function, span)
            elif isinstance(child, ast.keyword):
                yield from self._expression(child.value, in_function, span)


def _same(first: ast.expr, second: ast.expr) -> bool:
    """Whether two values are written the same (swapping them changes nothing: not a mutant)."""
    return ast.dump(first) == ast.dump(second)


def _edits(node: ast.expr) -> Iterator[tuple[str, str, Any]]:
    """The mutations of ``node`` itself: (operator, what changed, apply)."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            yield "boolean", f"{value} → {not value}", lambda n=node: setattr(n, "value", not n.value)
        elif isinstance(value, int):
            for step in (1, -1):
                yield (
                    "number",
                    f"{value} → {value + step}",
                    lambda n=node, s=step: setattr(n, "value", n.value + s),
                )
        elif isinstance(value, str) and _KEY.match(value):
            renamed = value + KEY_SUFFIX
            yield "key", f"{value!r} → {renamed!r}", lambda n=node, r=renamed: setattr(n, "value", r)
    elif isinstance(node, ast.Compare):
        for at, op in enumerate(node.ops):
            flipped = _FLIP[type(op)]
            change = f"{_SYMBOL[type(op)]} → {_SYMBOL[flipped]} in {_short(node)}"

            def flip(n: ast.Compare = node, i: int = at, new: type[ast.cmpop] = flipped) -> None:
                n.ops[i] = new()

            yield "compare", change, flip
    elif isinstance(node, ast.Call):
        keywords = node.keywords
        for at in range(len(keywords) - 1):
            first, second = keywords[at], keywords[at + 1]
            if first.arg is None or second.arg is None or _same(first.value, second.value):
                continue
            change = f"{first.arg}= and {second.arg}= values swapped in {_short(node.func, 32)}(…)"

            def swap_keywords(n: ast.Call = node, i: int = at) -> None:
                a, b = n.keywords[i], n.keywords[i + 1]
                a.value, b.value = b.value, a.value

            yield "swap", change, swap_keywords
    elif isinstance(node, ast.Dict):
        for at in range(len(node.keys) - 1):
            left, right = node.keys[at], node.keys[at + 1]
            if left is None or right is None or _same(node.values[at], node.values[at + 1]):
                continue
            change = f"values of {_short(left, 24)} and {_short(right, 24)} swapped in a dict"

            def swap_values(n: ast.Dict = node, i: int = at) -> None:
                n.values[i], n.values[i + 1] = n.values[i + 1], n.values[i]

            yield "swap", change, swap_values


def _sites(source: str) -> tuple[ast.Module, list[tuple[ast.AST, str, str, Any, bool, tuple[int, int]]]]:
    tree = ast.parse(source)
    return tree, list(_Walker(source.splitlines()).sites(tree))


def _defined_name(statement: ast.stmt) -> str:
    """The name a module-level statement defines: a function's, a class's, or the one name an
    assignment binds (``TABLE = {...}``, ``TABLE: Final = ...``); ``""`` for anything else."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.name
    targets = statement.targets if isinstance(statement, ast.Assign) else []
    if isinstance(statement, ast.AnnAssign):
        targets = [statement.target]
    return targets[0].id if len(targets) == 1 and isinstance(targets[0], ast.Name) else ""


def find_mutants(source: str) -> list[Mutant]:
    """Every mutant of ``source``, numbered in a fixed order (the same source, the same list)."""
    tree, sites = _sites(source)
    scopes = [
        (statement.lineno, statement.end_lineno or statement.lineno, name)
        for statement in tree.body
        for name in [_defined_name(statement)]
        if name
    ]

    def scope(line: int) -> str:
        return next((name for start, end, name in scopes if start <= line <= end), "")

    return [
        Mutant(index, line, operator, change, in_function, span, scope(line))
        for index, (line, operator, change, in_function, span) in enumerate(
            (getattr(node, "lineno", 0), operator, change, in_function, span)
            for node, operator, change, _, in_function, span in sites
        )
    ]


def mutated_code(source: str, index: int, filename: str) -> CodeType:
    """``source`` compiled with mutant ``index`` applied (line numbers kept); ``IndexError`` when
    it has no such mutant."""
    tree, sites = _sites(source)
    if not 0 <= index < len(sites):
        raise IndexError(f"{filename} has no mutant {index} (it has {len(sites)})")
    sites[index][3]()
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec", dont_inherit=True)
