"""Request values checked against the bounds a provider declares as data
(:attr:`Provider.request_bounds <modelport.provider.Provider.request_bounds>`), before any I/O.

The request model bounds what no provider takes (a negative temperature, a ``top_p`` above 1, a seed
past 2**53); a provider's own range, Anthropic's temperature of 0 to 1 or Gemini's ``topK`` of at
most 2**31 - 1 (an int32 on the wire), is the provider's data, checked here once for every plugin.
So is a capability a request needs: request ``documents`` (contract 2.3) go only to a provider that
declares ``Capabilities.documents``, so a 2.2 plugin, which knows nothing of them, never drops them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InvalidRequestError

if TYPE_CHECKING:
    from ..provider import Provider
    from ..types import Request

__all__ = ["check_bounds"]


def check_bounds(request: Request, provider: Provider) -> None:
    """An :class:`~modelport.errors.InvalidRequestError` for the first value of ``request`` outside
    the provider's ``request_bounds``, or for ``documents`` a provider does not map (its
    ``Capabilities.documents``); nothing for a value not given."""
    if request.documents and not provider.capabilities.documents:
        raise InvalidRequestError(
            f"invalid request: documents: provider {provider.id!r} takes no request documents"
            " (its capabilities have documents=False); nothing was sent"
        )
    for field, (lowest, highest) in provider.request_bounds.items():
        value = getattr(request, field, None)
        if value is not None and not lowest <= value <= highest:
            raise InvalidRequestError(
                f"invalid request: {field}: provider {provider.id!r} takes {_shown(lowest)} to"
                f" {_shown(highest)}, got {_shown(value)}"
            )


def _shown(number: float) -> str:
    """``7`` for 7 and 7.0, ``0.5`` for 0.5: the number as a person would write it."""
    if isinstance(number, int):
        return str(number)
    return str(int(number)) if number.is_integer() else repr(number)
