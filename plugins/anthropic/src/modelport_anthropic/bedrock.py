"""``anthropic-bedrock``: Claude on Amazon Bedrock, the Messages mapping behind InvokeModel.

The body is the ``anthropic`` provider's (:func:`._request.build_body`, one mapping for generate
and stream) with the changes Bedrock prescribes: no ``model`` (the model id is in the URL), no
``stream`` (the URL says it), ``anthropic_version: "bedrock-2023-05-31"`` in the body instead of
the ``anthropic-version`` header, and ``beta=`` as the body's ``anthropic_beta`` list instead of
the ``anthropic-beta`` header. Requests go to::

    POST https://bedrock-runtime.{region}.amazonaws.com/model/{modelId}/invoke
    POST .../model/{modelId}/invoke-with-response-stream                 (a stream)

signed with SigV4 by botocore through the core's :class:`modelport.http.sigv4.AwsCredentials`
(the ``modelport-anthropic[bedrock]`` extra): ``region=`` (else ``AWS_REGION``,
``AWS_DEFAULT_REGION``, the profile's), ``profile=``, explicit ``aws_access_key_id=``/
``aws_secret_access_key=``/``aws_session_token=``, else botocore's standard credential chain; a
Bedrock API key (``api_key=`` or ``AWS_BEARER_TOKEN_BEDROCK``) is sent as ``Authorization: Bearer``
when no AWS key is given. The model id is the console's: a foundation model
(``anthropic.claude-haiku-4-5-20251001-v1:0``), a cross-region inference profile
(``us.anthropic.claude-sonnet-4-5-20250929-v1:0``) or an ARN, percent-encoded whole in the path.

A stream is an AWS event stream whose ``chunk`` events carry the base64 of one Anthropic stream
event's JSON: the kit's ``"aws-event-stream-chunks"`` framing
(:mod:`modelport.http.event_stream`) hands the Anthropic decoder the same frames as SSE does.
Errors are Bedrock's: ``{"message": ...}`` with the type in ``x-amzn-errortype``, or an exception
frame mid-stream (``throttlingException``, ``modelStreamErrorException``, ...).

What Claude on Bedrock does not offer through this provider is refused before any I/O: the server
tools (web search, web fetch, code execution), Files API ids, the MCP connector (``mcp_servers``),
code-execution ``container`` and ``service_tier``, Message Batches (Bedrock runs batch inference
jobs instead, on the caller's S3 buckets: see :data:`BATCH_REFUSAL`) and the Models API.
``response_format`` goes as a forced answer tool unless ``structured_output="native"`` is asked.

``count_tokens`` is Bedrock's CountTokens API in its InvokeModel form
(:mod:`modelport.http.aws_count_tokens`): ``POST /model/{modelId}/count-tokens`` with
``{"input": {"invokeModel": {"body": base64(the InvokeModel body generate would send)}}}``,
answered ``{"inputTokens": N}``. Bedrock counts for the foundation-model ids it lists as
supporting it; another id (some cross-region profiles) is its 400, mapped as any Bedrock error.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from modelport.errors import InvalidRequestError
from modelport.http import HttpRequest, bedrock_runtime
from modelport.http.aws_count_tokens import COUNT_TOKENS_ACTION
from modelport.http.bedrock_runtime import BATCH_REFUSAL, BEARER_ENV, BEDROCK_SERVICE, BedrockTokenCount
from modelport.http.sigv4 import SigV4Provider
from modelport.provider import Capabilities

from ._cloud import CloudClaudeProvider, answer_as_tool, refuse_file_ids, refuse_server_tools
from .provider import _beta_names

if TYPE_CHECKING:
    from modelport.errors import ProviderError
    from modelport.types import Request

__all__ = [
    "BATCH_REFUSAL",
    "BEDROCK_ANTHROPIC_VERSION",
    "BEDROCK_SERVICE",
    "BedrockAnthropicProvider",
    "anthropic_model_name",
    "bedrock_model_path",
]

#: The ``anthropic_version`` every Bedrock body carries.
BEDROCK_ANTHROPIC_VERSION = "bedrock-2023-05-31"
#: Body fields of the Messages API that Bedrock's InvokeModel does not take (refused before I/O).
UNSERVED = {
    "mcp_servers": "the MCP connector",
    "container": "code-execution containers",
    "service_tier": "service_tier",
}


def anthropic_model_name(model_id: str) -> str:
    """The Anthropic model name in a Bedrock model id, for the mapping's per-family rules (default
    ``max_tokens``, thinking): ``us.anthropic.claude-sonnet-4-5-20250929-v1:0`` (or the foundation
    model id, or an ARN ending in either) → ``claude-sonnet-4-5-20250929``. An id without one (an
    application inference profile's ARN) is kept whole: the rules for an unknown model apply."""
    name = model_id.rsplit("/", 1)[-1]
    name = re.sub(r"^(?:[a-z]{2,6}(?:-[a-z]+)?\.)?anthropic\.", "", name)
    return re.sub(r"-v\d+(?::\d+)?$", "", name)


def bedrock_model_path(model_name: str, *, stream: bool, action: str | None = None) -> str:
    """``/model/{modelId}/invoke`` (or ``/invoke-with-response-stream``, or ``/{action}``), the id
    (an inference profile, a foundation model id or an ARN) percent-encoded whole, as botocore
    sends it (:func:`modelport.http.bedrock_runtime.model_path`)."""
    action = action or ("invoke-with-response-stream" if stream else "invoke")
    return bedrock_runtime.model_path(model_name, action, provider="anthropic-bedrock")


class BedrockAnthropicProvider(BedrockTokenCount, SigV4Provider, CloudClaudeProvider):
    """Claude on Amazon Bedrock (``bedrock-runtime.{region}.amazonaws.com``, InvokeModel)."""

    id: ClassVar[str] = "anthropic-bedrock"
    display_name: ClassVar[str] = "Anthropic on Amazon Bedrock"
    telemetry_name: ClassVar[str | None] = "aws.bedrock"
    stream_framing: ClassVar[str] = "aws-event-stream-chunks"
    api_key_env: ClassVar[tuple[str, ...]] = (BEARER_ENV,)
    api_key_header: ClassVar[str] = "authorization"
    credential_headers: ClassVar[frozenset[str]] = frozenset({"authorization", "x-amz-security-token"})
    config_options: ClassVar[frozenset[str] | None] = frozenset(
        {
            "region",
            "profile",
            "aws_access_key_id",
            "aws_secret_access_key",
            "aws_session_token",
            "beta",
            "name",
        }
    )
    saved_options: ClassVar[frozenset[str]] = frozenset({"region", "profile", "beta", "name"})
    #: The clouds' features, and Bedrock's CountTokens (in its InvokeModel form).
    capabilities: ClassVar[Capabilities] = dataclasses.replace(
        CloudClaudeProvider.capabilities, count_tokens=True
    )
    unsupported_reasons: ClassVar[Mapping[str, str]] = {"batch": BATCH_REFUSAL}

    #: Region, credentials, endpoint and signing: the core's SigV4Provider (as on ``bedrock``).
    signing_service: ClassVar[str] = BEDROCK_SERVICE
    endpoint_prefix: ClassVar[str] = "bedrock-runtime"

    def headers(self) -> Mapping[str, str]:
        """None: the version and the betas go in the body on Bedrock."""
        return {}

    # Mapping ----------------------------------------------------------------------------------

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        """InvokeModel (``/invoke``, ``/invoke-with-response-stream``) with the Messages body, less
        ``model`` and ``stream``, plus ``anthropic_version`` (and ``anthropic_beta``)."""
        from ._request import build_body

        refuse_server_tools(request, self.id)
        path = bedrock_model_path(model_name, stream=stream)
        name = anthropic_model_name(model_name)
        body, warnings, answer = build_body(name, answer_as_tool(request), stream=stream)
        refuse_file_ids(body, self.id)
        for field, what in UNSERVED.items():
            if field in body:
                raise InvalidRequestError(f"{self.id}: Claude on Bedrock does not take {what} ({field!r})")
        body.pop("model", None)
        body.pop("stream", None)
        body["anthropic_version"] = BEDROCK_ANTHROPIC_VERSION
        betas = _beta_names(self.config.options.get("beta"))
        if betas:
            body["anthropic_beta"] = betas
        headers = {"accept": "application/json"}
        return HttpRequest(path, body=body, headers=headers, stream=stream, warnings=warnings, context=answer)

    def count_tokens_request(self, model_name: str, request: Request) -> HttpRequest:
        """``POST /model/{modelId}/count-tokens`` with the InvokeModel body :meth:`build_request`
        sends, as ``input.invokeModel.body`` (base64); refused before I/O as that body is."""
        from modelport.http.aws_count_tokens import invoke_model_count_body

        invoke = self.build_request(model_name, request, stream=False)
        path = bedrock_model_path(model_name, stream=False, action=COUNT_TOKENS_ACTION)
        body = invoke_model_count_body(invoke.body)
        return HttpRequest(path, body=body, headers=dict(invoke.headers), warnings=invoke.warnings)

    def error_from_response(self, status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        """Bedrock's ``{"message"}`` with ``x-amzn-errortype``; a Messages error body (the model's
        own) as on the Anthropic API."""
        from ._bedrock_errors import error_from_response

        return error_from_response(status, headers, body, provider=self.name)
