"""Package faces: every documented module is an attribute after a plain ``import modelport``, loaded
only when first read, through the one lazy loader (``modelport.lazy``) the plugins use too.

Each check runs in a fresh interpreter, where nothing has imported the submodules yet.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import modelport
from modelport.lazy import lazy_attributes

# The modules the API reference documents (mkdocs.yml) and the guides call through the package.
LAZY_MODULES = [
    "events",
    "http",
    "loop",
    "outputs",
    "plugins",
    "telemetry",
    "tools",
    "types",
    "wire",
]


def fresh(code: str) -> Any:
    """What ``code`` (run in a new interpreter) prints as JSON on its last line."""
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_http_plugins_and_telemetry_work_after_a_plain_import() -> None:
    got = fresh(
        """
        import json, modelport
        limits = modelport.http.Limits(max_error_body_bytes=1024)
        print(json.dumps([
            limits.max_error_body_bytes,
            type(modelport.http.Limits()).__name__,
            [p for p in ("anthropic", "deepseek") if p in modelport.plugins.providers()],
            modelport.plugins.split_model_id("google/gemini-2.5-flash"),
            modelport.telemetry.capturing_content(),
            modelport.telemetry.__name__,
        ]))
        """
    )
    assert got == [
        1024,
        "Limits",
        ["anthropic", "deepseek"],
        ["google", "gemini-2.5-flash"],
        False,
        "modelport.telemetry",
    ]


def test_import_modelport_imports_none_of_them_until_read() -> None:
    got = fresh(
        """
        import json, sys, modelport
        def public():
            names = [m[10:] for m in sys.modules if m.startswith("modelport.")]
            return sorted(m for m in names if not any(part.startswith("_") for part in m.split(".")))
        before = public()
        modelport.plugins
        print(json.dumps([before, public(), "plugins" in vars(modelport), "modelport.http._kit" in sys.modules]))
        """
    )
    # ``deadlines`` is small and used by every call (the call's time budget): loaded with the core.
    # ``get_model`` checks a base URL with ``http.urls``, which loads the kit's face, not the kit: the
    # face's names load when first read.
    eager = ["deadlines", "errors", "hookspecs", "http", "http.urls", "lazy", "provider"]
    assert got == [eager, sorted([*eager, "plugins"]), True, False]
    assert not (set(eager) - {"http"}) & set(LAZY_MODULES)


def test_every_public_module_is_reachable_as_an_attribute() -> None:
    public = sorted(m.name for m in pkgutil.iter_modules(modelport.__path__) if not m.name.startswith("_"))
    assert set(LAZY_MODULES) <= set(public)
    got = fresh(
        f"""
        import importlib, json, modelport
        print(json.dumps([
            name for name in {public!r}
            if getattr(modelport, name) is not importlib.import_module("modelport." + name)
        ]))
        """
    )
    assert got == []


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"^module 'modelport' has no attribute 'nope'$"):
        modelport.nope  # noqa: B018
    assert not hasattr(modelport, "_registry_nope")


def test_dir_lists_the_lazy_names() -> None:
    assert {"http", "plugins", "telemetry", "Result", "tool"} <= set(dir(modelport))


def test_the_plugins_and_the_cli_use_the_one_loader() -> None:
    got = fresh(
        """
        import json, modelport.cli, modelport_google, modelport_openai
        faces = [modelport, modelport.cli, modelport_google, modelport_openai]
        print(json.dumps([
            [f.__getattr__.__module__, f.__getattr__.__qualname__.split(".")[0]] for f in faces
        ] + [
            modelport_google.files.__name__,
            modelport_google.GoogleOptions.__name__,
            [p.id for p in modelport_openai.PRESETS[:2]],
            modelport.cli.COMMANDS_GROUP,
        ]))
        """
    )
    assert got == [["modelport.lazy", "lazy_attributes"]] * 4 + [
        "modelport_google.files",
        "GoogleOptions",
        ["groq", "deepseek"],
        "modelport.commands",
    ]


def test_lazy_attributes_on_a_package_of_ones_own(tmp_path: Path) -> None:
    package = tmp_path / "acme_face"
    package.mkdir()
    (package / "_options.py").write_text("LOADS = 1\nclass AcmeOptions: pass\n")
    (package / "files.py").write_text("def upload(): return 'uploaded'\n")
    (package / "__init__.py").write_text(
        "from modelport.lazy import lazy_attributes\n"
        "__getattr__, __dir__ = lazy_attributes(__name__, {'AcmeOptions': '._options', 'files': '.files'})\n"
    )
    got = fresh(
        f"""
        import json, sys
        sys.path.insert(0, {str(tmp_path)!r})
        import acme_face
        loaded = [m for m in ("acme_face._options", "acme_face.files") if m in sys.modules]
        options = acme_face.AcmeOptions
        try:
            acme_face.nope
        except AttributeError as error:
            missing = str(error)
        print(json.dumps([
            loaded,
            options.__module__,
            "AcmeOptions" in vars(acme_face),
            acme_face.files.upload(),
            missing,
            [n for n in dir(acme_face) if not n.startswith("_")],
        ]))
        """
    )
    assert got == [
        [],
        "acme_face._options",
        True,
        "uploaded",
        "module 'acme_face' has no attribute 'nope'",
        ["AcmeOptions", "files", "lazy_attributes"],
    ]


def test_lazy_attributes_returns_module_functions() -> None:
    getattr_, dir_ = lazy_attributes("modelport", {"Result": ".types"})
    assert getattr_("Result") is modelport.Result
    assert "Result" in dir_()
    with pytest.raises(AttributeError, match="no attribute 'Model2'"):
        getattr_("Model2")
