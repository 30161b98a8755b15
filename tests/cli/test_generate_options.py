"""Issue 30: what ``generate`` adds to a request (-s, -a, --schema) and reports on standard error
(-v retries and timings, --usage), against an OpenAI-compatible server on loopback."""

from __future__ import annotations

import base64
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from modelport.cli import main
from tests.loopback import Loopback, Received, Reply
from tests.recordings import openai, vcr_body

from .openai_server import ANSWER, COMPLETION, OpenAIServer

MODEL = "openai-compatible/x"
#: REAL: Ollama (qwen3:0.6b) answering a json_schema request (pydantic-ai, vendored in tests/corpus).
STRUCTURED = yaml.safe_load(
    openai(
        "pydantic__pydantic-ai/tests__models__cassettes__test_ollama__test_ollama_local_native_output_uses_json_schema.yaml"
    ).read_text(encoding="utf-8")
)["interactions"][0]
CITY_SCHEMA = json.loads(vcr_body(STRUCTURED["request"]))["response_format"]["json_schema"]["schema"]


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_system_instruction() -> None:
    with OpenAIServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "-s", "Be brief.", "hi")
    assert result.exit_code == 0
    assert server.bodies()[0]["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"},
    ]


def test_attachments_images_pdfs_text_and_urls(tmp_path: Path) -> None:
    png = tmp_path / "dot.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    pdf = tmp_path / "paper"  # no extension: recognised by its first bytes
    pdf.write_bytes(b"%PDF-1.4\n%")
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\nline two\n", encoding="utf-8")
    with OpenAIServer() as server:
        result = run(
            "generate", MODEL, "--base-url", server.base_url, "describe", "-a", str(png), "-a", str(pdf),
            "-a", str(notes), "-a", "https://example.com/cat.jpg?size=large",
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert server.bodies()[0]["messages"][0]["content"] == [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()}},
        {"type": "file", "file": {"filename": "document.pdf", "file_data": "data:application/pdf;base64,JVBERi0xLjQKJQ=="}},
        {"type": "text", "text": "notes.md:\n# Notes\nline two\n"},
        {"type": "image_url", "image_url": {"url": "https://example.com/cat.jpg?size=large"}},
        {"type": "text", "text": "describe"},
    ]  # fmt: skip
    (logged,) = json.loads(run("logs", "list", "--json").output)
    assert logged["attachments"] == [str(png), str(pdf), str(notes), "https://example.com/cat.jpg?size=large"]


@pytest.mark.parametrize(
    ("write", "problem"),
    [
        (lambda p: p.write_bytes(b"\x00\x01\x02\xff"), "not an image, a PDF or a UTF-8 text file"),
        (lambda p: None, "No such file or directory"),
    ],
    ids=["binary", "missing"],
)
def test_a_file_that_cannot_be_attached_is_a_usage_error(
    tmp_path: Path, write: Callable[[Path], None], problem: str
) -> None:
    path = tmp_path / "blob.bin"
    write(path)
    with OpenAIServer() as server:
        result = run("generate", MODEL, "--base-url", server.base_url, "hi", "-a", str(path))
    assert (result.exit_code, server.received) == (2, [])
    assert problem in result.output


def _structured(received: Received) -> Reply:
    return Reply(200, {"content-type": "application/json"}, vcr_body(STRUCTURED["response"]))


def test_schema_file_sends_the_schema_and_prints_the_parsed_json(tmp_path: Path) -> None:
    schema = tmp_path / "city.json"
    schema.write_text(json.dumps(CITY_SCHEMA), encoding="utf-8")
    with Loopback(_structured) as server:
        result = run(
            "generate", MODEL, "--base-url", server.url + "/v1", "--schema", str(schema), "Capital of France?"
        )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"city": "Paris", "country": "France"}
    sent = json.loads(server.received[0].body)
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["schema"]["properties"] == CITY_SCHEMA["properties"]


def test_schema_type_from_a_module_prints_the_validated_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cities_for_cli_test.py").write_text(
        "from pydantic import BaseModel\n\nclass CityLocation(BaseModel):\n    city: str\n    country: str\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "cities_for_cli_test", raising=False)
    with Loopback(_structured) as server:
        result = run(
            "generate",
            MODEL,
            "--base-url",
            server.url + "/v1",
            "--schema",
            "cities_for_cli_test:CityLocation",
            "q",
        )
    assert result.exit_code == 0, result.output
    assert result.output == '{\n  "city": "Paris",\n  "country": "France"\n}\n'
    assert json.loads(server.received[0].body)["response_format"]["json_schema"]["name"] == "CityLocation"


def test_a_schema_answer_that_is_not_json_is_printed_and_an_error(tmp_path: Path) -> None:
    schema = tmp_path / "city.json"
    schema.write_text(json.dumps(CITY_SCHEMA), encoding="utf-8")
    with OpenAIServer() as server:  # answers prose
        result = run("generate", MODEL, "--base-url", server.base_url, "--schema", str(schema), "q")
    assert result.exit_code == 1
    assert result.output.startswith(ANSWER + "\nError: the answer is not the JSON the schema asks for")


def test_a_bad_schema_is_a_usage_error() -> None:
    result = run("generate", MODEL, "--base-url", "http://127.0.0.1:9/v1", "--schema", "nothing-here", "q")
    assert result.exit_code == 2
    assert "'nothing-here' is not NAME [TYPE][: DESCRIPTION]" in result.output
    assert "a JSON schema file, module:Type or fields" in result.output


def test_verbose_shows_retries_and_timings_and_usage_the_tokens() -> None:
    replies = iter(
        [
            # MOCK: an overloaded server's error body in the common {"error": {...}} shape.
            Reply(503, {"retry-after": "0", "content-type": "application/json"},
                  b'{"error": {"message": "busy", "type": "server_error"}}'),
            Reply(200, {"content-type": "application/json"}, json.dumps(COMPLETION).encode()),
        ]
    )  # fmt: skip
    with Loopback(lambda received: next(replies)) as server:
        result = CliRunner().invoke(
            main, ["generate", MODEL, "--base-url", server.url + "/v1", "-v", "--usage", "hi"]
        )
    assert result.exit_code == 0
    assert result.stdout == ANSWER + "\n"
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "modelport: retry 1 in 0 s after ProviderOverloadedError (HTTP 503): openai-compatible: busy "
        "(HTTP 503, server_error, retry after 0s)"
    )
    assert re.fullmatch(r"modelport: openai-compatible/x: answered after \d+ ms", lines[1])
    assert lines[2] == (
        "usage: input 16, output 363, reasoning 0, total 379, cache_read_input 0, cached_input 0 (tokens)"
    )
    assert len(lines) == 3
