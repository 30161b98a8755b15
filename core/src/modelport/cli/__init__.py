"""The ``modelport`` command (``pip install "modelport[cli]"``).

The core provides ``providers``, ``models`` (a provider's own model list), ``generate``, ``chat``,
``keys``, ``logs``, ``aliases``, ``default-model``, ``templates``, ``fragments`` (docs/cli.md) and
``new-provider`` (a plugin scaffold); installed packages add subcommands through the entry-point
group ``modelport.commands``
(entry-point name = command name, value = a :class:`click.Command`), e.g.
``modelport-conformance`` adds ``conformance``, and transports for ``generate`` through
``modelport.transports`` (:mod:`modelport.cli.transports`; ``--cassette`` comes from
``modelport-conformance``). A subcommand that fails to import is reported
(in ``modelport --help``, ``modelport providers`` and when it is invoked), never fatal to the others.

:func:`run` is the console script: without click installed it says which extra to install.
:data:`main` is the click group (imported on first use, so ``import modelport.cli`` needs no click).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..lazy import lazy_attributes

if TYPE_CHECKING:
    from ._app import COMMANDS_GROUP, command_errors, main

__all__ = ["COMMANDS_GROUP", "command_errors", "main", "run"]


def run() -> None:
    """The ``modelport`` console script."""
    try:
        import click  # noqa: F401
    except ImportError:
        sys.stderr.write('modelport: the command needs its extra: pip install "modelport[cli]"\n')
        sys.exit(2)
    from ._app import main

    main()


__getattr__, __dir__ = lazy_attributes(
    __name__, dict.fromkeys(("COMMANDS_GROUP", "command_errors", "main"), "._app")
)
