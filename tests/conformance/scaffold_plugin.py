"""A plugin built from ``modelport new-provider`` with its generated ``merge_frames`` unregistered
(the checks under test are those that need no whole-answer cross-check), and the mapping bugs the
tests plant in it. Its API cites sources (the answer's and the ``stop`` frame's ``sources`` and
``citations``, character offsets into the answer's text), exercised by the generated cases
``generate-cited`` and ``stream-cited``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from modelport.cli._new_provider import render_scaffold, scaffold_names

NAME = "mm-llm"
PACKAGE = "modelport_mm_llm"

#: (old, new) text replacements in _plugin.py that unregister the generated ``merge_frames``.
NO_MERGE_FRAMES = [
    ("    from .mapping import merge_frames\n", ""),
    (", merge_frames=merge_frames)\n", ")\n"),
]

_NO_ARGUMENTS = """

class _StreamDecoder(Decoder):
    def feed(self, frame: dict[str, Any]) -> list[ev.StreamEvent]:
        if frame.get("type") == "tool_call":
            frame = {**frame, "arguments": {}}
        return super().feed(frame)
"""

#: The planted bugs: file → (old, new) replacements.
BUGS: dict[str, dict[str, list[tuple[str, str]]]] = {
    "usage swapped": {
        "mapping.py": [
            (
                "t.Usage(**{name: counts.get(name) for name in COUNTS})",
                't.Usage(input_tokens=counts.get("output_tokens"), output_tokens=counts.get("input_tokens"),'
                ' total_tokens=counts.get("total_tokens"))',
            )
        ]
    },
    "streamed tool arguments dropped": {
        "provider.py": [
            ("        return Decoder()\n", "        return _StreamDecoder()\n"),
            ("\n\nclass ${class}(HttpProvider):", _NO_ARGUMENTS + "\n\nclass ${class}(HttpProvider):"),
        ]
    },
    "citation offsets +1": {
        "mapping.py": [('Citation(start=raw["start"],', 'Citation(start=raw["start"] + 1,')]
    },
    "citation offsets -1": {
        "mapping.py": [('Citation(start=raw["start"],', 'Citation(start=raw["start"] - 1,')]
    },
    "system message lost": {"mapping.py": [('"system": system or None}', '"system": None}')]},
    "warning setting and details swapped": {
        "provider.py": [
            (
                "warnings=setting_warnings(request, SETTINGS))",
                'warnings=[w.model_copy(update={"setting": w.details, "details": w.setting})'
                " for w in setting_warnings(request, SETTINGS)])",
            )
        ]
    },
    # An error hook that rebuilds the kit's error and forgets its status (and retry delay).
    "error status dropped": {
        "provider.py": [
            (
                '    api: ClassVar[str | None] = "generate"\n',
                '    api: ClassVar[str | None] = "generate"\n\n'
                "    def error_from_response(self, status, headers, body):\n"
                "        error = super().error_from_response(status, headers, body)\n"
                "        return type(error)(error.message, provider=error.provider,"
                " provider_status=error.provider_status)\n",
            )
        ]
    },
    # Wrong maps of a right plugin: a path the decoder does not read, and one that reaches nothing.
    "map names the id as text": {
        "mapping.py": [('text="[/type=text]/text",', 'text=("[/type=text]/text", "[/type=start]/id"),')]
    },
    "map misspells a count": {
        "mapping.py": [
            (
                '        usage=USAGE,\n        finish_reason="[/type=stop]/stop_reason",',
                '        usage=(USAGE[0], Count("output_tokens", "/usage/output_token"), USAGE[2]),\n'
                '        finish_reason="[/type=stop]/stop_reason",',
            )
        ]
    },
}


def _replace(path: Path, changes: list[tuple[str, str]], class_name: str) -> None:
    text = path.read_text(encoding="utf-8")
    for old, new in changes:
        old, new = old.replace("${class}", class_name), new.replace("${class}", class_name)
        assert text.count(old) == 1, f"{path.name}: {old!r} is not in it once"
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


def build(root: Path, bug: str | None = None) -> Path:
    """The scaffold rendered into ``root``, ``bug`` planted; returns the folder its package is in
    (``src``)."""
    names = scaffold_names(NAME)
    render_scaffold(names, root)
    package = root / "src" / PACKAGE
    _replace(package / "_plugin.py", NO_MERGE_FRAMES, names.class_name)
    for file, changes in (BUGS[bug] if bug else {}).items():
        _replace(package / file, changes, names.class_name)
    return root / "src"


def forget_package() -> None:
    """Drop the plugin's modules, so the next test imports its own copy."""
    for module in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[module]


def rerecord_requests(cases: Path, body: Callable[[dict], dict]) -> None:
    """Each recorded request body passed through ``body``: what recording again with the plugin
    as it now is would store (the scaffold's fake server answers whatever it is sent)."""
    from modelport_conformance.cassette import dump_cassette, load_cassette

    for path in cases.glob("*/cassette.yaml"):
        cassette = load_cassette(path.read_text(encoding="utf-8"))
        for interaction in cassette.interactions:
            stored = interaction.request.get("body") or {}
            if isinstance(stored.get("json"), dict):
                stored["json"] = body(stored["json"])
        path.write_text(dump_cassette(cassette), encoding="utf-8")


def failing_checks(suite: Any) -> dict[str, dict[str, str]]:
    """Each case of ``suite`` that fails a check → {check: message}."""
    from modelport_conformance.runner import run_case

    found: dict[str, dict[str, str]] = {}
    for case in suite.cases:
        outcome = run_case(suite, case)
        failed = {c.name: c.message for c in outcome.checks if c.status == "fail"}
        if failed:
            found[case.name] = failed
    return found
