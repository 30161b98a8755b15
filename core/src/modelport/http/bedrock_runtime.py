"""What every provider on the Amazon Bedrock runtime shares (``bedrock`` with Converse bodies,
``anthropic-bedrock`` with InvokeModel bodies): the SigV4 service name, the Bedrock API key's
environment variable, the reason batches are refused, the model path and the CountTokens decoder.

A model id (a foundation model such as ``us.amazon.nova-micro-v1:0``, a cross-region inference
profile or an ARN) goes in the path percent-encoded whole, as botocore sends it:
``/model/{modelId}/{action}``, the action being the API's (``converse``, ``converse-stream``,
``invoke``, ``invoke-with-response-stream``, ``count-tokens``). A provider subclasses
:class:`~modelport.http.sigv4.SigV4Provider` with ``signing_service = BEDROCK_SERVICE``, lists
:class:`BedrockTokenCount` before it among its bases for ``decode_token_count``, and sets
``unsupported_reasons = {"batch": BATCH_REFUSAL}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..errors import InvalidRequestError

if TYPE_CHECKING:
    from ..provider import TokenCount
    from ._types import HttpRequest

__all__ = ["BATCH_REFUSAL", "BEARER_ENV", "BEDROCK_SERVICE", "BedrockTokenCount", "model_path"]

#: The SigV4 service name of the Bedrock runtime.
BEDROCK_SERVICE = "bedrock"
#: A Bedrock API key (``Authorization: Bearer``), when no AWS credentials are given explicitly.
BEARER_ENV = "AWS_BEARER_TOKEN_BEDROCK"
#: Why ``batch`` is refused (before any I/O): Bedrock's batch inference does not fit the batch
#: contract without an S3 client (docs/bedrock.md, "Batches").
BATCH_REFUSAL = (
    "Bedrock batch inference (CreateModelInvocationJob) reads its requests from and writes its "
    "results to S3 buckets you own, runs under an IAM service role you pass by ARN and takes no job "
    "under the per-account minimum of records; modelport has no S3 client, so write the JSONL to "
    "S3 and start the job with boto3"
)


def model_path(model_name: str, action: str, *, provider: str) -> str:
    """``/model/{modelId}/{action}``, the id percent-encoded whole (``:`` and ``/`` included); an
    empty id, one with surrounding spaces or a control character is an ``InvalidRequestError``
    naming ``provider``, before any I/O."""
    if not model_name or model_name.strip() != model_name or any(c < " " for c in model_name):
        raise InvalidRequestError(f"{provider}: not a model id: {model_name!r}")
    return f"/model/{quote(model_name, safe='')}/{action}"


class BedrockTokenCount:
    """``decode_token_count`` for a provider on the Bedrock runtime: CountTokens answers
    ``{"inputTokens": N}`` in either form (:func:`modelport.http.aws_count_tokens.token_count`)."""

    def decode_token_count(self, data: Any, spec: HttpRequest) -> TokenCount:
        """``{"inputTokens": N}`` → ``TokenCount(input_tokens=N)``."""
        from .aws_count_tokens import token_count

        return token_count(data)
