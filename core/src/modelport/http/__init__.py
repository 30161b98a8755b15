"""The plugin kit for HTTP providers: a provider plugin is pure mapping; the core does the I/O.

Subclass :class:`HttpProvider` and supply four pure pieces; the core sends them, once for sync and
async, generate and stream::

    class AcmeProvider(HttpProvider):
        id = "acme"
        default_base_url = "https://api.acme.example/v1"
        api_key_env = ("ACME_API_KEY",)          # sent as "authorization: Bearer <key>"

        def build_request(self, model_name, request, *, stream):   # canonical Request → HttpRequest
            return HttpRequest("/chat", body={...}, stream=stream, warnings=[...])

        def decode_response(self, data, spec):                     # parsed JSON → Result
            ...

        def stream_decoder(self, spec):                            # frames → events
            return AcmeStreamDecoder()                              # .feed(frame), .finish()

        def error_from_response(self, status, headers, body):      # optional: the default reads
            ...                                                     # {"error": {"message", ...}}

        def outcome_of_error(self, error):                         # optional: an error status that
            ...                                                     # is an outcome → its Result

What the core owns, for every provider alike: pooled clients (one async client per event loop,
closed with its loop), credentials (looked up, checked to be sendable, never in a message), strict
JSON both ways, SSE framing (:mod:`modelport.http.sse`: ``[DONE]``, comments, ``event: error``, in-stream
error objects, BOM, CRLF) or AWS event-stream framing (:mod:`modelport.http.event_stream`, chosen
with ``stream_framing``; SigV4 signing in :mod:`modelport.http.sigv4`), size bounds
(:class:`Limits`), a total deadline, redirects (none unless asked, never across origins), retries,
typed errors from transport failures, warnings on both the result and the ``stream-start`` event,
and scrubbing of every credential from every error.

Authentication plugs in as an :class:`httpx.Auth` (:meth:`HttpProvider.auth`), whose sync and async
flows let a token be fetched or refreshed without twin methods. A provider's other endpoints go
through the same I/O: :meth:`HttpProvider.call` / :meth:`HttpProvider.call_json` for one request,
and an :class:`Operation` (pure steps, run with ``.run()`` or awaited) for a flow of several, such as
a resumable upload or polling until a file is ready; token counting is the optional
``count_tokens_request``/``decode_token_count`` pair.

What every stream decoder repeats is in the kit too, as data: :class:`StreamParts` keeps the parts'
bookkeeping (ids, starting and ending text, reasoning and tool-call parts, the offset of the text,
ending what is open at the end), :func:`merge_items` folds an item-by-item stream into the whole
answer for the conformance suite's ``merged`` check, and :func:`decode_frames` decodes a whole answer
through the stream decoder. So is what every request mapping repeats: :func:`wire_settings` puts the
request's generation settings (:data:`GENERATION_SETTINGS`) on the wire from a table,
:func:`setting_warnings` reports each one set that the API has no field for, and
:func:`finish_reason` reads a stop reason through a table (:meth:`StreamParts.stop` ends the parts
and gives the ``finish`` event with it). A provider that does not speak HTTP
subclasses :class:`~modelport.provider.Provider` and implements ``generate``/``stream`` directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_attributes

if TYPE_CHECKING:
    from . import event_stream as event_stream
    from . import google_cloud as google_cloud
    from . import sigv4 as sigv4
    from . import sse as sse
    from . import urls as urls
    from ._auth import HeaderAuth, check_header_value
    from ._calls import DECODE_ERRORS
    from ._clients import DEFAULT_TIMEOUT, HttpClients, check_async_transport
    from ._endpoint import Endpoint
    from ._errors import (
        ERROR_TYPES,
        TRANSIENT_STATUSES,
        error_class,
        error_message,
        own_status,
        parse_retry_after,
        status_error,
        stream_error,
    )
    from ._file_body import FileBody
    from ._kit import HttpProvider
    from ._lines import BadLine
    from ._operation import Operation
    from ._parts import StreamParts
    from ._settings import GENERATION_SETTINGS, finish_reason, setting_warnings, wire_settings
    from ._stream_end import StreamEnd
    from ._tool_output import tool_output_parts
    from ._types import HttpRequest, HttpResponse, Limits, Steps, StreamDecoder, Wait
    from ._whole import decode_frames, merge_items

# Each name loads with its module on first read: a module of the kit (``modelport.http.urls``) can be
# imported without the whole kit.
_LAZY = {
    "FileBody": "._file_body",
    "HeaderAuth": "._auth",
    "check_header_value": "._auth",
    "ERROR_TYPES": "._errors",
    "TRANSIENT_STATUSES": "._errors",
    "error_class": "._errors",
    "error_message": "._errors",
    "own_status": "._errors",
    "parse_retry_after": "._errors",
    "status_error": "._errors",
    "stream_error": "._errors",
    "DECODE_ERRORS": "._calls",
    "Endpoint": "._endpoint",
    "HttpProvider": "._kit",
    "BadLine": "._lines",
    "Operation": "._operation",
    "StreamParts": "._parts",
    "GENERATION_SETTINGS": "._settings",
    "finish_reason": "._settings",
    "setting_warnings": "._settings",
    "wire_settings": "._settings",
    "decode_frames": "._whole",
    "merge_items": "._whole",
    "StreamEnd": "._stream_end",
    "tool_output_parts": "._tool_output",
    "HttpRequest": "._types",
    "HttpResponse": "._types",
    "Limits": "._types",
    "Steps": "._types",
    "StreamDecoder": "._types",
    "Wait": "._types",
    "HttpClients": "._clients",
    "check_async_transport": "._clients",
    "DEFAULT_TIMEOUT": "._clients",
    "google_cloud": ".google_cloud",
    "sse": ".sse",
    "event_stream": ".event_stream",
    "sigv4": ".sigv4",
    "urls": ".urls",
}
__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)

__all__ = [
    "BadLine",
    "DECODE_ERRORS",
    "Endpoint",
    "FileBody",
    "HeaderAuth",
    "HttpProvider",
    "HttpRequest",
    "HttpResponse",
    "Operation",
    "Steps",
    "StreamEnd",
    "tool_output_parts",
    "StreamParts",
    "GENERATION_SETTINGS",
    "finish_reason",
    "setting_warnings",
    "wire_settings",
    "Wait",
    "Limits",
    "StreamDecoder",
    "check_header_value",
    "decode_frames",
    "merge_items",
    "ERROR_TYPES",
    "TRANSIENT_STATUSES",
    "error_class",
    "error_message",
    "own_status",
    "parse_retry_after",
    "status_error",
    "stream_error",
    "DEFAULT_TIMEOUT",
    "HttpClients",
    "check_async_transport",
]
