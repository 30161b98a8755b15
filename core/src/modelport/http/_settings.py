"""The request settings and finish reasons every mapping repeats, as data: which of a request's
generation settings go on the wire under which key (:func:`wire_settings`), a warning for each one
set that the API has no field for (:func:`setting_warnings`), and a wire stop reason read through a
table (:func:`finish_reason`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from ..types import CallWarning

if TYPE_CHECKING:
    from ..types import FinishReason, Request

__all__ = ["GENERATION_SETTINGS", "finish_reason", "setting_warnings", "wire_settings"]

#: The settings of a :class:`~modelport.types.Request` that shape the generation, in field order:
#: each is mapped to the wire or, when set, reported (never silently dropped). ``messages``,
#: ``tools``, ``documents``, ``prompt_cache`` and ``provider_options`` are mapped on their own.
GENERATION_SETTINGS: tuple[str, ...] = (
    "max_output_tokens",
    "temperature",
    "top_p",
    "top_k",
    "stop_sequences",
    "seed",
    "presence_penalty",
    "frequency_penalty",
    "response_format",
    "tool_choice",
    "reasoning",
    "user_id",
    "request_labels",
)
_KNOWN = frozenset(GENERATION_SETTINGS)


def wire_settings(request: Request, fields: Mapping[str, str]) -> dict[str, Any]:
    """The wire fields of the settings ``request`` sets among ``fields`` (setting → wire key), in the
    order of ``fields``: ``wire_settings(request, {"max_output_tokens": "max_tokens", "top_p":
    "topP"})`` is ``{"max_tokens": 256}`` for a request that sets ``max_output_tokens=256`` only.
    A value is sent as the request holds it (a list copied). A name that is not one of
    :data:`GENERATION_SETTINGS` is a ``ValueError`` (a typo would drop the setting silently)."""
    _check(fields)
    out: dict[str, Any] = {}
    for setting, key in fields.items():
        value = getattr(request, setting)
        if value is not None:
            out[key] = list(value) if isinstance(value, list) else value
    return out


def setting_warnings(
    request: Request,
    mapped: Collection[str] = (),
    *,
    settings: Collection[str] = GENERATION_SETTINGS,
    details: str = "the API has no field for it",
) -> list[CallWarning]:
    """One ``unsupported-setting`` warning (with ``details``) per setting of ``settings`` that
    ``request`` sets and the mapping does not send (not in ``mapped``), in the order of
    ``settings``. Pass the keys of the :func:`wire_settings` table as ``mapped``, and every setting
    the API has a field for is sent while every other one set is reported. ``{setting}`` in
    ``details`` stands for the setting's name (``"the Messages API has no {setting}"``). A name that
    is not one of :data:`GENERATION_SETTINGS` is a ``ValueError``."""
    _check(mapped)
    _check(settings)
    return [
        CallWarning(type="unsupported-setting", setting=name, details=details.replace("{setting}", name))
        for name in settings
        if name not in mapped and getattr(request, name) is not None
    ]


def finish_reason(raw: object, reasons: Mapping[str, FinishReason]) -> FinishReason:
    """The contract's finish reason of a wire stop reason, through ``reasons`` (wire value →
    finish reason): a value not in it, ``None`` or one that is not a string is ``"other"``, never
    an error (a newer API version may add stop reasons)."""
    return reasons.get(raw, "other") if isinstance(raw, str) else "other"


def _check(names: Collection[str]) -> None:
    unknown = sorted(set(names) - _KNOWN)
    if unknown:
        raise ValueError(f"not generation settings of a Request: {', '.join(map(repr, unknown))}")
