"""Fixtures for the ``modelport`` command: the Example plugin installed by entry point (from the
conformance tests), and packages that contribute subcommands through ``modelport.commands``."""

from __future__ import annotations

from pathlib import Path

from tests.conformance.conftest import (  # noqa: F401  (fixtures)
    EXAMPLE_CASES,
    broken_installed,
    example_installed,
    fresh_registry,
    write_distribution,
)

from .mcp_servers import authorization, http_server, script  # noqa: F401  (the MCP tests' fixtures)


def write_command_distribution(site: Path, name: str, commands: dict[str, str]) -> None:
    """An installed distribution whose entry points contribute ``modelport`` subcommands."""
    info = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n", encoding="utf-8")
    lines = ["[modelport.commands]", *(f"{k} = {v}" for k, v in commands.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
