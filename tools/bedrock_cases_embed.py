"""The ``bedrock`` embedding cases (InvokeModel, ``POST /model/{modelId}/invoke``) of the Titan
text v2, Cohere v3 and Nova multimodal recordings, written by :mod:`bedrock_cases` with its helpers.

    python tools/bedrock_cases.py           # rewrites these with every other case
"""

from __future__ import annotations

from bedrock_cases import write

_PYDANTIC = "pydantic__pydantic-ai/tests__cassettes__test_embeddings__TestBedrock."
_TITAN = (
    "crmne__ruby_llm/spec__fixtures__vcr_cassettes__"
    "embedding_basic_functionality_bedrock_amazon_titan-embed-text-v2_0_can_handle_a_single_text.yml"
)


def embed_cases() -> None:
    write(
        "embed-titan-text-v2",
        {
            "description": "Titan text v2: inputText + normalize -> a 1024-number embedding, "
            "inputTextTokenCount 8 as input tokens.",
            "method": "embed",
            "model": "amazon.titan-embed-text-v2:0",
            "features": ["embed"],
            "request": {
                "values": "Ruby is a programmer's best friend",
                "provider_options": {"bedrock": {"normalize": True}},
            },
        },
        _TITAN,
        0,
        # Ruby VCR recorded the region as <AWS_REGION> and the ':' unencoded; botocore's form.
        uri="https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.titan-embed-text-v2%3A0/invoke",
    )
    write(
        "embed-cohere-v3-search-query",
        {
            "description": "Cohere embed v3: texts + input_type search_query (task_type) -> "
            "embeddings, one 1024-number list; no token count in the body.",
            "method": "embed",
            "model": "cohere.embed-english-v3",
            "features": ["embed"],
            "request": {
                "values": ["Hello, world!"],
                "task_type": "search_query",
                "provider_options": {"bedrock": {"truncate": "NONE"}},
            },
        },
        _PYDANTIC + "test_cohere_v3_minimal.yaml",
        0,
    )
    write(
        "embed-nova-dimensions",
        {
            "description": "Nova multimodal: SINGLE_EMBEDDING with embeddingDimension 256 "
            "(output_dimensionality), GENERIC_RETRIEVAL purpose (task_type RETRIEVAL_QUERY).",
            "method": "embed",
            "model": "amazon.nova-2-multimodal-embeddings-v1:0",
            "features": ["embed"],
            "request": {
                "values": "Test Nova dimensions",
                "output_dimensionality": 256,
                "task_type": "RETRIEVAL_QUERY",
                "provider_options": {"bedrock": {"truncationMode": "NONE"}},
            },
        },
        _PYDANTIC + "test_nova_with_dimensions.yaml",
        0,
    )
