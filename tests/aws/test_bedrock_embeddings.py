"""``embed`` on ``bedrock``: InvokeModel (``POST /model/{modelId}/invoke``, SigV4-signed) with the
body of each embedding family, on the recordings of Titan text v2 (ruby_llm), Cohere embed v3 and
Nova multimodal embeddings (pydantic-ai); what a family cannot take is refused before any I/O."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import modelport
from modelport.errors import InvalidRequestError, ProviderResponseError
from tests import recordings
from tests.aws.replay import answering, keys

PYDANTIC = "pydantic__pydantic-ai/tests__cassettes__test_embeddings__TestBedrock."
TITAN = (
    "crmne__ruby_llm/spec__fixtures__vcr_cassettes__"
    "embedding_basic_functionality_bedrock_amazon_titan-embed-text-v2_0_can_handle_a_single_text.yml"
)
RUNTIME = "https://bedrock-runtime.us-east-1.amazonaws.com/model/"


def _recorded(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(request body, response body) of a vendored vcrpy or Ruby VCR recording."""
    import yaml

    data = yaml.safe_load(recordings.bedrock(name).read_text(encoding="utf-8"))
    item = (data.get("interactions") or data["http_interactions"])[0]
    request, response = item["request"], item["response"]
    sent = request["body"]["string"] if isinstance(request["body"], dict) else request["body"]
    answer = response.get("parsed_body") or json.loads(response["body"]["string"])
    return json.loads(sent), answer


def _model(name: str, answer: Any, seen: list[httpx.Request]) -> modelport.Model:
    return modelport.get_model(f"bedrock/{name}", transport=answering(answer, seen=seen), **keys())


def test_titan_v2_sends_input_text_and_reads_the_embedding_and_its_token_count() -> None:
    sent, answer = _recorded(TITAN)
    seen: list[httpx.Request] = []
    model = _model("amazon.titan-embed-text-v2:0", answer, seen)
    result = model.embed(
        "Ruby is a programmer's best friend", provider_options={"bedrock": {"normalize": True}}
    )
    (request,) = seen
    assert str(request.url) == RUNTIME + "amazon.titan-embed-text-v2%3A0/invoke"
    assert request.headers["authorization"].startswith("AWS4-HMAC-SHA256 ")
    assert json.loads(request.content) == sent
    assert sent == {"inputText": "Ruby is a programmer's best friend", "normalize": True}
    (vector,) = result.embeddings
    assert len(vector) == 1024
    assert vector[:2] == [-0.061209455132484436, 0.025703920051455498]
    assert vector[-1] == 0.04987102001905441
    assert result.usage.input_tokens == 8 and result.usage.total_tokens == 8


def test_titan_takes_one_value_per_request_in_order_and_sums_the_tokens() -> None:
    _, answer = _recorded(TITAN)
    seen: list[httpx.Request] = []
    model = _model("us.amazon.titan-embed-text-v2:0", answer, seen)
    result = model.embed(["first", "second", "third"], output_dimensionality=256)
    bodies = [json.loads(r.content) for r in seen]
    assert bodies == [{"inputText": v, "dimensions": 256} for v in ("first", "second", "third")]
    assert len(result.embeddings) == 3 and result.usage.input_tokens == 24


def test_cohere_v3_sends_texts_with_the_input_type_of_the_task_type() -> None:
    sent, answer = _recorded(PYDANTIC + "test_cohere_v3_minimal.yaml")
    seen: list[httpx.Request] = []
    model = _model("cohere.embed-english-v3", answer, seen)
    result = model.embed(
        ["Hello, world!"], task_type="search_query", provider_options={"bedrock": {"truncate": "NONE"}}
    )
    (request,) = seen
    assert str(request.url) == RUNTIME + "cohere.embed-english-v3/invoke"
    assert json.loads(request.content) == sent
    (vector,) = result.embeddings
    assert len(vector) == 1024 and vector[:3] == [-0.042236328, -0.03250122, -0.09307861]
    assert result.usage.input_tokens is None  # Cohere's body carries no count


def test_cohere_batches_split_at_96_texts_and_map_neutral_task_types() -> None:
    _, answer = _recorded(PYDANTIC + "test_cohere_v3_minimal.yaml")
    vector = answer["embeddings"][0]
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        texts = json.loads(request.content)["texts"]
        return httpx.Response(200, json={"embeddings": [vector] * len(texts), "texts": texts})

    model = modelport.get_model(
        "bedrock/cohere.embed-multilingual-v3", transport=httpx.MockTransport(handler), **keys()
    )
    result = model.embed([f"text {i}" for i in range(100)], task_type="RETRIEVAL_DOCUMENT")
    bodies = [json.loads(r.content) for r in seen]
    assert [len(b["texts"]) for b in bodies] == [96, 4]
    assert bodies[1]["texts"][0] == "text 96"
    assert {b["input_type"] for b in bodies} == {"search_document"}
    assert len(result.embeddings) == 100


def test_nova_sends_a_single_embedding_with_its_dimension_and_purpose() -> None:
    sent, answer = _recorded(PYDANTIC + "test_nova_with_dimensions.yaml")
    seen: list[httpx.Request] = []
    model = _model("amazon.nova-2-multimodal-embeddings-v1:0", answer, seen)
    result = model.embed(
        "Test Nova dimensions",
        output_dimensionality=256,
        task_type="RETRIEVAL_QUERY",
        provider_options={"bedrock": {"truncationMode": "NONE"}},
    )
    (request,) = seen
    assert str(request.url) == RUNTIME + "amazon.nova-2-multimodal-embeddings-v1%3A0/invoke"
    assert json.loads(request.content) == sent
    (vector,) = result.embeddings
    assert len(vector) == 256 and vector[:2] == [-0.109526575, 0.022427728]


@pytest.mark.parametrize(
    ("model", "arguments", "message"),
    [
        ("anthropic.claude-sonnet-4-20250514-v1:0", {}, "no embeddings for"),
        ("amazon.titan-embed-text-v2:0", {"task_type": "RETRIEVAL_QUERY"}, "take no task_type"),
        ("amazon.titan-embed-text-v1", {"output_dimensionality": 512}, "v1 takes no output_dimensionality"),
        ("cohere.embed-english-v3", {"output_dimensionality": 512}, "take no output_dimensionality"),
        ("cohere.embed-english-v3", {"task_type": "SEMANTIC_SIMILARITY"}, "no task_type 'SEMANTIC"),
        ("amazon.nova-2-multimodal-embeddings-v1:0", {"task_type": "search_query"}, "no task_type"),
        (
            "amazon.titan-embed-text-v2:0",
            {"provider_options": {"bedrock": {"embeddingTypes": ["binary"]}}},
            "unknown embedding option(s) embeddingTypes",
        ),
    ],
)
def test_what_a_family_cannot_take_is_refused_before_any_request(
    model: str, arguments: dict[str, Any], message: str
) -> None:
    seen: list[httpx.Request] = []
    bedrock = _model(model, {}, seen)
    with pytest.raises(InvalidRequestError, match=message.replace("(", r"\(").replace(")", r"\)")):
        bedrock.embed("hello", **arguments)
    assert seen == []


def test_a_malformed_embedding_answer_is_a_response_error() -> None:
    seen: list[httpx.Request] = []
    model = _model("amazon.titan-embed-text-v2:0", {"embedding": ["x"], "inputTextTokenCount": 1}, seen)
    with pytest.raises(ProviderResponseError, match="malformed embedding response"):
        model.embed("hello")
    assert len(seen) == 1


def test_a_foundation_model_arn_names_its_family_and_is_sent_encoded_whole() -> None:
    sent, answer = _recorded(TITAN)
    seen: list[httpx.Request] = []
    arn = "arn:aws:bedrock:us-east-1::foundation-model/amazon.titan-embed-text-v2:0"
    result = _model(arn, answer, seen).embed(
        sent["inputText"], provider_options={"bedrock": {"normalize": True}}
    )
    (request,) = seen
    assert request.url.raw_path.decode() == (
        "/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A%3Afoundation-model%2Famazon.titan-embed-text-v2%3A0/invoke"
    )
    assert json.loads(request.content) == sent and result.usage.input_tokens == 8
