"""modelport-google: the Google Gemini provider plugin for modelport."""

from __future__ import annotations

__all__: list[str] = []
