"""Issue 41: saved templates (``modelport templates``, ``generate -t`` / ``chat -t``) against an
OpenAI-compatible server on loopback: ``$input`` is the prompt given (or piped), the template's
system instruction, options, schema and model are sent, and the command line wins over each. A bad
or missing template is one line of error text, exit status 2, before anything is sent."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from modelport.cli import main

from .openai_server import ANSWER, OpenAIServer

MODEL = "openai-compatible/x"


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


def ask(server: OpenAIServer, *args: str, input: str | None = None) -> Any:
    return run("generate", "--base-url", server.base_url, "--key", "sk-" + "x" * 20, *args, input=input)


def save(*args: str) -> None:
    result = run("templates", "save", *args)
    assert result.exit_code == 0, result.output


def test_a_template_sends_its_prompt_system_options_and_model(_command_home: Path) -> None:
    save("brief", "-m", MODEL, "-s", "Answer in one line.", "-o", "temperature=0.2", "Summarise: $input")
    with OpenAIServer() as server:
        result = ask(server, "-t", "brief", "the moon landing")
    assert (result.exit_code, result.output) == (0, ANSWER + "\n")
    assert server.bodies() == [
        {
            "model": "x",
            "messages": [
                {"role": "system", "content": "Answer in one line."},
                {"role": "user", "content": "Summarise: the moon landing"},
            ],
            "temperature": 0.2,
        }
    ]
    saved = json.loads((_command_home / "templates" / "brief.json").read_text(encoding="utf-8"))
    assert saved == {
        "model": MODEL,
        "system": "Answer in one line.",
        "prompt": "Summarise: $input",
        "options": {"temperature": 0.2},
    }
    if os.name == "posix":
        assert (_command_home / "templates" / "brief.json").stat().st_mode & 0o777 == 0o600


def test_the_command_line_wins_over_the_template(_command_home: Path) -> None:
    save(
        "t",
        "-m",
        "openai-compatible/from-template",
        "-s",
        "S1",
        "-o",
        "temperature=0.2",
        "-o",
        "seed=1",
        "$input!",
    )
    with OpenAIServer() as server:
        result = ask(server, "-t", "t", "-m", MODEL, "-s", "S2", "-o", "temperature=0.9", "hi")
    assert result.exit_code == 0, result.output
    assert server.bodies() == [
        {
            "model": "x",
            "messages": [{"role": "system", "content": "S2"}, {"role": "user", "content": "hi!"}],
            "temperature": 0.9,
            "seed": 1,
        }
    ]


def test_input_is_piped_appended_or_not_needed(_command_home: Path) -> None:
    save("piped", "-m", MODEL, "Translate to French: ${input}")
    save("fixed", "-m", MODEL, "Tell a joke. It costs $$5.")
    save("bare", "-m", MODEL, "-s", "Be terse.")
    with OpenAIServer() as server:
        piped = ask(server, "-t", "piped", input="good morning\n")
        fixed = ask(server, "-t", "fixed", input="")
        appended = ask(server, "-t", "fixed", "about cats")
        bare = ask(server, "-t", "bare", "why?")
    assert [r.exit_code for r in (piped, fixed, appended, bare)] == [0, 0, 0, 0]
    assert [body["messages"][-1]["content"] for body in server.bodies()] == [
        "Translate to French: good morning",
        "Tell a joke. It costs $5.",
        "Tell a joke. It costs $5.\n\nabout cats",
        "why?",
    ]


def test_a_template_that_takes_input_without_any_is_refused(_command_home: Path) -> None:
    save("needs", "-m", MODEL, "Fix: $input")
    result = run("generate", "-t", "needs", input="")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == "Error: Invalid value for 'PROMPT': standard input is empty"


def test_a_template_schema_file_is_kept_inline_and_sent(_command_home: Path, tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    (tmp_path / "person.json").write_text(json.dumps(schema), encoding="utf-8")
    save("person", "-m", MODEL, "--schema", str(tmp_path / "person.json"), "Who wrote $input?")
    (tmp_path / "person.json").unlink()  # the template holds the schema itself
    with OpenAIServer() as server:
        result = ask(server, "-t", "person", "Hamlet")
    # The recorded answer is prose, not the JSON asked for: printed, then the failure.
    assert result.exit_code == 1
    assert "the answer is not the JSON the schema asks for" in result.output
    (body,) = server.bodies()
    assert body["messages"] == [{"role": "user", "content": "Who wrote Hamlet?"}]
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["properties"] == {"name": {"type": "string"}}


def test_the_log_names_the_template_and_c_does_not_send_it_again(_command_home: Path) -> None:
    save("t", "-m", MODEL, "-o", "temperature=0.2", "Q: $input")
    with OpenAIServer() as server:
        first = ask(server, "-t", "t", "one")
        second = ask(server, "-c", "two", "--no-stream")
    assert (first.exit_code, second.exit_code) == (0, 0), second.output
    logged = json.loads(run("logs", "list", "--json").output)
    assert [(c["prompt"], c["options"]) for c in logged] == [
        ("two", {"temperature": 0.2}),
        ("Q: one", {"temperature": 0.2, "template": "t"}),
    ]
    assert server.bodies()[1]["messages"][-1] == {"role": "user", "content": "two"}
    assert "template" not in server.bodies()[1]


def test_list_show_path_delete(_command_home: Path) -> None:
    save("b-second", "-s", "A system instruction only")
    save("a-first", "Say $input in a very long prompt that goes on and on past sixty characters of text")
    listed = run("templates", "list")
    assert (listed.exit_code, listed.output) == (
        0,
        "a-first: Say $input in a very long prompt that goes on and on past si...\n"
        "b-second: A system instruction only\n",
    )
    shown = run("templates", "show", "b-second")
    assert (shown.exit_code, json.loads(shown.output)) == (0, {"system": "A system instruction only"})
    assert run("templates", "path").output == f"{_command_home / 'templates'}\n"
    deleted = run("templates", "delete", "a-first")
    assert (deleted.exit_code, deleted.output) == (0, "Deleted the template 'a-first'.\n")
    assert run("templates", "list").output == "b-second: A system instruction only\n"
    again = run("templates", "delete", "a-first")
    assert (again.exit_code, again.output) == (
        2,
        "Error: no template 'a-first' (`modelport templates list` lists them)\n",
    )


@pytest.mark.parametrize("name", ["../x", "a/b", ".hidden", "x" * 65, "a..b", "", "_x", "a\\b", "a b"])
def test_a_name_is_never_a_path(_command_home: Path, name: str) -> None:
    for args in (
        ["templates", "save", name, "p"],
        ["templates", "show", name],
        ["generate", "-t", name, "hi"],
    ):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.output.count("\n") == 1 and result.output.startswith("Error: "), result.output
        assert "is not a template name" in result.output
    assert not (_command_home / "templates").exists() or not any((_command_home / "templates").iterdir())


def _planted(home: Path, name: str, content: bytes) -> None:
    (home / "templates").mkdir(parents=True, exist_ok=True)
    (home / "templates" / name).write_bytes(content)


BAD = {
    "not JSON": ("t.json", b"{nope", "not JSON"),
    "not an object": ("t.json", b"[1, 2]", "a template is an object"),
    "unknown key": ("t.json", b'{"promt": "x"}', "unknown key 'promt'"),
    "prompt not text": ("t.json", b'{"prompt": 3}', "'prompt' must be a string"),
    "an option of its own": (
        "t.json",
        b'{"options": {"system": "x"}}',
        "'system' is the template's 'system'",
    ),
    "not UTF-8": ("t.json", b'{"prompt": "caf\xe9"}', "not UTF-8 text"),
    "too deep": ("t.json", b"[" * 200 + b"]" * 200, "nested deeper than 128 levels"),
    "too large": ("t.json", b'{"prompt": "' + b"x" * (1024**2) + b'"}', "larger than the limit of 1 MiB"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_template_is_one_line_exit_2(_command_home: Path, case: str) -> None:
    file, content, expected = BAD[case]
    _planted(_command_home, file, content)
    for args in (["generate", "-m", MODEL, "-t", "t", "hi"], ["templates", "show", "t"], ["chat", "-t", "t"]):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.output.count("\n") == 1 and result.output.startswith("Error: template 't' ("), (
            result.output
        )
        assert expected in result.output, result.output


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_a_fifo_in_place_of_a_template_is_refused_not_read(_command_home: Path) -> None:
    (_command_home / "templates").mkdir()
    os.mkfifo(_command_home / "templates" / "t.json")
    result = run("generate", "-m", MODEL, "-t", "t", "hi")
    assert result.exit_code == 2
    assert result.output.endswith("a FIFO, not a regular file\n") and result.output.count("\n") == 1


def test_a_yaml_template_is_read_and_its_aliases_refused(_command_home: Path) -> None:
    pytest.importorskip("yaml")
    _planted(_command_home, "y.yaml", b"model: openai-compatible/x\nsystem: Be kind.\nprompt: 'Hi $input'\n"
             b"options:\n  temperature: 0.5\n")  # fmt: skip
    bomb = b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nprompt: *b\n"
    _planted(_command_home, "bomb.yml", bomb)
    _planted(_command_home, "deep.yaml", b"prompt: " + b"[" * 5000 + b"]" * 5000 + b"\n")
    with OpenAIServer() as server:
        result = ask(server, "-t", "y", "there")
    assert result.exit_code == 0, result.output
    assert server.bodies() == [
        {
            "model": "x",
            "messages": [{"role": "system", "content": "Be kind."}, {"role": "user", "content": "Hi there"}],
            "temperature": 0.5,
        }
    ]
    for name, expected in (("bomb", "aliases (*name) are not read"), ("deep", "nested")):
        refused = run("generate", "-t", name, "hi")
        assert refused.exit_code == 2 and refused.output.count("\n") == 1, refused.output
        assert expected in refused.output
    assert run("templates", "list").output.splitlines()[0].startswith("bomb: (unreadable: template 'bomb' (")


def test_chat_takes_a_templates_system_options_and_wraps_each_turn(_command_home: Path) -> None:
    save("fr", "-m", MODEL, "-s", "You translate.", "-o", "temperature=0", "To French: $input")
    with OpenAIServer() as server:
        result = run("chat", "-t", "fr", "--base-url", server.base_url, "--no-stream", input="cat\ndog\n")
    assert result.exit_code == 0, result.output
    first, second = server.bodies()
    assert first == {
        "model": "x",
        "messages": [
            {"role": "system", "content": "You translate."},
            {"role": "user", "content": "To French: cat"},
        ],
        "temperature": 0,
    }
    assert second["messages"][-1] == {"role": "user", "content": "To French: dog"}


def test_chat_refuses_a_template_with_a_schema(_command_home: Path, tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text('{"type": "object"}', encoding="utf-8")
    save("s", "-m", MODEL, "--schema", str(tmp_path / "s.json"))
    result = run("chat", "-t", "s")
    assert (result.exit_code, result.output) == (
        2,
        "Error: template 's' has a schema or fragments: use generate -t\n",
    )
