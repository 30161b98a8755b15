"""``generate -c`` and ``chat -c`` (and ``--cid``) continue a logged conversation as it was asked: its
system instruction and its options (``-o``, ``--max-output-tokens``, ``--tool``) are sent again,
each replaced when given again; ``--schema`` is not carried over. Against an OpenAI-compatible
server on loopback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from modelport.cli import main
from modelport.cli._logstore import Call, LogStore

from .openai_server import ANSWER, OpenAIServer

KEY = "sk-loopback-continued-0123456789"
MODEL = "openai-compatible/x"


def run(*args: str) -> Any:
    return CliRunner().invoke(main, [*args, "--key", KEY])


def test_continue_resends_the_system_instruction_and_the_options() -> None:
    with OpenAIServer() as server:
        first = run(
            "generate", MODEL, "--base-url", server.base_url, "-s", "Answer in French.",
            "-o", "temperature=0.2", "--max-output-tokens", "50", "hi",
        )  # fmt: skip
        second = run("generate", "-c", "Shorter, please.")
        third = run("generate", "-c", "Once more.")
    assert (first.exit_code, second.exit_code, third.exit_code) == (0, 0, 0)
    bodies = server.bodies()
    assert bodies[0] == {
        "model": "x",
        "messages": [{"role": "system", "content": "Answer in French."}, {"role": "user", "content": "hi"}],
        "temperature": 0.2,
        "max_tokens": 50,
    }
    assert bodies[1] == {
        "model": "x",
        "messages": [
            {"role": "system", "content": "Answer in French."},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": ANSWER},
            {"role": "user", "content": "Shorter, please."},
        ],
        "temperature": 0.2,
        "max_tokens": 50,
    }
    # carried from call to call, as logged
    assert {k: v for k, v in bodies[2].items() if k != "messages"} == {
        "model": "x",
        "temperature": 0.2,
        "max_tokens": 50,
    }
    assert bodies[2]["messages"][0] == {"role": "system", "content": "Answer in French."}
    logged = json.loads(CliRunner().invoke(main, ["logs", "list", "--json"]).output)
    assert [(c["system"], c["options"]) for c in logged] == [
        ("Answer in French.", {"temperature": 0.2, "max_output_tokens": 50})
    ] * 3


def test_options_given_again_replace_the_conversations() -> None:
    with OpenAIServer() as server:
        run(
            "generate", MODEL, "--base-url", server.base_url, "-s", "Answer in French.",
            "-o", "temperature=0.2", "-o", "top_p=0.5", "hi",
        )  # fmt: skip
        again = run(
            "generate",
            "-c",
            "-s",
            "Answer in German.",
            "-o",
            "temperature=0.9",
            "--max-output-tokens",
            "9",
            "Again.",
        )
    assert again.exit_code == 0
    body = server.bodies()[1]
    assert body["messages"][0] == {"role": "system", "content": "Answer in German."}
    assert (body["temperature"], body["top_p"], body["max_tokens"]) == (0.9, 0.5, 9)


def test_the_schema_is_not_carried_over(_command_home: Path) -> None:
    with OpenAIServer() as server:
        LogStore(_command_home / "logs.db").add(
            Call(
                conversation_id="c1",
                model=MODEL,
                prompt="hi",
                response='{"a": "b"}',
                options={"schema": "answer.json", "temperature": 0.2},
                base_url=server.base_url,
            )
        )
        again = run("generate", "-c", "Again.")
    assert again.exit_code == 0
    (body,) = server.bodies()
    assert {k: v for k, v in body.items() if k != "messages"} == {"model": "x", "temperature": 0.2}


def test_chat_continue_resends_the_system_instruction_and_the_options() -> None:
    with OpenAIServer() as server:
        first = run(
            "generate", MODEL, "--base-url", server.base_url, "-s", "Answer in French.",
            "-o", "temperature=0.2", "--max-output-tokens", "50", "hi",
        )  # fmt: skip
        chat = CliRunner().invoke(main, ["chat", "-c", "--key", KEY, "--no-stream"], input="Again.\n")
    assert (first.exit_code, chat.exit_code) == (0, 0)
    body = server.bodies()[1]
    assert body["messages"][0] == {"role": "system", "content": "Answer in French."}
    assert body["messages"][-1] == {"role": "user", "content": "Again."}
    assert (body["temperature"], body["max_tokens"]) == (0.2, 50)
