"""Transports installed packages contribute to ``modelport generate``: ``--cassette`` is one.

A package declares an entry point in the group :data:`TRANSPORTS_GROUP` (name = the ``generate``
option without its dashes, value = a function). The function takes the model id and the option's
value and returns a :class:`Replay`: the HTTP transport the model is built on, the ``get_model``
keywords the replay needs, and what the recording did not match once the call is over. A file that
cannot be used is a :class:`modelport.errors.ConfigurationError` (printed as ``error: …``).
modelport-conformance contributes ``cassette``::

    [project.entry-points."modelport.transports"]
    cassette = "modelport_conformance.cli:cassette_transport"

The core imports no contributing package: without it, the option is an error naming the package
to install.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigurationError

if TYPE_CHECKING:
    import httpx

__all__ = ["TRANSPORTS", "TRANSPORTS_GROUP", "Replay", "open_transport"]

#: The entry-point group transports are contributed through (name = option, value = a function).
TRANSPORTS_GROUP = "modelport.transports"

#: The options of ``generate`` served by a contributed transport → the distribution that provides it.
TRANSPORTS = {"cassette": "modelport-conformance"}


def _no_mismatch() -> list[str]:
    return []


@dataclass(frozen=True)
class Replay:
    """What a contributed transport gives ``generate``: the model is
    ``get_model(model_id, **options, transport=transport)``; after the call, ``problems()`` lists the
    requests the recording did not match (each line printed; any fails the command)."""

    transport: httpx.BaseTransport
    options: Mapping[str, Any] = field(default_factory=dict)
    problems: Callable[[], list[str]] = _no_mismatch


def open_transport(option: str, model_id: str, path: Path) -> Replay:
    """The :class:`Replay` the package contributing ``option`` opens for ``model_id`` and ``path``.

    Raises :class:`ConfigurationError` naming the package to install when none contributes it, or
    saying why the contribution failed to load.
    """
    found = sorted(
        (ep for ep in metadata.entry_points(group=TRANSPORTS_GROUP) if ep.name == option),
        key=lambda ep: ep.value,
    )
    if not found:
        package = TRANSPORTS.get(option, "the package that provides it")
        raise ConfigurationError(f"--{option} needs {package} (pip install {package})")
    try:
        opener = found[0].load()
    except (Exception, SystemExit) as error:  # a broken package must not crash the command
        raise ConfigurationError(
            f"the --{option} transport failed to load: {type(error).__name__}: {error}"
        ) from None
    replay = opener(model_id, path)
    if not isinstance(replay, Replay):
        raise ConfigurationError(f"{found[0].value} returned a {type(replay).__name__}, not a Replay")
    return replay
