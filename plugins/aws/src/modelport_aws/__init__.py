"""modelport-aws: Amazon Bedrock (Converse and ConverseStream) for modelport.

Provider ``bedrock``. Use it through ``modelport.get_model("bedrock/us.amazon.nova-micro-v1:0")``;
the names here are for typing and configuration.
"""

from __future__ import annotations

from .provider import BEDROCK_SERVICE, BedrockProvider, runtime_url

__all__ = ["BEDROCK_SERVICE", "BedrockProvider", "runtime_url"]
