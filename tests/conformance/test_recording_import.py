"""``modelport conformance import``: real recordings in each container become cases that pass
conformance, scrubbed as the recorder scrubs; bad input ends on one line of error."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from modelport_conformance.cases import Case, discover_suites
from modelport_conformance.cli import main
from modelport_conformance.goldens import PROPOSED_FILE, accept_case
from modelport_conformance.runner import run_case
from tests import recordings

MIRASCOPE = ["--source", "Mirascope/mirascope", "--commit", "41d433578653411dbff96c6eaca4fa869aafc931"]
HAR = "Mirascope__mirascope/typescript__tests__e2e__input__cassettes__empty-call__anthropic__handles-empty-string-content.har"
GO_VCR = "charmbracelet__fantasy/providertests__testdata__TestAnthropicCommon__claude-sonnet-4__multi_tool_streaming.yaml"
VCRPY = (
    "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_model_instructions.yaml"
)
RUBY = (
    "crmne__ruby_llm/spec__fixtures__vcr_cassettes__chat_error_handling_with_azure_grok-4-1-fast-non-reasoning_"
    "raises_appropriate_auth_error.yml"
)
SSE = "prism-php__prism/tests__Fixtures__anthropic__stream-with-extended-thinking-1.sse"


def _import(*args: str) -> Any:
    return CliRunner().invoke(main, ["conformance", "import", *args])


def _accepted_and_run(provider_id: str, directory: Path) -> Any:
    """Accept the proposal the import wrote, then run every conformance check of the case."""
    assert (directory / PROPOSED_FILE).is_file()
    assert accept_case(directory)
    suite = discover_suites([provider_id])[0][provider_id]
    assert suite is not None
    return run_case(suite, Case.load(directory))


def _files(directory: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(directory.iterdir())}


def test_a_vcrpy_cassette_becomes_a_passing_case_with_its_request_read_from_the_body(tmp_path: Path) -> None:
    path = recordings.recording("anthropic", VCRPY)
    result = _import(
        str(path), "--provider", "anthropic", "--into", str(tmp_path), "--name", "instructions",
        "--source", "pydantic/pydantic-ai", "--commit", "4fda38988f2939fa6ea9cdefcf120693e10ef491",
        "--license", "MIT", "--path", "tests/models/cassettes/test_anthropic/test_anthropic_model_instructions.yaml",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "anthropic/instructions: PASS" in result.output
    spec = yaml.safe_load((tmp_path / "instructions/case.yaml").read_text(encoding="utf-8"))
    assert spec["method"] == "generate"
    assert spec["model"] == "claude-3-opus-latest"
    assert spec["request"] == {
        "system": "You are a helpful assistant.\n\n",
        "prompt": "What is the capital of France?",
        "max_output_tokens": 4096,
    }
    assert spec["source"] == {
        "repo": "pydantic/pydantic-ai",
        "commit": "4fda38988f2939fa6ea9cdefcf120693e10ef491",
        "path": "tests/models/cassettes/test_anthropic/test_anthropic_model_instructions.yaml",
        "license": "MIT",
        "container": "vcrpy",
    }
    outcome = _accepted_and_run("anthropic", tmp_path / "instructions")
    assert outcome.status == "pass", outcome.message
    expected = json.loads((tmp_path / "instructions/expected.json").read_text(encoding="utf-8"))
    assert expected["result"]["text"] == "The capital of France is Paris."


def test_a_har_entry_becomes_a_passing_case_that_keeps_the_recorded_request(tmp_path: Path) -> None:
    path = recordings.recording("anthropic", HAR)
    result = _import(
        str(path), "--provider", "anthropic", "--into", str(tmp_path), "--name", "empty",
        "--request-body", "recorded", *MIRASCOPE, "--license", "MIT",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    cassette = yaml.safe_load((tmp_path / "empty/cassette.yaml").read_text(encoding="utf-8"))
    request = cassette["interactions"][0]["request"]
    assert request["body"] == {
        "json": {
            "model": "claude-haiku-4-5",
            "messages": [{"role": "user", "content": ""}],
            "max_tokens": 100,
        }
    }
    assert request["headers"]["x-api-key"] == ["<credential>"]
    assert "user-agent" not in request["headers"]
    outcome = _accepted_and_run("anthropic", tmp_path / "empty")
    assert outcome.status == "pass", outcome.message
    expected = json.loads((tmp_path / "empty/expected.json").read_text(encoding="utf-8"))
    assert expected == {
        "error": {
            "provider_status": "invalid_request_error",
            "retryable": False,
            "status_code": 400,
            "type": "ProviderRequestError",
        }
    }


def test_a_go_vcr_interaction_becomes_a_passing_stream_case_with_the_request_given(tmp_path: Path) -> None:
    path = recordings.recording("anthropic", GO_VCR)
    number = {"type": "integer"}
    tool = {
        "type": "object",
        "properties": {
            "a": {**number, "description": "first number"},
            "b": {**number, "description": "second number"},
        },
        "required": ["a", "b"],
    }
    request = {
        "system": "You are a helpful assistant. Always use both add and multiply at the same time.",
        "prompt": "Add and multiply the number 2 and 3",
        "max_output_tokens": 4000,
        "tools": [
            {"type": "function", "name": "add", "description": "Add two numbers", "parameters": tool},
            {
                "type": "function",
                "name": "multiply",
                "description": "Multiply two numbers",
                "parameters": tool,
            },
        ],
        "tool_choice": "auto",
    }
    result = _import(
        str(path), "--provider", "anthropic", "--into", str(tmp_path), "--name", "tools", "--interaction", "1",
        "--request", json.dumps(request), "--source", "charmbracelet/fantasy", "--license", "Apache-2.0",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    spec = yaml.safe_load((tmp_path / "tools/case.yaml").read_text(encoding="utf-8"))
    assert (spec["method"], spec["model"], spec["source"]["container"]) == (
        "stream",
        "claude-sonnet-4-20250514",
        "go-vcr",
    )
    outcome = _accepted_and_run("anthropic", tmp_path / "tools")
    assert outcome.status == "pass", outcome.message
    events = json.loads((tmp_path / "tools/expected.json").read_text(encoding="utf-8"))["events"]
    calls = [(e["part"]["name"], e["part"]["args"]) for e in events if e["type"] == "tool-call-end"]
    assert calls == [("add", {"a": 2, "b": 3}), ("multiply", {"a": 2, "b": 3})]


def test_a_ruby_vcr_interaction_becomes_a_passing_case_without_its_api_key(tmp_path: Path) -> None:
    path = recordings.recording("azure-openai", RUBY)
    assert "Api-Key:\n      - invalid-key" in path.read_text(
        encoding="utf-8"
    )  # the recording's own credential
    result = _import(
        str(path),
        "--provider",
        "openai",
        "--into",
        str(tmp_path),
        "--name",
        "denied",
        "--source",
        "crmne/ruby_llm",
    )
    assert result.exit_code == 0, result.output
    spec = yaml.safe_load((tmp_path / "denied/case.yaml").read_text(encoding="utf-8"))
    assert spec["request"] == {"prompt": "Hello"}
    assert (spec["method"], spec["model"], spec["source"]["container"]) == (
        "generate",
        "grok-4-1-fast-non-reasoning",
        "ruby-vcr",
    )
    outcome = _accepted_and_run("openai", tmp_path / "denied")
    assert outcome.status == "pass", outcome.message
    expected = json.loads((tmp_path / "denied/expected.json").read_text(encoding="utf-8"))
    assert (expected["error"]["type"], expected["error"]["status_code"]) == ("ProviderAuthError", 401)
    assert not any("invalid-key" in text for text in _files(tmp_path / "denied").values())


def test_a_raw_sse_body_becomes_a_passing_case_with_the_request_given_as_options(tmp_path: Path) -> None:
    path = recordings.recording("anthropic", SSE)
    request = {
        "prompt": "What is the meaning of life?",
        "max_output_tokens": 2048,
        "reasoning": {"budget_tokens": 1024},
    }
    result = _import(
        str(path), "--provider", "anthropic", "--into", str(tmp_path), "--name", "thinking", "--model", "claude-3-7-sonnet-20250219",
        "--request", json.dumps(request), "--source", "prism-php/prism", "--license", "MIT",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    spec = yaml.safe_load((tmp_path / "thinking/case.yaml").read_text(encoding="utf-8"))
    assert (spec["method"], spec["source"]["container"]) == ("stream", "sse")
    outcome = _accepted_and_run("anthropic", tmp_path / "thinking")
    assert outcome.status == "pass", outcome.message


def test_a_credential_in_the_recording_reaches_no_written_file_in_any_encoding(tmp_path: Path) -> None:
    # MOCK: the credential is invented and put into a real HAR entry (header, query, echoed in the
    # answer JSON-escaped, percent-encoded, in base64 and in a response header); the rest is as recorded.
    key = "sk-ant-" + "api03-" + "Zq7VwXbN2mKd9LpR4tYh8sJc6fGe1aQu0oIi5nMl3kBvT"  # built: no key in the tree
    har = json.loads(recordings.recording("anthropic", HAR).read_text(encoding="utf-8"))
    entry = har["log"]["entries"][0]
    entry["request"]["url"] += f"?key={key}"
    entry["request"]["headers"] = [
        h if h["name"] != "x-api-key" else {**h, "value": key} for h in entry["request"]["headers"]
    ]
    body = json.loads(entry["response"]["content"]["text"])
    escaped = key.replace("-", "\\u002d")
    percent = "".join(f"%{byte:02X}" for byte in key.encode())
    encoded = base64.b64encode(key.encode()).decode()
    body["error"]["message"] += f" (key {key}; escaped {escaped}; url {percent}; base64 {encoded})"
    entry["response"]["content"]["text"] = json.dumps(body).replace(escaped.replace("\\", "\\\\"), escaped)
    entry["response"]["headers"].append({"name": "x-request-id", "value": f"req-{key}"})
    source = tmp_path / "leaky.har"
    source.write_text(json.dumps(har), encoding="utf-8")
    result = _import(
        str(source),
        "--provider",
        "anthropic",
        "--into",
        str(tmp_path / "cases"),
        "--request-body",
        "recorded",
    )
    assert result.exit_code == 0, result.output
    written = _files(tmp_path / "cases/leaky")
    assert set(written) == {"case.yaml", "cassette.yaml", PROPOSED_FILE}
    for form in (key, key[-24:], escaped, percent, encoded):
        assert not any(form in text for text in written.values()), form
    assert key not in result.output
    cassette = yaml.safe_load(written["cassette.yaml"])
    assert cassette["interactions"][0]["request"]["uri"] == "https://api.anthropic.com/v1/messages"
    assert cassette["interactions"][0]["response"]["headers"]["x-request-id"] == ["req-REDACTED"]


def test_bad_input_ends_on_one_line_of_error(tmp_path: Path) -> None:
    missing = _import(str(tmp_path / "nowhere.yaml"), "--provider", "anthropic", "--into", str(tmp_path))
    assert (missing.exit_code, missing.output.strip()) == (
        2,
        f"error: {tmp_path / 'nowhere.yaml'}: cannot be read: No such file or directory",
    )
    notes = tmp_path / "notes.txt"
    notes.write_text("just some notes\n", encoding="utf-8")
    unknown = _import(str(notes), "--provider", "anthropic", "--into", str(tmp_path))
    assert (
        unknown.output.strip()
        == "error: notes.txt: not a known container (vcrpy, ruby-vcr, har, go-vcr, sse, json)"
    )
    har = str(recordings.recording("anthropic", HAR))
    large = _import(har, "--provider", "anthropic", "--into", str(tmp_path), "--max-bytes", "1000")
    assert (
        large.output.strip()
        == f"error: {har}: larger than 1000 bytes, the bound of an imported file; not read"
    )
    broken = tmp_path / "broken.har"
    broken.write_text('{"log": {"entries": [{"request": {}}]}}', encoding="utf-8")
    assert _import(str(broken), "--provider", "anthropic", "--into", str(tmp_path)).output.strip() == (
        "error: broken.har: not a har recording: 'response'"
    )
    nobody = _import(har, "--provider", "no-such-provider", "--into", str(tmp_path))
    assert (
        nobody.output.strip()
        == "error: no provider 'no-such-provider' is installed (see: modelport providers)"
    )


def test_an_existing_case_is_not_overwritten_without_force(tmp_path: Path) -> None:
    har = str(recordings.recording("anthropic", HAR))
    assert _import(har, "--provider", "anthropic", "--into", str(tmp_path), "--name", "empty").exit_code == 0
    (tmp_path / "empty/case.yaml").write_text("method: generate\nmodel: kept\n", encoding="utf-8")
    again = _import(har, "--provider", "anthropic", "--into", str(tmp_path), "--name", "empty")
    assert (again.exit_code, again.output.strip()) == (
        2,
        f"error: case 'empty' exists already in {tmp_path} (--force overwrites it)",
    )
    assert (tmp_path / "empty/case.yaml").read_text(encoding="utf-8") == "method: generate\nmodel: kept\n"
    forced = _import(har, "--provider", "anthropic", "--into", str(tmp_path), "--name", "empty", "--force")
    assert forced.exit_code == 0, forced.output
    assert (
        yaml.safe_load((tmp_path / "empty/case.yaml").read_text(encoding="utf-8"))["model"]
        == "claude-haiku-4-5"
    )


def test_a_raw_json_body_with_the_request_given_as_options_keeps_that_request(tmp_path: Path) -> None:
    # MOCK request: vercel kept only the answer's body; the wire request (and its prompt) is
    # written here, the body is as recorded.
    path = recordings.recording(
        "anthropic", "vercel__ai/packages__anthropic__src____fixtures____anthropic-text.json"
    )
    wire = tmp_path / "request.json"
    sent = {
        "model": "claude-sonnet-4-5-20250929",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hello, how are you?"}],
    }
    wire.write_text(json.dumps(sent), encoding="utf-8")
    result = _import(
        str(path), "--provider", "anthropic", "--into", str(tmp_path / "cases"), "--name", "hello",
        "--url", "https://api.anthropic.com/v1/messages", "--wire-request", str(wire), "--request-body", "recorded",
        "--source", "vercel/ai", "--license", "Apache-2.0", "--note", "MOCK request: the recording is the body only",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    spec = yaml.safe_load((tmp_path / "cases/hello/case.yaml").read_text(encoding="utf-8"))
    assert spec["request"] == {"prompt": "Hello, how are you?", "max_output_tokens": 64}
    assert (spec["source"]["container"], spec["source"]["note"]) == (
        "json",
        "MOCK request: the recording is the body only",
    )
    outcome = _accepted_and_run("anthropic", tmp_path / "cases/hello")
    assert outcome.status == "pass", outcome.message
    expected = json.loads((tmp_path / "cases/hello/expected.json").read_text(encoding="utf-8"))
    assert expected["result"]["text"] == (
        "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?"
    )


def test_a_go_vcr_v1_cassette_is_read(tmp_path: Path) -> None:
    # MOCK container: go-vcr v1 (no v1 file in the corpus) around the real HAR exchange's bodies.
    entry = json.loads(recordings.recording("anthropic", HAR).read_text(encoding="utf-8"))["log"]["entries"][
        0
    ]
    cassette = {
        "version": 1,
        "interactions": [
            {
                "request": {
                    "body": entry["request"]["postData"]["text"],
                    "form": {},
                    "headers": {"Content-Type": ["application/json"], "Anthropic-Version": ["2023-06-01"]},
                    "url": entry["request"]["url"],
                    "method": "POST",
                },
                "response": {
                    "body": entry["response"]["content"]["text"],
                    "headers": {"Content-Type": ["application/json"]},
                    "status": "400 Bad Request",
                    "code": 400,
                    "duration": "262ms",
                },
            }
        ],
    }
    source = tmp_path / "v1.yaml"
    source.write_text(yaml.safe_dump(cassette), encoding="utf-8")
    result = _import(
        str(source),
        "--provider",
        "anthropic",
        "--into",
        str(tmp_path / "cases"),
        "--request-body",
        "recorded",
    )
    assert result.exit_code == 0, result.output
    spec = yaml.safe_load((tmp_path / "cases/v1/case.yaml").read_text(encoding="utf-8"))
    assert (spec["source"]["container"], spec["request"]) == (
        "go-vcr",
        {"prompt": "", "max_output_tokens": 100},
    )
    stored = yaml.safe_load((tmp_path / "cases/v1/cassette.yaml").read_text(encoding="utf-8"))[
        "interactions"
    ][0]
    assert stored["response"]["status"] == {"code": 400, "message": "Bad Request"}
    assert _accepted_and_run("anthropic", tmp_path / "cases/v1").status == "pass"


def test_a_recording_whose_request_cannot_be_read_writes_no_case(tmp_path: Path) -> None:
    go_vcr = str(recordings.recording("anthropic", GO_VCR))  # two interactions, both with tools
    result = _import(go_vcr, "--provider", "anthropic", "--into", str(tmp_path / "cases"), "--name", "tools")
    assert (result.exit_code, result.output.strip()) == (
        2,
        "error: interaction 1: the canonical request cannot be read from the recorded body; give it with --request",
    )
    assert not (tmp_path / "cases").exists()
    beyond = _import(go_vcr, "--provider", "anthropic", "--into", str(tmp_path), "--interaction", "3")
    assert beyond.output.strip() == f"error: {Path(go_vcr).name} holds 2 interaction(s), not 3"
    twice = _import(
        go_vcr,
        "--provider",
        "anthropic",
        "--into",
        str(tmp_path),
        "--request",
        "{prompt: a}",
        "--request",
        "{prompt: b}",
        "--request",
        "{prompt: c}",
    )
    assert twice.output.strip() == "error: 3 requests given for 2 interactions (give one, or one each)"
    assert list(tmp_path.iterdir()) == []


def test_a_vcrpy_cassette_with_a_gzip_binary_body_passes_with_its_recorded_request(tmp_path: Path) -> None:
    name = "Mirascope__mirascope/python__tests__e2e__output__cassettes__test_max_tokens__anthropic_claude_sonnet_4_0__sync.yaml"
    path = recordings.recording("anthropic", name)
    assert "string: !!binary |\n        H4sI" in path.read_text(encoding="utf-8")  # gzip bytes as sent
    result = _import(
        str(path),
        "--provider",
        "anthropic",
        "--into",
        str(tmp_path),
        "--name",
        "states",
        "--request-body",
        "recorded",
    )
    assert result.exit_code == 0, result.output
    spec = yaml.safe_load((tmp_path / "states/case.yaml").read_text(encoding="utf-8"))
    assert spec["request"] == {"prompt": "List all U.S. states.", "max_output_tokens": 50}
    outcome = _accepted_and_run("anthropic", tmp_path / "states")
    assert outcome.status == "pass", outcome.message
    result_json = json.loads((tmp_path / "states/expected.json").read_text(encoding="utf-8"))["result"]
    assert (result_json["finish_reason"], result_json["usage"]["output_tokens"]) == ("length", 50)
    assert result_json["text"].startswith(
        "Here are all 50 U.S. states in alphabetical order:\n\n1. Alabama\n"
    )


def test_a_ruby_binary_body_is_read_as_base64(tmp_path: Path) -> None:
    # MOCK container: Ruby VCR's `!binary` tag (as ruby_llm writes eventstream bodies) around the
    # real HAR exchange's answer.
    entry = json.loads(recordings.recording("anthropic", HAR).read_text(encoding="utf-8"))["log"]["entries"][
        0
    ]
    answer = base64.b64encode(entry["response"]["content"]["text"].encode()).decode()
    request = json.dumps(entry["request"]["postData"]["text"])
    source = tmp_path / "ruby.yml"
    source.write_text(
        "---\nhttp_interactions:\n- request:\n    method: post\n    uri: https://api.anthropic.com/v1/messages\n"
        f"    body:\n      encoding: UTF-8\n      string: {request}\n"
        "    headers:\n      X-Api-Key:\n      - \"<ANTHROPIC_API_KEY>\"\n      Anthropic-Version:\n      - '2023-06-01'\n"
        "  response:\n    status:\n      code: 400\n      message: Bad Request\n"
        "    headers:\n      Content-Type:\n      - application/json\n"
        f"    body:\n      encoding: ASCII-8BIT\n      string: !binary |-\n        {answer}\n"
        "recorded_with: VCR 6.4.0\n",
        encoding="utf-8",
    )
    result = _import(
        str(source),
        "--provider",
        "anthropic",
        "--into",
        str(tmp_path / "cases"),
        "--request-body",
        "recorded",
    )
    assert result.exit_code == 0, result.output
    stored = yaml.safe_load((tmp_path / "cases/ruby/cassette.yaml").read_text(encoding="utf-8"))[
        "interactions"
    ][0]
    assert stored["response"]["body"]["json"]["error"]["type"] == "invalid_request_error"
    assert stored["request"]["headers"]["x-api-key"] == ["<credential>"]
    assert _accepted_and_run("anthropic", tmp_path / "cases/ruby").status == "pass"


def test_a_recorded_request_the_plugin_does_not_send_fails_the_import_naming_the_difference(
    tmp_path: Path,
) -> None:
    path = recordings.recording("azure-openai", RUBY)
    result = _import(
        str(path), "--provider", "openai", "--into", str(tmp_path), "--name", "azure", "--request-body", "recorded",
        "--base-url", "https://rubyllm.services.ai.azure.com/models",
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "openai/azure: FAIL" in result.output
    assert "[request]" in result.output
    assert "1 case(s) imported, 1 failing, 0 expected.json proposed" in result.output
    stored = yaml.safe_load((tmp_path / "azure/cassette.yaml").read_text(encoding="utf-8"))["interactions"][0]
    assert (
        stored["request"]["uri"]
        == "https://api.openai.com/v1/chat/completions?api-version=2024-05-01-preview"
    )
    assert stored["request"]["headers"]["api-key"] == ["<credential>"]
    assert not (tmp_path / "azure" / PROPOSED_FILE).exists()  # a mismatched replay proposes nothing


def test_each_interaction_of_a_recording_becomes_its_own_numbered_case(tmp_path: Path) -> None:
    # MOCK container: the real HAR entry twice in one log (a file of two exchanges).
    har = json.loads(recordings.recording("anthropic", HAR).read_text(encoding="utf-8"))
    har["log"]["entries"] *= 2
    source = tmp_path / "two.har"
    source.write_text(json.dumps(har), encoding="utf-8")
    result = _import(str(source), "--provider", "anthropic", "--into", str(tmp_path / "cases"), *MIRASCOPE)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "cases").iterdir()) == ["two-1", "two-2"]
    for n in (1, 2):
        spec = yaml.safe_load((tmp_path / f"cases/two-{n}/case.yaml").read_text(encoding="utf-8"))
        assert spec["source"] == {
            "repo": "Mirascope/mirascope",
            "commit": "41d433578653411dbff96c6eaca4fa869aafc931",
            "path": "two.har",
            "container": "har",
            "interaction": n,
        }
    assert "2 case(s) imported, 0 failing, 2 expected.json proposed" in result.output


def test_a_gzip_body_that_inflates_past_the_bound_is_one_line_of_error(tmp_path: Path) -> None:
    # MOCK: the recording's container and its gzip body are invented; a 40 KB file whose body
    # inflates to 40 MiB must be refused, not inflated (the file bound says nothing of its bodies).
    import gzip

    bomb = gzip.compress(b"\0" * (40 * 1024**2))
    assert len(bomb) < 100_000
    cassette = {
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": "https://api.anthropic.com/v1/messages",
                    "body": None,
                    "headers": {},
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {},
                    "body": {"string": bomb},
                },
            }
        ],
        "version": 1,
    }
    path = tmp_path / "bomb.yaml"
    path.write_text(yaml.safe_dump(cassette), encoding="utf-8")
    assert "!!binary" in path.read_text(encoding="utf-8")
    result = _import(
        str(path), "--provider", "anthropic", "--into", str(tmp_path / "out"), "--request", "{prompt: p}"
    )
    assert result.exit_code == 2
    assert result.output.strip().endswith(
        "a gzip body inflates past 16777216 bytes, the bound of an imported file"
    ), result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
