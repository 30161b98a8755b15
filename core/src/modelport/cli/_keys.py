"""``modelport keys``: API keys stored for the command, used when the environment has none.

Keys live in ``keys.json`` in the command's directory (:mod:`._home`), created mode 0600, or in the
system keyring when the ``keyring`` package is installed and has a usable backend (then
``keys.json`` lists the names only). ``MODELPORT_KEYRING=0`` keeps them in the file. A key is never
printed: ``get`` and ``list`` show its last four characters at most.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from ._home import ensure_home, home, read_json, write_private

__all__ = ["KeyStore", "keys_group", "masked"]

KEYS_FILE = "keys.json"
KEYRING_SERVICE = "modelport"
#: The longest key ``keys set`` reads (no provider's key is near it).
_MAX_KEY = 16_384


def masked(key: str) -> str:
    """What is shown of a key: its last four characters when it is long enough to spare them."""
    return f"****{key[-4:]}" if len(key) >= 16 else "****"


def _keyring() -> Any:
    """The ``keyring`` module when it is installed with a usable backend and not turned off."""
    if os.environ.get("MODELPORT_KEYRING", "").strip().lower() in ("0", "false", "no", "off"):
        return None
    try:
        import keyring
    except ImportError:
        return None
    try:
        usable = float(getattr(keyring.get_keyring(), "priority", 0)) > 0
    except Exception:  # a broken backend: the file it is
        return None
    return keyring if usable else None


class KeyStore:
    """Stored keys by name (a provider id, e.g. ``openai``)."""

    def __init__(self) -> None:
        self.path = home() / KEYS_FILE
        self.keyring = _keyring()

    def where(self) -> str:
        """Where the keys are: the file, or the keyring and the file listing their names."""
        if self.keyring is None:
            return str(self.path)
        backend = type(self.keyring.get_keyring()).__name__
        return f"system keyring ({backend}); names in {self.path}"

    def _entries(self) -> dict[str, Any]:
        return read_json(self.path)

    def names(self) -> list[str]:
        return sorted(self._entries())

    def get(self, name: str) -> str | None:
        entry = self._entries().get(name)
        if entry is None:
            return None
        if isinstance(entry, str):
            return entry
        if self.keyring is not None:  # a name listed for the keyring
            value = self.keyring.get_password(KEYRING_SERVICE, name)
            return str(value) if value else None
        return None

    def set(self, name: str, value: str) -> None:
        entries = self._entries()
        if self.keyring is not None:
            self.keyring.set_password(KEYRING_SERVICE, name, value)
            entries[name] = {"keyring": KEYRING_SERVICE}
        else:
            entries[name] = value
        ensure_home()
        write_private(self.path, json.dumps(entries, indent=2, sort_keys=True) + "\n")

    def remove(self, name: str) -> bool:
        entries = self._entries()
        entry = entries.pop(name, None)
        if entry is None:
            return False
        if not isinstance(entry, str) and self.keyring is not None:
            self.keyring.delete_password(KEYRING_SERVICE, name)
        write_private(self.path, json.dumps(entries, indent=2, sort_keys=True) + "\n")
        return True


def _read_key(name: str) -> str:
    """The key typed at a hidden prompt on a terminal, else the first line of standard input."""
    if sys.stdin.isatty():
        value = click.prompt(f"Key for {name}", hide_input=True, prompt_suffix=": ")
    else:
        try:
            value = sys.stdin.readline(_MAX_KEY + 1)  # bounded: `< /dev/zero` ends
        except UnicodeDecodeError:
            raise click.UsageError("the key on standard input is not UTF-8 text") from None
    value = str(value).strip()
    if not value:
        raise click.UsageError("the key is empty")
    if len(value) > _MAX_KEY:
        raise click.UsageError(f"the key is longer than {_MAX_KEY} characters")
    return value


@click.group("keys")
def keys_group() -> None:
    """API keys for the command, used when the environment has none (never printed)."""


@keys_group.command("set")
@click.argument("name")
def keys_set(name: str) -> None:
    """Store the key NAME (a provider id, e.g. openai), typed at a hidden prompt or piped in."""
    KeyStore().set(name, _read_key(name))
    click.echo(f"Saved the key {name!r}.", err=True)


@keys_group.command("get")
@click.argument("name")
def keys_get(name: str) -> None:
    """Show whether the key NAME is stored (its last four characters)."""
    value = KeyStore().get(name)
    if value is None:
        click.echo(f"error: no key {name!r} is stored (modelport keys set {name})", err=True)
        raise SystemExit(1)
    click.echo(f"{name}: {masked(value)}")


@keys_group.command("list")
def keys_list() -> None:
    """The names of the stored keys."""
    store = KeyStore()
    for name in store.names():
        value = store.get(name)
        click.echo(f"{name}: {masked(value) if value else '(missing from the keyring)'}")


@keys_group.command("remove")
@click.argument("name")
def keys_remove(name: str) -> None:
    """Forget the key NAME."""
    if not KeyStore().remove(name):
        click.echo(f"error: no key {name!r} is stored", err=True)
        raise SystemExit(1)


@keys_group.command("path")
def keys_path() -> None:
    """Where the keys are stored."""
    click.echo(KeyStore().where())
