"""A recorded MCP session over streamable HTTP, replayed: posit-dev/chatlas's
``test_call_http_mcp_tool`` (tests/corpus/mcp/MANIFEST.md) holds the JSON-RPC traffic with a local
FastMCP server (``initialize`` and its ``mcp-session-id``, ``notifications/initialized`` → 202,
``tools/list``, ``tools/call get_current_date`` → ``2024-01-01``, the closing ``DELETE``) and the two
OpenAI Responses streams of the run that used the tool. Both sides are answered from the recording
on ``httpx.MockTransport``; only the GET that opens the server's event stream, which the recording
does not hold, is answered 405 (the answer the MCP specification gives a server without one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

import modelport
from modelport import mcp

RECORDING = (
    Path(__file__).parents[1]
    / "corpus/mcp/posit-dev__chatlas/tests___vcr__test_mcp_client__test_call_http_mcp_tool.yaml"
)
SESSION = "b5598c7dc85b4a68991bb9489f4f294e"


def _interactions() -> list[dict[str, Any]]:
    return list(yaml.safe_load(RECORDING.read_text(encoding="utf-8"))["interactions"])


def _reply(item: dict[str, Any]) -> httpx.Response:
    response = item["response"]
    headers = {k: v[0] for k, v in response["headers"].items() if k.lower() != "content-length"}
    return httpx.Response(response["status"]["code"], headers=headers, content=response["body"]["string"])


class Replay:
    """Answers MCP requests by their JSON-RPC method, and the model's calls in recorded order."""

    def __init__(self) -> None:
        items = _interactions()
        self.mcp = {json.loads(i["request"]["body"])["method"]: i for i in items if _is_mcp_post(i)}
        self.delete = next(i for i in items if i["request"]["method"] == "DELETE")
        self.model = [i for i in items if "api.openai.com" in i["request"]["uri"]]
        self.sent: list[tuple[str, Any, dict[str, str]]] = []

    def server(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content) if request.content else None
        self.sent.append((request.method, body, dict(request.headers)))
        if request.method == "GET":
            return httpx.Response(405)
        if request.method == "DELETE":
            return _reply(self.delete)
        return _reply(self.mcp[body["method"]])

    def provider(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(("model", json.loads(request.content), {}))
        return _reply(self.model.pop(0))


def _is_mcp_post(item: dict[str, Any]) -> bool:
    return item["request"]["method"] == "POST" and item["request"]["uri"] == "http://localhost:8081/mcp"


def test_the_recorded_session_runs_the_streamed_tool_loop() -> None:
    replay = Replay()
    model = modelport.get_model(
        "openai-responses/gpt-5.4", api_key="sk-" + "r" * 24, transport=httpx.MockTransport(replay.provider)
    )
    server = mcp.http("http://localhost:8081/mcp", transport=httpx.MockTransport(replay.server))
    with server:
        tools = server.tools()
        assert [(t.name, t.description, t.parameters) for t in tools] == [
            ("get_current_date", "Gets the current date", {"properties": {}, "type": "object"})
        ]
        stream = model.run_stream(prompt="What's the current date in YYYY-MM-DD format?", tools=tools)
        run = stream.result()
    assert (run.text, len(run.steps)) == ("2024-01-01", 2)
    (result,) = run.steps[0].tool_results
    assert (result.name, result.output, result.is_error) == ("get_current_date", "2024-01-01", False)
    calls = [(method, body["method"]) for method, body, _ in replay.sent if method == "POST"]
    assert calls == [
        ("POST", "initialize"),
        ("POST", "notifications/initialized"),
        ("POST", "tools/list"),
        ("POST", "tools/call"),
    ]
    (call,) = [body for method, body, _ in replay.sent if method == "POST" and body["method"] == "tools/call"]
    assert call["params"] == {"name": "get_current_date", "arguments": {}}
    after_init = [h for method, _, h in replay.sent if method in ("POST", "DELETE")][1:]
    assert all(h["mcp-session-id"] == SESSION for h in after_init)  # the session the server gave
    assert replay.sent[-1][0] == "DELETE"  # closed on the way out
    (output,) = [i for i in replay.sent if i[0] == "model"][1][1]["input"][-1:]
    assert (output["type"], output["output"]) == ("function_call_output", "2024-01-01")


def test_a_refused_connection_names_no_credential() -> None:
    key, token = "sk-" + "q" * 24, "t" * 32

    def refuse(request: httpx.Request) -> httpx.Response:
        assert request.headers["authorization"] == f"Bearer {token}"  # the header was sent
        return httpx.Response(401, json={"error": "invalid_token"})

    server = mcp.http(
        f"http://localhost:8081/mcp?api_key={key}",
        headers={"Authorization": f"Bearer {token}"},
        transport=httpx.MockTransport(refuse),
    )
    with pytest.raises(
        mcp.McpConnectionError, match="^could not connect to MCP server localhost/mcp: "
    ) as caught:
        with server:
            pass
    shown = str(caught.value) + repr(server)
    assert key not in shown and token not in shown
    assert caught.value.__cause__ is None or key not in str(caught.value.__cause__)
