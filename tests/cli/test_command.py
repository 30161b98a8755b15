"""Issue 16: the ``modelport`` command lives in the core (extra ``cli``); installed packages add
subcommands through the entry-point group ``modelport.commands``; one that fails to load is
reported, never fatal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from modelport.cli import COMMANDS_GROUP, command_errors, main

from .conftest import write_command_distribution

ROOT = Path(__file__).resolve().parents[2]

HELLO = '''
import click

@click.command()
@click.argument("who")
def hello(who):
    """Say hello."""
    click.echo(f"hello {who}")

not_a_command = 42
'''


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    (site / "mp_cli_hello.py").write_text(HELLO, encoding="utf-8")
    return site


def test_the_packaging_puts_the_command_in_the_core() -> None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pytest itself depends on tomli before 3.11
        import tomli as tomllib
    core = tomllib.loads((ROOT / "core" / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    conformance = tomllib.loads((ROOT / "conformance" / "pyproject.toml").read_text(encoding="utf-8"))
    assert core["scripts"] == {"modelport": "modelport.cli:run"}
    assert core["optional-dependencies"]["cli"] == ["click>=8.1", "platformdirs>=3"]  # no pytest, no vcrpy
    assert "scripts" not in conformance["project"]  # exactly one `modelport`
    assert conformance["project"]["entry-points"][COMMANDS_GROUP] == {
        "conformance": "modelport_conformance.cli:conformance_command"
    }


def test_the_conformance_package_contributes_its_command() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    commands = result.output.split("Commands:")[1].split()
    assert {
        "aliases",
        "chat",
        "conformance",
        "default-model",
        "generate",
        "keys",
        "logs",
        "models",
        "providers",
    } <= set(commands)
    assert "conformance" not in command_errors()
    # The old import path is the same command.
    from modelport_conformance.cli import main as old_main

    assert old_main is main


def test_a_contributed_command_runs(site: Path) -> None:
    write_command_distribution(site, "mp-hello", {"hello": "mp_cli_hello:hello"})
    result = CliRunner().invoke(main, ["hello", "world"])
    assert (result.exit_code, result.output) == (0, "hello world\n")
    assert "hello" in CliRunner().invoke(main, ["--help"]).output


def test_a_broken_command_is_reported_not_fatal(site: Path, example_installed: Path) -> None:
    write_command_distribution(
        site,
        "mp-broken",
        {
            "broken": "modelport_no_such_module:command",
            "notacommand": "mp_cli_hello:not_a_command",
            "generate": "mp_cli_hello:hello",  # a built-in's name: the built-in stays
        },
    )
    assert command_errors() == {
        "broken": "ModuleNotFoundError: No module named 'modelport_no_such_module'",
        "notacommand": "mp_cli_hello:not_a_command is a int, not a click command",
        "generate": "mp-broken declares a command with a built-in command's name; not used",
    }
    helped = CliRunner().invoke(main, ["--help"])
    assert helped.exit_code == 0
    assert "(failed to load: ModuleNotFoundError: No module named" in helped.output
    invoked = CliRunner().invoke(main, ["broken"])
    assert invoked.exit_code == 1
    assert invoked.stderr == (
        "error: the command 'broken' failed to load: "
        "ModuleNotFoundError: No module named 'modelport_no_such_module'\n"
    )
    providers = CliRunner().invoke(main, ["providers"])
    assert providers.exit_code == 0
    assert providers.output.splitlines()[-4:] == [
        "Command load errors:",
        "  broken: ModuleNotFoundError: No module named 'modelport_no_such_module'",
        "  generate: mp-broken declares a command with a built-in command's name; not used",
        "  notacommand: mp_cli_hello:not_a_command is a int, not a click command",
    ]
    as_json = json.loads(CliRunner().invoke(main, ["providers", "--format", "json"]).output)
    assert set(as_json["command_errors"]) == {"broken", "notacommand", "generate"}
    # The built-in generate is still the core's.
    assert "Generate an answer from MODEL" in CliRunner().invoke(main, ["generate", "--help"]).output


def test_two_packages_with_one_command_name(site: Path) -> None:
    write_command_distribution(site, "mp-a", {"hello": "mp_cli_hello:hello"})
    write_command_distribution(site, "mp-b", {"hello": "mp_cli_hello:other"})
    assert command_errors() == {"hello (mp-b)": "mp-a already provides the command; not used"}
    assert CliRunner().invoke(main, ["hello", "x"]).output == "hello x\n"


def test_without_click_the_script_names_the_extra(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import modelport.cli

    monkeypatch.setitem(sys.modules, "click", None)
    with pytest.raises(SystemExit) as raised:
        modelport.cli.run()
    assert raised.value.code == 2
    assert capsys.readouterr().err == 'modelport: the command needs its extra: pip install "modelport[cli]"\n'


BLOCKER = """
import sys

class Blocker:
    BLOCKED = ("pytest", "_pytest", "vcr", "modelport_conformance")

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by the test)")
        return None

sys.meta_path.insert(0, Blocker())
from modelport.cli import main
sys.argv = ["modelport", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["providers"], "conformance: ModuleNotFoundError: No module named 'modelport_conformance'"),
        (["generate", "--help"], "-o, --option KEY=VALUE"),
        (["--help"], "(failed to load: ModuleNotFoundError: No module named"),
    ],
)
def test_the_command_works_without_the_conformance_package(args: list[str], expected: str) -> None:
    """What ``pip install "modelport[cli]"`` alone gives (tools/check_wheels.sh checks it for real in
    a clean venv): pytest, vcrpy and modelport-conformance cannot be imported, and the command works."""
    env = {**os.environ, "MODELPORT_DISABLE_PLUGIN_AUTOLOAD": "1"}
    run = subprocess.run(
        [sys.executable, "-c", BLOCKER, *args], capture_output=True, text=True, timeout=60, env=env
    )
    assert run.returncode == 0, run.stderr
    assert expected in run.stdout
