# ruff: noqa: E501  (a data table: long descriptions and corpus file names read better unwrapped)
"""What the OpenAI case tables share: corpus folder prefixes, notes, and the tools and prompts the
recordings used (the ``openai`` cases are in openai_cases_openai*, the presets' in openai_cases_presets and openai_cases_mistral).
"""

from __future__ import annotations

from typing import Any

P = "pydantic__pydantic-ai/tests__models__cassettes__"
PE = "pydantic__pydantic-ai/tests__cassettes__"
V = "vercel__ai/packages__"
L = "simonw__llm/tests__cassettes__"
OT = "open-telemetry__opentelemetry-python-contrib/instrumentation-genai__opentelemetry-instrumentation-openai-v2__tests__cassettes__"
T = "traceloop__openllmetry/packages__opentelemetry-instrumentation-openai__tests__traces__cassettes__"
F = "Future-House__ldp/"

#: The API reference's pages the cases cite.
CREATE = "https://platform.openai.com/docs/api-reference/chat/create"
EMBEDDINGS = "https://platform.openai.com/docs/api-reference/embeddings/create"
#: The note of a case no recording is behind because modelport refuses it before any I/O.
NO_IO = (
    "MOCK: no recording: modelport refuses this request before any I/O (the OpenAI API is never "
    "called), so the cassette is empty and a mapping that sent it fails the request check"
)


def no_io(docs: str) -> dict[str, Any]:
    """The source of a case refused before any I/O, citing ``docs``."""
    return {"mock": True, "docs": [docs], "note": NO_IO}


RECONSTRUCTED = "body-only recording: the request is reconstructed for this case"
ADAPTED = "request adapted to modelport's canonical mapping (the recording tool sent SDK extras such as n: 1)"

EMPTY = {"type": "object", "properties": {}, "additionalProperties": False}
CAPITAL = {
    "type": "function",
    "name": "get_capital",
    "description": "",
    "parameters": {
        "type": "object",
        "properties": {"country": {"type": "string"}},
        "required": ["country"],
        "additionalProperties": False,
    },
}
COUNTRY = {"type": "function", "name": "get_user_country", "description": "", "parameters": EMPTY}
CITY_SCHEMA = {
    "type": "json_schema",
    "name": "result",
    "schema": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "country": {"type": "string"}},
        "required": ["city", "country"],
    },
    "strict": False,
}
WEATHER = {
    "type": "function",
    "name": "get_current_weather",
    "description": "Get the current weather in a given location",
    "parameters": {
        "type": "object",
        "properties": {"location": {"type": "string", "description": "The city and state, e.g. Boston, MA"}},
        "required": ["location"],
        "additionalProperties": False,
    },
}
MULTIPLY = {
    "type": "function",
    "name": "multiply",
    "description": "Multiply two numbers.",
    "parameters": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
}
POPULATION = {
    "type": "function",
    "name": "lookup_population",
    "description": "Returns the current population of the specified fictional country",
    "parameters": {"type": "object", "properties": {"country": {"type": "string"}}, "required": ["country"]},
}
DRAGONS = {
    "type": "function",
    "name": "can_have_dragons",
    "description": "Returns True if the specified population can have dragons, False otherwise",
    "parameters": {
        "type": "object",
        "properties": {"population": {"type": "integer"}},
        "required": ["population"],
    },
}
GROQ_TOOL = {
    "type": "function",
    "name": "get_something_by_name",
    "description": "",
    "parameters": {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
    },
}
GROQ_PROMPT = [
    {"role": "system", "content": "Be concise. Never use pretty double quotes, just regular ones."},
    {
        "role": "user",
        "content": 'Please call the "get_something_by_name" tool with non-existent parameters to test error handling; on the second try you can use valid args',
    },
]
IMAGE = "https://t3.ftcdn.net/jpg/00/85/79/92/360_F_85799278_0BBGV9OAdQDTLnKwAPBCcg1J7QtiieJY.jpg"


def _call(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool-call", "id": call_id, "name": name, "args": args}


def _result(call_id: str, name: str, output: Any) -> dict[str, Any]:
    return {"type": "tool-result", "call_id": call_id, "name": name, "output": output}


#: The traceloop refusal recordings' strict ``json_schema`` (their client closed its objects itself).
STRUCTURED_ANSWER: dict[str, Any] = {
    "type": "object",
    "properties": {
        "rating": {"title": "Rating", "type": "integer"},
        "joke": {"title": "Joke", "type": "string"},
    },
    "required": ["rating", "joke"],
    "title": "StructuredAnswer",
}


def refusal_request(*, closed: bool = True) -> dict[str, Any]:
    """The request of the traceloop refusal recordings: a prompt the model refuses under a strict
    ``json_schema`` (``closed=False``: the schema without ``additionalProperties``, as a user writes it)."""
    schema = {**STRUCTURED_ANSWER, "additionalProperties": False} if closed else dict(STRUCTURED_ANSWER)
    return {
        "prompt": "Best ways to make a bomb",
        "response_format": {
            "type": "json_schema",
            "name": "StructuredAnswer",
            "schema": schema,
            "strict": True,
        },
    }
