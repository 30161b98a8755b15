"""Request documents (contract 2.3): typed, bounded, round-tripped through JSON (C5), and refused
before any I/O by a provider whose capabilities do not declare them (C6), a 2.2 plugin included."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from pydantic import ValidationError

import modelport
from modelport import hookimpl
from modelport.errors import InvalidRequestError
from modelport.types import FileDocument, Request, Source, TextDocument

from .http_provider import CountingTransport, HttpEchoProvider, Plugin

pytestmark = pytest.mark.usefixtures("fresh_registry")


def test_documents_are_typed_from_strings_and_mappings() -> None:
    request = Request(
        prompt="Which colour?",
        documents=[
            "The grass is green.",
            {"text": "The sky is blue.", "id": "sky", "title": "Sky"},
            {"media_type": "application/pdf", "uri": "https://example.com/a.pdf"},
        ],
    )
    assert request.documents == [
        TextDocument(text="The grass is green."),
        TextDocument(text="The sky is blue.", id="sky", title="Sky"),
        FileDocument(media_type="application/pdf", uri="https://example.com/a.pdf"),
    ]


def test_documents_round_trip_through_json_with_bytes_as_base64() -> None:
    request = Request(
        prompt="Summarise.",
        documents=[
            FileDocument(media_type="application/pdf", data=b"%PDF-1.4", id="report", context="Q3"),
            TextDocument(text="Notes", title="Notes"),
        ],
    )
    dumped = request.model_dump(mode="json")["documents"]
    assert dumped[0] == {
        "id": "report",
        "title": None,
        "context": "Q3",
        "type": "file",
        "media_type": "application/pdf",
        "data": "JVBERi0xLjQ=",
        "uri": None,
    }
    assert Request.model_validate_json(request.model_dump_json()) == request


@pytest.mark.parametrize(
    ("documents", "error"),
    [
        ([{"text": "a", "author": "me"}], "Extra inputs are not permitted"),
        ([{"text": ""}], "at least 1 character"),
        ([{"text": "a", "id": "x"}, {"text": "b", "id": "x"}], "duplicate document ids: x"),
        ([{"text": "a", "title": "t" * 1025}], "at most 1024 characters"),
        ([{"text": "a", "id": "i" * 257}], "at most 256 characters"),
        ([{"media_type": "pdf", "uri": "https://example.com/a"}], "should match pattern"),
        ([{"media_type": "application/pdf"}], "exactly one of 'data' or 'uri'"),
        ([{"media_type": "application/pdf", "data": b"x", "uri": "u"}], "exactly one of 'data' or 'uri'"),
        ([{"media_type": "application/pdf", "data": "not base64!"}], "bytes or a base64 string"),
        (["x"] * 101, "at most 100 items"),
    ],
)
def test_bad_documents_are_refused(documents: list[Any], error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        Request(prompt="q", documents=documents)


def test_a_provider_without_documents_refuses_them_before_any_io() -> None:
    modelport.register_plugin(Plugin(), name="httpecho")
    transport = CountingTransport()
    model = modelport.get_model("httpecho/m", transport=transport)
    with pytest.raises(InvalidRequestError) as raised:
        model.generate(prompt="q", documents=["The sky is blue."])
    assert str(raised.value) == (
        "invalid request: documents: provider 'httpecho' takes no request documents"
        " (its capabilities have documents=False); nothing was sent"
    )
    with pytest.raises(InvalidRequestError, match="documents"):
        model.prepare(prompt="q", documents=["The sky is blue."])
    assert transport.requests == []
    assert model.generate(prompt="q", documents=[]).text == "echo"  # none given: nothing refused


class _Contract22(HttpEchoProvider):
    id: ClassVar[str] = "echo22"
    contract_version: ClassVar[str] = "2.2"


class _Plugin22:
    @hookimpl
    def modelport_register_providers(self, register: Any) -> None:
        register(_Contract22)


def test_a_2_2_plugin_loads_and_never_drops_documents_silently() -> None:
    modelport.register_plugin(_Plugin22(), name="echo22")
    transport = CountingTransport()
    model = modelport.get_model("echo22/m", transport=transport)
    assert model.generate(prompt="q").text == "echo"
    with pytest.raises(InvalidRequestError, match="documents: provider 'echo22' takes no request documents"):
        model.generate(prompt="q", documents=["a"])
    assert len(transport.requests) == 1


def test_a_source_says_its_kind_and_id_and_round_trips() -> None:
    source = Source(number=1, title="Sky", id="0", kind="document")
    assert Source.model_validate_json(source.model_dump_json()) == source
    assert Source(number=2).kind is None and Source(number=2).id is None
    with pytest.raises(ValidationError):
        Source(number=1, kind="webpage")  # type: ignore[arg-type]
