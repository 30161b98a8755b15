"""Build the ``openai-responses`` conformance cases from the recordings in tests/corpus/openai-responses.

    python tools/convert_openai_responses_corpus.py                       # case.yaml + cassette.yaml
    modelport conformance --provider openai-responses --regenerate        # then expected.json; review

As for the Chat Completions cases (tools/convert_openai_corpus.py): the recorded response is kept as
recorded in meaning, paired with a canonical request; the request body in the cassette is what the
API reference prescribes for it (:func:`openai_responses_corpus.wire`, independent of the adapter);
``source.note`` says where the canonical request departs from the recorded one. A second turn's
assistant message is built from the recorded first answer
(:func:`openai_responses_case_data.turn`), reasoning items with their ids, summaries and
``encrypted_content``, as a result's ``message`` holds them. The cases themselves are tables by
subject: openai_responses_cases (answers, tools, errors), openai_responses_cases_reasoning,
openai_responses_cases_built_in (built-in tools, citations, images), openai_responses_cases_settings
(request settings), openai_responses_cases_faults (recorded answers with a MOCK fault) and
openai_responses_cases_requests (request mappings surviving mutants pointed to) and
openai_responses_cases_mutants (mappings no case reached), openai_responses_cases_bounds
(settings their survivors pointed to).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from convert_openai_corpus import _interaction, write_case
from openai_responses_cases import answer_cases
from openai_responses_cases_bounds import bound_cases
from openai_responses_cases_built_in import built_in_cases
from openai_responses_cases_faults import fault_cases
from openai_responses_cases_mutants import mutant_cases
from openai_responses_cases_reasoning import reasoning_cases
from openai_responses_cases_requests import request_cases
from openai_responses_cases_settings import settings_cases
from openai_responses_corpus import attribution, count_wire, wire

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "plugins/openai/src/modelport_openai/cassettes/openai-responses"
BASE = "https://api.openai.com/v1"


def cases() -> list[dict[str, Any]]:
    """Every case, by subject."""
    return [
        *answer_cases(),
        *reasoning_cases(),
        *built_in_cases(),
        *settings_cases(),
        *fault_cases(),
        *request_cases(),
        *mutant_cases(),
        *bound_cases(),
    ]


def build(spec: dict[str, Any]) -> None:
    """Write one case directory (``expected.json``, when present, is kept)."""
    stream = spec["method"] == "stream"
    source = spec.get("attribution") or attribution(
        spec["source"], interaction=spec.get("interaction"), note=spec.get("note", "")
    )
    # A request refused before any I/O has no response: its cassette holds no interaction (and
    # the oracle need not know how to send what is refused).
    recorded = []
    if "response" in spec and spec["method"] == "count_tokens":
        body = count_wire(spec["request"], spec["model"])
        recorded = [_interaction(f"{BASE}/responses/input_tokens", body, stream, spec["response"])]
    elif "response" in spec:
        body = wire(spec["request"], spec["model"], stream=stream)
        recorded = [_interaction(f"{BASE}/responses", body, stream, spec["response"])]
    write_case(TARGET / spec["name"], spec, source, recorded)


def main() -> None:
    specs = cases()
    keep = {spec["name"] for spec in specs}
    if TARGET.exists():
        for stale in TARGET.iterdir():
            # batch-*: written by tools/batch_cases.py, from the batch corpus.
            if stale.is_dir() and stale.name not in keep and not stale.name.startswith("batch-"):
                shutil.rmtree(stale)
    for spec in specs:
        build(spec)
    print(f"openai-responses: {len(specs)} cases in {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
