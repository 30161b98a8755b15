"""YAML read with its alias expansion bounded: every ``case.yaml`` and cassette goes through
:func:`load_yaml`.

YAML anchors and aliases share one node among many places, so about 760 bytes of nested aliases
stand for 10^9 strings. The loader builds each node once (small), but whatever walks the data
afterwards (a JSON dump of a body, a comparison) meets every place: ``--cassette`` died of memory,
and in a plugin's case the walk is one C call that the case bounds cannot interrupt. Aliases are
kept (``yaml.dump`` writes them for repeated values, and recorded cassettes hold some), but the
size of the document as its aliases expand (one per node, plus each scalar's length) must stay
within :func:`expansion_limit` of the text: :data:`EXPANSION_FACTOR` times its length, plus
:data:`EXPANSION_ALLOWANCE`. Without aliases a document is never larger than its text; an alias
that holds the node it is in (a cycle) is refused too. The expansion is measured over the node
graph with each node counted once (linear in the text), before any object is built.
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = [
    "EXPANSION_ALLOWANCE",
    "EXPANSION_FACTOR",
    "LOADER",
    "YamlExpansionError",
    "expansion_limit",
    "load_yaml",
]

#: libyaml's safe loader when available (cassettes are large), else the pure-Python one.
LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: How many times its own length a document may grow as its aliases expand.
EXPANSION_FACTOR = 10
#: What any document may grow by besides (nodes plus characters).
EXPANSION_ALLOWANCE = 1_000_000


class YamlExpansionError(ValueError):
    """A YAML document whose aliases expand beyond :func:`expansion_limit`, or hold themselves:
    ``<what>: <problem>`` (:attr:`problem` alone, to say where in other words)."""

    def __init__(self, what: str, problem: str = "") -> None:
        super().__init__(f"{what}: {problem}" if problem else what)
        self.problem = problem or what


def expansion_limit(text: str) -> int:
    """The largest expanded size (nodes plus scalar characters) a document of ``text`` may have."""
    return EXPANSION_FACTOR * len(text) + EXPANSION_ALLOWANCE


def load_yaml(text: str, what: str = "the document", *, loader: Any = None) -> Any:
    """``yaml.safe_load(text)``, refusing a document whose aliases expand beyond
    :func:`expansion_limit` (a :class:`YamlExpansionError` naming ``what``); ``loader``: a subclass
    of :data:`LOADER` with more tags (Ruby's ``!binary``) to read it with."""
    loader = (loader or LOADER)(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node, expansion_limit(text), what)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _expanded_size(root: yaml.Node, limit: int, what: str) -> int:
    """The size of ``root`` with every alias expanded, each node measured once (iteratively: no
    recursion limit), stopping as soon as it passes ``limit``."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            open_nodes.discard(key)
            total = 1 + sum(sizes[id(child)] for child in _children(node))
            if total > limit:
                raise YamlExpansionError(
                    what,
                    f"YAML aliases expand it beyond {limit} nodes and characters "
                    f"(at most {EXPANSION_FACTOR} times its length plus {EXPANSION_ALLOWANCE})",
                )
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            raise YamlExpansionError(what, "a YAML alias refers to a node that contains it")
        if isinstance(node, yaml.ScalarNode):
            sizes[key] = 1 + len(node.value)
            if sizes[key] > limit:
                raise YamlExpansionError(what, f"a scalar is longer than {limit} characters")
            continue
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in sizes)
    return sizes[id(root)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []
