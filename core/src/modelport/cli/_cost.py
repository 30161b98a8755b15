"""What a call cost, for ``--usage`` and the log: the total of :func:`modelport.wrappers.cost`, in
US dollars, when the ``genai-prices`` catalog is installed (``pip install 'modelport[cost]'``)."""

from __future__ import annotations

import importlib.util
from typing import Any

__all__ = ["catalog_installed", "priced"]


def catalog_installed() -> bool:
    return importlib.util.find_spec("genai_prices") is not None


def priced(result: Any) -> str | None:
    """The call's total in USD as a decimal string (``"0.0001468"``), or ``None``: no catalog, no
    usage, or a provider or model the catalog does not price (never a guessed zero)."""
    if result is None or getattr(result, "usage", None) is None or not catalog_installed():
        return None
    from modelport.wrappers import cost

    try:
        price = cost(result)
    except Exception:  # a catalog that cannot price this call must not fail it
        return None
    return None if price is None else format(price.total, "f")
