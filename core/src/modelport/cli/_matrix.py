"""The feature-by-provider matrix, as Markdown, from the registered providers' ``Capabilities``.

``modelport providers --format markdown`` prints it; ``tools/provider_matrix.py`` writes it into the
README and docs/providers.md, and a test fails when either copy no longer matches the registry.
"""

from __future__ import annotations

from importlib import metadata

__all__ = ["FEATURES", "feature_matrix"]

#: Each column: the ``Capabilities`` field and its heading.
FEATURES: tuple[tuple[str, str], ...] = (
    ("generate", "generate"),
    ("stream", "stream"),
    ("function_tools", "tools"),
    ("structured_output", "typed output"),
    ("reasoning", "reasoning"),
    ("documents", "documents"),
    ("prompt_cache", "prompt cache"),
    ("web_search", "web search"),
    ("web_fetch", "web fetch"),
    ("code_execution", "code execution"),
    ("mcp_server", "MCP server"),
    ("provider_tools", "provider tools"),
    ("embed", "embed"),
    ("count_tokens", "count tokens"),
    ("batch", "batch"),
    ("list_models", "list models"),
)

_YES = "✓"


def _distributions() -> dict[str, str]:
    """Top-level package → the distribution whose ``modelport`` entry point loads it."""
    found: dict[str, str] = {}
    for entry in metadata.entry_points(group="modelport"):
        if entry.dist is not None:
            found.setdefault(entry.module.partition(".")[0], entry.dist.name)
    return found


def feature_matrix() -> str:
    """One row per provider an installed distribution registers (by id), one ✓ column per feature.

    Providers registered at run time (``modelport.testing``'s scripted provider, a test's own) have
    no distribution and are left out, so the table is the same in every process. Ends with a newline.
    """
    from modelport import plugins

    shipped_by = _distributions()
    head = ["provider", "distribution", *(title for _, title in FEATURES)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for provider_id, cls in sorted(plugins.providers().items()):
        distribution = shipped_by.get(cls.__module__.partition(".")[0])
        if distribution is None:
            continue
        declared = cls.capabilities.as_dict()
        cells = [f"`{provider_id}`", f"`{distribution}`"]
        cells += [_YES if declared.get(name) else "" for name, _ in FEATURES]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
