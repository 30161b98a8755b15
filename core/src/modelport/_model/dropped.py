"""The one WARNING line a call writes for the settings and tools its provider dropped, shared by
:class:`~modelport.Model`'s calls and its result streams."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..types import CallWarning

_log = logging.getLogger("modelport")

_DROPPED = ("unsupported-setting", "unsupported-tool")


def log_dropped(model_id: str, warnings: Sequence[CallWarning]) -> None:
    """One WARNING line on the ``modelport`` logger for the settings and tools a call dropped."""
    dropped = [w for w in warnings if w.type in _DROPPED]
    if not dropped or not _log.isEnabledFor(logging.WARNING):
        return
    described = "; ".join(
        ("tool " if w.type == "unsupported-tool" else "")
        + (w.setting or "?")
        + (f" ({w.details})" if w.details else "")
        for w in dropped
    )
    _log.warning(
        "%s dropped unsupported settings: %s",
        model_id,
        described,
        extra={"modelport_model": model_id, "modelport_dropped": [w.setting for w in dropped]},
    )
