"""Profile modelport's side of a figure with pyinstrument: ``python -m bench.profile generate``.

``generate`` (sequential calls), ``stream`` (one long stream) or ``import`` (``import modelport`` and
``get_model`` in a fresh interpreter). Prints pyinstrument's text report; ``--html FILE`` writes one.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from .clients import PROMPT, Modelport, stream_prompt
from .server import MockServer

_IMPORT = (
    "import modelport; modelport.get_model('google/gemini-2.5-flash', api_key='bench-key', "
    "base_url='http://127.0.0.1:9/v1beta')"
)


def import_report(code: str, top: int = 25) -> str:
    """``-X importtime`` of ``code`` in a fresh interpreter: the slowest modules by self time."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True)
    rows = []
    for line in out.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "self" not in line:
            own, total, name = line[len("import time:") :].split("|")
            rows.append((int(own), int(total), name.rstrip()))
    rows.sort(reverse=True)
    total_ms = sum(r[0] for r in rows) / 1e3
    lines = [
        f"{len(rows)} modules, {total_ms:.1f} ms of import (self time, -X importtime)",
        "self ms  cumul ms  module",
    ]
    lines += [f"{own / 1e3:7.1f}  {cum / 1e3:8.1f}  {name}" for own, cum, name in rows[:top]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Command line entry."""
    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["generate", "stream", "import"])
    parser.add_argument("--calls", type=int, default=2_000)
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--interval", type=float, default=0.0001)
    parser.add_argument("--html", type=Path)
    args = parser.parse_args(argv)
    if args.what == "import":
        print(import_report(_IMPORT))
        return

    from pyinstrument import Profiler

    with MockServer(args.calls + 20, 600) as server:
        side = Modelport(server.base_url)
        side.generate(PROMPT)
        profiler = Profiler(interval=args.interval)
        with profiler:
            if args.what == "generate":
                for _ in range(args.calls):
                    side.generate(PROMPT)
            else:
                side.stream(stream_prompt(args.frames))
        side.close()
    if args.html:
        args.html.write_text(profiler.output_html())
    print(profiler.output_text(unicode=True, color=False, show_all=False))


if __name__ == "__main__":
    main()
