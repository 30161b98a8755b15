"""W: the kit's JSON decoder, ``modelport.wire.loads`` (the standard library's decoder with the
kit's checks), against the faster parser it could stand on: pydantic_core's ``from_json``, with
the checks it lacks added so that it refuses what ``loads`` refuses (:func:`pydantic_core_loads`;
tests/bench/test_decoder_candidate.py checks that they accept and refuse the same documents).

pydantic_core already refuses NaN and infinities (``allow_inf_nan=False``), lone surrogates and
invalid UTF-8, but reads a number too large for a double (``1e999``, or 309 digits and a fraction)
as infinity and integers of any length: a document whose text may hold such a number (an exponent
of three digits or more, or 309 digits in a row) goes to ``loads`` instead. That scan is what the
candidate costs on top of the parse; ``from_json`` alone is printed beside it for scale.

Rounds alternate the sides; each figure is the median of the per-round ratios (candidate time /
``wire.loads`` time, lower is better). A candidate at or under 1.0x on every payload would replace
the decoder's parser.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable
from typing import Any

from pydantic_core import from_json

from bench import payloads
from bench.figures import Figure, figure

_MAY_OVERFLOW = re.compile(r"[eE]\+?[0-9]{3}|[0-9]{309}")
_MAY_OVERFLOW_BYTES = re.compile(rb"[eE]\+?[0-9]{3}|[0-9]{309}")


def pydantic_core_loads(data: bytes | str) -> Any:
    """What ``modelport.wire.loads`` returns and refuses, parsed by pydantic_core where it can be."""
    from modelport.wire import MAX_DEPTH, _too_deep, loads

    if isinstance(data, str):
        if _MAY_OVERFLOW.search(data):
            return loads(data)
        try:
            value = from_json(data, allow_inf_nan=False)
        except ValueError as error:
            raise _parse_error(error) from None
        except TypeError:  # a lone surrogate character, which only a str can hold: as loads does
            return loads(data)
        brackets = data.count("[") + data.count("{")
    else:
        if _MAY_OVERFLOW_BYTES.search(data):
            return loads(data)
        try:
            value = from_json(data, allow_inf_nan=False)
        except ValueError as error:
            raise _parse_error(error) from None
        brackets = data.count(b"[") + data.count(b"{")
    if brackets > MAX_DEPTH and _too_deep(value, MAX_DEPTH):
        raise ValueError(f"JSON is nested deeper than {MAX_DEPTH} levels")
    return value


def _parse_error(error: ValueError) -> ValueError:
    """pydantic_core's refusal, its own message but for its recursion limit (200 levels)."""
    if "recursion limit" in str(error):
        return ValueError("JSON is nested too deeply")
    return ValueError(str(error))


def _documents() -> list[tuple[str, str, bytes]]:
    frame = payloads._frame(5, False).split(b"data: ", 1)[1].strip()
    return [
        ("W-frame", "decode one Gemini stream frame", frame),
        ("W-grounded", "decode the 5 KB grounded answer", payloads.generate_body(True)),
        ("W-embed", "decode a 768-float embedding", payloads.embed_body(None)),
    ]


def _per_call(parse: Callable[[bytes], Any], data: bytes, count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        parse(data)
    return (time.perf_counter() - started) / count


def _from_json(data: bytes) -> Any:
    return from_json(data, allow_inf_nan=False)


def decoding_figures(rounds: int, calls: int) -> list[Figure]:
    from modelport.wire import loads

    figures = []
    for id_, title, data in _documents():
        assert pydantic_core_loads(data) == loads(data)
        count = max(1, calls * 4000 // len(data))  # about the same bytes per round for each payload
        sides = [("candidate", pydantic_core_loads), ("loads", loads), ("from_json", _from_json)]
        times: dict[str, list[float]] = {name: [] for name, _ in sides}
        for round_ in range(rounds):
            for name, parse in sides if round_ % 2 == 0 else list(reversed(sides)):
                times[name].append(_per_call(parse, data, count))
        ratios = [c / b for c, b in zip(times["candidate"], times["loads"])]
        us = {name: statistics.median(values) * 1e6 for name, values in times.items()}
        figures.append(
            figure(
                id_,
                f"{title}: pydantic_core + checks vs wire.loads",
                "µs",
                us["loads"],
                us["candidate"],
                ratios,
                1.0,
                bytes=len(data),
                from_json_alone_us=round(us["from_json"], 2),
                from_json_alone_ratio=round(
                    statistics.median(f / b for f, b in zip(times["from_json"], times["loads"])), 2
                ),
            )
        )
    return figures
