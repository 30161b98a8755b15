"""Where the ``modelport`` command keeps its files, and its settings.

The directory is ``MODELPORT_HOME`` when set, else ``$XDG_CONFIG_HOME/modelport`` when
``XDG_CONFIG_HOME`` is set, else the platform's user config directory (platformdirs:
``~/.config/modelport``, ``~/Library/Application Support/modelport``, ``%APPDATA%\\modelport``).
It holds ``settings.json`` (default model, aliases, each with an optional server URL, logging on
or off), ``keys.json`` (stored keys,
mode 0600), ``logs.db`` and ``cache/``. It is created mode 0700 on first write.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["Settings", "home", "write_private"]

SETTINGS_FILE = "settings.json"


def home() -> Path:
    """The command's directory (not created here)."""
    explicit = os.environ.get("MODELPORT_HOME")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg:
        return Path(xdg).expanduser() / "modelport"
    import platformdirs

    return Path(platformdirs.user_config_dir("modelport", appauthor=False))


def ensure_home() -> Path:
    """:func:`home`, created (mode 0700) when missing."""
    path = home()
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, readable by the owner only (mode 0600 from its
    creation: the bytes never sit in a file others can read)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mkstemp: mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path`` (a regular file within :data:`._files.MAX_FILE_BYTES`, UTF-8, JSON
    of bounded nesting); ``{}`` when there is no file; a :class:`ConfigurationError` of one line
    naming the file for anything else."""
    from ..errors import ConfigurationError
    from ._files import decoded, parsed, read_bounded

    try:
        data = parsed(decoded(read_bounded(path)))
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise ConfigurationError(f"{path} cannot be read: {error.strerror or error}") from None
    except ValueError as error:
        raise ConfigurationError(f"{path} cannot be read: {error}") from None
    if not isinstance(data, dict):
        raise ConfigurationError(f"{path} does not hold a JSON object")
    return data


class Settings:
    """``settings.json``: the default model, model aliases, and whether calls are logged.

    An alias or the default model may carry the URL of the server it lives on (a local
    ``openai-compatible`` server, a gateway): an alias is stored as ``"provider/model"`` or as
    ``{"model": "provider/model", "base_url": "http://..."}``, the default's URL as
    ``default_base_url``. ``--base-url`` on the command line wins over either.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        from ..errors import ConfigurationError

        default = data.get("default_model") or None
        default_url = data.get("default_base_url") or None
        aliases = data.get("aliases") or {}
        if (
            not isinstance(aliases, dict)
            or not isinstance(default, (str, type(None)))
            or not isinstance(default_url, (str, type(None)))
        ):
            raise ConfigurationError(
                f"{home() / SETTINGS_FILE}: 'aliases' must be an object, 'default_model' and "
                "'default_base_url' strings"
            )
        self.default_model: str | None = default
        self.default_base_url: str | None = default_url
        self.aliases: dict[str, str] = {}
        self.alias_base_urls: dict[str, str] = {}
        for name, target in aliases.items():
            if isinstance(target, dict):
                model, url = target.get("model"), target.get("base_url")
                if not isinstance(model, str) or not isinstance(url, (str, type(None))):
                    raise ConfigurationError(
                        f"{home() / SETTINGS_FILE}: alias {str(name)!r} needs a string 'model' "
                        "(and 'base_url', when given, a string)"
                    )
                target = model
                if url:
                    self.alias_base_urls[str(name)] = url
            self.aliases[str(name)] = str(target)
        self.logging: bool = data.get("logging", True) is not False

    @classmethod
    def load(cls) -> Settings:
        return cls(read_json(home() / SETTINGS_FILE))

    def save(self) -> None:
        aliases: dict[str, Any] = {
            name: {"model": model, "base_url": self.alias_base_urls[name]}
            if name in self.alias_base_urls
            else model
            for name, model in self.aliases.items()
        }
        data: dict[str, Any] = {"default_model": self.default_model, "aliases": aliases}
        data["logging"] = self.logging
        if self.default_base_url:
            data["default_base_url"] = self.default_base_url
        write_private(ensure_home() / SETTINGS_FILE, json.dumps(data, indent=2, sort_keys=True) + "\n")

    def resolve(self, model: str | None) -> str | None:
        """``model`` with an alias replaced by its model id; ``None`` becomes the default model
        (``MODELPORT_MODEL``, else the configured one)."""
        if model is None:
            model = os.environ.get("MODELPORT_MODEL") or self.default_model
        if model is None:
            return None
        return self.aliases.get(model, model)

    def base_url(self, model: str | None) -> str | None:
        """The server URL kept with the alias ``model`` names, or with the default model when
        ``model`` is ``None`` (``MODELPORT_MODEL``, when set, is the default and carries none
        unless it names an alias); ``None`` when nothing was kept."""
        if model is None:
            chosen = os.environ.get("MODELPORT_MODEL")
            if chosen:
                return self.alias_base_urls.get(chosen)
            if self.default_model is None:
                return None
            return self.default_base_url or self.alias_base_urls.get(self.default_model)
        return self.alias_base_urls.get(model)
