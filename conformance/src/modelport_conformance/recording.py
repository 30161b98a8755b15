"""Record modes and vcrpy integration.

- ``none`` (the default): replay only; nothing reaches the network.
- ``all``: call the real API with a real key (or a local server: ``MODELPORT_RECORD_BASE_URL``),
  record through vcrpy with our serializer and the credential filters of
  :mod:`modelport_conformance.scrub`, refuse to write a cassette whose scan finds a secret, then
  write ``expected.json`` from a replay (the new recording and its answer are reviewed together in
  the change that adds them).
- ``regenerate``: replay the existing cassette offline and propose ``expected.proposed.json``
  beside ``expected.json`` (:mod:`modelport_conformance.goldens`); refused when ``CI`` is set.
- ``accept``: accept those proposals, then replay.

:func:`modelport_vcr` is a vcrpy configuration anyone can use directly: our YAML serializer, the
credential filters (a :class:`~modelport_conformance.scrub.Scrubber`) and the structural JSON body
matcher (its assertion names the differing JSON paths). vcrpy plays each interaction once unless
``allow_playback_repeats`` is given to ``use_cassette``.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx
import vcr
import vcr.serialize
from vcr.persisters.filesystem import CassetteNotFoundError

import modelport

from .batch_replay import RECORD_POLL_INTERVAL
from .cases import CASSETTE_FILE, Case, Suite
from .cassette import Cassette, dump_cassette, load_cassette, serializer
from .credentials import MIN_SECRET_LENGTH, Finding
from .goldens import accept_case
from .jsondiff import diff_json, format_differences
from .player import CassettePlayer
from .replay import Execution, call_case, default_base_url, model_options
from .runner import CaseOutcome, run_case
from .scrub import Scrubber

__all__ = [
    "RECORD_BASE_URL_ENV",
    "RECORD_MODES",
    "RECORD_SETTINGS",
    "RecordingError",
    "UnsafeRecordingError",
    "default_base_url",
    "json_body_matcher",
    "modelport_vcr",
    "record_case",
    "resolve_record_mode",
]

#: The record modes (``--modelport-record-mode``, ``MODELPORT_RECORD_MODE``); see the module docstring.
RECORD_MODES = ("none", "all", "regenerate", "accept")
RECORD_MODE_ENV = "MODELPORT_RECORD_MODE"
#: Where record mode sends requests instead of the provider's default (a local server, a proxy).
RECORD_BASE_URL_ENV = "MODELPORT_RECORD_BASE_URL"
#: The recorder's own ``get_model`` keywords (a case's ``config`` overrides them).
RECORD_SETTINGS: Mapping[str, Any] = {"max_retries": 0}


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


class RecordingError(RuntimeError):
    """A recording failed; the old cassette, if any, is untouched. The message holds no credential."""


class UnsafeRecordingError(RecordingError):
    """The recorder refused to write a cassette: after scrubbing, its scan still finds a secret."""

    def __init__(self, path: Path, findings: list[Finding]) -> None:
        self.path = path
        self.findings = findings
        lines = "\n".join("  " + f.describe(path.name) for f in findings)
        super().__init__(
            f"refusing to write {path}: after scrubbing, the recording still holds "
            f"{len(findings)} secret(s):\n{lines}"
        )


def modelport_vcr(
    record_mode: str = "none", *, scrubber: Scrubber | None = None, **overrides: Any
) -> vcr.VCR:
    """A vcrpy ``VCR`` configured for modelport cassettes.

    ``scrubber`` holds the credentials of a recording by value (see
    :class:`~modelport_conformance.scrub.Scrubber`); without one, a fresh scrubber still learns the
    credential headers of each request and removes their values wherever they appear.
    """
    scrubber = scrubber or Scrubber()
    config: dict[str, Any] = {
        "serializer": "modelport",
        "record_mode": record_mode,
        "match_on": ("method", "scheme", "host", "port", "path", "query", "json_body"),
        "before_record_request": scrubber.request,
        "before_record_response": scrubber.response,
        "decode_compressed_response": True,
    }
    config.update(overrides)
    recorder = vcr.VCR(**config)
    recorder.register_serializer("modelport", serializer)
    recorder.register_matcher("json_body", json_body_matcher)
    return recorder


class _MemoryPersister:
    """A vcrpy persister that keeps the serialized cassette in memory, so nothing reaches the disk
    before the recorder has scanned it."""

    def __init__(self) -> None:
        self.text: str | None = None

    def load_cassette(self, cassette_path: Any, serializer: Any) -> Any:
        raise CassetteNotFoundError()

    def save_cassette(self, cassette_path: Any, cassette_dict: Any, serializer: Any) -> None:
        self.text = vcr.serialize.serialize(cassette_dict, serializer)


def record_case(
    suite: Suite,
    case: Case,
    *,
    api_key: str | None = None,
    transport: httpx.BaseTransport | None = None,
    base_url: str | None = None,
    secrets: Sequence[str] = (),
) -> CaseOutcome:
    """Record ``case`` against the real API (or ``base_url``, or ``transport``), then regenerate its
    expected file.

    The key comes from ``api_key`` or the first of the suite's ``credential_env`` variables set. It
    is sent, and then removed by value (with ``secrets`` and every credential header value seen)
    from everything recorded; credential headers are kept by name as ``<credential>``. A cassette
    whose final scan still finds a secret is not written (:class:`UnsafeRecordingError`).

    ``base_url`` (default: ``MODELPORT_RECORD_BASE_URL``) sends the recording elsewhere (a local
    server, a proxy); the URLs are stored with the provider's ``default_base_url`` in its place, so
    the case replays without it. A provider without ``default_base_url`` keeps the URL as sent (the
    case then needs ``base_url`` in its ``config`` to replay). The get_model keywords merge as in
    replay (the case's ``config`` wins over ``max_retries=0`` and the suite's ``options``); the key,
    ``base_url`` and ``transport`` given here win over all.
    """
    directory = case.location
    if not isinstance(directory, Path):
        raise ValueError(f"case {case.name!r} is not in a writable directory")
    key = api_key or _key_from_env(suite.credential_env)
    known = [s for s in (key, *secrets) if s]
    if any(len(s) < MIN_SECRET_LENGTH for s in known):
        raise RecordingError(
            f"a credential shorter than {MIN_SECRET_LENGTH} characters cannot be removed from a recording"
        )
    base_url = base_url or os.environ.get(RECORD_BASE_URL_ENV) or None
    default = default_base_url(suite.provider_id)
    if base_url and default is None:
        warnings.warn(
            f"provider {suite.provider_id!r} declares no default_base_url: the cassette keeps {base_url}",
            stacklevel=2,
        )
    scrubber = Scrubber(known, patterns=suite.secret_patterns, base_url=base_url, default_base_url=default)
    options = model_options(suite, case, RECORD_SETTINGS)
    given = {"api_key": key, "base_url": base_url, "transport": transport}
    options.update({name: value for name, value in given.items() if value is not None})
    path = directory / CASSETTE_FILE
    text = _record(suite, case, options, scrubber, path)
    previous = load_cassette(path.read_text(encoding="utf-8")).metadata if path.exists() else {}
    cassette = load_cassette(text)
    cassette.metadata = {**previous, "recorded_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    final = dump_cassette(cassette)
    findings = scrubber.findings(final)
    if findings:
        raise UnsafeRecordingError(path, findings)
    path.write_text(final, encoding="utf-8")
    outcome = run_case(suite, Case.load(directory), regenerate=True)
    accept_case(directory)  # a new recording's answer: reviewed with the cassette it comes from
    return outcome


def _record(suite: Suite, case: Case, options: dict[str, Any], scrubber: Scrubber, path: Path) -> str:
    """Make the case's call under vcrpy; the cassette text, held in memory (nothing is written)."""
    recorder = modelport_vcr("all", scrubber=scrubber)
    memory = _MemoryPersister()
    recorder.register_persister(memory)
    failure: Exception | None = None
    with recorder.use_cassette(str(path)):
        try:
            model = modelport.get_model(f"{suite.provider_id}/{case.model}", **options)
            try:
                run = Execution(output={}, player=CassettePlayer(Cassette()))
                call_case(model, case, run, poll_interval=RECORD_POLL_INTERVAL)
            finally:
                model.close()
        except Exception as error:  # an error response is recorded like any other; a crash is
            failure = error  # reported by the replay of what was recorded
    if memory.text is None or not load_cassette(memory.text).interactions:
        cause = scrubber.text(f"{type(failure).__name__}: {failure}") if failure else "no request was made"
        raise RecordingError(f"recording {suite.provider_id}/{case.name} failed: {cause}") from None
    return memory.text


def _key_from_env(names: Sequence[str]) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None
