"""Azure OpenAI's Batch API: OpenAI's files + batches flow (:mod:`._batches`, reused whole) on
Azure's routes, for a Global Batch (or Data Zone Batch) deployment.

What Azure changes (https://learn.microsoft.com/azure/ai-foundry/openai/how-to/batch):

- the routes: ``{endpoint}/openai/v1/files`` and ``/openai/v1/batches`` (``v1``; ``?api-version=preview``
  for ``preview``), or ``/openai/files?api-version=...`` and ``/openai/batches?api-version=...`` for
  a dated version (batches from ``2024-07-01-preview`` on; older versions are refused before I/O);
- each line's ``url``: ``/v1/chat/completions`` (``/v1/responses``) on the v1 routes, as Azure's
  v1 guide writes it, ``/chat/completions`` on a dated version; the create body's ``endpoint`` is
  ``/chat/completions`` (``/responses``) on both, as both guides write it;
- at most 100,000 requests a file (Azure's ``too_many_tasks``), 200 MB; no embeddings;
- ``status`` may be capitalised (``Validating``); time stamps may be RFC 3339 text; a batch whose
  results went to Azure Blob Storage names ``output_blob`` / ``error_blob`` instead of files, which
  modelport does not fetch (those URLs are another origin: no credential goes there).

The body of each line is the deployment's own request, as ``generate`` builds it, with the
deployment name as ``model``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from modelport.batches import BatchDownload
from modelport.errors import InvalidRequestError
from modelport.http import HttpRequest, Steps

from ._batches import cancel_steps, get_steps, results_steps, submit_steps

if TYPE_CHECKING:
    from modelport.batches import BatchLine, BatchRequest, BatchState

    from ._azure import AzureConnection
    from ._batches import ErrorFrom

__all__ = [
    "AZURE_MAX_BATCH_REQUESTS",
    "FIRST_BATCH_VERSION",
    "azure_cancel",
    "azure_get",
    "azure_results",
    "azure_submit",
]

#: Azure's bound on the requests of one batch file (its ``too_many_tasks`` error).
AZURE_MAX_BATCH_REQUESTS = 100_000
#: The first dated API version with the Batch API.
FIRST_BATCH_VERSION = "2024-07-01-preview"
#: The operations a Global Batch deployment runs (embeddings: "currently not supported").
_BATCHED = ("chat/completions", "responses")
#: Fields only Azure's batch object has, kept with the OpenAI ones.
_AZURE_FIELDS = ("input_blob", "output_blob", "error_blob")
_DATED = re.compile(r"\d{4}-\d{2}-\d{2}")

Route = Callable[[HttpRequest], HttpRequest]


def _router(connection: AzureConnection) -> Route:
    """The Azure route of each request the OpenAI batch steps build (``/files``, ``/batches/{id}``,
    ``/files/{id}/content``...), checked first: the API version must have batches."""
    version = connection.api_version()
    if _DATED.match(version) and version[:10] < FIRST_BATCH_VERSION[:10]:
        raise InvalidRequestError(
            f"Azure OpenAI has batches from api_version {FIRST_BATCH_VERSION} on (or 'v1'), not {version!r}"
        )

    def route(spec: HttpRequest) -> HttpRequest:
        return spec._replace(url=connection.route(spec.url.lstrip("/")))

    return route


def _routed(steps: Steps[Any], route: Route) -> Steps[tuple[Any, Any]]:
    """``steps`` with each request on its Azure route (waits and replies passed through); returns
    their value and the last reply."""
    reply = None
    try:
        while True:
            try:
                step = steps.send(reply)
            except StopIteration as stop:
                return stop.value, reply
            reply = yield route(step) if isinstance(step, HttpRequest) else step
    finally:
        steps.close()


def _state(steps: Steps[BatchState], route: Route) -> Steps[BatchState]:
    """The OpenAI state of the batch object the last reply held, with the fields only Azure's has."""
    state, reply = yield from _routed(steps, route)
    data = reply.data if reply is not None and isinstance(reply.data, dict) else {}
    extra = {key: data[key] for key in _AZURE_FIELDS if data.get(key)}
    if not extra:
        return state  # type: ignore[no-any-return]
    return state.model_copy(update={"provider_data": {**state.provider_data, **extra}})  # type: ignore[no-any-return]


def _operation(spec: HttpRequest) -> str:
    """What a built request runs (its Azure route's last segments), refused unless batchable."""
    path = urlsplit(spec.url).path
    found = next((op for op in (*_BATCHED, "embeddings") if path.endswith(f"/{op}")), path)
    if found not in _BATCHED:
        raise InvalidRequestError(
            f"Azure OpenAI batches run chat completions or responses, not {found!r} "
            "(a Global Batch deployment has no embeddings)"
        )
    return found


def azure_submit(connection: AzureConnection, requests: Sequence[BatchRequest]) -> Steps[BatchState]:
    """The OpenAI upload and create, on Azure's routes, with Azure's line ``url`` and ``endpoint``."""
    route = _router(connection)
    operations = sorted({_operation(request.spec) for request in requests})
    if len(operations) != 1:
        raise InvalidRequestError(f"an Azure OpenAI batch goes to one endpoint, got {operations}")
    line = f"/v1/{operations[0]}" if connection.v1() else f"/{operations[0]}"
    steps = submit_steps(
        requests,
        [line] * len(requests),
        endpoint=f"/{operations[0]}",
        max_requests=AZURE_MAX_BATCH_REQUESTS,
    )
    return _state(steps, route)


def azure_get(connection: AzureConnection, batch_id: str) -> Steps[BatchState]:
    route = _router(connection)
    return _state(get_steps(batch_id), route)


def azure_cancel(connection: AzureConnection, batch_id: str) -> Steps[BatchState]:
    route = _router(connection)
    return _state(cancel_steps(batch_id), route)


def azure_results(
    connection: AzureConnection, state: BatchState, error_from: ErrorFrom
) -> Steps[Iterable[BatchLine | BatchDownload]]:
    """The output and error files on Azure's routes; a batch whose results went to Blob Storage
    only is refused before any request (its blob URLs are never fetched, so never sent a key)."""
    route = _router(connection)
    data = state.provider_data
    if not (data.get("output_file_id") or data.get("error_file_id")) and (
        data.get("output_blob") or data.get("error_blob")
    ):
        raise InvalidRequestError(
            f"batch {state.id!r} wrote its results to Azure Blob Storage (output_blob): read them "
            "from the storage account; modelport reads results files from the resource only"
        )
    files = yield from results_steps(state, error_from)
    return [
        item._replace(spec=route(item.spec)) if isinstance(item, BatchDownload) else item for item in files
    ]
