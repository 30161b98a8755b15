"""Record the traffic of the provider template (``modelport new-provider``) and import its cases,
with the template's own scripts, as a generated project does.

The template is rendered for a placeholder provider id into a temporary folder; its recorder
(``tests/record_traffic.py``) sends every call through the generated plugin to the generated fake
server and writes ``recordings/`` (a vcrpy cassette, raw event streams and their request bodies);
its importer (``tests/import_cases.py``) runs ``modelport conformance import`` on them, one command
per case, ``--accept`` (the review is the diff of this repository). The recordings and the cases
are turned back into template files (the placeholder id becomes ``${name}``, the default base URL
``${base_url}`` and the key's header ``${auth_header}``, so a project generated with
``--base-url`` or ``--auth`` finds its own in them). A generated project's own
``tests/test_recording.py`` records and imports again and compares, so what is committed here is
exactly what the scripts produce.

    python tools/record_scaffold_cases.py
"""

from __future__ import annotations

import importlib
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "core" / "src" / "modelport" / "cli" / "provider_template"
CASES = TEMPLATE / "src" / "__package__" / "cases"
RECORDINGS = TEMPLATE / "recordings"
#: The provider id the template is rendered with while recording: it must appear nowhere else.
PLACEHOLDER = "scaffoldplaceholder"
#: The header that carries the key (the default auth: ``authorization``), as the files hold it.
AUTH_LINE = "      authorization:\n"


def _template(text: str, base_url: str, display_name: str) -> str:
    template = text.replace("$", "$$").replace(base_url, "${base_url}")
    template = template.replace(AUTH_LINE, "      ${auth_header}:\n")
    return template.replace(PLACEHOLDER, "${name}").replace(display_name, "${display_name}")


def record() -> list[str]:
    """Record the traffic and import every case; returns one line per file written."""
    import modelport
    from modelport.cli._new_provider import render_scaffold, scaffold_names, scaffold_settings

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        names = scaffold_names(PLACEHOLDER)
        settings = scaffold_settings(names)
        render_scaffold(names, project, settings)
        sys.path[:0] = [str(project / "src"), str(project)]
        try:
            plugin = importlib.import_module(f"{names.package}._plugin")
            modelport.register_plugin(plugin, name=PLACEHOLDER)
            # The generated project's own tests package (this script runs alone, not under pytest).
            recorder = importlib.import_module("tests.record_traffic")
            importer = importlib.import_module("tests.import_cases")
            recordings: Path = recorder.RECORDINGS
            recorded: list[str] = recorder.record_against_fake(recordings)
            cases = project / "src" / names.package / "cases"
            shutil.rmtree(cases)
            statuses = importer.run(cases, accept=True)
            if any(statuses):
                raise SystemExit(f"an import failed: {statuses}")
        finally:
            del sys.path[:2]
        written = []
        for name in recorded:
            text = _template(
                (recordings / name).read_text(encoding="utf-8"), settings.base_url, names.display_name
            )
            target = RECORDINGS / f"{name}.tmpl"
            target.write_text(text, encoding="utf-8", newline="\n")
            written.append(str(target.relative_to(ROOT)))
        shutil.rmtree(CASES)
        for case in sorted(p for p in cases.iterdir() if p.is_dir()):
            (CASES / case.name).mkdir(parents=True)
            for file in sorted(case.iterdir()):
                target = CASES / case.name / f"{file.name}.tmpl"
                text = _template(file.read_text(encoding="utf-8"), settings.base_url, names.display_name)
                target.write_text(text, encoding="utf-8", newline="\n")
                written.append(str(target.relative_to(ROOT)))
    return written


if __name__ == "__main__":
    print("\n".join(record()))
