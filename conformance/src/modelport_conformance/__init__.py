"""modelport-conformance: recorded-cassette conformance suite for modelport provider plugins."""

from __future__ import annotations

__all__: list[str] = []
