"""Recording an Azure batch case: the ``api-key`` a server echoes (in the batch object's ``errors``
and in a results line) reaches neither the cassette nor the expected file, in any encoding, and the
cassette written replays. The answers are the shipped MOCK case's (OpenAI's recorded batch exchange
on Azure's routes), served by an ``httpx.MockTransport``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from modelport.secrets import encoded_forms
from modelport_conformance.cases import discover_suites, load_cases
from modelport_conformance.cassette import body_bytes
from modelport_conformance.recording import record_case
from modelport_conformance.runner import run_case

KEY = "c" * 16 + "fedcba9876543210"  # an Azure key's 32-hex shape, built at run time


def _echoing(answers: list[dict[str, Any]], sent: list[httpx.Request]) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        recorded = answers[len(sent) - 1]
        body = body_bytes(recorded["body"])
        key = request.headers["api-key"]
        if request.url.path.endswith("/content"):  # the output file: a line's answer quotes the key
            assert b'"text": "4"' in body
            body = body.replace(b'"text": "4"', f'"text": "4 {key}"'.encode(), 1)
        else:  # every batch object: errors repeat it
            data = json.loads(body)
            if data.get("object") == "batch":
                data["errors"] = {"object": "list", "data": [{"code": "k", "message": f"key {key}"}]}
            body = json.dumps(data).encode()
        content_type = recorded["headers"]["content-type"][0]
        return httpx.Response(
            recorded["status"]["code"], content=body, headers={"content-type": content_type}
        )

    return httpx.MockTransport(handler)


def test_an_echoed_azure_key_is_not_recorded_and_the_cassette_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from modelport._runtime import retry as _retry

    monkeypatch.setattr(_retry, "sleep", lambda seconds: None)  # the recorder waits between polls
    suites, errors = discover_suites(["azure-openai-responses"])
    assert errors == {}
    suite = suites["azure-openai-responses"]
    assert suite is not None
    shipped = next(case for case in suite.cases if case.name == "batch-answers-v1")
    answers = [interaction.response for interaction in shipped.cassette.interactions]
    directory = tmp_path / "cases" / "batch-answers-v1"
    directory.mkdir(parents=True)
    (directory / "case.yaml").write_text(shipped.files["case.yaml"], encoding="utf-8")
    local = suite.replace(location=tmp_path / "cases")
    local.cases = load_cases(tmp_path / "cases")
    sent: list[httpx.Request] = []
    outcome = record_case(local, local.cases[0], api_key=KEY, transport=_echoing(answers, sent))
    assert outcome.status == "pass", outcome.message
    assert len(sent) == len(answers) and {r.headers["api-key"] for r in sent} == {KEY}
    assert {r.url.host for r in sent} == {"contoso-batch.openai.azure.com"}
    written = "\n".join(p.read_text(encoding="utf-8") for p in sorted(directory.iterdir()) if p.is_file())
    assert [form for form in encoded_forms(KEY) if form in written] == []
    # The echoes were there, and were scrubbed: in the cassette's answers and the expected text.
    assert "message: key REDACTED" in written and '"text": "4 REDACTED"' in written
    [case] = load_cases(tmp_path / "cases")
    assert all(i.request["headers"]["api-key"] == ["<credential>"] for i in case.cassette.interactions)
    assert run_case(local, case).status == "pass"
