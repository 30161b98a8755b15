"""Record the cases of the provider template (``modelport new-provider``) with its own script.

The template's cases are recorded the way a generated project records them: the template is
rendered for a placeholder provider id into a temporary folder, its recording script
(``tests/record_cases.py``) sends every case through the generated plugin to the generated fake
server, and the recorded ``cassette.yaml`` and ``expected.json`` files are turned back into
template files (the placeholder id becomes ``${name}``, the default base URL ``${base_url}``
and the key's header ``${auth_header}``, so a project generated with ``--base-url`` or ``--auth``
finds its own in its cassettes). A generated project's own
``tests/test_recording.py`` records again and compares, so what is committed here is exactly what
the script produces.

    python tools/record_scaffold_cases.py
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "core" / "src" / "modelport" / "cli" / "provider_template" / "src" / "__package__" / "cases"
#: The provider id the template is rendered with while recording: it must appear nowhere else.
PLACEHOLDER = "scaffoldplaceholder"
RECORDED = ("cassette.yaml", "expected.json")
#: The recorded request header that carries the key (the default auth: ``authorization``).
AUTH_LINE = "      authorization:\n"


def record() -> list[str]:
    """Record every template case; returns one ``name: status`` line per case."""
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
            script = importlib.import_module("tests.record_cases")
            generated: Path = script.CASES
            lines: list[str] = script.record_against_fake(generated)
        finally:
            del sys.path[:2]
        for case in sorted(p for p in generated.iterdir() if p.is_dir()):
            for file in RECORDED:
                text = (case / file).read_text(encoding="utf-8")
                template = text.replace("$", "$$").replace(settings.base_url, "${base_url}")
                template = template.replace(AUTH_LINE, "      ${auth_header}:\n")
                template = template.replace(PLACEHOLDER, "${name}")
                template = template.replace(names.display_name, "${display_name}")
                (CASES / case.name / (file + ".tmpl")).write_text(template, encoding="utf-8", newline="\n")
    return lines


if __name__ == "__main__":
    print("\n".join(record()))
