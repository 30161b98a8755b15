"""Citations on the corpus's REAL grounding recordings: exact rendered text (S4, S5, S7, S8).

Recordings come from the vendored corpus in tests/corpus/gemini; each case names
its source repository, file, commit and licence. The expected texts were computed from the bytes
of each recording and checked by hand against the segment texts: several answers contain "°",
"É", "è" or "œ", so Google's byte offsets differ from character offsets, and one gemini-3 answer
has two supports whose offsets are 2 bytes late (the last one runs past the end of the text).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import yaml

from modelport import cite
from modelport.types import CallWarning, Result, Source, TextPart
from modelport_google.grounding import (
    GroundingAccumulator,
    citations_from_grounding,
    validate_grounding_metadata,
)
from tests import recordings

PYDANTIC_AI = "pydantic__pydantic-ai"  # pydantic/pydantic-ai @ 4fda389 (MIT)
FIREBASE = "FirebaseExtended__vertexai-sdk-test-data"  # FirebaseExtended/vertexai-sdk-test-data @ 2d6adfd (Apache-2.0)


def _read(folder: str, name: str) -> str:
    return recordings.gemini(f"{folder}/{name}").read_text(encoding="utf-8")


def _sse(body: str) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in body.splitlines() if line.startswith("data:")]


def _text_parts(candidate: dict[str, Any]) -> list[str]:
    """Text of each raw part, "" for thought and non-text parts, so partIndex lines up."""
    parts = (candidate.get("content") or {}).get("parts") or []
    return [p.get("text", "") if not p.get("thought") else "" for p in parts]


def _from_yaml(name: str, interaction: int) -> Any:
    data = yaml.safe_load(_read(PYDANTIC_AI, name))
    response = data["interactions"][interaction]["response"]
    if "parsed_body" in response:
        return response["parsed_body"]
    return _sse(response["body"]["string"])


def _from_file(name: str) -> Any:
    text = _read(FIREBASE, name)
    return json.loads(text) if name.endswith(".json") else _sse(text)


def _decode(body: Any) -> tuple[dict[str, Any] | None, list[str]]:
    """Grounding metadata and text parts of the first candidate, of one response or of SSE frames."""
    if isinstance(body, dict):
        candidate = body["candidates"][0]
        raw = candidate.get("groundingMetadata")
        return (validate_grounding_metadata(raw, provider="google") if raw else None), _text_parts(candidate)
    accumulator = GroundingAccumulator(provider="google")
    parts: list[str] = []
    for frame in body:
        for candidate in frame.get("candidates", [])[:1]:
            accumulator.add(candidate.get("groundingMetadata"))
            parts += _text_parts(candidate)
    return accumulator.result(), parts


def _render(body: Any) -> tuple[str, list[Source], list[CallWarning]]:
    metadata, parts = _decode(body)
    assert metadata is not None
    sources, citations, warnings = citations_from_grounding(metadata, parts, provider="google")
    result = Result(content=[TextPart(text="".join(parts))], sources=sources, citations=citations)
    return cite(result).text, sources, warnings


FIREBASE_URL_CONTEXT_STREAM = (
    "\n"
    'The Google homepage primarily serves as a search engine interface, featuring a prominent search bar and the Google logo[1]. It also displays trending searches, options to sign in, access Google apps, and adjust settings such as dark theme and search preferences[1]. The page includes links for feedback, privacy, terms, advertising, business, and an "About" section[1].'
)

FIREBASE_EMPTY_CHUNKS = "The current weather in London, United Kingdom is cloudy with a temperature of 67°F (19°C), but it feels like 75°F (24°C). There is a 0% chance of rain and the humidity is around 41%.[1]\n"

FIREBASE_SEARCH = "The current weather in London, United Kingdom is cloudy.[1] The temperature is 67°F (19°C), but it feels like 75°F (24°C).[2] There is a 0% chance of rain, and the humidity is around 41%.[2]\n"

GEMINI3_WIRE_CONTRACT = (
    "The top news stories for **Tuesday, June 9, 2026**, are dominated by a major de-escalation in Middle East tensions and the humanitarian response to a devastating earthquake in Southeast Asia.\n"
    "\n"
    "### 1. Israel and Iran Move Toward De-escalation\n"
    "The most prominent global headline involves a significant step back from the brink of regional war.[1] Following a period of direct missile exchanges, Israeli Prime Minister Benjamin Netanyahu credited former President Donald Trump with helping to de-escalate tensions between Israel and Iran. \n"
    '*   **Status:** Military strikes between the two nations paused on Monday, and the focus has shifted to "final negotiations" for a lasting peace framework.\n'
    '*   **Reactions:** While Trump expressed optimism on social media that negotiations are proceeding quickly, Iranian officials have voiced skepticism, citing a "lack of trust" in the framework being proposed.[1]\n'
    "\n"
    "### 2. Death Toll Rises After 7.8 Magnitude Philippines Earthquake\n"
    "Rescue operations are in a critical phase following a massive **7.8 magnitude earthquake** that struck off the coast of Sarangani on June 8. \n"
    "*   **Casualties:** The death toll has officially reached **41** as of this morning, with rescuers racing to reach people still trapped in collapsed buildings in Mindanao.\n"
    "*   **Global Impact:** The quake triggered tsunami warnings across several Pacific nations earlier this week, and the United Nations is currently on the ground assessing damage to support recovery efforts.[2]\n"
    "\n"
    "### 3. EU Reports Heavy Financial Toll on Russia\n"
    "EU High Representative **Kaja Kallas** announced today that Western sanctions have already cost the Russian economy an estimated **$1.2 to $1.5 trillion**.[3] \n"
    '*   **New Measures:** During an informal meeting of EU Defense Ministers in Cyprus, Kallas proposed over 80 new listings targeting the Russian military-industrial complex and propagandists to further "collapse the foundations" of the war economy.[3]\n'
    "\n"
    "### 4. Other Major Headlines\n"
    "*   **Environment:** American Airlines and Google signed a record-breaking agreement for **sustainable aviation fuel (SAF)**, the largest of its kind for a single corporate customer, aimed at reducing 300,000 metric tons of CO2 emissions.[4]\n"
    "*   **Health:** Global health authorities are raising alarms over a new **Ebola outbreak** in the Democratic Republic of the Congo, with dozens of deaths already confirmed.[5]\n"
    "*   **Diplomacy:** Chinese President **Xi Jinping** concluded a visit to North Korea, signaling a strengthening of ties between Beijing and Kim Jong Un's regime.[5]\n"
    "*   **Sports:** With the **2026 World Cup** approaching, host cities are ramping up efforts to manage public health and security, including new initiatives in Singapore to combat illegal gambling during the tournament.[6]"
)

GEMINI3_FILE_SEARCH_STREAM = (
    "The capital of France is **Paris**.[1]\n"
    "\n"
    'Paris is not only the capital but also the largest city in France. It is a major global center for art, fashion, gastronomy, and culture. Often referred to as the "City of Light" (*La Ville Lumière*), it is home to world-famous landmarks such as the **Eiffel Tower**, the **Louvre Museum**, and the **Notre-Dame Cathedral**. The city is situated on the Seine River in the northern part of the country.'
)

GEMINI3_FILE_SEARCH = (
    "Paris is home to several world-famous landmarks, most notably:\n"
    "\n"
    "*   **The Eiffel Tower:** Perhaps the most iconic symbol of both Paris and France, this iron lattice tower was built for the 1889 World's Fair.\n"
    "*   **The Louvre Museum:** The world's largest art museum and a historic monument, famous for housing the *Mona Lisa*.\n"
    "*   **Notre-Dame Cathedral:** A masterpiece of French Gothic architecture, known for its stunning stained glass and gargoyles.\n"
    "*   **The Arc de Triomphe:** A massive triumphal arch standing at the western end of the Champs-Élysées, honoring those who fought and died for France.\n"
    "*   **Sacré-Cœur Basilica:** A white-domed basilica located at the highest point of the city in Montmartre, offering panoramic views of Paris.\n"
    "*   **The Palace of Versailles:** While located just outside the city center, this former royal residence is one of the most famous landmarks associated with Parisian history."
)

WEB_FETCH_STREAM = "Pydantic AI Gateway is now available![1]"

WEB_SEARCH_SF = (
    "## Weather in San Francisco is Mild and Partly Cloudy\n"
    "\n"
    "**San Francisco, CA** - Residents and visitors in San Francisco are experiencing a mild Tuesday, with partly cloudy skies and temperatures hovering around 69°F.[1] There is a very low chance of rain throughout the day.[1]\n"
    "\n"
    "According to the latest weather reports, the forecast for the remainder of the day is expected to be sunny, with highs ranging from the mid-60s to the lower 80s.[2] Winds are predicted to come from the west at 10 to 15 mph.[3]\n"
    "\n"
    "As the evening approaches, the skies are expected to remain partly cloudy, with temperatures dropping to the upper 50s.[2] There is a slight increase in the chance of rain overnight, but it remains low at 20%.[1]\n"
    "\n"
    "Overall, today's weather in San Francisco is pleasant, with a mix of sun and clouds and comfortable temperatures."
)

WEB_SEARCH_MEXICO = (
    "In Mexico City today, you can expect a day of mixed sun and clouds with a high likelihood of showers and thunderstorms, particularly in the afternoon and evening.\n"
    "\n"
    "Currently, the weather is partly cloudy with temperatures in the mid-60s Fahrenheit (around 17-18°C). As the day progresses, the temperature is expected to rise, reaching a high of around 73-75°F (approximately 23°C).\n"
    "\n"
    "There is a significant chance of rain, with forecasts indicating a 60% to 100% probability of precipitation, especially from mid-afternoon into the evening.[1][2][3] Winds are generally light, coming from the north-northeast at 10 to 15 mph.[2][3]\n"
    "\n"
    "Tonight, the skies will remain cloudy with a continued chance of showers, and the temperature will drop to a low of around 57°F (about 14°C)."
)

WEB_SEARCH_STREAM_SF = (
    "### Weather in San Francisco is Mild and Partly Cloudy Today\n"
    "\n"
    "**San Francisco, CA** - Today's weather in San Francisco is partly cloudy with temperatures ranging from the high 50s to the low 80s, according to various weather reports.\n"
    "\n"
    "As of Tuesday afternoon, the temperature is around 69°F (21°C), with a real feel of about 76°F (24°C) and humidity at approximately 68%.[1] Another report indicates a temperature of 68°F with passing clouds.[2] There is a very low chance of rain throughout the day.[1]\n"
    "\n"
    "The forecast for the remainder of the day predicts sunny skies with highs ranging from the mid-60s to the lower 80s.[3] Some sources suggest the high could reach up to 85°F.[4] Tonight, the weather is expected to be partly cloudy with lows in the upper 50s.[3]\n"
    "\n"
    "Hourly forecasts show temperatures remaining in the low 70s during the afternoon before gradually cooling down in the evening.[2][5] The chance of rain remains low throughout the day.[1]"
)

WEB_SEARCH_STREAM_MEXICO = (
    "### Scattered Thunderstorms and Mild Temperatures in Mexico City Today\n"
    "\n"
    "**Mexico City, Mexico** - The weather in Mexico City today is generally cloudy with scattered thunderstorms expected to develop, particularly this afternoon.[1] Temperatures are mild, with highs forecasted to be in the mid-70s and lows in the upper 50s.\n"
    "\n"
    "Currently, the temperature is approximately 78°F (26°C), but it feels like 77°F (25°C).[2] The forecast for the rest of the day indicates a high of around 73°F to 75°F (23°C to 24°C).[1][2][3] Tonight, the temperature is expected to drop to a low of about 57°F (14°C).[1][2][3]\n"
    "\n"
    "There is a high chance of rain throughout the day, with some reports stating a 60% to 85% probability of precipitation.[1][2][3] Hourly forecasts indicate that the likelihood of rain increases significantly in the late afternoon and evening.[4] Winds are coming from the north-northeast at 10 to 15 mph.[1][2]"
)

TOOL_CHOICE_SF = "It is currently 3:56 AM PDT on Tuesday, June 9, 2026, in San Francisco, California. The weather is cloudy with a temperature of 58°F (14°C), feeling like 57°F (14°C). There is a 19% chance of rain, and the humidity is around 94%.[1][2]"


CASES: dict[str, tuple[Callable[[], Any], str]] = {
    # pydantic-ai tests/models/cassettes/test_google/test_google_model_web_search_tool.yaml (gemini-2.5-pro)
    "web search, turn 1": (
        lambda: _from_yaml(
            "tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml", 0
        ),
        WEB_SEARCH_SF,
    ),
    "web search, turn 2": (
        lambda: _from_yaml(
            "tests__models__cassettes__test_google__test_google_model_web_search_tool.yaml", 1
        ),
        WEB_SEARCH_MEXICO,
    ),
    # pydantic-ai tests/models/cassettes/test_google/test_google_model_web_search_tool_stream.yaml (10 SSE frames, then one non-streamed turn)
    "web search, streamed": (
        lambda: _from_yaml(
            "tests__models__cassettes__test_google__test_google_model_web_search_tool_stream.yaml", 0
        ),
        WEB_SEARCH_STREAM_SF,
    ),
    "web search, after a stream": (
        lambda: _from_yaml(
            "tests__models__cassettes__test_google__test_google_model_web_search_tool_stream.yaml", 1
        ),
        WEB_SEARCH_STREAM_MEXICO,
    ),
    # pydantic-ai tests/models/cassettes/test_tool_choice_matrix/test_google_native_tool_only_web_search_completes.yaml (gemini-2.5-flash)
    "tool-choice matrix": (
        lambda: _from_yaml(
            "tests__models__cassettes__test_tool_choice_matrix__test_google_native_tool_only_web_search_completes.yaml",
            0,
        ),
        TOOL_CHOICE_SF,
    ),
    # pydantic-ai tests/cassettes/test_thinking_native_tools/test_thinking_with_native_tool_wire_contract[google].yaml (gemini-3-flash-preview)
    "gemini-3 with thinking": (
        lambda: _from_yaml(
            "tests__cassettes__test_thinking_native_tools__test_thinking_with_native_tool_wire_contract[google].yaml",
            0,
        ),
        GEMINI3_WIRE_CONTRACT,
    ),
    # pydantic-ai tests/models/cassettes/test_google/test_google_model_file_search_grounding_gemini_3[True].yaml (interactions 3: SSE, 4: non-stream)
    "gemini-3 file search, streamed": (
        lambda: _from_yaml(
            "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml",
            3,
        ),
        GEMINI3_FILE_SEARCH_STREAM,
    ),
    "gemini-3 file search, no supports": (
        lambda: _from_yaml(
            "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml",
            4,
        ),
        GEMINI3_FILE_SEARCH,
    ),
    # pydantic-ai tests/models/cassettes/test_google/test_google_model_web_fetch_tool_stream.yaml (urlContext over SSE)
    "url context, streamed": (
        lambda: _from_yaml(
            "tests__models__cassettes__test_google__test_google_model_web_fetch_tool_stream.yaml", 0
        ),
        WEB_FETCH_STREAM,
    ),
    # Firebase mock-responses/googleai/unary-success-google-search-grounding.json (gemini-2.0-flash; first startIndex omitted)
    "firebase search": (
        lambda: _from_file("mock-responses__googleai__unary-success-google-search-grounding.json"),
        FIREBASE_SEARCH,
    ),
    # Firebase mock-responses/googleai/unary-success-google-search-grounding-empty-grounding-chunks.json (chunks are {})
    "firebase empty chunks": (
        lambda: _from_file(
            "mock-responses__googleai__unary-success-google-search-grounding-empty-grounding-chunks.json"
        ),
        FIREBASE_EMPTY_CHUNKS,
    ),
    # Firebase mock-responses/googleai/streaming-success-url-context.txt (gemini-2.5-flash SSE)
    "firebase url context, streamed": (
        lambda: _from_file("mock-responses__googleai__streaming-success-url-context.txt"),
        FIREBASE_URL_CONTEXT_STREAM,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_rendered_citations_match_the_recording(case: str) -> None:
    load, expected = CASES[case]
    text, _, _ = _render(load())
    assert text == expected


def test_byte_offsets_differ_from_character_offsets_on_the_degree_sign() -> None:
    # Firebase unary-success-google-search-grounding.json: 4 × "°" (2 bytes each) before byte 123.
    body = _from_file("mock-responses__googleai__unary-success-google-search-grounding.json")
    metadata, parts = _decode(body)
    assert metadata is not None
    _, citations, warnings = citations_from_grounding(metadata, parts, provider="google")
    assert [(c.start, c.end, c.sources) for c in citations] == [(0, 56, [1]), (57, 119, [2]), (120, 181, [2])]
    assert warnings == []
    assert parts[0][57:119] == "The temperature is 67°F (19°C), but it feels like 75°F (24°C)."


def test_sources_are_numbered_chunks_with_title_and_uri() -> None:
    body = _from_file("mock-responses__googleai__unary-success-google-search-grounding.json")
    _, sources, _ = _render(body)
    assert [(s.number, s.title, s.domain) for s in sources] == [
        (1, "accuweather.com", None),
        (2, "Weather information for locality: London", None),
    ]
    assert sources[1].uri == "https://www.google.com/search?q=weather+in+London"
    assert sources[0].uri is not None and sources[0].uri.startswith(
        "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbF9wXHS4dqThDQ"
    )


def test_empty_chunks_still_number_their_sources() -> None:
    body = _from_file(
        "mock-responses__googleai__unary-success-google-search-grounding-empty-grounding-chunks.json"
    )
    _, sources, warnings = _render(body)
    assert sources == [Source(number=1), Source(number=2)]
    assert warnings == []


def test_gemini3_supports_with_late_offsets_are_reanchored_and_reported() -> None:
    body = _from_yaml(
        "tests__cassettes__test_thinking_native_tools__test_thinking_with_native_tool_wire_contract[google].yaml",
        0,
    )
    metadata, parts = _decode(body)
    assert metadata is not None
    # thought, toolCall, toolResponse, thought, then the answer: supports carry no partIndex
    assert [len(p) for p in parts[:4]] == [0, 0, 0, 0] and len(parts[4].encode()) == 2762
    _, citations, warnings = citations_from_grounding(metadata, parts, provider="google")
    assert [(c.start, c.end) for c in citations[-2:]] == [(2382, 2543), (2544, 2762)]
    assert warnings == [
        CallWarning(
            type="reanchored-citation",
            setting="groundingSupports[7]",
            details="citation re-anchored on segment.text: the support does not match segment.text (bytes 2382..2545)",
        ),
        CallWarning(
            type="reanchored-citation",
            setting="groundingSupports[8]",
            details="citation re-anchored on segment.text: the support runs past the text (byte 2764 of 2762)",
        ),
    ]


def test_streamed_grounding_arrives_once_on_the_final_frame() -> None:
    frames = _from_yaml(
        "tests__models__cassettes__test_google__test_google_model_web_search_tool_stream.yaml", 0
    )
    grounding = [f["candidates"][0].get("groundingMetadata") for f in frames]
    assert len(frames) == 10
    assert grounding[:-1] == [{}] * 9  # 2.5 models send a placeholder on every frame
    metadata, _ = _decode(frames)
    assert metadata == grounding[-1]


def test_file_search_stream_keeps_unknown_chunk_fields() -> None:
    frames = _from_yaml(
        "tests__models__cassettes__test_google__test_google_model_file_search_grounding_gemini_3[True].yaml",
        3,
    )
    metadata, _ = _decode(frames)
    assert metadata is not None
    context = metadata["groundingChunks"][0]["retrievedContext"]
    assert {"text", "fileSearchStore"} <= set(context)
