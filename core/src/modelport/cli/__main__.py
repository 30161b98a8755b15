"""``python -m modelport.cli``: the ``modelport`` command."""

from . import run

run()
