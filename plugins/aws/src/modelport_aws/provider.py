"""The ``bedrock`` provider: Amazon Bedrock's Converse and ConverseStream APIs on the core's HTTP
kit, signed with SigV4 (:mod:`modelport.http.sigv4`), streams read as AWS event streams
(:mod:`modelport.http.event_stream`).

Pure mapping: bodies from :mod:`._request` (files :mod:`._content`, documents :mod:`._documents`,
reasoning :mod:`._reasoning`, cache points :mod:`._caching`), answers from :mod:`._stream`
(a whole answer as its stream's frames: :mod:`._frames`; citations :mod:`._citations`), errors
from :mod:`._errors`, embeddings (InvokeModel) from :mod:`._embed`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from modelport.http import HttpRequest, StreamEnd, decode_frames
from modelport.http.bedrock_runtime import BATCH_REFUSAL, BEARER_ENV, BEDROCK_SERVICE, BedrockTokenCount
from modelport.http.sigv4 import SigV4Provider
from modelport.provider import Capabilities, EmbedRequest
from modelport.wire_map import WireMap

from ._wire_map import BEDROCK_WIRE_MAP

if TYPE_CHECKING:
    from modelport.errors import ProviderError
    from modelport.types import EmbeddingResult, Request, Result

    from ._stream import ConverseStream

# BATCH_REFUSAL and BEDROCK_SERVICE are modelport.http.bedrock_runtime's, re-exported here.
__all__ = ["BATCH_REFUSAL", "BEDROCK_SERVICE", "BedrockProvider", "runtime_url"]


def runtime_url(region: str) -> str:
    """``https://bedrock-runtime.{region}.amazonaws.com``."""
    return f"https://bedrock-runtime.{region}.amazonaws.com"


class BedrockProvider(BedrockTokenCount, SigV4Provider):
    """Amazon Bedrock runtime, ``https://bedrock-runtime.{region}.amazonaws.com``.

    Options: ``region=`` (else ``AWS_REGION``, ``AWS_DEFAULT_REGION``, the profile's), ``profile=``
    (else ``AWS_PROFILE``), explicit ``aws_access_key_id=``/``aws_secret_access_key=``/
    ``aws_session_token=``; without them botocore's standard credential chain (environment, shared
    files, SSO, container and instance roles). A Bedrock API key (``api_key=`` or
    ``AWS_BEARER_TOKEN_BEDROCK``) is sent as ``Authorization: Bearer`` when no AWS key is given.
    """

    id: ClassVar[str] = "bedrock"
    display_name: ClassVar[str] = "Amazon Bedrock"
    telemetry_name: ClassVar[str | None] = "aws.bedrock"
    api_key_env: ClassVar[tuple[str, ...]] = (BEARER_ENV,)
    api_key_required: ClassVar[bool] = False
    credential_headers: ClassVar[frozenset[str]] = frozenset({"x-amz-security-token"})
    capabilities: ClassVar[Capabilities] = Capabilities(
        generate=True,
        stream=True,
        function_tools=True,
        reasoning=True,
        prompt_cache=True,
        count_tokens=True,
        documents=True,
        embed=True,
    )
    unsupported_reasons: ClassVar[Mapping[str, str]] = {"batch": BATCH_REFUSAL}
    stream_framing: ClassVar[str] = "aws-event-stream"
    #: A ConverseStream is complete once ``metadata`` (usage) came after ``messageStop``.
    stream_end: ClassVar[StreamEnd | None] = StreamEnd(
        kind="event", terminal=frozenset({"metadata"}), required=frozenset({"messageStop"})
    )
    saved_options: ClassVar[frozenset[str]] = frozenset({"region", "profile"})
    signing_service: ClassVar[str] = BEDROCK_SERVICE
    endpoint_prefix: ClassVar[str] = "bedrock-runtime"
    #: Where the Converse wire carries what is decoded, for the conformance suite's edits.
    wire_map: ClassVar[WireMap | None] = BEDROCK_WIRE_MAP

    def aws_credentials(self) -> Any:
        """botocore credentials: the explicit keys, else the standard chain (read once)."""
        return self.aws.credentials()

    # Mapping ---------------------------------------------------------------------------------

    def build_request(self, model_name: str, request: Request, *, stream: bool) -> HttpRequest:
        from ._request import build_request

        return build_request(model_name, request, stream=stream)

    def count_tokens_request(self, model_name: str, request: Request) -> HttpRequest:
        """``POST /model/{modelId}/count-tokens`` (the Bedrock CountTokens API)."""
        from ._request import count_tokens_request

        return count_tokens_request(model_name, request)

    def embed_requests(self, model_name: str, request: EmbedRequest) -> Sequence[HttpRequest]:
        """``POST /model/{modelId}/invoke`` per Titan or Nova value, per 96 Cohere values."""
        from ._embed import embed_calls
        from ._request import model_path

        path = model_path(model_name, stream=False, action="invoke")
        return [HttpRequest(path, body=call[1], context=call) for call in embed_calls(model_name, request)]

    def decode_embeddings(
        self, request: EmbedRequest, specs: Sequence[HttpRequest], responses: Sequence[Any]
    ) -> EmbeddingResult:
        from ._embed import decode_embeddings

        return decode_embeddings([spec.context for spec in specs], responses, provider=self.name)

    def decode_response(self, data: Any, spec: HttpRequest) -> Result:
        from ._frames import answer_frames

        return decode_frames(self.stream_decoder(spec), answer_frames(data))

    def stream_decoder(self, spec: HttpRequest) -> ConverseStream:
        from ._stream import ConverseStream

        return ConverseStream(spec.context or ())

    def error_from_response(self, status: int, headers: Mapping[str, str], body: str) -> ProviderError:
        from ._errors import error_from_response

        return error_from_response(status, headers, body, provider=self.name)
