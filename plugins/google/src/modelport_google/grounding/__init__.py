"""Google Search grounding: metadata, streaming, citations, merging, evidence and accounting.

``groundingMetadata`` is kept as the provider sent it (unknown fields untouched) under
``provider_metadata["google"]["groundingMetadata"]`` (read it with :func:`grounding_metadata`) and
checked for shape, JSON-safety and size (S5); :class:`GroundingAccumulator` folds it across
stream frames (S7);
:func:`citations_from_grounding` turns its UTF-8 byte-offset supports into the core's
provider-neutral sources and character spans that :func:`modelport.cite` renders (S8);
:func:`merge_grounding`/:func:`merge_results` concatenate grounded answers (S9);
:func:`inline_evidence` and :func:`check_evidence` keep sources attached to text (S10);
:func:`grounding_stats`/:func:`result_stats` do query accounting (S11). The persistence envelope
(S6) lives in :mod:`modelport_google.grounding.envelope`. ``searchEntryPoint.renderedContent`` is
provider HTML, kept as an opaque string and never rendered here (S12).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelport.lazy import lazy_attributes

if TYPE_CHECKING:
    from . import envelope
    from ._access import GroundingMetadata, grounding_metadata
    from ._accumulate import GroundingAccumulator
    from ._citations import citations_from_grounding, sources_from_chunks
    from ._evidence import (
        GroundingStats,
        check_evidence,
        cited,
        grounding_stats,
        inline_evidence,
        result_stats,
    )
    from ._merge import merge_grounding, merge_results
    from ._validate import LIST_FIELDS, MAX_METADATA_BYTES, validate_grounding_metadata
    from .envelope import GroundingOutcome, build_envelope, decode

# Each name loads its module on first access: decoding a grounded answer reads only the validation
# (and the citations when they are first read), not the envelope, merging or evidence helpers.
_LAZY = {
    "envelope": ".envelope",
    "GroundingMetadata": "._access",
    "grounding_metadata": "._access",
    "GroundingAccumulator": "._accumulate",
    "citations_from_grounding": "._citations",
    "sources_from_chunks": "._citations",
    **dict.fromkeys(
        ("GroundingStats", "check_evidence", "cited", "grounding_stats", "inline_evidence", "result_stats"),
        "._evidence",
    ),
    "merge_grounding": "._merge",
    "merge_results": "._merge",
    **dict.fromkeys(("LIST_FIELDS", "MAX_METADATA_BYTES", "validate_grounding_metadata"), "._validate"),
    **dict.fromkeys(("GroundingOutcome", "build_envelope", "decode"), ".envelope"),
}
__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)

__all__ = [
    "LIST_FIELDS",
    "MAX_METADATA_BYTES",
    "GroundingAccumulator",
    "GroundingMetadata",
    "GroundingOutcome",
    "GroundingStats",
    "build_envelope",
    "check_evidence",
    "citations_from_grounding",
    "cited",
    "decode",
    "envelope",
    "grounding_metadata",
    "grounding_stats",
    "inline_evidence",
    "merge_grounding",
    "merge_results",
    "result_stats",
    "sources_from_chunks",
    "validate_grounding_metadata",
]
