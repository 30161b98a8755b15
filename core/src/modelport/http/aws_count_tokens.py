"""Amazon Bedrock's CountTokens API, for every provider on the Bedrock runtime (``bedrock`` with
Converse bodies, ``anthropic-bedrock`` with InvokeModel bodies): the request body and the answer.

``POST /model/{modelId}/count-tokens`` takes ``{"input": {"converse": {...}}}`` (the Converse
body's ``messages``, ``system``, ``toolConfig``, ``additionalModelRequestFields``) or
``{"input": {"invokeModel": {"body": "<base64>"}}}`` (the InvokeModel body the model would get, as
a base64 blob: the JSON protocol's encoding of a blob), and answers ``{"inputTokens": N}``. The
InvokeModel body is encoded with its keys sorted, so the same body is always the same bytes.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from typing import Any

from ..errors import InvalidRequestError
from ..provider import TokenCount

__all__ = ["COUNT_TOKENS_ACTION", "converse_count_body", "invoke_model_count_body", "token_count"]

#: The last segment of the CountTokens path, ``/model/{modelId}/count-tokens``.
COUNT_TOKENS_ACTION = "count-tokens"

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, sort_keys=True)


def converse_count_body(converse: Mapping[str, Any]) -> dict[str, Any]:
    """``{"input": {"converse": converse}}`` (give only the fields CountTokens takes)."""
    return {"input": {"converse": dict(converse)}}


def invoke_model_count_body(body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"input": {"invokeModel": {"body": base64(JSON of body)}}}``, the JSON compact, UTF-8 and
    key-sorted; a value JSON cannot carry is an ``InvalidRequestError`` before any I/O."""
    try:
        encoded = _ENCODER.encode(body).encode("utf-8")
    except (TypeError, ValueError, RecursionError) as error:
        reason = type(error).__name__ if isinstance(error, UnicodeError) else str(error)
        raise InvalidRequestError(f"the request contains a value that is not JSON: {reason}") from None
    return {"input": {"invokeModel": {"body": base64.b64encode(encoded).decode("ascii")}}}


def token_count(data: Any) -> TokenCount:
    """The :class:`~modelport.provider.TokenCount` of a CountTokens answer, ``{"inputTokens": N}``
    (another shape is a ``KeyError``/``TypeError`` for the kit's decoder guard)."""
    return TokenCount(input_tokens=data["inputTokens"])
