"""Cases from recorded traffic: ``modelport conformance import`` and the function behind it.

:func:`import_cases` turns each :class:`~modelport_conformance.containers.Exchange` of a recording
into one case of a provider: ``case.yaml`` (the canonical request, the model, the method and the
``source`` of the recording), ``cassette.yaml`` and ``expected.proposed.json``, the plugin's own
decode of the recorded answer, proposed for review exactly as ``--regenerate`` proposes
(:mod:`modelport_conformance.goldens`): read it, then ``modelport conformance --accept``.

Credentials are scrubbed as the recorder scrubs them (:class:`~modelport_conformance.scrub.Scrubber`):
the values of the recording's credential headers and ``key=``-style query parameters are learnt and
removed in every encoded form from everything written; credential headers are kept by name as
``<credential>``; every credential pattern is replaced; the finished files are scanned, and a case
whose scan still finds a secret is not written.

The request stored in the cassette is, by default (``request_body="built"``), the one the plugin
builds for the canonical request, as the recorder stores it: another client's request (its headers,
its extra fields) rarely equals any plugin's byte for byte. ``"recorded"`` keeps the recorded request
(scrubbed), and the ``request`` check then tells whether the plugin sends what that client sent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import yaml

import modelport
from modelport import plugins

from .cases import CASE_FILE, CASSETTE_FILE, EXPECTED_FILE, Case, Suite, discover_suites
from .cassette import Cassette, Interaction, clean_request, clean_response, dump_cassette, store_body
from .containers import ContainerError, Exchange
from .credentials import credential_headers
from .goldens import PROPOSED_FILE, accept_case, proposal_of, review_lines
from .replay import Execution, call_case, default_base_url, model_options, replay_settings
from .runner import CaseOutcome, run_case
from .scrub import Scrubber

__all__ = [
    "REQUEST_BODIES",
    "CaseImportError",
    "ImportedCase",
    "derive_request",
    "import_cases",
    "stored_interaction",
]

#: What the cassette's request holds: the plugin's own request, or the recorded one.
REQUEST_BODIES = ("built", "recorded")
_WRITTEN = (CASE_FILE, CASSETTE_FILE, EXPECTED_FILE, PROPOSED_FILE)


class CaseImportError(ValueError):
    """An import that cannot go on: one line, holding no credential."""


@dataclass
class ImportedCase:
    """A case written by :func:`import_cases`: where, and how its first run went."""

    name: str
    location: Path
    outcome: CaseOutcome
    review: list[str] = field(default_factory=list)


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(
    str,
    lambda d, v: d.represent_scalar(
        "tag:yaml.org,2002:str", v, style="|" if "\n" in v and "\r" not in v else None
    ),
)


# --------------------------------------------------------------------------- the canonical request


def _text_of(content: Any) -> str | None:
    """A message's content as one text (a string, or a list of text blocks), else ``None``."""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(p, dict) and set(p) <= {"type", "text"} for p in content):
        texts = [p.get("text") for p in content]
        return "".join(t for t in texts if isinstance(t, str)) if texts else None
    return None


def _gemini_text(content: Any) -> str | None:
    parts = content.get("parts") if isinstance(content, dict) else None
    if isinstance(parts, list) and parts and all(isinstance(p, dict) and set(p) == {"text"} for p in parts):
        return "".join(str(p["text"]) for p in parts)
    return None


#: The request fields :func:`derive_request` reads or may leave out (a body with any other field, tools
#: or a response format, is one it cannot say in canonical keywords).
_DERIVABLE = frozenset(
    {"model", "messages", "system", "instructions", "input", "contents", "systemInstruction"}
    | {"system_instruction", "generationConfig", "max_tokens", "max_completion_tokens"}
    | {"max_output_tokens", "maxOutputTokens", "temperature", "top_p", "topP", "stream", "stream_options"}
    | {"encoding_format"}
)


def derive_request(body: Any, uri: str = "") -> dict[str, Any] | None:
    """The canonical request keywords of a recorded request body in a common chat shape (OpenAI
    Chat Completions and Responses, Anthropic Messages, Gemini ``contents``, an embeddings
    ``input``), when it is a single prompt with at most a system text and sampling settings; else
    ``None`` (say the request yourself)."""
    if not isinstance(body, dict) or not set(body) <= _DERIVABLE:
        return None
    if not set(body.get("generationConfig") or {}) <= _DERIVABLE:
        return None
    request: dict[str, Any] = {}
    if uri.rstrip("/").endswith("/embeddings") and isinstance(body.get("input"), (str, list)):
        values = body["input"]
        return {"values": values if isinstance(values, list) else [values]}
    messages, system = body.get("messages"), _text_of(body.get("system") or body.get("instructions"))
    if messages is None and isinstance(body.get("input"), (str, list)):
        messages = (
            body["input"] if isinstance(body["input"], list) else [{"role": "user", "content": body["input"]}]
        )
    if messages is None and isinstance(body.get("contents"), list):
        messages = [{"role": "user", "content": _gemini_text(c)} for c in body["contents"]]
        system = _gemini_text(body.get("systemInstruction") or body.get("system_instruction")) or system
    if not isinstance(messages, list):
        return None
    users = []
    for message in messages:
        text = _text_of(message.get("content")) if isinstance(message, dict) else None
        role = message.get("role") if isinstance(message, dict) else None
        if text is None or role not in {"user", "system", "developer"}:
            return None
        if role == "user":
            users.append(text)
        else:
            system = text
    if len(users) != 1:
        return None
    if system:
        request["system"] = system
    request["prompt"] = users[0]
    settings = {**body, **(body.get("generationConfig") or {})}
    for key in ("max_tokens", "max_completion_tokens", "max_output_tokens", "maxOutputTokens"):
        if isinstance(settings.get(key), int):
            request["max_output_tokens"] = settings[key]
    for key, name in (("temperature", "temperature"), ("top_p", "top_p"), ("topP", "top_p")):
        if isinstance(settings.get(key), (int, float)) and not isinstance(settings.get(key), bool):
            request[name] = settings[key]
    return request


def _model_of(body: Any, uri: str) -> str | None:
    if isinstance(body, dict) and isinstance(body.get("model"), str):
        return str(body["model"])
    found = re.search(r"/models/([^/:?]+)", uri)
    return found.group(1) if found else None


# --------------------------------------------------------------------------- scrubbing


def _scrubber(
    exchange: Exchange, patterns: Mapping[str, str], base_url: str | None, default: str | None
) -> Scrubber:
    """A scrubber that knows the recording's credentials by value (headers and query parameters) and
    rewrites ``base_url`` into the provider's ``default`` base URL, as the recorder does."""
    scrubber = Scrubber(patterns=patterns, base_url=base_url, default_base_url=default)
    secret = credential_headers()
    for name, values in exchange.request_headers.items():
        if name.lower() in secret:
            for value in values:
                scrubber.learn(value)
    scrubber.uri(exchange.uri)  # learns CREDENTIAL_QUERY_PARAMS values
    return scrubber


def _recorded_request(exchange: Exchange, scrubber: Scrubber) -> dict[str, Any]:
    headers = {k: ", ".join(v) for k, v in exchange.request_headers.items()}
    shaped = SimpleNamespace(headers=headers, uri=exchange.uri, body=exchange.request_body)
    scrubber.request(shaped)
    media = {k: v for k, v in shaped.headers.items() if k.lower() == "content-type"} or {
        "content-type": "application/json"
    }
    body = store_body(shaped.body, media)
    return clean_request(
        {"method": exchange.method, "uri": shaped.uri, "headers": shaped.headers, "body": body}
    )


def _recorded_response(exchange: Exchange, scrubber: Scrubber) -> dict[str, Any]:
    response = {
        "status": {"code": exchange.status, "message": exchange.reason or ""},
        "headers": {k: list(v) for k, v in exchange.response_headers.items()},
        "body": {"string": exchange.response_body},
    }
    return clean_response(scrubber.response(response))


def _built_request(suite: Suite, case: Case, response: dict[str, Any]) -> dict[str, Any]:
    """The request the plugin sends for ``case`` (answered with the recorded ``response``)."""
    from .cassette import body_bytes

    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        headers = [(k, v) for k, vs in (response.get("headers") or {}).items() for v in vs]
        return httpx.Response(
            response["status"]["code"], headers=headers, content=body_bytes(response.get("body"))
        )

    options = model_options(suite, case, replay_settings(suite.provider_id))
    run = Execution(output={}, player=None)  # type: ignore[arg-type]
    try:
        model = modelport.get_model(
            f"{suite.provider_id}/{case.model}", **options, transport=httpx.MockTransport(answer)
        )
        try:
            call_case(model, case, run)
        finally:
            model.close()
    except modelport.ModelportError:
        pass  # an error answer is recorded like any other; the request was sent
    except Exception as error:  # a request the plugin cannot build, a crash
        if not sent:
            raise CaseImportError(
                f"{suite.provider_id} could not make the request: {type(error).__name__}"
            ) from None
    if len(sent) != 1:
        raise CaseImportError(
            f"the case's call made {len(sent)} requests; an imported case holds one exchange"
        )
    request = sent[0]
    content = request.read()
    return clean_request(
        {
            "method": request.method,
            "uri": str(request.url),
            "headers": dict(request.headers),
            "body": store_body(content, {"content-type": request.headers.get("content-type", "")}),
        }
    )


def stored_interaction(
    exchange: Exchange, scrubber: Scrubber, suite: Suite | None = None, case: Case | None = None
) -> Interaction:
    """The exchange as a cassette stores it, scrubbed: the recorded request, or (given ``suite`` and
    ``case``) the one the plugin builds for the case."""
    response = _recorded_response(exchange, scrubber)
    if suite is not None and case is not None:
        return Interaction(_built_request(suite, case, response), response)
    return Interaction(_recorded_request(exchange, scrubber), response)


# --------------------------------------------------------------------------- writing cases


def _suite(provider_id: str) -> Suite:
    try:
        plugins.provider_class(provider_id)
    except modelport.ModelportError:
        raise CaseImportError(
            f"no provider {provider_id!r} is installed (see: modelport providers)"
        ) from None
    found, _ = discover_suites([provider_id])
    return found.get(provider_id) or Suite(provider_id)


def _is_stream(exchange: Exchange) -> bool:
    media = exchange.header("content-type").split(";")[0].strip().lower()
    return media == "text/event-stream" or exchange.response_body.lstrip().startswith(("data:", "event:"))


def _spec(
    exchange: Exchange,
    index: int,
    *,
    request: Mapping[str, Any] | None,
    model: str | None,
    method: str | None,
    features: Sequence[str] = (),
) -> dict[str, Any]:
    try:
        body = json.loads(exchange.request_body) if exchange.request_body else None
    except ValueError:
        body = None
    keywords = dict(request) if request is not None else derive_request(body, exchange.uri)
    if keywords is None:
        raise CaseImportError(
            f"interaction {index}: the canonical request cannot be read from the recorded body;"
            " give it with --request"
        )
    name = model or _model_of(body, exchange.uri)
    if not name:
        raise CaseImportError(f"interaction {index}: no model in the recorded request; give it with --model")
    chosen = method or ("embed" if "values" in keywords else "stream" if _is_stream(exchange) else "generate")
    extra = {"features": list(features)} if features else {}
    return {"method": chosen, "model": name, **extra, "request": keywords}


def _check_target(directory: Path, force: bool) -> None:
    if directory.exists() and not force and any((directory / f).exists() for f in _WRITTEN):
        raise CaseImportError(
            f"case {directory.name!r} exists already in {directory.parent} (--force overwrites it)"
        )


def import_cases(
    provider_id: str,
    exchanges: Sequence[Exchange],
    into: Path,
    name: str,
    *,
    source: Mapping[str, Any],
    requests: Sequence[Mapping[str, Any]] = (),
    model: str | None = None,
    method: str | None = None,
    request_body: str = "built",
    force: bool = False,
    description: str = "",
    base_url: str | None = None,
    features: Sequence[str] = (),
    accept: bool = False,
    interactions: Sequence[int] = (),
) -> list[ImportedCase]:
    """Write one case per exchange under ``into`` (``name``, or ``name-1``, ``name-2``... for several)
    and propose each one's ``expected.json``; see the module docstring.

    ``requests``: the canonical request of each exchange (one for all, or one each; none: read
    from each recorded body by :func:`derive_request`). ``source``: the attribution recorded in
    ``case.yaml`` and the cassette (``repo``, ``commit``, ``path``, ``license``...). ``base_url``:
    where the recording was sent (a proxy, a gateway), rewritten in a recorded request's URL into
    the provider's ``default_base_url`` as the recorder rewrites ``MODELPORT_RECORD_BASE_URL``.
    ``description`` and ``features`` go into ``case.yaml``; ``accept`` makes each proposal the
    case's ``expected.json`` at once (a scripted import whose review is the diff). ``interactions``:
    the numbers of ``exchanges`` in their file (those picked from it), kept in each ``source``.
    """
    if request_body not in REQUEST_BODIES:
        raise CaseImportError(
            f"request_body must be one of {', '.join(REQUEST_BODIES)}, got {request_body!r}"
        )
    if len(requests) not in (0, 1, len(exchanges)):
        raise CaseImportError(
            f"{len(requests)} requests given for {len(exchanges)} interactions (give one, or one each)"
        )
    if not exchanges:
        raise ContainerError("the recording holds no interaction")
    if interactions and len(interactions) != len(exchanges):
        raise CaseImportError(f"{len(interactions)} numbers given for {len(exchanges)} interactions")
    suite = _suite(provider_id)
    default = default_base_url(provider_id)
    if base_url and default is None:
        raise CaseImportError(
            f"provider {provider_id!r} declares no default_base_url to rewrite {base_url} into"
        )
    names = [name] if len(exchanges) == 1 else [f"{name}-{n}" for n in range(1, len(exchanges) + 1)]
    for case_name in names:
        _check_target(into / case_name, force)
    specs = [
        _spec(
            exchange,
            n,
            request=requests[0] if len(requests) == 1 else requests[n - 1] if requests else None,
            model=model,
            method=method,
            features=features,
        )
        for n, exchange in enumerate(exchanges, 1)
    ]  # every case's request is known before the first is written
    files = [
        _case_files(
            suite,
            exchange,
            into / case_name,
            spec,
            {**source, **({"interaction": n} if interactions or len(exchanges) > 1 else {})},
            request_body,
            description,
            (base_url, default),
        )
        for n, exchange, case_name, spec in zip(
            interactions or range(1, len(exchanges) + 1), exchanges, names, specs, strict=True
        )
    ]  # and every file is scrubbed and scanned
    return [_write_case(suite, directory, texts, accept=accept) for directory, texts in files]


def _case_files(
    suite: Suite,
    exchange: Exchange,
    directory: Path,
    spec: dict[str, Any],
    source: dict[str, Any],
    request_body: str,
    description: str,
    base_urls: tuple[str | None, str | None],
) -> tuple[Path, dict[str, str]]:
    """The case's directory and its files' texts, scrubbed and scanned (nothing is written)."""
    scrubber = _scrubber(exchange, suite.secret_patterns, *base_urls)
    container = source.get("container", "recording")
    spec = {
        "description": description or f"Imported from a {container} recording ({request_body} request).",
        **spec,
        "source": source,
    }
    case_text = scrubber.text(yaml.dump(spec, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100))
    spec = yaml.safe_load(case_text)
    draft = Case(directory.name, spec["method"], spec["model"], spec["request"], Cassette(), None, directory)
    interaction = stored_interaction(exchange, scrubber, *((suite, draft) if request_body == "built" else ()))
    cassette_text = dump_cassette(Cassette([interaction], {"source": source}))
    for file_name, text in ((CASE_FILE, case_text), (CASSETTE_FILE, cassette_text)):
        findings = scrubber.findings(text)
        if findings:
            lines = "; ".join(f.describe(file_name) for f in findings)
            raise CaseImportError(f"refusing to write {directory}: after scrubbing it still holds {lines}")
    return directory, {CASE_FILE: case_text, CASSETTE_FILE: cassette_text}


def _write_case(suite: Suite, directory: Path, texts: dict[str, str], *, accept: bool) -> ImportedCase:
    """Write the case, run every check on it and propose its ``expected.json`` (``accept``: write it)."""
    directory.mkdir(parents=True, exist_ok=True)
    for stale in (EXPECTED_FILE, PROPOSED_FILE):
        (directory / stale).unlink(missing_ok=True)
    for file_name, text in texts.items():
        (directory / file_name).write_text(text, encoding="utf-8")
    outcome = run_case(suite, Case.load(directory), regenerate=True)
    proposal = proposal_of(f"{suite.provider_id}/{directory.name}", directory)
    if accept and accept_case(directory):
        return ImportedCase(directory.name, directory, outcome, [f"accepted as {directory / EXPECTED_FILE}"])
    return ImportedCase(directory.name, directory, outcome, review_lines([proposal] if proposal else []))
