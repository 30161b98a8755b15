"""The long fuzz run of every decoder: the properties of ``test_decoder_totality.py`` (Gemini) and
``test_protocol_decoder_totality.py`` (Chat Completions and presets, Responses, Anthropic), each
case drawn by a seeded random generator instead of hypothesis.

The strategies are the same objects (:mod:`.mutate` and the tests' own composites); only the
drawing differs: :class:`RandomDraw` answers each ``draw`` from ``random.Random``, without the
bookkeeping hypothesis keeps to shrink a failure, which costs more than the decoding itself. So
100,000 cases per decoder take minutes, not hours. A failing case prints its decoder, index and
seed; ``--decoder D --first I --cases 1 --seed S`` replays it::

    python -m tests.reliability.soak --cases 100000            # every decoder (docs/reliability.md)
    python -m tests.reliability.soak --cases 2000 --decoder anthropic-stream

Exit status 1 if any case raised an untyped error, broke an invariant or reported a cut stream
complete. Not collected by pytest (its name does not start with ``test_``).
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.strategies._internal.core import CompositeStrategy
from hypothesis.strategies._internal.lazy import LazyStrategy
from hypothesis.strategies._internal.misc import BooleansStrategy
from hypothesis.strategies._internal.numbers import IntegersStrategy
from hypothesis.strategies._internal.strategies import SampledFromStrategy

from modelport.errors import ModelportError

from . import test_batch_results_totality as batches
from . import test_decoder_totality as gemini
from . import test_protocol_decoder_totality as protocols

#: Values drawn from a strategy the drawer does not interpret (``VALUES``, ``st.binary``) come from
#: this many examples hypothesis generated for it once.
POOL = 400


class RandomDraw:
    """A ``draw`` function for composite strategies, answered from ``random.Random``."""

    def __init__(self, rng: random.Random, pools: dict[str, list[Any]]) -> None:
        self.rng = rng
        self.pools = pools

    def __call__(self, strategy: Any) -> Any:
        s = strategy
        while isinstance(s, LazyStrategy):
            s = s.wrapped_strategy
        if isinstance(s, CompositeStrategy):
            return s.definition(self, *s.args, **s.kwargs)
        if isinstance(s, IntegersStrategy) and s.start is not None and s.end is not None:
            return self.rng.randint(s.start, s.end)
        if isinstance(s, SampledFromStrategy):
            return self.rng.choice(s.elements)
        if isinstance(s, BooleansStrategy):
            return self.rng.random() < 0.5
        lists = _list_bounds(s)
        if lists is not None:
            element, low, high = lists
            return [self(element) for _ in range(self.rng.randint(low, high))]
        key = repr(strategy)
        pool = self.pools.get(key)
        if pool is None:
            pool = self.pools[key] = _pool(strategy)
        # A copy: the mutations change what they draw in place, and a pooled list or object put
        # into a document, then changed, would grow with every case, or come to hold itself.
        return copy.deepcopy(self.rng.choice(pool))


def _pool(strategy: Any) -> list[Any]:
    """Up to ``POOL`` examples of ``strategy``, the same ones on every run (a seeded hypothesis run;
    ``strategy.example()`` is not seeded), so that a failing case's index and seed replay it."""
    found: list[Any] = []

    @settings(
        max_examples=POOL,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @seed(POOL)
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


def _list_bounds(strategy: Any) -> tuple[Any, int, int] | None:
    element = getattr(strategy, "element_strategy", None)
    low, high = getattr(strategy, "min_size", None), getattr(strategy, "max_size", None)
    if element is None or not isinstance(low, int) or not isinstance(high, int) or high > 1_000:
        return None
    return element, low, high


# --------------------------------------------------------------------------- one case per decoder


def _gemini_unary(draw: RandomDraw) -> str:
    body = draw(gemini.unary_body())
    try:
        result = gemini.generate(body, draw(st.booleans()))
    except ModelportError:
        return "typed error"
    gemini.assert_sound(result)
    return "result"


def _gemini_stream(draw: RandomDraw) -> str:
    chunks = draw(gemini.stream_chunks())
    events, accumulator, error = gemini.stream(chunks, draw(st.booleans()))
    if error is None:
        body = b"".join(chunks)
        assert b"finishReason" in body or b"blockReason" in body, "a cut stream was reported complete"
        protocols.assert_well_formed(events, finished=True)
        result = accumulator.result()
        protocols.assert_every_delta_kept(result, events)
        gemini.assert_sound(result)
        return "result"
    if any(e.type != "stream-start" for e in events):
        assert error.partial is not None  # type: ignore[attr-defined]
        protocols.assert_well_formed(events, finished=False)
        protocols.assert_every_delta_kept(error.partial, events)  # type: ignore[attr-defined]
    return "typed error"


def _unary(protocol: str) -> Callable[[RandomDraw], str]:
    def case(draw: RandomDraw) -> str:
        provider = draw(st.sampled_from(protocols.PROVIDERS[protocol]))
        body = draw(protocols.mutated_body(protocol))
        try:
            result = protocols.run_generate(provider, body, draw(st.booleans()))
        except ModelportError:
            return "typed error"
        protocols.assert_sound(result)
        return "result"

    return case


def _stream(protocol: str) -> Callable[[RandomDraw], str]:
    def case(draw: RandomDraw) -> str:
        provider = draw(st.sampled_from(protocols.PROVIDERS[protocol]))
        body = draw(protocols.mutated_stream(protocol))
        events, result, error = protocols.run_stream(
            provider, draw(protocols.chunked(body)), draw(st.booleans())
        )
        if error is None:
            assert result is not None and events[-1].type == "finish"
            assert protocols.completes(protocol, body), "a cut stream was reported complete"
            protocols.assert_well_formed(events, finished=True)
            protocols.assert_every_delta_kept(result, events)
            protocols.assert_sound(result)
            return "result"
        if any(e.type != "stream-start" for e in events):
            assert error.partial is not None  # type: ignore[attr-defined]
            protocols.assert_well_formed(events, finished=False)
            protocols.assert_every_delta_kept(error.partial, events)  # type: ignore[attr-defined]
        return "typed error"

    return case


def _cut(protocol: str) -> Callable[[RandomDraw], str]:
    def case(draw: RandomDraw) -> str:
        provider = draw(st.sampled_from(protocols.PROVIDERS[protocol]))
        body = draw(protocols.cut_stream(protocol))
        _, result, error = protocols.run_stream(provider, draw(protocols.chunked(body)), False)
        assert error is not None and result is None, "a cut stream was reported complete"
        return "typed error"

    return case


class _Data:
    """What ``test_batch_results_totality._check_one`` draws from (hypothesis's ``data``)."""

    def __init__(self, draw: RandomDraw) -> None:
        self.draw = draw


def _batch(name: str) -> Callable[[RandomDraw], str]:
    def case(draw: RandomDraw) -> str:
        return batches._check_one(name, _Data(draw))

    return case


DECODERS: dict[str, Callable[[RandomDraw], str]] = {
    "gemini-unary": _gemini_unary,
    "gemini-stream": _gemini_stream,
    **{f"{p}-unary": _unary(p) for p in protocols.corpus.PROTOCOLS},
    **{f"{p}-stream": _stream(p) for p in protocols.corpus.PROTOCOLS},
    **{f"{p}-cut-stream": _cut(p) for p in protocols.corpus.PROTOCOLS},
    **{f"batch-{name}": _batch(name) for name in sorted(batches.FORMATS)},
}


def soak(name: str, cases: int, seed: int, first: int = 0) -> tuple[Counter[str], list[str]]:
    """Run cases ``first`` to ``first + cases`` of decoder ``name``: the outcome counts and the
    failures. Case ``i`` is drawn from its own seed, so any range replays the same cases."""
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    pools: dict[str, list[Any]] = {}
    case = DECODERS[name]
    for index in range(first, first + cases):
        draw = RandomDraw(random.Random(f"{seed}:{name}:{index}"), pools)
        try:
            outcomes[case(draw)] += 1
        except Exception as error:  # an untyped error or a broken invariant: the finding
            outcomes["failure"] += 1
            where = traceback.extract_tb(error.__traceback__)[-1]
            failures.append(
                f"{name} case {index} (seed {seed}): {type(error).__name__}: {str(error)[:200]} "
                f"at {where.filename}:{where.lineno}"
            )
    return outcomes, failures


def _counts(outcomes: Counter[str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1_000, help="cases per decoder")
    parser.add_argument("--decoder", action="append", choices=sorted(DECODERS), help="repeatable")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--first", type=int, default=0, help="the index of the first case")
    parser.add_argument(
        "--round", type=int, default=0, help="run the decoders in turn, this many cases each (0: one by one)"
    )
    args = parser.parse_args(argv)
    names = args.decoder or list(DECODERS)
    step = args.round or args.cases
    totals: dict[str, Counter[str]] = {name: Counter() for name in names}
    seconds: Counter[str] = Counter()
    failed = 0
    for first in range(args.first, args.first + args.cases, step):
        count = min(step, args.first + args.cases - first)
        for name in names:
            started = time.process_time()
            outcomes, failures = soak(name, count, args.seed, first)
            seconds[name] += time.process_time() - started
            totals[name].update(outcomes)
            done = first + count - args.first
            print(f"{name}: {done} cases in {seconds[name]:.0f} s CPU: {_counts(totals[name])}", flush=True)
            for failure in failures[:20]:
                print("  " + failure, flush=True)
            failed += len(failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
