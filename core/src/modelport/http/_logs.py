"""The HTTP libraries' own loggers, scrubbed of every live credential.

httpcore logs every response's headers at DEBUG (``receive_response_headers.complete
return_value=(…, [(b'x-request-id', b'…')])``), hpack every HTTP/2 header it decodes, and httpx every
request's URL at INFO: a server that echoes the key in a response header (``x-request-id``) put it in
the root logger's output of any application logging at DEBUG. modelport never logs a header itself
(:meth:`~modelport.http._exchange.Exchange.logged`); for these loggers, a :class:`logging.Filter` is
installed on each (:data:`LOGGERS`) the first time a modelport endpoint is built. It replaces, in
every record's message and arguments (formatted first), each credential of every live endpoint by
value (in every form :mod:`modelport.secrets` knows, any letter case, split pieces) and every key
shape, with ``[REDACTED]``. An endpoint's credentials are forgotten with the endpoint (a weak
reference), so a closed model's key is not kept here.

A credential shorter than :data:`~modelport.secrets.MIN_SECRET_LENGTH` (a test key such as ``t``; no
provider issues one) is replaced only where it stands as a whole token, in any letter case, between
characters no key is made of (a quote, a space, ``=``, a comma): the filter sees the records of every
endpoint in the process, and replacing a one-letter credential everywhere turned every other
endpoint's log into ``POS[REDACTED]``. Its echo as a header value or a query parameter is still
removed.

A filter on a logger sees only the records made by that logger (not those of its children), so each
logger is named. Limit: a token an auth flow adds to a request (not the endpoint's own credential)
is known only once the request was sent; its echo in the headers of that first response is removed
only by shape (``ya29.…``, a bearer token, a JWT).
"""

from __future__ import annotations

import functools
import logging
import re
import threading
import weakref
from collections.abc import Iterable

from ..secrets import MIN_SECRET_LENGTH, redact

__all__ = ["LOGGERS", "live_secrets", "scrubbed", "watch"]

#: The loggers of the HTTP stack (and of botocore's SigV4 signer) that may log a header or a URL.
LOGGERS = (
    "httpx",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
    "httpcore.socks",
    "hpack.hpack",
    "hpack.table",
    # botocore's signer logs the canonical request at DEBUG, the session token's value in it
    "botocore.auth",
    "botocore.credentials",
    "botocore.utils",
)

_lock = threading.Lock()
_live: weakref.WeakKeyDictionary[object, tuple[str, ...]] = weakref.WeakKeyDictionary()
_installed = False


class _Scrubbing(logging.Filter):
    """Formats each record's message and replaces every live credential and key shape in it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot be formatted is left to logging's own report
            return True
        record.msg, record.args = scrubbed(message, live_secrets()), ()
        return True


def scrubbed(message: str, secrets: tuple[str, ...]) -> str:
    """``message`` with every key shape and each of ``secrets`` replaced: a credential of at least
    :data:`~modelport.secrets.MIN_SECRET_LENGTH` characters in every form, a shorter one only as a
    whole token."""
    whole = tuple(secret for secret in secrets if len(secret) >= MIN_SECRET_LENGTH)
    short = tuple(secret for secret in secrets if len(secret) < MIN_SECRET_LENGTH)
    message = redact(message, whole)
    return _whole_tokens(short).sub("[REDACTED]", message) if short else message


#: What a key is made of (base64 and URL-safe characters, the dots of a JWT): a short credential is
#: found, in any letter case, only between characters outside this set (``=`` ends a query name).
_KEY_CHARACTERS = r"\w\-.~+/"


@functools.lru_cache(maxsize=64)
def _whole_tokens(secrets: tuple[str, ...]) -> re.Pattern[str]:
    choices = "|".join(re.escape(secret) for secret in sorted(secrets, key=len, reverse=True))
    return re.compile(f"(?<![{_KEY_CHARACTERS}])(?:{choices})(?![{_KEY_CHARACTERS}])", re.IGNORECASE)


def live_secrets() -> tuple[str, ...]:
    """Every credential of every live endpoint."""
    with _lock:
        return tuple(sorted({secret for secrets in _live.values() for secret in secrets}))


def watch(owner: object, secrets: Iterable[str]) -> None:
    """Scrub ``secrets`` from the HTTP libraries' log records for as long as ``owner`` lives (the
    filter is installed on the first call)."""
    global _installed
    known = tuple(s for s in secrets if s)
    with _lock:
        if known:
            _live[owner] = known
        if _installed:
            return
        _installed = True
    scrubbing = _Scrubbing()
    for name in LOGGERS:
        logging.getLogger(name).addFilter(scrubbing)
