"""The decoder guard: what a decoder raises on data it did not expect, made a typed error.

Shared by the HTTP kit (every plugin decoder it calls) and the result streams (the core's own
:class:`~modelport.events.StreamAccumulator`, which folds whatever events a decoder sends), so that
a malformed response reaches the caller as a :class:`~modelport.errors.ProviderResponseError`,
never as a bare ``KeyError``.
"""

from __future__ import annotations

from ..errors import ProviderResponseError

__all__ = ["DECODE_ERRORS", "decode_error"]

#: What a decoder raises on data it did not expect (a typed ``ModelportError`` passes through);
#: ``OverflowError``: a number too large for what it stands for (a time stamp of ``1e20``).
DECODE_ERRORS = (TypeError, KeyError, AttributeError, IndexError, ValueError, OverflowError)


def decode_error(provider: str, error: Exception) -> ProviderResponseError:
    """The typed error for ``error``, raised while decoding ``provider``'s response."""
    typed = ProviderResponseError(
        f"the response could not be decoded: {type(error).__name__}: {error}", provider=provider
    )
    typed.__cause__ = error
    return typed
