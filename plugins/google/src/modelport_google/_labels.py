"""Vertex AI request labels: the rules they must meet, and ``user_id`` as a label value."""

from __future__ import annotations

from typing import Any

from modelport.errors import InvalidRequestError
from modelport.types import CallWarning

__all__ = ["MAX_LABELS", "MAX_LABEL_LENGTH", "check_labels", "label_value"]

#: Most labels one Vertex request may carry, and the longest key or value.
MAX_LABELS = 64
MAX_LABEL_LENGTH = 63


def _label_char(char: str) -> bool:
    # Lowercase letters (international ones too), digits, underscore and dash.
    return char.islower() or char.isdigit() or char in "_-"


def label_value(user_id: str, warnings: list[CallWarning]) -> str:
    """``user_id`` as a valid Vertex label value: lowercased, other characters as ``_``, cut to
    63 characters; the change is reported as a warning (documented in the plugin README)."""
    if len(user_id) <= MAX_LABEL_LENGTH and all(_label_char(c) for c in user_id):
        return user_id
    value = "".join(c if _label_char(c) else "_" for c in user_id.lower())[:MAX_LABEL_LENGTH]
    warnings.append(
        CallWarning(
            type="other",
            setting="user_id",
            details=f"user_id was normalised to the Vertex label value {value!r} (labels allow only "
            "lowercase letters, digits, '_' and '-', up to 63 characters)",
        )
    )
    return value


def check_labels(labels: dict[str, Any]) -> None:
    """Vertex label rules, before any request: at most 64; keys start with a lowercase letter; keys
    and values use only lowercase letters, digits, ``_`` and ``-``, at most 63 characters."""
    if len(labels) > MAX_LABELS:
        raise InvalidRequestError(f"Vertex AI accepts at most {MAX_LABELS} labels, got {len(labels)}")
    for key, value in labels.items():
        if not isinstance(value, str):
            raise InvalidRequestError(f"label {key!r}: the value must be a string")
        if not (0 < len(key) <= MAX_LABEL_LENGTH and key[0].islower() and all(map(_label_char, key))):
            raise InvalidRequestError(
                f"label key {key!r} is not valid on Vertex AI: 1-63 characters, starting with a "
                "lowercase letter, then lowercase letters, digits, '_' or '-'"
            )
        if not (len(value) <= MAX_LABEL_LENGTH and all(map(_label_char, value))):
            raise InvalidRequestError(
                f"label {key!r} has a value that is not valid on Vertex AI: at most 63 lowercase "
                "letters, digits, '_' or '-'"
            )
