"""Issue 16: ``modelport conformance`` draws a progress bar on a terminal and plain lines otherwise, and
``--format html`` writes one self-contained page, checked here as Chromium renders it."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from modelport.cli import main, terminal
from modelport_conformance.html_report import render_html
from modelport_conformance.report import ProviderReport, Report, versions
from modelport_conformance.runner import CaseOutcome, CheckOutcome

from .conftest import EXAMPLE_CASES, write_distribution

HOSTILE = "<img src=x onerror=alert(1)>"
HOSTILE_ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"

HOSTILE_PLUGIN = '''
"""The Example provider again, as ``example-hostile``, with cases written by the test."""
from pathlib import Path

import modelport_example._plugin as example

from modelport import hookimpl

found = []
example.modelport_register_providers(register=lambda provider, **_: found.append(provider))


class Hostile(found[0]):
    id = "example-hostile"


@hookimpl
def modelport_register_providers(register):
    register(Hostile)


@hookimpl
def modelport_conformance_suites(register):
    unsupported = {"reasoning": "the Example has no reasoning"}
    register("example-hostile", Path(__file__).parent / "hostile_cases", unsupported=unsupported)
'''


@pytest.fixture
def hostile_installed(example_installed: Path) -> Path:
    """``example`` (passes) plus ``example-hostile``: a case named like markup, a failing case (its
    expected answer edited) and a skipped one (it needs reasoning, which the suite declares unsupported)."""
    site = example_installed
    cases = site / "hostile_cases"
    shutil.copytree(EXAMPLE_CASES, cases)
    shutil.copytree(cases / "generate-basic", cases / "generate-wrong")
    expected = json.loads((cases / "generate-wrong" / "expected.json").read_text(encoding="utf-8"))
    expected["result"]["text"] = "Goodbye!"
    (cases / "generate-wrong" / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    for case, edit in {
        "generate-basic": {"name": HOSTILE, "requirements": ["EX1", "<b>R2</b>"]},
        "stream-basic": {"features": ["reasoning"]},
    }.items():
        path = cases / case / "case.yaml"
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        path.write_text(yaml.safe_dump({**spec, **edit}), encoding="utf-8")
    (site / "modelport_hostile.py").write_text(HOSTILE_PLUGIN, encoding="utf-8")
    write_distribution(site, "modelport-hostile", {"example-hostile": "modelport_hostile"})
    sys.modules.pop("modelport_hostile", None)
    return site


# --------------------------------------------------------------------------- progress


def test_a_progress_bar_on_a_terminal(example_installed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terminal, "is_terminal", lambda stream: True)
    result = CliRunner().invoke(main, ["conformance", "--strict"])
    assert result.exit_code == 0
    assert result.stderr.split("\r")[1:] == [
        "[############............] 1/2  example/generate-basic PASS\x1b[K",
        "[########################] 2/2  example/stream-basic PASS\x1b[K",
        "\x1b[K",  # erased at the end
    ]
    assert " ... PASS" not in result.stderr
    assert result.stdout.splitlines()[-1] == "conformance: OK"


def test_plain_lines_when_not_a_terminal(example_installed: Path) -> None:
    result = CliRunner().invoke(main, ["conformance", "--strict"])
    assert result.exit_code == 0
    assert result.stderr == "example/generate-basic ... PASS\nexample/stream-basic ... PASS\n"


def test_quiet_draws_nothing(example_installed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terminal, "is_terminal", lambda stream: True)
    assert CliRunner().invoke(main, ["conformance", "-q"]).stderr == ""


def test_the_progress_bar_makes_labels_safe() -> None:
    import io

    bar = terminal.ProgressBar(io.StringIO(), 4, enabled=True, width=8)
    bar.done = 1
    assert bar.render("p/\x1b]0;pwned\x07case\nname") == "[##......] 1/4  p/case name"


# --------------------------------------------------------------------------- the HTML page


class Page(HTMLParser):
    """What a test needs from a page: every start tag, the matrix as text, element text by id."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.matrix: list[list[str]] = []
        self._in_matrix = False
        self._cell: list[str] | None = None
        self.feed(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "table" and dict(attrs).get("id") == "matrix":
            self._in_matrix = True
        elif self._in_matrix and tag == "tr":
            self.matrix.append([])
        elif self._in_matrix and tag in {"td", "th"}:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if self._in_matrix and tag in {"td", "th"} and self._cell is not None:
            self.matrix[-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._in_matrix = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def count(self, tag: str) -> int:
        return sum(1 for t, _ in self.tags if t == tag)


EXPECTED_MATRIX = [
    ["case", "example", "example-hostile"],
    ["generate-wrong", "\u2013", "FAIL"],  # failing rows first
    [HOSTILE, "\u2013", "PASS"],
    ["generate-basic", "PASS", "\u2013"],
    ["stream-basic", "PASS", "skip"],
    ["provider", "PASS", "FAIL"],
]


def _html_report(tmp_path: Path) -> tuple[Path, str]:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["conformance", "-q", "--format", "html", "--output", str(out)])
    assert result.exit_code == 1  # generate-wrong fails
    return out, out.read_text(encoding="utf-8")


def test_the_html_page_is_self_contained_and_escaped(hostile_installed: Path, tmp_path: Path) -> None:
    _, markup = _html_report(tmp_path)
    page = Page(markup)
    assert page.matrix == EXPECTED_MATRIX
    # Self-contained: no script, no external stylesheet, image, frame or font; links are fragments.
    assert {tag for tag, _ in page.tags} <= {
        "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "span", "main",
        "section", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "a", "details", "summary", "dl",
        "dt", "dd", "pre", "ul", "li",
    }  # fmt: skip
    assert all(attrs["href"].startswith("#") for tag, attrs in page.tags if tag == "a")
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:|//)", markup)
    assert "default-src 'none'" in markup
    # Every string from a plugin or case is text: the hostile name and requirement are escaped.
    assert HOSTILE not in markup and HOSTILE_ESCAPED in markup
    assert "<b>R2</b>" not in markup and "&lt;b&gt;R2&lt;/b&gt;" in markup
    # Requirements, the skip reason, the failure diff, the versions.
    assert "<dt>requirements</dt><dd>EX1, &lt;b&gt;R2&lt;/b&gt;</dd>" in markup
    assert re.search(r'<dd class="skip-reason">[^<]*reasoning[^<]*</dd>', markup)
    assert re.search(r'<pre class="diff">\[expected\][^<]*Goodbye![^<]*</pre>', markup), markup
    for name in ("Python", "modelport", "modelport-conformance", "modelport-example", "modelport-hostile"):
        assert f'<th scope="row">{name}</th>' in markup


def test_every_string_from_a_plugin_is_escaped() -> None:
    evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>\x1b[31m'
    outcome = CaseOutcome(
        evil, evil, evil, "fail", checks=[CheckOutcome(evil, "fail", evil)], requirements=[evil], message=evil
    )
    skipped = CaseOutcome(evil, "s", "generate", "skip", message=evil)
    report = Report(
        [ProviderReport(evil, [outcome, skipped], problem=evil, status="fail")],
        {evil: evil},
        strict=True,
        versions={evil: evil},
    )
    markup = render_html(report)
    page = Page(markup)
    assert page.count("script") == 0 and page.count("img") == 0
    assert "<script" not in markup and "<img" not in markup and "\x1b" not in markup
    assert (
        markup.count(
            "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;\\x1b[31m"
        )
        >= 10
    )


def test_versions_name_the_plugin_distributions(example_installed: Path) -> None:
    found = versions([ProviderReport("example")])
    assert list(found)[:3] == ["Python", "modelport", "modelport-conformance"]
    assert found["modelport-example"] == "0.1.0 (providers: example)"


# --------------------------------------------------------------------------- in a real browser


def _chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        message = "headless Chromium is needed for the HTML report test: apt-get install chromium"
        if os.environ.get("CI"):
            pytest.fail(message + " (.ci/run installs it when missing)")
        pytest.skip(message)
    return found


def _browse(tmp_path: Path, page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    run = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
         f"--user-data-dir={tmp_path / 'chromium-profile'}", *args, page.as_uri()],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    return run


def test_chromium_renders_the_matrix_and_shows_the_hostile_name_as_text(
    hostile_installed: Path, tmp_path: Path
) -> None:
    page, _ = _html_report(tmp_path)
    screenshot = tmp_path / "conformance-report.png"
    _browse(tmp_path, page, f"--screenshot={screenshot}", "--window-size=1280,900")
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert screenshot.stat().st_size > 5_000  # a drawn page, not a blank one
    artifacts = os.environ.get("MODELPORT_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        shutil.copy(screenshot, Path(artifacts) / screenshot.name)
    dom = _browse(tmp_path, page, "--dump-dom").stdout
    rendered = Page(dom)
    assert rendered.matrix == EXPECTED_MATRIX
    assert rendered.count("img") == 0 and rendered.count("script") == 0
    assert HOSTILE_ESCAPED in dom and HOSTILE not in dom
    # The failing case's details are open, with the diff; the others are closed.
    opened = [attrs.get("id") for tag, attrs in rendered.tags if tag == "details" and "open" in attrs]
    assert opened == ["case-1-1"]


def _many_cases_one_failing(count: int = 239, failing: int = 163) -> Report:
    """The shape issue 41 found: one failing case, the 164th of 239, in a long run."""
    outcomes = [
        CaseOutcome(
            "acme", f"generate-case-{n:03d}", "generate", "pass", checks=[CheckOutcome("expected", "pass")]
        )
        for n in range(count)
    ]
    outcomes[failing] = CaseOutcome(
        "acme",
        f"generate-case-{failing:03d}",
        "generate",
        "fail",
        checks=[CheckOutcome("request", "pass"), CheckOutcome("usage", "fail", "input and output swapped")],
        message="[usage] input_tokens 9 > total_tokens 5",
    )
    return Report(
        [ProviderReport("acme", outcomes, status="fail")], {}, strict=False, versions={"Python": "3"}
    )


#: Added to a copy of the page (its CSP dropped) to read the layout as Chromium drew it.
_MEASURE = """<script>
const upper = el => el.getBoundingClientRect().top, lower = el => el.getBoundingClientRect().bottom;
const hint = document.querySelector('#failures pre.hint'), ref = document.querySelector('#failures .case-ref');
const firstCase = [...document.querySelectorAll('.case-ref, #matrix tbody th, details.case .name')]
  .sort((a, b) => upper(a) - upper(b))[0];
document.body.dataset.measured = JSON.stringify({
  viewport: window.innerHeight, first: firstCase.textContent, ref: ref.textContent,
  hintTop: upper(hint), hintBottom: lower(hint), hint: hint.textContent,
  firstRow: document.querySelector('#matrix tbody th').textContent,
  firstDetails: document.querySelector('details.case').id,
});
</script>"""


def test_chromium_shows_the_one_failing_case_first_with_its_hints(tmp_path: Path) -> None:
    markup = render_html(_many_cases_one_failing())
    # Failures first, in the page's own text: the section comes before the matrix and the case list.
    assert markup.index('id="failures"') < markup.index('id="matrix"') < markup.index("<details")
    page = tmp_path / "measured.html"
    measured = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", markup)
    page.write_text(measured.replace("</body>", _MEASURE + "</body>"), encoding="utf-8")
    dom = _browse(tmp_path, page, "--window-size=1280,900", "--dump-dom").stdout
    found = re.search(r'data-measured="([^"]*)"', dom)
    assert found, dom[:2000]
    seen = json.loads(html.unescape(found.group(1)))
    assert seen["first"] == seen["ref"] == "acme / generate-case-163"  # the first case on the page
    assert seen["firstRow"] == "generate-case-163"  # and the first row of the matrix
    assert seen["firstDetails"] == "case-0-163"  # and the first of the provider's cases
    assert 0 <= seen["hintTop"] < seen["hintBottom"] <= seen["viewport"]  # the hints are on screen
    assert seen["hint"].splitlines() == [
        "replay:      modelport conformance --provider acme",
        "regenerate:  modelport conformance --provider acme --regenerate   # review, then --accept",
        "re-record:   pytest --modelport-record-mode=all -k generate-case-163   # with the provider's key set",
    ]


def test_a_passing_report_has_no_failures_section() -> None:
    report = _many_cases_one_failing(count=3, failing=0)
    report.providers[0].cases[0] = CaseOutcome("acme", "generate-case-000", "generate", "pass")
    markup = render_html(report)
    assert 'id="failures"' not in markup and 'class="hint"' not in markup


@pytest.mark.parametrize("fmt", ["table", "json", "markdown", "html"])
def test_a_lone_surrogate_in_a_message_is_written_by_every_report(
    example_installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """Found here: a decoder error message holding a lone surrogate made ``modelport conformance``
    crash after the run with ``UnicodeEncodeError``, its ``--output`` report left at 0 bytes."""
    import modelport_conformance.report as report_module

    message = "the response could not be decoded: ValueError: bad byte \udcff in 'x'"
    outcome = CaseOutcome(
        "example",
        "generate-basic",
        "generate",
        "fail",
        checks=[CheckOutcome("expected", "fail", message)],
        message=message,
    )
    report = Report(
        [ProviderReport("example", [outcome], status="fail")], {}, strict=True, versions={"Python": "3"}
    )
    monkeypatch.setattr(report_module, "run_conformance", lambda *args, **kwargs: report)
    files = {name: tmp_path / name for name in (f"report.{fmt}", "junit.xml", "summary.json", "badge.json")}
    args = ["--format", fmt, "--output", str(files[f"report.{fmt}"]), "--junit", str(files["junit.xml"])]
    args += ["--summary", str(files["summary.json"]), "--badge", str(files["badge.json"]), "-q"]
    result = CliRunner().invoke(main, ["conformance", *args])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    written = {name: path.read_text(encoding="utf-8") for name, path in files.items()}
    assert all(written.values())
    assert "bad byte \\udcff in" in written[f"report.{fmt}"]
    if fmt == "json":
        [case] = json.loads(written["report.json"])["providers"]["example"]["cases"]
        assert case["message"] == message  # the escape reads back as the same code point
    assert "bad byte \ufffd in" in written["junit.xml"]
