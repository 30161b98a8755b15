"""What the recorder does to every exchange before anything is written (vcrpy record hooks).

A :class:`Scrubber` knows the credentials of one recording *by value*: the key it was given, plus
every value it sees in a credential header (``authorization: Bearer …``, ``x-api-key``, …) or a
credential query parameter (``key=…``), and every credential a request body carries for a remote MCP
server (a Responses ``mcp`` tool's ``headers`` and ``authorization``, an Anthropic ``mcp_servers``
entry's ``authorization_token``). For each request and response it:

- keeps credential request headers by name with the value ``<credential>`` (a header whose value
  holds a known credential counts as one, whatever its name), drops cookies;
- removes ``key=``-style query parameters and rewrites a recording ``base_url`` prefix of the URL
  into the provider's ``default_base_url``, so the cassette replays without that ``base_url``;
- replaces every known credential, in every encoded form and behind any mix of JSON escapes
  (:mod:`modelport.secrets`), in the URL, header values, bodies and status messages, then every
  credential pattern (built-in and the suite's ``secret_patterns``), with ``REDACTED``.

:meth:`Scrubber.findings` is the last gate: the scan of the finished cassette text, plus any known
credential still present in any form. The recorder refuses to write a cassette with a finding.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import yaml

from .cassette import clean_uri
from .credentials import (
    CREDENTIAL_PLACEHOLDER,
    CREDENTIAL_QUERY_PARAMS,
    DROPPED_HEADERS,
    KNOWN_CREDENTIAL,
    Finding,
    credential_headers,
    header_secrets,
    redact,
    remove_values,
    scan_text,
)

__all__ = ["Scrubber", "rewrite_base_url"]


def rewrite_base_url(uri: str, base_url: str, default_base_url: str) -> str:
    """``uri`` with a leading ``base_url`` replaced by ``default_base_url`` (whole path segments only)."""
    base, default = base_url.rstrip("/"), default_base_url.rstrip("/")
    if uri == base or uri.startswith((base + "/", base + "?")):
        return default + uri[len(base) :]
    return uri


class Scrubber:
    """The credential and URL filters of one recording (see the module docstring)."""

    def __init__(
        self,
        secrets: Iterable[str] = (),
        *,
        patterns: Mapping[str, str] | None = None,
        base_url: str | None = None,
        default_base_url: str | None = None,
    ) -> None:
        self.secrets: set[str] = set()
        for secret in secrets:
            self.learn(secret)
        self.patterns = dict(patterns or {})
        self.base_url = base_url
        self.default_base_url = default_base_url

    def learn(self, value: str) -> None:
        """Treat ``value`` (a header value such as ``Bearer <key>``, or a key) as a credential."""
        self.secrets.update(header_secrets(value))

    def holds_secret(self, text: str) -> bool:
        """Whether ``text`` contains a known credential in any form."""
        return bool(self.secrets) and any(
            f.kind == KNOWN_CREDENTIAL for f in scan_text(text, secrets=self.secrets)
        )

    def text(self, text: str) -> str:
        """``text`` with every known credential and every credential pattern replaced."""
        return redact(remove_values(text, self.secrets), self.patterns)

    def uri(self, uri: str) -> str:
        """The URI as stored: base URL rewritten, credential parameters gone, credentials replaced."""
        for name, value in parse_qsl(urlsplit(uri).query, keep_blank_values=True):
            if name.lower() in CREDENTIAL_QUERY_PARAMS:
                self.learn(value)
        if self.base_url and self.default_base_url:
            uri = rewrite_base_url(uri, self.base_url, self.default_base_url)
        return self.text(clean_uri(uri))

    def _body(self, body: Any) -> Any:
        if isinstance(body, bytes):
            try:
                return self.text(body.decode("utf-8")).encode("utf-8")
            except UnicodeDecodeError:
                return body
        return self.text(body) if isinstance(body, str) else body

    # vcrpy hooks ---------------------------------------------------------------------------

    def request(self, request: Any) -> Any:
        """``before_record_request``: learn the credentials it carries, then remove them."""
        credentials = credential_headers()
        for name in list(request.headers):
            if name.lower() in credentials:
                self.learn(str(request.headers[name]))
        for name in list(request.headers):
            value = str(request.headers[name])
            if name.lower() in DROPPED_HEADERS:
                del request.headers[name]
            elif name.lower() in credentials or self.holds_secret(value):
                request.headers[name] = CREDENTIAL_PLACEHOLDER
            else:
                request.headers[name] = self.text(value)
        request.uri = self.uri(request.uri)
        self._learn_body(request.body)
        request.body = self._body(request.body)
        return request

    def _learn_body(self, body: Any) -> None:
        """Learn the credentials a request body holds for the remote MCP servers it names."""
        try:
            data = json.loads(body) if isinstance(body, (str, bytes)) and body else None
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        servers = [*(data.get("tools") or []), *(data.get("mcp_servers") or [])]
        for server in (s for s in servers if isinstance(s, dict)):
            headers = server.get("headers")
            values = list(headers.values()) if isinstance(headers, dict) else []
            values += [server.get("authorization"), server.get("authorization_token")]
            for value in values:
                if isinstance(value, str) and value:
                    self.learn(value)

    def response(self, response: dict[str, Any]) -> dict[str, Any]:
        """``before_record_response``: known credentials and credential patterns removed everywhere."""
        headers = response.get("headers") or {}
        response["headers"] = {
            name: [self.text(str(v)) for v in (values if isinstance(values, list) else [values])]
            for name, values in headers.items()
            if name.lower() not in DROPPED_HEADERS
        }
        status = response.get("status")
        if isinstance(status, dict) and isinstance(status.get("message"), str):
            status["message"] = self.text(status["message"])
        body = response.get("body")
        if isinstance(body, dict) and "string" in body:
            body["string"] = self._body(body["string"])
        return response

    # The last gate -------------------------------------------------------------------------

    def findings(self, text: str) -> list[Finding]:
        """Secrets left in a finished cassette's ``text``: pattern findings and known credentials.

        Also scans the parsed cassette as one JSON line, so a value YAML folded over two lines is
        still found.
        """
        found = scan_text(text, self.patterns, self.secrets)
        if not found:
            flat = json.dumps(yaml.safe_load(text), ensure_ascii=False, default=str)
            found = [Finding(f.kind, 0, f.masked) for f in scan_text(flat, self.patterns, self.secrets)]
        return found
