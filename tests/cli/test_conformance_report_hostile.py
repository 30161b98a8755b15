"""X2: the HTML conformance report of a hostile plugin, end to end in headless Chromium.

A plugin's cases carry markup meant to break out of every place the page shows text (the title, a
table cell, an attribute, a ``<pre>`` diff, a ``<style>`` block), bidi controls that reorder what
is shown, and a decoder that never returns (a time-out row). Chromium renders the page with
JavaScript on: nothing runs (the title is unchanged, no element a payload would add exists), every
payload is shown as text, the bidi controls as ``\\u202e``, and the time-out row is in the matrix.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from modelport.cli import main

from .conftest import EXAMPLE_CASES, write_distribution
from .test_conformance_report import Page, _browse

#: Script that would change the title if it ran anywhere.
RUN = "document.title='pwned'"
NAME = f"</title></style></td><script>{RUN}</script>\u202egnp.exe"
REQUIREMENT = f'"\'><img src=x onerror="{RUN}"><svg onload={RUN}>'
ANSWER = f'</pre><iframe srcdoc="<script>{RUN}</script>"></iframe>\u2066\u200b<a href=javascript:{RUN}>x</a>'

PLUGIN = '''
"""The Example provider as ``example-evil`` (its cases written by the test) and ``example-stuck``
(a decoder that never returns)."""
from pathlib import Path

import modelport_example._plugin as example

from modelport import hookimpl

found = []
example.modelport_register_providers(register=lambda provider, **_: found.append(provider))


class Evil(found[0]):
    id = "example-evil"


class Stuck(found[0]):
    id = "example-stuck"

    def decode_response(self, data, spec):
        while True:
            pass


@hookimpl
def modelport_register_providers(register):
    register(Evil)
    register(Stuck)


@hookimpl
def modelport_conformance_suites(register):
    register("example-evil", Path(__file__).parent / "evil_cases")
    register("example-stuck", Path(__file__).parent / "evil_cases", unsupported={"stream": "not under test"})
'''


@pytest.fixture
def evil_installed(example_installed: Path) -> Path:
    site = example_installed
    cases = site / "evil_cases"
    shutil.copytree(EXAMPLE_CASES, cases)
    spec_path = cases / "generate-basic" / "case.yaml"
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    spec_path.write_text(
        yaml.safe_dump({**spec, "name": NAME, "requirements": [REQUIREMENT]}), encoding="utf-8"
    )
    expected_path = cases / "generate-basic" / "expected.json"
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    expected["result"]["text"] = ANSWER  # the diff shows it
    expected_path.write_text(json.dumps(expected), encoding="utf-8")
    (site / "modelport_evil.py").write_text(PLUGIN, encoding="utf-8")
    write_distribution(
        site, "modelport-evil", {"example-evil": "modelport_evil", "example-stuck": "modelport_evil"}
    )
    sys.modules.pop("modelport_evil", None)
    return site


def test_chromium_shows_every_hostile_string_as_text_and_runs_nothing(
    evil_installed: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    args = ["conformance", "-q", "--format", "html", "--output", str(out), "--case-timeout", "1"]
    args += ["--provider", "example-evil", "--provider", "example-stuck"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    dom = _browse(tmp_path, out, "--dump-dom", "--virtual-time-budget=2000").stdout
    page = Page(dom)
    shown_name = NAME.replace("\u202e", "\\u202e")
    assert page.matrix == [
        ["case", "example-evil", "example-stuck"],
        [shown_name, "FAIL", "FAIL"],
        ["stream-basic", "PASS", "skip"],
        ["provider", "FAIL", "FAIL"],
    ]
    assert "<title>modelport conformance report</title>" in dom  # no script ran
    assert {tag for tag, _ in page.tags}.isdisjoint({"script", "img", "svg", "iframe", "object", "embed"})
    assert all(attrs.get("href", "#").startswith("#") for tag, attrs in page.tags if tag == "a")
    assert not any(name.startswith("on") for _, attrs in page.tags for name in attrs)
    for payload in (NAME, REQUIREMENT, ANSWER, "\u202e", "\u2066", "\u200b"):
        assert payload not in dom
    assert "&lt;/title&gt;&lt;/style&gt;&lt;/td&gt;&lt;script&gt;" in dom
    assert '&lt;/pre&gt;&lt;iframe srcdoc="&lt;script&gt;' in dom  # (a text node's quotes stay)
    assert "\\u202egnp.exe" in dom and "\\u2066\\u200b" in dom
    assert "[time-out] the case did not finish within 1 s; it was stopped" in dom
