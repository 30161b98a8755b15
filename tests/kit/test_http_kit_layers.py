"""The shape of the HTTP kit, read from its source: the I/O never imports the kit class, no import
circle runs through the kit's modules, and every public name the kit had when it was one module is
still there (module sizes: ``tests/test_source_layout.py``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import modelport
import modelport.http

CORE = Path(modelport.__file__).parent
#: The kit's modules and the client layer under them (and the kit's old one-module files, should they
#: come back).
KIT = sorted(
    [
        *(CORE / "http").glob("*.py"),
        *(
            CORE / f"{name}.py"
            for name in ("_clients", "_aiohttp", "provider", "http", "_transport", "_atransport")
        ),
    ]
)
KIT = [path for path in KIT if path.exists()]


def _name(path: Path) -> str:
    parts = path.relative_to(CORE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The modelport modules ``path`` imports anywhere (top level, functions, TYPE_CHECKING)."""
    name = _name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("modelport"))
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = (f"{base}.{node.module}" if node.module else base) if node.level else node.module or ""
            if not module.startswith("modelport"):
                continue
            for alias in node.names:  # ``from . import _calls`` imports the module ``_calls``
                sub = f"{module}.{alias.name}"
                found.add(sub if (CORE.parent / (sub.replace(".", "/") + ".py")).exists() else module)
    return found - {name}


GRAPH = {_name(path): _imports(path) for path in KIT}


def test_the_io_never_imports_the_kit_class() -> None:
    io = [m for m in GRAPH if m.startswith("modelport.http._") and m != "modelport.http._kit"]
    assert io, "the kit's modules were not found"
    importing = {m: GRAPH[m] & {"modelport.http", "modelport.http._kit"} for m in io}
    assert {m: found for m, found in importing.items() if found} == {}


def test_no_import_circle_runs_through_the_kit() -> None:
    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in GRAPH.get(todo.pop(), ()):
                if nxt in GRAPH and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    assert [m for m in GRAPH if m in reach(m)] == []


#: ``modelport.http.__all__`` when the kit was one module (``http.py``), before the package.
OLD_NAMES = [
    "FileBody",
    "HeaderAuth",
    "HttpProvider",
    "HttpRequest",
    "HttpResponse",
    "Operation",
    "Steps",
    "Wait",
    "Limits",
    "StreamDecoder",
    "check_header_value",
    "ERROR_TYPES",
    "TRANSIENT_STATUSES",
    "error_class",
    "error_message",
    "own_status",
    "parse_retry_after",
    "status_error",
    "stream_error",
]


def test_every_old_public_name_of_the_kit_still_imports() -> None:
    missing = [
        name for name in OLD_NAMES if name not in modelport.http.__all__ or not hasattr(modelport.http, name)
    ]
    assert missing == []
    assert modelport.http.Limits().max_frame_bytes == 16 * 1024 * 1024
    assert modelport.http.HttpRequest("/x").method == "POST"
    from modelport.http import DEFAULT_TIMEOUT, HttpClients

    assert HttpClients.__module__ == "modelport.http._clients"
    assert DEFAULT_TIMEOUT.read == 120.0


def test_http_state_moved_from_the_provider_contract_to_the_kit() -> None:
    """Only an :class:`HttpProvider` holds clients; the old names on ``modelport.provider`` still
    read, with a warning naming their new home."""
    import modelport.provider
    from modelport.http import HttpClients

    with pytest.warns(
        DeprecationWarning, match=r"^modelport.provider.HttpClients moved to modelport.http.HttpClients"
    ):
        assert modelport.provider.HttpClients is HttpClients
    assert "HttpClients" not in modelport.provider.__all__

    class Plain(modelport.provider.Provider):
        id = "plain"

    class Kit(modelport.http.HttpProvider):
        id = "kit"

    assert not hasattr(Plain(modelport.provider.ProviderConfig(provider_id="plain")), "http")
    assert isinstance(Kit(modelport.provider.ProviderConfig(provider_id="kit")).http, HttpClients)
