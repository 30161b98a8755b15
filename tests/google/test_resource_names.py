"""File and cached-content names cannot leave their URL path: ``..``, empty segments, tabs and the
like are an ``InvalidRequestError`` before any request (one check, :func:`modelport.http.urls.check_resource_name`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from modelport.errors import InvalidRequestError
from modelport_google import caches, files

from .mock import model, response

VERTEX = {"api_key": None, "token": "tok", "project": "p"}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda m: files.delete(m, ".."),
            "'files/..': a file name cannot have an empty, '.' or '..' path segment",
        ),
        (
            lambda m: files.get(m, "."),
            "'files/.': a file name cannot have an empty, '.' or '..' path segment",
        ),
        (lambda m: files.get(m, "files/.."), "'files/..': a file name cannot have an empty"),
        (lambda m: files.get(m, "a\tb"), r"'files/a\tb': a file name cannot contain '\t'"),
        (lambda m: files.wait_until_active(m, "a%2e"), "a file name cannot contain '%'"),
        (
            lambda m: caches.delete(m, "../../upload/v1beta/files"),
            "'../../upload/v1beta/files': a cached content name cannot have an empty, '.' or '..' path segment",
        ),
        (lambda m: caches.get(m, "cachedContents//x"), "a cached content name cannot have an empty"),
        (lambda m: caches.update(m, "a\u202eb", ttl=5), r"a cached content name cannot contain '\u202e'"),
    ],
)
def test_a_name_that_leaves_its_path_is_refused_before_any_request(
    call: Callable[[Any], Any], message: str
) -> None:
    m, recorder = model([])
    with pytest.raises(InvalidRequestError) as caught:
        call(m)
    assert message in str(caught.value)
    assert recorder.requests == []


def test_valid_names_still_reach_their_urls() -> None:
    m, recorder = model([response(200, b"{}"), response(200, b"{}")])
    files.delete(m, "abc-123").run()
    caches.delete(m, "cachedContents/xyz").run()
    assert [str(r.url) for r in recorder.requests] == [
        "https://generativelanguage.googleapis.com/v1beta/files/abc-123",
        "https://generativelanguage.googleapis.com/v1beta/cachedContents/xyz",
    ]
    v, vertex = model([response(200, b"{}")], "google-vertex/gemini-2.5-flash", **VERTEX)
    caches.delete(v, "projects/p/locations/us-central1/cachedContents/9").run()
    assert str(vertex.requests[0].url) == (
        "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/cachedContents/9"
    )
