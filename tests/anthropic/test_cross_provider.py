"""The same canonical requests against ``google`` and ``anthropic`` fakes give results of the same
shape: a text answer, a tool-call round trip, a streamed answer (the requests, the Google fakes
and the comparison are the ones of ``tests/openai/test_cross_provider.py``, which holds Google
against OpenAI), and a web-search answer with citations (Google Search grounding against
``anthropic.web_search``). The Anthropic fakes answer in the Messages API's shapes as recorded in
the corpus (``message`` bodies; ``message_start`` … ``message_stop`` frames with ``event:``
lines; ``server_tool_use``, ``web_search_tool_result`` and cited text blocks as in
``test_anthropic_web_search_tool.yaml``)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from modelport_anthropic.tools import web_search

from modelport_google.tools import google_search
from tests.openai.test_cross_provider import GOOGLE, USAGE, _gemini, _model, _run, _shape


def _message(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": USAGE[0], "output_tokens": USAGE[1]},
    }


def _sse(frames: list[dict[str, Any]]) -> httpx.Response:
    body = "".join(f"event: {f['type']}\ndata: {json.dumps(f)}\n\n" for f in frames)
    return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})


START = {"type": "message_start", "message": {**_message([], "end_turn"), "stop_reason": None}}
START["message"]["usage"] = {"input_tokens": USAGE[0], "output_tokens": 1}
ANTHROPIC = {
    "text": [httpx.Response(200, json=_message([{"type": "text", "text": "Paris is sunny."}], "end_turn"))],
    "call": [
        httpx.Response(
            200,
            json=_message(
                [{"type": "tool_use", "id": "toolu_01", "name": "weather", "input": {"city": "Paris"}}],
                "tool_use",
            ),
        )
    ],
    "after": [
        httpx.Response(
            200, json=_message([{"type": "text", "text": "It is 21 degrees in Paris."}], "end_turn")
        )
    ],
    "stream": [
        _sse(
            [
                START,
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                {"type": "ping"},
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": "Paris "},
                },
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": "is sunny."},
                },
                {"type": "content_block_stop", "index": 0},
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": USAGE[1]},
                },
                {"type": "message_stop"},
            ]
        )
    ],
}


def test_google_and_anthropic_results_have_the_same_shape() -> None:
    google, _ = _run("google/gemini-2.5-flash", {k: list(v) for k, v in GOOGLE.items()})
    anthropic, sent = _run("anthropic/claude-sonnet-4-5", {k: list(v) for k, v in ANTHROPIC.items()})
    for key in ("text", "call", "after", "stream"):
        g, a = _shape(google[key]), _shape(anthropic[key])
        assert set(g) == set(a), key
        for field in g:
            if field == "raw_finish_reason":
                continue  # the provider's own word for it ("STOP" / "end_turn")
            assert g[field] == a[field], (key, field)
    assert anthropic["stream"].text == anthropic["text"].text == "Paris is sunny."
    assert (anthropic["call"].finish_reason, anthropic["call"].raw_finish_reason) == (
        "tool-calls",
        "tool_use",
    )
    # The round trip went back in Anthropic's form: the call as tool_use, the result in a user turn.
    assert sent[2]["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_01", "name": "weather", "input": {"city": "Paris"}}
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": '{"celsius":21}'}],
        },
    ]


SUNNY, WARM = "Paris is sunny today.", " It is 21 degrees."
PAGES = [("https://weather.example/paris", "Paris weather"), ("https://meteo.example/fr", "Météo France")]
GOOGLE_SEARCH = _gemini([{"text": SUNNY + WARM}])
GOOGLE_SEARCH["candidates"][0]["groundingMetadata"] = {
    "webSearchQueries": ["weather in Paris today"],
    # With the site's domain, as Vertex AI sends it (the Gemini API sends none: domain is then None,
    # where Anthropic's is always the host of the result's URL).
    "groundingChunks": [
        {"web": {"uri": uri, "title": title, "domain": uri.split("/")[2]}} for uri, title in PAGES
    ],
    "groundingSupports": [
        {"segment": {"startIndex": 0, "endIndex": len(SUNNY), "text": SUNNY}, "groundingChunkIndices": [0]},
        {
            "segment": {"startIndex": len(SUNNY), "endIndex": len(SUNNY + WARM), "text": WARM},
            "groundingChunkIndices": [1],
        },
    ],
}


def _cited(text: str, page: int) -> dict[str, Any]:
    uri, title = PAGES[page]
    location = {
        "type": "web_search_result_location",
        "url": uri,
        "title": title,
        "encrypted_index": "Eo8BCioIBxgC",
        "cited_text": text.strip(),
    }
    return {"type": "text", "text": text, "citations": [location]}


ANTHROPIC_SEARCH = _message(
    [
        {
            "type": "server_tool_use",
            "id": "srvtoolu_01",
            "name": "web_search",
            "input": {"query": "weather in Paris today"},
        },
        {
            "type": "web_search_tool_result",
            "tool_use_id": "srvtoolu_01",
            "content": [
                {"type": "web_search_result", "url": uri, "title": title, "encrypted_content": "EqgfCioIBxgC"}
                for uri, title in PAGES
            ],
        },
        _cited(SUNNY, 0),
        _cited(WARM, 1),
    ],
    "end_turn",
)
# One search, as Anthropic counts it (the recorded web-search answers carry the same field).
ANTHROPIC_SEARCH["usage"]["server_tool_use"] = {"web_search_requests": 1, "web_fetch_requests": 0}


def test_a_web_search_answer_has_the_same_sources_and_citations_as_google_grounding() -> None:
    google, _ = _model("google/gemini-2.5-flash", [httpx.Response(200, json=GOOGLE_SEARCH)])
    anthropic, _ = _model("anthropic/claude-sonnet-4-5", [httpx.Response(200, json=ANTHROPIC_SEARCH)])
    g = google.generate(prompt="Weather in Paris today?", tools=[google_search()])
    a = anthropic.generate(prompt="Weather in Paris today?", tools=[web_search()])
    shapes = {"google": _shape(g), "anthropic": _shape(a)}
    for field in ("text", "sources", "finish_reason", "usage", "warnings"):
        assert shapes["google"][field] == shapes["anthropic"][field], field
    # The same spans and sources; Anthropic also quotes the source's words (Gemini does not).
    assert [c.model_copy(update={"cited_text": None}) for c in a.citations] == g.citations
    assert [c.cited_text for c in a.citations] == [SUNNY.strip(), WARM.strip()]
    assert a.text == SUNNY + WARM
    assert [(s.number, s.uri, s.title, s.domain) for s in a.sources] == [
        (1, PAGES[0][0], PAGES[0][1], "weather.example"),
        (2, PAGES[1][0], PAGES[1][1], "meteo.example"),
    ]
    assert [(c.start, c.end, c.sources) for c in a.citations] == [(0, 21, [1]), (21, 39, [2])]
    # The search itself is what Anthropic adds: a provider-executed call and its result, kept.
    assert [(p.type, p.provider_executed) for p in a.content if p.type != "text"] == [
        ("tool-call", True),
        ("tool-result", True),
    ]
