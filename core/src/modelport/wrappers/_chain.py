"""How a chain of hooks is built around the innermost call (shared by calls and streams)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

__all__ = ["chain"]


def chain(hooks: Sequence[Any], innermost: Callable[..., Any], model: object) -> Callable[..., Any]:
    """``innermost`` inside every hook of ``hooks``, the first outermost: each hook is called with
    the request, ``call_next`` (the rest) and ``model``."""
    call = innermost
    for hook in reversed(hooks):
        call = partial(hook, call_next=call, model=model)
    return call
