"""Fixtures: the worked example plugins installed through REAL entry points (a dist-info on sys.path)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from modelport._registry import reset_registry

#: The entry points of the first-party plugins (modelport-google, -openai, -anthropic), blocked where a
#: test wants only the example plugin.
FIRST_PARTY_IDS = (
    "azure-openai",
    "azure-openai-responses",
    "google",
    "google-vertex",
    "openai",
    "openai-compatible",
    "openai-responses",
    "groq",
    "deepseek",
    "openrouter",
    "xai",
    "together",
    "mistral",
    "ollama",
    "anthropic",
    "bedrock",
)
#: The first-party entry points named otherwise than a provider they register (modelport-aws: "aws").
FIRST_PARTY_ENTRY_POINTS = (*FIRST_PARTY_IDS, "aws")

EXAMPLE_ROOT = Path(__file__).parent / "example_plugin"
EXAMPLE_CASES = EXAMPLE_ROOT / "modelport_example" / "cases"


def write_distribution(site: Path, name: str, entry_points: dict[str, str]) -> None:
    """A minimal installed distribution: METADATA plus entry_points.txt in the ``modelport`` group."""
    info = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n", encoding="utf-8")
    lines = ["[modelport]", *(f"{k} = {v}" for k, v in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    reset_registry()
    yield
    reset_registry()


def install_alone(
    monkeypatch: pytest.MonkeyPatch, site: Path, name: str, entry_points: dict[str, str], root: Path
) -> Path:
    """The plugin under ``root`` installed by entry point at ``site``, the first-party plugins blocked."""
    write_distribution(site, name, entry_points)
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("MODELPORT_BLOCK_PLUGINS", ",".join(FIRST_PARTY_ENTRY_POINTS))
    return site


@pytest.fixture
def example_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> Path:
    """The example plugin installed by entry point (only ``example``; the first-party plugins blocked)."""
    entry_points = {"example": "modelport_example._plugin"}
    return install_alone(monkeypatch, tmp_path / "site", "modelport-example", entry_points, EXAMPLE_ROOT)


@pytest.fixture
def broken_installed(example_installed: Path) -> Path:
    """The example plugin plus the deliberately broken variants."""
    write_distribution(
        example_installed,
        "modelport-example-broken",
        {
            "example-badrequest": "modelport_example_broken._plugin",
            "example-badresponse": "modelport_example_broken._plugin",
        },
    )
    return example_installed


VARIANT_IDS = (
    "example-mergebug",
    "example-decodebug",
    "example-crash",
    "example-noauth",
    "example-auth",
    "example-features",
    "example-usagebug",
    "example-streamusage",
    "example-streamswap",
    "example-hang",
    "example-hog",
)


def _copy_cases(target: Path, edit: dict[str, str] | None = None) -> None:
    """The Example's cases copied to ``target``; ``edit`` appends YAML lines to a case's case.yaml."""
    shutil.copytree(EXAMPLE_CASES, target)
    for case, lines in (edit or {}).items():
        with (target / case / "case.yaml").open("a", encoding="utf-8") as handle:
            handle.write(lines)


def _require_credential_header(cases: Path) -> None:
    """Each recorded request holds ``authorization: <credential>``, as the recorder keeps it."""
    from modelport_conformance.cassette import dump_cassette, load_cassette

    for path in cases.glob("*/cassette.yaml"):
        cassette = load_cassette(path.read_text(encoding="utf-8"))
        for interaction in cassette.interactions:
            interaction.request.setdefault("headers", {})["authorization"] = ["<credential>"]
        path.write_text(dump_cassette(cassette), encoding="utf-8")


@pytest.fixture
def variants_installed(example_installed: Path) -> Iterator[Path]:
    """The example plugin plus ``modelport_variants`` (tests/conformance/variant_plugins.py)."""
    site = example_installed
    shutil.copy(Path(__file__).parent / "variant_plugins.py", site / "modelport_variants.py")
    cases = site / "variant_cases"
    _copy_cases(cases / "auth")
    _require_credential_header(cases / "auth")
    _copy_cases(
        cases / "features",
        {"stream-basic": "features: [reasoning]\n", "generate-basic": "config: {max_retries: 0}\n"},
    )
    _copy_cases(cases / "usagebug")
    _copy_cases(cases / "streamusage")
    write_distribution(site, "modelport-variants", dict.fromkeys(VARIANT_IDS, "modelport_variants"))
    sys.modules.pop("modelport_variants", None)
    yield site
    sys.modules.pop("modelport_variants", None)


@pytest.fixture
def build_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None) -> Iterator[object]:
    """``build_plugin(bug)``: the scaffold plugin of :mod:`.scaffold_plugin` with ``bug`` planted,
    installed alone, every ``expected.json`` regenerated from it (the goldens accept the bug)."""
    from modelport_conformance.cases import discover_suites
    from modelport_conformance.runner import run_case

    from . import scaffold_plugin

    def build(bug: str | None) -> object:
        source = scaffold_plugin.build(tmp_path / "project", bug)
        entry = {scaffold_plugin.NAME: f"{scaffold_plugin.PACKAGE}._plugin"}
        install_alone(monkeypatch, tmp_path / "site", "modelport-mm-llm", entry, source)
        if bug == "system message lost":
            # Recorded again with the bug, the cassettes hold no system field either.
            cases = source / scaffold_plugin.PACKAGE / "cases"
            scaffold_plugin.rerecord_requests(
                cases, lambda body: {k: v for k, v in body.items() if k != "system"}
            )
        suite = discover_suites([scaffold_plugin.NAME])[0][scaffold_plugin.NAME]
        assert suite is not None and suite.merge_frames is None
        for case in suite.cases:  # the author runs --regenerate: the goldens accept the bug
            run_case(suite, case, regenerate=True)
        return suite

    scaffold_plugin.forget_package()
    yield build
    scaffold_plugin.forget_package()
