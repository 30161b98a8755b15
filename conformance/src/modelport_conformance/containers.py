"""Recorded HTTP traffic in the common containers, read into one shape: :class:`Exchange`.

:func:`read_recording` reads a file (at most ``limit`` bytes) in one of :data:`CONTAINERS`:

- ``vcrpy``: Python vcrpy YAML, ``interactions[].request/response``; bodies as ``body`` strings,
  ``body.string`` (text, or ``!!binary`` bytes, gzip included) or pydantic-ai's ``parsed_body``;
- ``ruby-vcr``: Ruby VCR YAML, ``http_interactions[].request/response``, bodies in
  ``body.string`` (or ``body.base64_string``), Ruby's ``!binary`` tag read as base64;
- ``har``: HAR 1.2 JSON, ``log.entries[].request/response``, ``postData.text`` and
  ``content.text`` (``encoding: base64`` included), headers as ``{name, value}`` lists;
- ``go-vcr``: go-vcr YAML, v1 and v2 (``interactions[].request/response`` with ``url``, ``body``
  strings and the status as ``code``);
- ``sse`` and ``json``: one raw response body (an event stream, a JSON body); the request is what
  the caller says (:func:`raw_exchange`).

``auto`` sniffs the container from the text. Nothing is scrubbed here: that is the importer's job
(:mod:`modelport_conformance.importing`), before anything is written.
"""

from __future__ import annotations

import base64
import binascii
import http
import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .cases import MAX_CASE_FILE_BYTES
from .safe_yaml import LOADER, load_yaml

__all__ = [
    "CONTAINERS",
    "ContainerError",
    "Exchange",
    "Recording",
    "parse_recording",
    "raw_exchange",
    "read_recording",
    "read_text",
    "sniff",
]

#: The containers :func:`read_recording` reads (``auto``: sniffed from the text).
CONTAINERS = ("auto", "vcrpy", "ruby-vcr", "har", "go-vcr", "sse", "json")
Headers = dict[str, list[str]]


class ContainerError(ValueError):
    """A recording that cannot be read: one line naming the file and what is wrong."""


@dataclass
class Exchange:
    """One recorded request and its response, bodies as text (decompressed, decoded)."""

    method: str
    uri: str
    request_headers: Headers
    request_body: str | None
    status: int
    response_headers: Headers
    response_body: str
    reason: str = ""

    def header(self, name: str, *, response: bool = True) -> str:
        """The first value of a header (``""`` when absent), looked up without regard to case."""
        headers = self.response_headers if response else self.request_headers
        for key, values in headers.items():
            if key.lower() == name.lower() and values:
                return values[0]
        return ""


@dataclass
class Recording:
    """What a file held: its container and its exchanges, in recorded order."""

    container: str
    exchanges: list[Exchange] = field(default_factory=list)


# --------------------------------------------------------------------------- bodies and headers


def _gunzip(data: bytes) -> bytes:
    """A gzip body inflated to at most :data:`MAX_CASE_FILE_BYTES` (a larger one is refused: the
    file's own bound says nothing of what its compressed bodies expand to)."""
    inflater = zlib.decompressobj(wbits=31)
    try:
        out = inflater.decompress(data, MAX_CASE_FILE_BYTES + 1)
    except zlib.error as error:
        raise ContainerError(f"a gzip body does not inflate ({error})") from None
    if len(out) > MAX_CASE_FILE_BYTES:
        raise ContainerError(
            f"a gzip body inflates past {MAX_CASE_FILE_BYTES} bytes, the bound of an imported file"
        )
    return out


def _text(value: Any) -> str:
    """A body as text: bytes decompressed when gzip, decoded as UTF-8 (``replace`` for stray bytes)."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        if value[:2] == b"\x1f\x8b":
            value = _gunzip(value)
        text: str = value.decode("utf-8", "replace")
        return text
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _headers(raw: Any) -> Headers:
    """``{name: value | [values]}`` or a HAR ``[{name, value}]`` list, as ``{name: [values]}``."""
    if isinstance(raw, list):
        found: Headers = {}
        for item in raw:
            if isinstance(item, dict) and "name" in item:
                found.setdefault(str(item["name"]), []).append(str(item.get("value", "")))
        return found
    if not isinstance(raw, dict):
        return {}
    return {
        str(k): [_text(v) for v in (vs if isinstance(vs, list) else [vs])]
        for k, vs in raw.items()
        if vs is not None
    }


def _vcr_body(holder: dict[str, Any]) -> str:
    """A vcrpy or Ruby VCR body: ``parsed_body``, ``body: {string | base64_string}`` or ``body``."""
    if "parsed_body" in holder:
        return _text(holder["parsed_body"])
    body = holder.get("body")
    if isinstance(body, dict):
        if "base64_string" in body:
            return _text(base64.b64decode(str(body["base64_string"])))
        return _text(body.get("string"))
    return _text(body)


def _status(raw: Any) -> tuple[int, str]:
    if isinstance(raw, dict):
        return int(raw.get("code", 200)), str(raw.get("message") or "")
    code, _, reason = str(raw or "200").partition(" ")
    return int(code), reason


# --------------------------------------------------------------------------- the containers


def _vcr(data: dict[str, Any], key: str) -> list[Exchange]:
    exchanges = []
    for item in data.get(key) or []:
        request, response = item["request"], item["response"]
        status, reason = _status(response.get("status"))
        exchanges.append(
            Exchange(
                method=str(request.get("method", "GET")).upper(),
                uri=str(request["uri"]),
                request_headers=_headers(request.get("headers")),
                request_body=_vcr_body(request) or None,
                status=status,
                reason=reason,
                response_headers=_headers(response.get("headers")),
                response_body=_vcr_body(response),
            )
        )
    return exchanges


def _go_vcr(data: dict[str, Any]) -> list[Exchange]:
    exchanges = []
    for item in data.get("interactions") or []:
        request, response = item["request"], item["response"]
        code, reason = _status(response.get("status"))
        exchanges.append(
            Exchange(
                method=str(request.get("method", "GET")).upper(),
                uri=str(request["url"]),
                request_headers=_headers(request.get("headers")),
                request_body=_text(request.get("body")) or None,
                status=int(response.get("code") or code),
                reason=reason,
                response_headers=_headers(response.get("headers")),
                response_body=_text(response.get("body")),
            )
        )
    return exchanges


def _har(data: dict[str, Any]) -> list[Exchange]:
    exchanges = []
    for entry in data["log"].get("entries") or []:
        request, response = entry["request"], entry["response"]
        content = response.get("content") or {}
        text = content.get("text") or ""
        body = base64.b64decode(text) if content.get("encoding") == "base64" else text
        exchanges.append(
            Exchange(
                method=str(request.get("method", "GET")).upper(),
                uri=str(request["url"]),
                request_headers=_headers(request.get("headers")),
                request_body=(request.get("postData") or {}).get("text") or None,
                status=int(response.get("status", 200)),
                reason=str(response.get("statusText") or ""),
                response_headers=_headers(response.get("headers")),
                response_body=_text(body),
            )
        )
    return exchanges


class _RubyLoader(LOADER):  # type: ignore[misc,valid-type]
    """The safe loader plus Ruby's ``!binary`` (base64 bytes)."""


def _ruby_binary(loader: Any, node: yaml.Node) -> bytes:
    return base64.b64decode(loader.construct_scalar(node))


_RubyLoader.add_constructor("!binary", _ruby_binary)


def _requests_have_url(data: dict[str, Any]) -> bool:
    """Whether a cassette's requests name their URL ``url`` (go-vcr), not ``uri`` (vcrpy)."""
    items = data.get("interactions")
    first = items[0] if isinstance(items, list) and items and isinstance(items[0], dict) else {}
    request = first.get("request")
    return isinstance(request, dict) and "url" in request and "uri" not in request


def sniff(text: str, name: str = "") -> str:
    """The container of ``text`` (a file named ``name``): see :data:`CONTAINERS`."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("log"), dict) and "entries" in data["log"]:
            return "har"
        if data is not None:
            return "json"
    if any(line.startswith(("data:", "event:")) for line in text.splitlines()[:50]):
        return "sse"
    if "http_interactions:" in text:
        return "ruby-vcr"
    if "interactions:" in text:
        return "vcrpy"  # or go-vcr: told apart by the request's keys once parsed (see parse_recording)
    raise ContainerError(f"{name or 'the recording'}: not a known container ({', '.join(CONTAINERS[1:])})")


def parse_recording(text: str, container: str = "auto", name: str = "the recording") -> Recording:
    """The exchanges of ``text`` in ``container`` (``sse``/``json``: none; see :func:`raw_exchange`)."""
    if container not in CONTAINERS:
        raise ContainerError(f"unknown container {container!r}: one of {', '.join(CONTAINERS)}")
    kind = sniff(text, name) if container == "auto" else container
    if kind in {"sse", "json"}:
        return Recording(kind)
    try:
        if kind == "har":
            data = json.loads(text)
        else:
            data = load_yaml(text, name, loader=_RubyLoader if kind == "ruby-vcr" else None)
        if not isinstance(data, dict):
            raise TypeError(f"a {kind} recording is a mapping")
        if container == "auto" and kind == "vcrpy" and _requests_have_url(data):
            kind = "go-vcr"
        if kind == "har":
            exchanges = _har(data)
        elif kind == "go-vcr":
            exchanges = _go_vcr(data)
        else:
            exchanges = _vcr(data, "http_interactions" if kind == "ruby-vcr" else "interactions")
    except (
        ValueError,
        TypeError,
        KeyError,
        AttributeError,
        yaml.YAMLError,
        binascii.Error,
        OSError,
    ) as error:
        problem = " ".join(str(error).split())[:200] or type(error).__name__
        raise ContainerError(f"{name}: not a {kind} recording: {problem}") from None
    if not exchanges:
        raise ContainerError(f"{name}: the {kind} recording holds no interaction")
    return Recording(kind, exchanges)


def read_text(path: Path, limit: int = MAX_CASE_FILE_BYTES) -> str:
    """The text of ``path``, read at most ``limit`` bytes far (a larger file is refused unread)."""
    try:
        with path.open("rb") as stream:
            data = stream.read(limit + 1)
    except OSError as error:
        raise ContainerError(f"{path}: cannot be read: {error.strerror or error}") from None
    if len(data) > limit:
        raise ContainerError(f"{path}: larger than {limit} bytes, the bound of an imported file; not read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ContainerError(f"{path}: not UTF-8 text") from None


def read_recording(path: Path, container: str = "auto", *, limit: int = MAX_CASE_FILE_BYTES) -> Recording:
    """The recording in the file at ``path`` (see :func:`parse_recording`)."""
    return parse_recording(read_text(path, limit), container, path.name)


def raw_exchange(
    body: str,
    container: str,
    *,
    url: str = "",
    method: str = "POST",
    request_body: str | None = None,
    status: int = 200,
) -> Exchange:
    """A raw response body (``sse`` or ``json``) with the request given by the caller (the reason
    phrase: the standard one of ``status``)."""
    media = "text/event-stream" if container == "sse" else "application/json"
    return Exchange(
        method=method.upper(),
        uri=url,
        request_headers={"content-type": ["application/json"]} if request_body else {},
        request_body=request_body,
        status=status,
        reason=next((known.phrase for known in http.HTTPStatus if known == status), ""),
        response_headers={"content-type": [media]},
        response_body=body,
    )
