"""Record the worked example's cases (docs/examples/modelport-acme) against the local fake server.

This is the tutorial's "record" step, run for real: the Acme plugin sends each case's request to a
fake Chat Completions server on 127.0.0.1 (tests/kit/fake_chat.py), and ``record_case`` writes the
cassette (URLs stored against the provider's default base URL, the key removed by value) and the
expected output. ``tests/kit/test_tutorial.py`` records again into a temporary copy and checks the
result equals what is committed, so the committed cases are exactly what the tutorial produces.

    python tools/record_acme_cases.py [CASES_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ACME = ROOT / "docs" / "examples" / "modelport-acme"


def record(cases: Path) -> list[str]:
    """Record every case under ``cases``; returns one line per case."""
    sys.path[:0] = [str(ROOT), str(ACME / "src")]
    from modelport_acme import _plugin

    import modelport
    from modelport_conformance import Suite, load_cases, record_case
    from tests.kit import fake_chat
    from tests.loopback import Loopback

    if "acme" not in modelport.plugins.providers():
        modelport.register_plugin(_plugin, name="acme")
    suite = Suite(
        "acme", load_cases(cases), merge_frames=_plugin.merge_frames, credential_env=("ACME_API_KEY",)
    )
    lines = []
    with Loopback(fake_chat.handle) as server:
        for case in suite.cases:
            outcome = record_case(suite, case, api_key=fake_chat.KEY, base_url=server.url + "/v1")
            lines.append(f"{case.name}: {outcome.status}")
    return lines


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ACME / "src" / "modelport_acme" / "cases"
    print("\n".join(record(target)))
