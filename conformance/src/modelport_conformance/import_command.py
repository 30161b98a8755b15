"""``modelport conformance import FILE --provider ID``: cases from a recording (see
:mod:`modelport_conformance.importing` for what is written and how it is scrubbed)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
import yaml

from modelport.cli.terminal import safe

from .cases import MAX_CASE_FILE_BYTES, METHODS
from .containers import CONTAINERS, ContainerError, raw_exchange, read_recording, read_text
from .importing import REQUEST_BODIES, CaseImportError, import_cases

__all__ = ["import_command"]


def _request(value: str, limit: int) -> dict[str, Any]:
    """``--request``: a YAML (or JSON) mapping of request keywords, or ``@FILE`` holding one."""
    text = read_text(Path(value[1:]), limit) if value.startswith("@") else value
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        data = None
    if not isinstance(data, dict):
        raise CaseImportError("--request must be a YAML mapping of request keywords (or @FILE holding one)")
    return data


def _into(provider_id: str, into: Path | None) -> Path:
    if into is not None:
        return into
    from .cases import discover_suites

    suite = discover_suites([provider_id])[0].get(provider_id)
    location = getattr(suite, "location", None)
    if isinstance(location, Path):
        return location
    raise CaseImportError(f"{provider_id!r} registers no cases directory on disk here; say where with --into")


@click.command("import")
@click.argument("recording", type=click.Path(path_type=Path))
@click.option("--provider", "provider_id", required=True, help="The provider the cases are for.")
@click.option("--container", type=click.Choice(CONTAINERS), default="auto", show_default=True)
@click.option("--into", type=click.Path(file_okay=False, path_type=Path), help="The cases directory.")
@click.option(
    "--name", help="The case's name (several interactions: NAME-1, NAME-2...). Default: the file's."
)
@click.option(
    "--interaction", "picked", type=click.IntRange(min=1), multiple=True, help="Import only these (1-based)."
)
@click.option(
    "--request",
    "requests",
    multiple=True,
    help="Canonical request keywords, YAML or @FILE (one, or one each).",
)
@click.option("--model", help="The model name (default: the recorded request's).")
@click.option(
    "--method", type=click.Choice(METHODS[:3]), help="Default: stream for an event stream, else generate."
)
@click.option("--request-body", type=click.Choice(REQUEST_BODIES), default="built", show_default=True)
@click.option(
    "--base-url", help="Where the recording was sent (a proxy): rewritten to the provider's base URL."
)
@click.option("--source", "repo", help="Where the recording comes from (a repository, owner/name).")
@click.option("--commit", help="The commit of the source the recording was taken at.")
@click.option("--license", "license_", help="The recording's license (an SPDX id).")
@click.option("--path", "original", help="The recording's path in its source (default: the file's name).")
@click.option("--note", help="A note kept with the attribution.")
@click.option("--description", default="", help="The case's description (default: where it came from).")
@click.option(
    "--feature", "features", multiple=True, help="A feature the case needs (features: in case.yaml)."
)
@click.option("--url", default="", help="Raw bodies: the request URL.")
@click.option(
    "--wire-request", type=click.Path(dir_okay=False, path_type=Path), help="Raw bodies: the request body."
)
@click.option("--status", type=click.IntRange(100, 599), default=200, show_default=True, help="Raw bodies.")
@click.option("--max-bytes", type=click.IntRange(min=1), default=MAX_CASE_FILE_BYTES, show_default=True)
@click.option("--force", is_flag=True, help="Overwrite cases that exist already.")
@click.option(
    "--accept", is_flag=True, help="Write expected.json itself, not a proposal (review it in your diff)."
)
def import_command(
    recording: Path,
    provider_id: str,
    container: str,
    into: Path | None,
    name: str | None,
    picked: tuple[int, ...],
    requests: tuple[str, ...],
    model: str | None,
    method: str | None,
    request_body: str,
    base_url: str | None,
    repo: str | None,
    commit: str | None,
    license_: str | None,
    original: str | None,
    note: str | None,
    description: str,
    features: tuple[str, ...],
    url: str,
    wire_request: Path | None,
    status: int,
    max_bytes: int,
    force: bool,
    accept: bool,
) -> None:
    """Turn the recorded traffic in RECORDING (vcrpy or Ruby VCR YAML, HAR 1.2, go-vcr, a raw SSE or
    JSON body) into cases of a provider, scrubbed as the recorder scrubs, each with its
    expected.json proposed for review (then: modelport conformance --accept)."""
    try:
        found = read_recording(recording, container, limit=max_bytes)
        exchanges = found.exchanges
        if found.container in {"sse", "json"}:
            body = read_text(wire_request, max_bytes) if wire_request is not None else None
            text = read_text(recording, max_bytes)
            exchanges = [raw_exchange(text, found.container, url=url, request_body=body, status=status)]
        if picked:
            if max(picked) > len(exchanges):
                raise CaseImportError(
                    f"{recording.name} holds {len(exchanges)} interaction(s), not {max(picked)}"
                )
            exchanges = [exchanges[n - 1] for n in picked]
        given = {"repo": repo, "commit": commit, "path": original or recording.name, "license": license_}
        source = {k: v for k, v in given.items() if v} | {"container": found.container}
        if note:
            source["note"] = note
        cases = import_cases(
            provider_id,
            exchanges,
            _into(provider_id, into),
            name or recording.name.split(".")[0],
            source=source,
            requests=[_request(r, max_bytes) for r in requests],
            model=model,
            method=method,
            request_body=request_body,
            force=force,
            base_url=base_url,
            description=description,
            features=features,
            accept=accept,
            interactions=picked,
        )
    except (ContainerError, CaseImportError) as error:
        click.echo(safe(f"error: {error}").replace("\n", " "), err=True)
        sys.exit(2)
    failed = 0
    for case in cases:
        click.echo(safe(f"{provider_id}/{case.name}: {case.outcome.status.upper()} ({case.location})"))
        if case.outcome.status == "fail":
            failed += 1
            for line in case.outcome.message.splitlines():
                click.echo(safe(f"  {line}"))
        for line in case.review:
            click.echo(safe(f"  {line}"))
    if accept:
        accepted = sum(1 for case in cases if (case.location / "expected.json").is_file())
        click.echo(f"{len(cases)} case(s) imported, {failed} failing, {accepted} expected.json written")
    else:
        proposed = sum(1 for case in cases if case.review)
        click.echo(
            f"{len(cases)} case(s) imported, {failed} failing, {proposed} expected.json proposed; review "
            f"each expected.proposed.json, then: modelport conformance --provider {provider_id} --accept"
        )
    sys.exit(1 if failed else 0)
