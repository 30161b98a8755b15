"""Issue 34 item 10: a cassette (``--cassette``, or a plugin's case) is bounded as it is read.

About 760 bytes of YAML anchors and aliases stand for 10^9 strings: the loader built each node once,
but the first walk of the data (a JSON dump of a body) met every place, so ``--cassette`` died of
memory. An ill-typed interaction gave a bare ``TypeError``. Now the expansion is measured before
anything is built, and each interaction's shape is checked: one line naming the cassette and the
interaction either way.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport.cli import main
from modelport_conformance.cases import load_cases
from modelport_conformance.cassette import CassetteError, load_cassette
from modelport_conformance.safe_yaml import EXPANSION_FACTOR, YamlExpansionError, expansion_limit, load_yaml


def _laughs(levels: int = 9) -> str:
    """Ten strings, then ``levels`` lists of ten aliases to the list before: 10^(levels+1) strings."""
    names = "abcdefghijklmnop"
    lines = [f"{names[0]}: &{names[0]} [" + ", ".join(['"lol"'] * 10) + "]"]
    for level in range(1, levels + 1):
        lines.append(f"{names[level]}: &{names[level]} [" + ", ".join([f"*{names[level - 1]}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def _bomb_cassette(levels: int = 9) -> str:
    """A cassette whose metadata holds the laughs and whose response body is their last list."""
    last = "abcdefghijklmnop"[levels]
    metadata = "".join("  " + line + "\n" for line in _laughs(levels).splitlines())
    return (
        "version: 1\nmetadata:\n" + metadata + "interactions:\n- request:\n    method: POST\n"
        "    uri: https://api.example.test/v1/generate\n    headers: {}\n    body: {json: {model: tiny-1}}\n"
        "  response:\n    status: {code: 200, message: OK}\n    headers: {}\n"
        f"    body: {{json: {{laughs: *{last}}}}}\n"
    )


def test_a_billion_laughs_is_refused_before_it_expands() -> None:
    text = _bomb_cassette()
    assert len(text) < 1200  # a few hundred bytes stand for 10^10 strings
    with pytest.raises(CassetteError) as raised:
        load_cassette(text, "laughs.yaml")
    assert str(raised.value) == (
        f"laughs.yaml: YAML aliases expand it beyond {expansion_limit(text)} nodes and characters "
        f"(at most {EXPANSION_FACTOR} times its length plus 1000000)"
    )
    assert "\n" not in str(raised.value)


def test_aliases_that_expand_a_little_are_kept() -> None:
    """Recorded cassettes hold aliases (``yaml.dump`` writes them for repeated values)."""
    data = load_yaml("a: &h [x, y]\nb: *h\nc: [*h, *h]\n")
    assert data == {"a": ["x", "y"], "b": ["x", "y"], "c": [["x", "y"], ["x", "y"]]}
    assert load_yaml(_laughs(3), "three levels")["d"][0][0][0] == ["lol"] * 10


def test_an_alias_holding_itself_is_refused() -> None:
    with pytest.raises(YamlExpansionError, match="^loop: a YAML alias refers to a node that contains it$"):
        load_yaml("a: &a [1, *a]\n", "loop")


def test_generate_with_a_laughs_cassette_is_one_line_of_error(
    example_installed: Path, tmp_path: Path
) -> None:
    path = tmp_path / "laughs.yaml"
    path.write_text(_bomb_cassette(), encoding="utf-8")
    result = CliRunner().invoke(main, ["generate", "example/tiny-1", "hi", "--cassette", str(path)])
    assert result.exit_code == 1
    assert result.output == (
        "error: laughs.yaml is not a cassette: YAML aliases expand it beyond "
        f"{expansion_limit(path.read_text(encoding='utf-8'))} nodes and characters "
        f"(at most {EXPANSION_FACTOR} times its length plus 1000000)\n"
    )


INTERACTION = (
    "version: 1\ninteractions:\n- request:\n    method: POST\n    uri: https://api.example.test/v1/generate\n"
    "    headers: {}\n    body: null\n  response:\n    status: {code: 200, message: OK}\n    headers: {}\n"
    "    body: {json: {}}\n"
)

#: (what is wrong, the cassette text, the problem said)
ILL_TYPED = [
    (
        "request-a-list",
        "interactions:\n- {request: [1], response: {}}\n",
        "interaction #1: 'request' must be a mapping, not a list ('[1]')",
    ),
    (
        "no-response",
        "interactions:\n- request: {uri: x}\n",
        "interaction #1: 'response' must be a mapping, not null",
    ),
    (
        "an-item-not-a-mapping",
        "interactions: [1]\n",
        "interaction #1 must be a mapping with 'request' and 'response', not an int ('1')",
    ),
    (
        "second-without-uri",
        INTERACTION + "- request: {method: GET}\n  response: {}\n",
        "interaction #2: request 'uri' must be a string, not null",
    ),
    (
        "status-a-string",
        INTERACTION.replace("{code: 200, message: OK}", "{code: '200'}"),
        "interaction #1: response 'status' must be a mapping with an integer 'code' (100-599) and a string "
        "'message', not a dict (\"{'code': '200'}\")",
    ),
    (
        "headers-a-list",
        INTERACTION.replace("headers: {}\n    body: null", "headers: [a]\n    body: null"),
        "interaction #1: request 'headers' must be a mapping of names to lists of strings, not a list (\"['a']\")",
    ),
    (
        "body-an-int",
        INTERACTION.replace("body: {json: {}}", "body: 7"),
        "interaction #1: response 'body' must be null, a string or a mapping with one of 'json', 'sse' "
        "(a list of mappings) or 'string', not an int ('7')",
    ),
    (
        "sse-not-a-list",
        INTERACTION.replace("body: {json: {}}", "body: {sse: {data: 1}}"),
        "interaction #1: response 'body' must be null, a string or a mapping with one of 'json', 'sse' "
        "(a list of mappings) or 'string', not a dict (\"{'sse': {'data': 1}}\")",
    ),
    (
        "metadata-a-list",
        "metadata: [1]\ninteractions: []\n",
        "'metadata' must be a mapping, not a list ('[1]')",
    ),
]


@pytest.mark.parametrize(("text", "problem"), [c[1:] for c in ILL_TYPED], ids=[c[0] for c in ILL_TYPED])
def test_an_ill_typed_interaction_is_a_typed_error_naming_it(text: str, problem: str) -> None:
    with pytest.raises(CassetteError) as raised:
        load_cassette(text, "bad.yaml")
    assert (str(raised.value), raised.value.problem) == (f"bad.yaml: {problem}", problem)


@pytest.mark.parametrize(
    ("text", "problem"), [c[1:] for c in ILL_TYPED[:4]], ids=[c[0] for c in ILL_TYPED[:4]]
)
def test_generate_with_an_ill_typed_cassette_is_one_line_of_error(
    example_installed: Path, tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["generate", "example/tiny-1", "hi", "--cassette", str(path)])
    assert (result.exit_code, result.output) == (1, f"error: bad.yaml is not a cassette: {problem}\n")


@pytest.mark.parametrize("cassette", ["laughs", "request-a-list"])
def test_a_plugins_case_with_such_a_cassette_fails_to_load_naming_it(tmp_path: Path, cassette: str) -> None:
    directory = tmp_path / "cases" / "bad-case"
    directory.mkdir(parents=True)
    (directory / "case.yaml").write_text("method: generate\nmodel: tiny-1\nrequest: {prompt: hi}\n")
    text = _bomb_cassette() if cassette == "laughs" else ILL_TYPED[0][1]
    (directory / "cassette.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(
        CassetteError, match=r"^case 'bad-case': cassette\.yaml: (YAML aliases|interaction #1)"
    ):
        load_cases(tmp_path / "cases")


def test_a_laughs_case_file_fails_to_load_naming_it(tmp_path: Path) -> None:
    directory = tmp_path / "cases" / "bad-case"
    directory.mkdir(parents=True)
    (directory / "case.yaml").write_text(_laughs() + "method: generate\nmodel: tiny-1\n", encoding="utf-8")
    with pytest.raises(YamlExpansionError, match=r"^case 'bad-case': case\.yaml: YAML aliases expand it"):
        load_cases(tmp_path / "cases")
