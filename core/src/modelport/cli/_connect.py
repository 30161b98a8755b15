"""How the command reaches a provider: the model id (aliases, the default model), the base URL,
and the key (``--key``, else the environment, else ``modelport keys``), and what it says when
there is none."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from ._home import Settings
from ._keys import KeyStore
from .terminal import safe

__all__ = ["connect_options", "error_text", "model_id", "open_model", "timing", "verbose_logging"]


def model_id(given: str | None, settings: Settings | None = None) -> str:
    """The model to call: ``given`` (an alias resolved), else the default model."""
    resolved = (settings or Settings.load()).resolve(given)
    if resolved is None:
        raise click.UsageError(
            "no model given and no default model: pass one (e.g. -m google/gemini-2.5-flash) or set "
            "a default with `modelport default-model MODEL`"
        )
    return resolved


def _stored_key(provider_cls: Any, typed_id: str) -> str | None:
    """The stored key for the provider, when none of the variables it reads is set."""
    if any(os.environ.get(name) for name in getattr(provider_cls, "api_key_env", ())):
        return None
    store = KeyStore()
    for name in dict.fromkeys((provider_cls.id, typed_id)):
        value = store.get(name)
        if value:
            return value
    return None


def open_model(model: str, *, base_url: str | None = None, key: str | None = None, **options: Any) -> Any:
    """The :class:`modelport.Model` for ``model``, with ``base_url`` and the key the command found."""
    import modelport
    from modelport import plugins

    provider_id = plugins.split_model_id(model)[0]
    if key is None:
        key = _stored_key(plugins.provider_class(provider_id), provider_id)
    if key:
        options["api_key"] = key
    if base_url:
        options["base_url"] = base_url
    return modelport.get_model(model, **options)


def error_text(error: BaseException) -> str:
    """An error as the command prints it (scrubbed); a missing key says the command's ways too."""
    from modelport.errors import MissingCredentialsError

    text = str(error)
    if isinstance(error, MissingCredentialsError):
        text += (
            f" From the command line: pass --key, or store one with `modelport keys set {error.provider}`."
        )
    return safe(text)


def connect_options(command: Any) -> Any:
    """The options every command that calls a model takes: --base-url and --key."""
    command = click.option(
        "--key",
        metavar="KEY",
        help="The API key (else the provider's environment variable, else `modelport keys`). "
        "Never printed; prefer `modelport keys set` (a command line can be seen by others).",
    )(command)
    return click.option(
        "--base-url",
        metavar="URL",
        help="The server's URL, e.g. http://localhost:8000/v1 (openai-compatible).",
    )(command)


class _StderrHandler(logging.Handler):
    """``modelport`` log records on standard error, scrubbed (``-v``)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            click.echo(safe(f"modelport: {record.getMessage()}"), err=True)
        except Exception:  # a log line must never break the call
            self.handleError(record)


@contextmanager
def verbose_logging(enabled: bool) -> Iterator[None]:
    """While the block runs, show the core's retries (its ``modelport`` logger, level INFO) on
    standard error when ``enabled``; the logger is as it was afterwards."""
    if not enabled:
        yield
        return
    logger = logging.getLogger("modelport")
    handler, level = _StderrHandler(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def timing(label: str, seconds: float) -> None:
    click.echo(f"modelport: {label} {seconds * 1000:.0f} ms", err=True)
