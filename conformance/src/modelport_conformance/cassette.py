"""The cassette format: plain, reviewable YAML that vcrpy reads and writes through a serializer.

A cassette is vcrpy's ``{version, interactions: [{request, response}], metadata}``, with bodies
stored readably instead of as opaque strings::

    body: {json: {...}}                 # a JSON body, parsed
    body: {sse: [{data: {...}}, ...]}   # an event stream, one event per entry
    body: {string: "..."}               # anything else, as text

Only allow-listed headers are kept, their values redacted. Credential request headers
(``authorization``, ``x-api-key``, those a plugin declares such as ``x-goog-api-key``) are kept by
name with the value ``<credential>``, so replay can check the adapter still authenticates; cookies
and ``key=`` query parameters are never written (:func:`clean_request`, :func:`clean_response` run
before anything is written). :data:`serializer` is registered with vcrpy under the name ``"modelport"``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import yaml

from .cassette_shape import CassetteError, checked_interaction, kind_of
from .credentials import (
    CREDENTIAL_PLACEHOLDER,
    CREDENTIAL_QUERY_PARAMS,
    DROPPED_HEADERS,
    credential_headers,
    redact,
)
from .safe_yaml import YamlExpansionError, load_yaml

__all__ = [
    "PINNED_REQUEST_HEADERS",
    "REQUEST_HEADERS",
    "RESPONSE_HEADERS",
    "Cassette",
    "CassetteError",
    "Interaction",
    "YamlSerializer",
    "body_bytes",
    "clean_request",
    "clean_response",
    "clean_uri",
    "credential_header_names",
    "pinned_headers",
    "dump_cassette",
    "load_cassette",
    "parse_sse",
    "serializer",
    "store_body",
]

#: Request headers that select the API's version or beta features: a cassette keeps them, and replay
#: requires the adapter to send each one a recording holds with the same value (Anthropic's
#: ``anthropic-version`` pins the wire format the recording was made with).
PINNED_REQUEST_HEADERS = frozenset({"anthropic-version", "anthropic-beta"})
#: Request headers a cassette keeps with their value (credential headers are kept with a placeholder).
REQUEST_HEADERS = frozenset({"content-type", "accept"}) | PINNED_REQUEST_HEADERS
#: Response headers a cassette keeps: the ones a mapping depends on (errors read the request id and
#: the server's retry delay).
RESPONSE_HEADERS = frozenset({"content-type", "retry-after", "retry-after-ms", "x-request-id", "request-id"})


@dataclass
class Interaction:
    """One recorded exchange, in stored form (bodies as ``{json|sse|string: ...}``)."""

    request: dict[str, Any]
    response: dict[str, Any]

    @property
    def method(self) -> str:
        """The request method, upper case."""
        return str(self.request.get("method", "GET")).upper()

    @property
    def uri(self) -> str:
        """The request URI."""
        return str(self.request.get("uri", ""))

    @property
    def status(self) -> int:
        """The response status code."""
        return int(self.response.get("status", {}).get("code", 200))


@dataclass
class Cassette:
    """A list of interactions plus free-form metadata (attribution of converted recordings)."""

    interactions: list[Interaction] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------- bodies


def parse_sse(text: str) -> tuple[list[dict[str, Any]], str]:
    """Split an event-stream body into entries (``{data: ...}``, ``{event: ...}``, or ``{raw: ...}``).

    Returns the entries and the line ending used (``"\\n"`` or ``"\\r\\n"``). ``data`` holds parsed
    JSON when the payload is JSON; text that is not SSE at all (a bare JSON error) is kept as ``raw``.
    """
    newline = "\r\n" if "\r\n" in text else "\n"
    normalized = text.replace("\r\n", "\n")
    entries: list[dict[str, Any]] = []
    for block in normalized.split("\n\n"):
        block = block.strip("\n")
        if not block.strip():
            continue
        entry: dict[str, Any] = {}
        data_lines: list[str] = []
        other: list[str] = []
        for line in block.split("\n"):
            name, sep, value = line.partition(":")
            if sep and name in {"data", "event", "id", "retry"}:
                value = value[1:] if value.startswith(" ") else value
                if name == "data":
                    data_lines.append(value)
                else:
                    entry[name] = value
            elif line.startswith(":"):
                entry.setdefault("comments", []).append(line[1:].lstrip())
            else:
                other.append(line)
        if other and not data_lines and not entry:
            entries.append({"raw": "\n".join(other)})
            continue
        if data_lines:
            payload = "\n".join(data_lines)
            try:
                entry["data"] = json.loads(payload)
            except ValueError:
                entry["data"] = payload
        if other:
            entry["raw"] = "\n".join(other)
        entries.append(entry)
    return entries, newline


def _sse_text(entries: list[dict[str, Any]], newline: str) -> str:
    blocks: list[str] = []
    for entry in entries:
        lines = [f": {c}" for c in entry.get("comments", [])]
        lines += [f"{k}: {entry[k]}" for k in ("event", "id", "retry") if k in entry]
        if "data" in entry:
            data = entry["data"]
            payload = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
            lines += [f"data: {line}" for line in payload.split("\n")]
        if "raw" in entry:
            lines.append(entry["raw"])
        blocks.append(newline.join(lines) + newline + newline)
    return "".join(blocks)


def _media_type(headers: Mapping[str, Any]) -> str:
    for name, value in headers.items():
        if name.lower() == "content-type":
            first = value[0] if isinstance(value, list) and value else value
            return str(first or "").split(";")[0].strip().lower()
    return ""


#: Media types whose bodies are binary, stored as ``{"base64": ...}`` (AWS event streams).
BINARY_MEDIA_TYPES = frozenset({"application/vnd.amazon.eventstream"})


def store_body(raw: bytes | str | None, headers: Mapping[str, Any]) -> dict[str, Any] | None:
    """The stored (readable) form of a body given its headers."""
    if raw is None or raw == b"" or raw == "":
        return None
    media = _media_type(headers)
    if media in BINARY_MEDIA_TYPES and isinstance(raw, bytes):
        import base64

        return {"base64": base64.b64encode(raw).decode("ascii")}
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if media == "text/event-stream":
        entries, newline = parse_sse(text)
        if entries and not all(set(e) == {"raw"} for e in entries):
            stored: dict[str, Any] = {"sse": entries}
            if newline != "\n":
                stored["newline"] = newline
            return stored
    if media.endswith("json") or media == "text/event-stream" or not media:
        try:
            return {"json": json.loads(text)}
        except ValueError:
            pass
    return {"string": text}


def body_bytes(stored: Any) -> bytes:
    """The bytes of a stored body (the inverse of :func:`store_body`, up to JSON formatting)."""
    if stored is None:
        return b""
    if isinstance(stored, (bytes, str)):
        return stored.encode("utf-8") if isinstance(stored, str) else stored
    if "json" in stored:
        return json.dumps(stored["json"], ensure_ascii=False).encode("utf-8")
    if "sse" in stored:
        return _sse_text(stored["sse"], stored.get("newline", "\n")).encode("utf-8")
    if "base64" in stored:
        import base64

        return base64.b64decode(stored["base64"], validate=True)
    value = stored.get("string", "")
    return value.encode("utf-8") if isinstance(value, str) else bytes(value or b"")


# --------------------------------------------------------------------------- cleaning


def clean_uri(uri: str) -> str:
    """``uri`` without credential query parameters (``key=…``)."""
    parts = urlsplit(uri)
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if k.lower() not in CREDENTIAL_QUERY_PARAMS
    ]
    return urlunsplit(parts._replace(query=urlencode(query)))


def _keep_headers(
    headers: Mapping[str, Any], allowed: frozenset[str], *, credentials: bool = False
) -> dict[str, list[str]]:
    """Allow-listed headers (values redacted); with ``credentials``, credential headers by name.

    A header whose value already is the placeholder (a recorder marked it) is kept as such.
    """
    kept: dict[str, list[str]] = {}
    secret = credential_headers()
    for name, value in headers.items():
        lower = name.lower()
        values = [str(v) for v in (value if isinstance(value, list) else [value])]
        if lower in DROPPED_HEADERS:
            continue
        if credentials and (lower in secret or values == [CREDENTIAL_PLACEHOLDER]):
            kept[lower] = [CREDENTIAL_PLACEHOLDER]
        elif lower in allowed and lower not in secret:
            kept[lower] = [redact(v) for v in values]
    return kept


def credential_header_names(request: Mapping[str, Any]) -> list[str]:
    """The headers a stored request holds as ``<credential>``: what replay requires the adapter to send."""
    headers = request.get("headers") or {}
    return sorted(name.lower() for name, values in headers.items() if values == [CREDENTIAL_PLACEHOLDER])


def pinned_headers(request: Mapping[str, Any]) -> dict[str, str]:
    """The :data:`PINNED_REQUEST_HEADERS` a stored request holds, with their values: what replay
    requires the adapter to send as recorded."""
    headers = request.get("headers") or {}
    return {
        name.lower(): ", ".join(values if isinstance(values, list) else [values])
        for name, values in headers.items()
        if name.lower() in PINNED_REQUEST_HEADERS
    }


def clean_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """A request dict (vcrpy or stored form): allow-listed headers, credential headers by name only."""
    headers = _keep_headers(request.get("headers") or {}, REQUEST_HEADERS, credentials=True)
    body = request.get("body")
    if not isinstance(body, dict):
        body = store_body(body, request.get("headers") or {"content-type": "application/json"})
    return {
        "method": str(request.get("method", "GET")).upper(),
        "uri": clean_uri(str(request.get("uri", ""))),
        "headers": headers,
        "body": _redact_stored(body),
    }


def clean_response(response: Mapping[str, Any]) -> dict[str, Any]:
    """A response dict with only allow-listed headers and a readable, redacted body."""
    raw_headers = response.get("headers") or {}
    headers = _keep_headers(raw_headers, RESPONSE_HEADERS)
    body = response.get("body")
    if isinstance(body, dict) and "string" in body and len(body) == 1:
        body = store_body(body["string"], raw_headers)
    elif not isinstance(body, dict):
        body = store_body(body, raw_headers)
    status = response.get("status") or {"code": 200, "message": "OK"}
    return {"status": dict(status), "headers": headers, "body": _redact_stored(body)}


def _redact_stored(body: dict[str, Any] | None) -> dict[str, Any] | None:
    if body is None:
        return None
    text = json.dumps(body, ensure_ascii=False)
    cleaned = redact(text)
    return body if cleaned == text else dict(json.loads(cleaned))


# --------------------------------------------------------------------------- YAML and vcrpy


class _Dumper(yaml.SafeDumper):
    """Block style for multi-line strings, so bodies read naturally in review."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value and "\r" not in value and not value.endswith(" ") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_representer)


def dump_cassette(cassette: Cassette) -> str:
    """The YAML text of a cassette."""
    data: dict[str, Any] = {"version": 1}
    if cassette.metadata:
        data["metadata"] = cassette.metadata
    data["interactions"] = [{"request": i.request, "response": i.response} for i in cassette.interactions]
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def load_cassette(text: str, name: str = "the cassette") -> Cassette:
    """Parse cassette YAML (our stored form), its alias expansion bounded and each interaction's
    shape checked: a :class:`CassetteError` naming ``name`` (and the interaction) otherwise."""
    try:
        data = load_yaml(text, name) or {}
    except YamlExpansionError as error:
        raise CassetteError(name, error.problem) from None
    if not isinstance(data, dict) or not isinstance(data.get("interactions", []), list):
        raise CassetteError(name, "a cassette is a mapping with an 'interactions' list")
    metadata = data.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise CassetteError(name, f"'metadata' must be a mapping, not {kind_of(metadata)}")
    interactions = [
        Interaction(*checked_interaction(item, name, n))
        for n, item in enumerate(data.get("interactions") or [], 1)
    ]
    return Cassette(interactions=interactions, metadata=dict(metadata))


class YamlSerializer:
    """A vcrpy serializer: ``vcr.register_serializer("modelport", serializer)``.

    ``serialize`` receives vcrpy's dict (string bodies) and writes our cleaned, readable form;
    ``deserialize`` turns it back into the string bodies vcrpy plays.
    """

    @staticmethod
    def serialize(cassette_dict: Mapping[str, Any]) -> str:
        """vcrpy dict → cassette YAML."""
        interactions = [
            Interaction(request=clean_request(item["request"]), response=clean_response(item["response"]))
            for item in cassette_dict.get("interactions", [])
        ]
        return dump_cassette(Cassette(interactions, dict(cassette_dict.get("metadata") or {})))

    @staticmethod
    def deserialize(cassette_string: str) -> dict[str, Any]:
        """Cassette YAML → vcrpy dict."""
        cassette = load_cassette(cassette_string)
        interactions = []
        for item in cassette.interactions:
            request = dict(item.request)
            request["body"] = body_bytes(request.get("body")).decode("utf-8") or None
            request["headers"] = dict(request.get("headers") or {})
            response = dict(item.response)
            response["body"] = {"string": body_bytes(response.get("body")).decode("utf-8")}
            response["headers"] = dict(response.get("headers") or {})
            interactions.append({"request": request, "response": response})
        data: dict[str, Any] = {"version": 1, "interactions": interactions}
        if cassette.metadata:
            data["metadata"] = cassette.metadata
        return data


#: The serializer instance registered with vcrpy.
serializer = YamlSerializer()
