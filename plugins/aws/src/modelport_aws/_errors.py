"""Bedrock error answers → typed errors: the core's AWS error mapping
(:mod:`modelport.http.aws_errors`), shared with ``anthropic-bedrock``. A Bedrock error is
``{"message": "..."}`` with its type in the ``x-amzn-errortype`` header (or ``__type``); the status
decides the class, the type is ``provider_status``, the request id is ``x-amzn-requestid``."""

from __future__ import annotations

from modelport.http.aws_errors import aws_error_from_response as error_from_response
from modelport.http.aws_errors import aws_error_type as error_type

__all__ = ["error_from_response", "error_type"]
