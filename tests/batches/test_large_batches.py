"""A 10,000-request batch end to end against a loopback fake, in a fresh interpreter whose traced
peak is measured: the requests go up from a spooled file, the results come back decoded one by one
(``iter_results``; ``results()`` puts them in input order, so it holds them all: about 3 KB each)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.batches.fake_batch_server import FakeBatches

ROOT = Path(__file__).resolve().parents[2]

_CLIENT = """
import json, sys, tracemalloc
import modelport
model = modelport.get_model("anthropic/claude-haiku-4-5", api_key="sk-ant-test-0123456789abcdefghij",
                            base_url=sys.argv[1], max_retries=0)
model.generate  # the provider and its mapping modules load before the baseline
import modelport.batches, modelport_anthropic._batches, modelport_anthropic._decode, modelport_anthropic._request
requests = [{"prompt": f"Question number {i}: what is {i} + {i}?"} for i in range(10_000)]
tracemalloc.start()
job = model.submit_batch(requests)
job.wait(poll_interval=0)
texts = 0
tokens = 0
for item in job.iter_results():  # streamed: results() would hold all 10,000
    texts += item.result.text == "ok"
    tokens += item.result.usage.output_tokens
current, peak = tracemalloc.get_traced_memory()
print(json.dumps({"status": job.status, "texts": texts, "tokens": tokens, "peak_mib": peak / 2**20}))
"""


def test_ten_thousand_requests_run_end_to_end_within_50_mib_of_traced_peak() -> None:
    with FakeBatches() as fake:
        run = subprocess.run(
            [sys.executable, "-c", _CLIENT, fake.url], cwd=ROOT, capture_output=True, text=True, timeout=300
        )
        assert run.returncode == 0, run.stderr
        assert len(fake.custom_ids) == 10_000
        assert fake.custom_ids[:3] == ["0", "1", "2"]
    outcome = json.loads(run.stdout)
    assert (outcome["status"], outcome["texts"], outcome["tokens"]) == ("succeeded", 10_000, 30_000)
    assert outcome["peak_mib"] < 50, outcome
