"""Record modes and vcrpy integration.

- ``none`` (the default): replay only; nothing reaches the network.
- ``all``: call the real API with a real key, write the cassette through vcrpy with our
  serializer and credential filters, then regenerate ``expected.json`` from a replay.
- ``regenerate``: replay the existing cassette offline and rewrite ``expected.json``.

:func:`modelport_vcr` is a vcrpy configuration anyone can use directly: our YAML serializer, the
credential filters and the structural JSON body matcher (its assertion names the differing JSON
paths). vcrpy plays each interaction once unless ``allow_playback_repeats`` is given to ``use_cassette``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx
import vcr

import modelport

from .cases import Case, Suite
from .cassette import clean_uri, dump_cassette, load_cassette, serializer
from .credentials import CREDENTIAL_HEADERS, CREDENTIAL_QUERY_PARAMS
from .jsondiff import diff_json, format_differences
from .runner import CaseOutcome, Execution, call_case, run_case

__all__ = ["RECORD_MODES", "json_body_matcher", "modelport_vcr", "record_case", "resolve_record_mode"]

RECORD_MODES = ("none", "all", "regenerate")
RECORD_MODE_ENV = "MODELPORT_RECORD_MODE"


def resolve_record_mode(option: str | None) -> str:
    """The record mode from a command-line option, else ``MODELPORT_RECORD_MODE``, else ``none``."""
    mode = option or os.environ.get(RECORD_MODE_ENV, "") or "none"
    if mode not in RECORD_MODES:
        raise ValueError(f"record mode must be one of {', '.join(RECORD_MODES)}, got {mode!r}")
    return mode


def _body_value(body: Any) -> Any:
    if body in (None, b"", ""):
        return None
    raw = body if isinstance(body, bytes) else str(body).encode("utf-8")
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")


def json_body_matcher(r1: Any, r2: Any) -> None:
    """A vcrpy matcher: JSON bodies compared structurally; the assertion lists the differing paths."""
    differences = diff_json(_body_value(r2.body), _body_value(r1.body))
    if differences:
        raise AssertionError("request body differs from the recording:\n" + format_differences(differences))


def _before_record_request(request: Any) -> Any:
    request.uri = clean_uri(request.uri)
    for name in list(request.headers):
        if name.lower() in CREDENTIAL_HEADERS:
            del request.headers[name]
    return request


def modelport_vcr(record_mode: str = "none", **overrides: Any) -> vcr.VCR:
    """A vcrpy ``VCR`` configured for modelport cassettes."""
    config: dict[str, Any] = {
        "serializer": "modelport",
        "record_mode": record_mode,
        "match_on": ("method", "scheme", "host", "port", "path", "query", "json_body"),
        "filter_headers": sorted(CREDENTIAL_HEADERS),
        "filter_query_parameters": sorted(CREDENTIAL_QUERY_PARAMS),
        "before_record_request": _before_record_request,
        "decode_compressed_response": True,
    }
    config.update(overrides)
    recorder = vcr.VCR(**config)
    recorder.register_serializer("modelport", serializer)
    recorder.register_matcher("json_body", json_body_matcher)
    return recorder


def record_case(
    suite: Suite,
    case: Case,
    *,
    api_key: str | None = None,
    transport: httpx.BaseTransport | None = None,
) -> CaseOutcome:
    """Record ``case`` against the real API (or ``transport``), then regenerate its expected file.

    The key comes from ``api_key`` or the first of the suite's ``credential_env`` variables set;
    it is sent in the request and filtered out of the cassette before anything is written.
    """
    directory = case.location
    if not isinstance(directory, Path):
        raise ValueError(f"case {case.name!r} is not in a writable directory")
    key = api_key or _key_from_env(suite.credential_env)
    path = directory / "cassette.yaml"
    previous = load_cassette(path.read_text(encoding="utf-8")).metadata if path.exists() else {}
    # Record beside the old cassette and replace it only once the recording is complete.
    scratch = directory / "cassette.recording.yaml"
    scratch.unlink(missing_ok=True)
    options: dict[str, Any] = {**suite.options, **case.config, "max_retries": 0}
    if key is not None:
        options["api_key"] = key
    if transport is not None:
        options["transport"] = transport
    try:
        with modelport_vcr("all").use_cassette(str(scratch)):
            model = modelport.get_model(f"{suite.provider_id}/{case.model}", **options)
            try:
                call_case(model, case, Execution(output={}, player=None))  # type: ignore[arg-type]
            except modelport.ProviderError:
                pass  # an error response is recorded like any other
            finally:
                model.close()
        cassette = load_cassette(scratch.read_text(encoding="utf-8"))
    finally:
        scratch.unlink(missing_ok=True)
    cassette.metadata = {**previous, "recorded_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    path.write_text(dump_cassette(cassette), encoding="utf-8")
    fresh = Case.load(directory)
    return run_case(suite, fresh, regenerate=True)


def _key_from_env(names: Sequence[str]) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None
