"""What the generated mapping refuses in citations and embeddings, the scaffold's example API's two
newest parts (``modelport new-provider``'s ``mapping.py``, loaded from a generated project): a
setting the API has no field for, before any I/O; an answer that cannot be mapped honestly (a
citation of a source not sent, refused by the kit's ``StreamParts.stop`` the decoder ends with), as
a plain error the kit's decoder guard types. The answers are MOCK: the API is a fake one."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest
from click.testing import CliRunner

from modelport.cli import main
from modelport.errors import InvalidRequestError
from modelport.provider import EmbedRequest
from modelport.types import Citation, Source


@pytest.fixture(scope="module")
def mapping(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    target = tmp_path_factory.mktemp("scaffold") / "project"
    result = CliRunner().invoke(main, ["new-provider", "refusal-llm", "-d", str(target)])
    assert result.exit_code == 0, result.output
    spec = importlib.util.spec_from_file_location(
        "refusal_mapping", target / "src" / "modelport_refusal_llm" / "mapping.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_embedding_task_type_is_refused_and_dimensions_are_sent(mapping: ModuleType) -> None:
    with pytest.raises(InvalidRequestError, match=r"^the API takes no task_type \(got 'RETRIEVAL_QUERY'\)$"):
        mapping.embed_body("demo-embed-1", EmbedRequest.checked(["a"], task_type="RETRIEVAL_QUERY"))
    assert mapping.embed_body("demo-embed-1", EmbedRequest.checked(["a", "b"], output_dimensionality=3)) == {
        "model": "demo-embed-1",
        "input": ["a", "b"],
        "dimensions": 3,
    }


def test_an_answer_maps_its_vectors_usage_and_model(mapping: ModuleType) -> None:
    # One vector per value sent is the kit's check (tests/kit/test_mapping_tables.py), for every plugin.
    answer = {"model": "demo-embed-1", "embeddings": [[0.25, 0.5]], "usage": {"input_tokens": 2}}
    decoded = mapping.decode_embeddings(answer)
    assert (decoded.embeddings, decoded.usage.input_tokens, decoded.model_version) == (
        [[0.25, 0.5]],
        2,
        "demo-embed-1",
    )


@pytest.mark.parametrize("number", [0, 3])
def test_a_citation_naming_a_source_not_sent_is_an_error(mapping: ModuleType, number: int) -> None:
    frame = {
        "type": "stop",
        "stop_reason": "end_turn",
        "sources": [{"title": "A", "url": "https://example.test/a"}, {"url": "https://example.test/b"}],
        "citations": [{"start": 4, "end": 21, "source": 1}, {"start": 25, "end": 30, "source": number}],
    }
    with pytest.raises(ValueError, match=f"^a citation names source {number}, not one of the 2 sent$"):
        mapping.Decoder().feed(frame)
    frame["citations"][1]["source"] = 2
    [finish] = mapping.Decoder().feed(frame)
    assert (finish.finish_reason, finish.raw_finish_reason) == ("stop", "end_turn")
    assert (finish.sources, finish.citations) == (
        [
            Source(number=1, title="A", uri="https://example.test/a"),
            Source(number=2, uri="https://example.test/b"),
        ],
        [Citation(start=4, end=21, sources=[1]), Citation(start=25, end=30, sources=[2])],
    )
