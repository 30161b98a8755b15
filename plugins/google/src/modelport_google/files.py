"""The Gemini Files API: upload (resumable), get, list, delete, and wait until a file is active.

Each function validates its input at once (before any request) and returns an
:class:`~modelport.http.Operation` that the core's HTTP kit runs, so every request gets the same
authentication, bounds, deadline, typed errors and scrubbing as a generation::

    from modelport_google import files

    model = modelport.get_model("google/gemini-2.5-flash")
    uploaded = files.upload(model, "report.pdf").run()          # sync
    uploaded = await files.upload(model, "report.pdf")          # async: await the same operation
    ready = files.wait_until_active(model, uploaded.name).run()
    question = {"role": "user", "content": [ready.part(), {"type": "text", "text": "Summarize."}]}
    result = model.generate(messages=[question])

The Files API belongs to the Gemini API; Vertex AI reads files from Cloud Storage (``gs://`` URIs
in a file part), so these functions refuse a ``google-vertex`` model before any request.
"""

from __future__ import annotations

import mimetypes
import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from modelport.errors import DeadlineExceededError, InvalidRequestError, ProviderResponseError
from modelport.http import FileBody, HttpRequest, Operation, Steps, Wait
from modelport.http.urls import check_resource_name
from modelport.types import FilePart

from ._paging import all_pages, checked_page_size
from ._resumable import MAX_FILE_BYTES, upload_steps

if TYPE_CHECKING:
    from modelport import Model

    from .provider import GoogleProvider

__all__ = [
    "MAX_FILE_BYTES",
    "GoogleFile",
    "delete",
    "get",
    "list_files",
    "upload",
    "wait_until_active",
]


@dataclass(frozen=True)
class GoogleFile:
    """A file stored by the Files API (``raw`` is the API's own object, unknown fields included)."""

    name: str
    uri: str | None
    mime_type: str | None
    state: str | None
    size_bytes: int | None = None
    display_name: str | None = None
    expiration_time: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    def part(self) -> FilePart:
        """A file part referencing this file (``fileData`` on the wire)."""
        if not self.uri or not self.mime_type:
            raise InvalidRequestError(f"file {self.name!r} has no URI or MIME type yet")
        return FilePart(media_type=self.mime_type, uri=self.uri)


def _string(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) else None


def _file(data: object, provider: str) -> GoogleFile:
    if isinstance(data, dict) and isinstance(data.get("file"), dict):
        data = data["file"]
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ProviderResponseError("the Files API answer has no file object with a name", provider=provider)
    size = data.get("sizeBytes")
    return GoogleFile(
        name=data["name"],
        uri=_string(data, "uri"),
        mime_type=_string(data, "mimeType"),
        state=_string(data, "state"),
        size_bytes=int(size) if isinstance(size, (int, str)) and str(size).isdigit() else None,
        display_name=_string(data, "displayName"),
        expiration_time=_string(data, "expirationTime"),
        raw=data,
    )


def _provider(model: Model) -> GoogleProvider:
    from .provider import GoogleProvider

    provider = getattr(model, "provider", None)
    if not isinstance(provider, GoogleProvider):
        raise InvalidRequestError(
            "the Files API is part of the Gemini API (a 'google/...' model); Vertex AI reads files "
            "from Cloud Storage: put a gs:// URI in a file part instead"
        )
    return provider


def _name(name: str) -> str:
    if not isinstance(name, str) or not name.strip("/"):
        raise InvalidRequestError("a file name is 'files/{id}' or the id alone")
    name = check_resource_name(name if name.startswith("files/") else f"files/{name}", what="a file name")
    if name.count("/") != 1:
        raise InvalidRequestError(f"{name!r} is not a file name ('files/{{id}}')")
    return name


def _upload_url(base: str) -> str:
    """``https://host/v1beta`` → ``https://host/upload/v1beta/files``."""
    parts = urlsplit(base)
    return f"{parts.scheme}://{parts.netloc}/upload{parts.path}/files"


def upload(
    model: Model,
    source: str | os.PathLike[str] | bytes,
    *,
    mime_type: str | None = None,
    display_name: str | None = None,
) -> Operation[GoogleFile]:
    """Upload a file (a path, or bytes with ``mime_type``) with the resumable protocol.

    A path is streamed from the file as it is sent, never read into memory whole. The MIME type is
    guessed from a path's extension when not given; an unknown type, an empty or missing file, or
    one larger than ``Limits.max_upload_bytes`` (default 2 GiB, the Files API's own limit) is an
    ``InvalidRequestError`` before any request.
    """
    provider = _provider(model)
    bound = min(provider.limits.max_upload_bytes, MAX_FILE_BYTES)
    data: bytes | FileBody
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        size, guessed = len(data), None
    elif isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not os.path.isfile(path):
            raise InvalidRequestError(f"no such file: {path!r}")
        size = os.path.getsize(path)
        data = FileBody(path, size)
        guessed = mimetypes.guess_type(path)[0]
        display_name = display_name if display_name is not None else os.path.basename(path)
    else:
        raise InvalidRequestError(f"upload takes a path or bytes, not {type(source).__name__}")
    mime = mime_type or guessed
    if not mime or "/" not in mime:
        raise InvalidRequestError("give mime_type=... (e.g. 'application/pdf'): it cannot be guessed")
    if not size:
        raise InvalidRequestError("the file is empty")
    if size > bound:
        raise InvalidRequestError(
            f"the file has {size} bytes, more than an upload may send "
            f"({bound} bytes: Limits.max_upload_bytes)"
        )
    start_url = _upload_url(provider.base_url())
    name = provider.name

    def steps() -> Steps[GoogleFile]:
        answer = yield from upload_steps(start_url, data, size, mime, display_name, name)
        return _file(answer, name)

    return provider.operation(steps)


def get(model: Model, name: str) -> Operation[GoogleFile]:
    """The file ``name`` (``files/{id}`` or the id)."""
    provider, path = _provider(model), _name(name)

    def steps() -> Steps[GoogleFile]:
        answer = yield HttpRequest(path, method="GET")
        assert answer is not None
        return _file(answer.data, provider.name)

    return provider.operation(steps)


def list_files(model: Model, *, page_size: int = 100) -> Operation[list[GoogleFile]]:
    """Every file of the project, all pages read."""
    provider = _provider(model)
    size = checked_page_size(page_size, 100)
    return provider.operation(
        lambda: all_pages("files", size, "files", lambda data: _file(data, provider.name))
    )


def delete(model: Model, name: str) -> Operation[None]:
    """Delete the file ``name``."""
    provider, path = _provider(model), _name(name)

    def steps() -> Steps[None]:
        yield HttpRequest(path, method="DELETE")

    return provider.operation(steps)


def wait_until_active(
    model: Model, name: str, *, timeout: float = 300.0, interval: float = 2.0
) -> Operation[GoogleFile]:
    """Poll the file until its state is ``ACTIVE`` (a ``FAILED`` file is a ``ProviderResponseError``;
    still processing after ``timeout`` seconds, a ``DeadlineExceededError``)."""
    provider, path = _provider(model), _name(name)
    if not (
        isinstance(timeout, (int, float))
        and timeout > 0
        and isinstance(interval, (int, float))
        and interval > 0
    ):
        raise InvalidRequestError("timeout and interval must be positive numbers of seconds")

    def steps() -> Steps[GoogleFile]:
        deadline = time.monotonic() + timeout
        while True:
            answer = yield HttpRequest(path, method="GET")
            assert answer is not None
            current = _file(answer.data, provider.name)
            if current.state == "ACTIVE":
                return current
            if current.state == "FAILED":
                error = current.raw.get("error")
                detail = error.get("message") if isinstance(error, dict) else None
                raise ProviderResponseError(
                    f"file {current.name} failed to process" + (f": {detail}" if detail else ""),
                    provider=provider.name,
                )
            if time.monotonic() + interval > deadline:
                raise DeadlineExceededError(
                    f"file {current.name} is still {current.state or 'processing'} after {timeout:g} s",
                    provider=provider.name,
                )
            yield Wait(interval)

    return provider.operation(steps)
