"""A batch's results are fetched with the key only from the API root's origin: an Anthropic
``results_url`` on another host, or one that climbs out of the API root, is refused before any
request, whether it came from the batch object or from a saved job edited and restored."""

from __future__ import annotations

import asyncio

import pytest

import modelport
from modelport import restore_batch
from modelport.errors import InvalidRequestError
from tests.batches import shapes
from tests.batches.served import Lines, Served

KEY = "sk-ant-" + "api03-results-origin-0123456789"
BATCH = "msgbatch_01GUqGVJfUzZfBnjRymfPdV3"
ROOT = "https://api.anthropic.com"
HOSTILE = [
    "https://evil.example/v1/messages/batches/x/results",
    "https://api.anthropic.com.evil.example/v1/messages/batches/x/results",
    "http://api.anthropic.com/v1/messages/batches/x/results",
    "/../../v1/organizations/x",
    f"{ROOT}/v1/messages/batches/{BATCH}/../../../v1/organizations/x",
    "/v1/messages/batches/%2e%2e/%2e%2e/organizations/x",
]


def _served(results_url: str) -> Served:
    batch = {**shapes.anthropic_batch(), "results_url": results_url}
    return Served(
        {
            f"/v1/messages/batches/{BATCH}": batch,
            f"/v1/messages/batches/{BATCH}/results": Lines(shapes.anthropic_lines()),
            "/v1/organizations/x": {"data": ["someone else's"]},
            "/v1/messages/batches/x/results": Lines(shapes.anthropic_lines()),
        }
    )


def _model(served: Served) -> modelport.Model:
    return modelport.get_model("anthropic/claude-haiku-4-5", api_key=KEY, transport=served, max_retries=0)


@pytest.mark.parametrize("url", HOSTILE)
@pytest.mark.parametrize("entry", ["sync", "async"])
def test_a_results_url_off_the_api_root_is_refused_before_it_is_fetched(url: str, entry: str) -> None:
    served = _served(url)
    job = _model(served).get_batch(BATCH)
    assert job.provider_data["results_url"] == url
    with pytest.raises(InvalidRequestError, match="refused") as info:
        job.results() if entry == "sync" else asyncio.run(job.aresults())
    assert served.urls == [f"{ROOT}/v1/messages/batches/{BATCH}"]  # the poll only
    assert KEY not in str(info.value)


@pytest.mark.parametrize("url", HOSTILE)
def test_a_saved_job_edited_to_name_another_results_url_is_refused(url: str) -> None:
    served = _served(f"{ROOT}/v1/messages/batches/{BATCH}/results")
    saved = _model(served).get_batch(BATCH).model_dump()
    saved["provider_data"]["results_url"] = url
    job = restore_batch(saved, api_key=KEY, transport=served, max_retries=0)
    with pytest.raises(InvalidRequestError, match="refused"):
        job.results()
    assert served.urls == [f"{ROOT}/v1/messages/batches/{BATCH}"]


def test_the_results_url_on_the_api_roots_origin_is_fetched_with_the_key() -> None:
    served = _served(f"{ROOT}/v1/messages/batches/{BATCH}/results")
    items = _model(served).get_batch(BATCH).results()
    assert [(item.custom_id, item.result.text if item.result else None) for item in items] == [
        ("0", "4"),
        ("1", "Jupiter"),
    ]
    assert [(str(r.url), r.headers["x-api-key"]) for r in served.sent][1] == (
        f"{ROOT}/v1/messages/batches/{BATCH}/results",
        KEY,
    )
