"""The five batch results formats the core reads, each as a real recorded results set
(tests/batches/shapes.py: two answers) under two distinct custom ids, and the mock server and
restored job that read it through the public API (``job.results()``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import modelport
from modelport.batches import BatchJob
from tests.batches import shapes
from tests.batches.served import Served

#: Distinct ids (valid Vertex label values too), so a mutation that names one is seen.
IDS = ("req-alpha", "req-beta")
#: The text each request's recorded answer decodes to.
TEXTS = {"req-alpha": "4", "req-beta": "Jupiter"}
_REQUEST = {"messages": [{"role": "user", "content": [{"type": "text", "text": "p"}]}]}

_VERTEX_PARENT = "projects/proj-1/locations/us-central1"
_VERTEX_JOB = f"{_VERTEX_PARENT}/batchPredictionJobs/4242"
_VERTEX_OBJECT = "out/dir/predictions.jsonl"


@dataclass
class Format:
    """A results format: its real ``lines`` (JSON values), where they are ``served`` (a JSON Lines
    body, or inside a batch object), and the job that reads them."""

    name: str
    lines: list[Any]
    model: modelport.Model
    served: Served
    job: dict[str, Any]
    #: Puts a body (the lines as JSON Lines bytes, or the lines themselves for an inline format)
    #: where the job reads its results.
    serve: Callable[[Any], None]
    inline: bool = False

    def results(self) -> Any:
        return BatchJob.restored(self.job).bind(self.model).results()


def _spread(lines: list[Any], rename: Callable[[Any, str], Any]) -> list[Any]:
    return [
        rename(copy.deepcopy(lines[index % len(lines)]), custom_id) for index, custom_id in enumerate(IDS)
    ]


def _job(provider: str, model: str, batch_id: str, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": batch_id,
        "provider": provider,
        "model": model,
        "status": "succeeded",
        "raw_status": "ended",
        "provider_data": data,
        "requests": [{"custom_id": custom_id, "request": _REQUEST} for custom_id in IDS],
    }


def _jsonl(served: Served, path: str) -> Callable[[Any], None]:
    def serve(body: bytes) -> None:
        served.answers[path] = RawBody(body)

    return serve


class RawBody(bytes):
    """A JSON Lines body served as these bytes."""


def _set(line: Any, key: str, value: Any) -> Any:
    line[key] = value
    return line


def anthropic() -> Format:
    batch = shapes.anthropic_batch()
    served = Served({})
    lines = _spread(shapes.anthropic_lines(), lambda line, c: _set(line, "custom_id", c))
    model = modelport.get_model("anthropic/claude-haiku-4-5", api_key="sk-ant-fuzz", transport=served)
    job = _job("anthropic", "claude-haiku-4-5", batch["id"], {"results_url": batch["results_url"]})
    path = f"/v1/messages/batches/{batch['id']}/results"
    return Format("anthropic", lines, model, served, job, _jsonl(served, path))


def openai() -> Format:
    batch = shapes.openai_batch()
    served = Served({})
    lines = _spread(shapes.openai_lines(), lambda line, c: _set(line, "custom_id", c))
    model = modelport.get_model("openai-responses/gpt-5-nano", api_key="sk-fuzz", transport=served)
    data = {"output_file_id": batch["output_file_id"], "endpoint": "/v1/responses"}
    job = _job("openai-responses", "gpt-5-nano", batch["id"], data)
    path = f"/v1/files/{batch['output_file_id']}/content"
    return Format("openai", lines, model, served, job, _jsonl(served, path))


def _gemini_model(served: Served) -> modelport.Model:
    return modelport.get_model("google/gemini-2.5-flash", api_key="AIza-fuzz", transport=served)


def gemini_inline() -> Format:
    operation = shapes.gemini_operation()
    served = Served({})
    lines = _spread(shapes.gemini_inline(), lambda entry, c: _set(entry, "metadata", {"custom_id": c}))
    batch_id = operation["name"].removeprefix("batches/")

    def serve(inline: Any) -> None:
        answer = copy.deepcopy(operation)
        answer["response"]["inlinedResponses"]["inlinedResponses"] = inline
        served.answers[f"/v1beta/batches/{batch_id}"] = answer

    return Format(
        "gemini-inline",
        lines,
        _gemini_model(served),
        served,
        _job("google", "gemini-2.5-flash", batch_id, {}),
        serve,
        inline=True,
    )


def gemini_file() -> Format:
    operation = shapes.gemini_operation()
    operation["response"] = {
        "@type": operation["response"].get("@type"),
        "responsesFile": "files/batch-out-1",
    }
    batch_id = operation["name"].removeprefix("batches/")
    served = Served({f"/v1beta/batches/{batch_id}": operation})
    lines = _spread(shapes.gemini_file_lines(), lambda line, c: _set(line, "key", c))
    path = "/download/v1beta/files/batch-out-1:download"
    return Format(
        "gemini-file",
        lines,
        _gemini_model(served),
        served,
        _job("google", "gemini-2.5-flash", batch_id, {}),
        _jsonl(served, path),
    )


def vertex() -> Format:
    served = Served(
        {
            f"/v1/{_VERTEX_JOB}": {
                "name": _VERTEX_JOB,
                "state": "JOB_STATE_SUCCEEDED",
                "outputInfo": {"gcsOutputDirectory": "gs://bucket-1/out/dir"},
            },
            "/storage/v1/b/bucket-1/o": {"items": [{"name": _VERTEX_OBJECT}]},
        }
    )
    lines = _spread(
        shapes.vertex_lines(),
        lambda line, c: _set(line, "request", {**line["request"], "labels": {"modelport_custom_id": c}}),
    )
    model = modelport.get_model(
        "google-vertex/gemini-2.5-flash",
        token="ya29.fuzz",
        project="proj-1",
        location="us-central1",
        transport=served,
    )
    job = _job("google-vertex", "gemini-2.5-flash", "4242", {})
    return Format(
        "vertex", lines, model, served, job, _jsonl(served, f"/storage/v1/b/bucket-1/o/{_VERTEX_OBJECT}")
    )


FORMATS: dict[str, Callable[[], Format]] = {
    "anthropic": anthropic,
    "openai": openai,
    "gemini-inline": gemini_inline,
    "gemini-file": gemini_file,
    "vertex": vertex,
}


def jsonl(lines: list[Any]) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)
