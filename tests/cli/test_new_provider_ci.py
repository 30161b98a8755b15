"""``modelport new-provider`` from installed wheels in a clean virtual environment, offline: the
generated project installs and passes its own CI with no edits and no package index, modelport and
modelport-conformance coming from the wheels ``MODELPORT_SPEC`` names. The commands run here are
read from the generated workflow (.github/workflows/ci.yml), so the test and the workflow cannot
drift apart.

The core and conformance wheels are built from this checkout (``pip wheel --no-deps``, no build
isolation: this environment's hatchling builds them) and installed (not editable) into a fresh venv,
from ``MODELPORT_SPEC="--find-links WHEELS modelport modelport-conformance"``; the ``modelport``
command of that venv generates the project (so the template ships as package data), with the API
settings given as options; then every ``run`` step of the workflow runs in order, as GitHub runs it
(``bash -e``): install, lint, type check, tests, wheel, conformance from the installed wheel.

No network: pip runs with ``PIP_NO_INDEX=1``, no configuration file and no build isolation. The
other distributions (httpx, pydantic, pytest, ruff, mypy, hatchling...) are the ones this test's
environment has installed: the fresh venv sees them through a ``.pth`` file naming a folder of links
to this environment's site-packages, without modelport's own distributions (which must come from
the wheels), and gets their commands (``pytest``, ``mypy``, ``ruff``) copied into its ``bin``. What
it needs: requirements-dev.txt installed (it lists hatchling for this).
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
NAME = "my-llm"
CASES = 14  # the template's recorded cases
#: The API settings the project is generated with (the defaults are the name's: see test_new_provider).
OPTIONS = [
    "--key-env",
    "MY_SERVICE_KEY",
    "--auth",
    "header:X-My-Key",
    "--base-url",
    "https://api.my.example/v3",
]
#: Distributions the fresh venv must not see from this environment: its own pip, and modelport's.
NOT_SHARED = re.compile(r"(_*modelport|pip\b|pip-)", flags=re.IGNORECASE)


def _run(command: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{command} failed ({done.returncode}):\n{output[-6000:]}"
    return output


def _offline_env(bin_dir: Path) -> dict[str, str]:
    """This process's environment without anything that points into the checkout or its venv, and
    pip with no index, no configuration file and no build isolation."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTEST_ADDOPTS"}
        and not k.startswith(("MODELPORT_", "PIP_"))
    }
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(bin_dir.parent)
    env.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull, PIP_NO_BUILD_ISOLATION="0")
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
    return env


def share_installed(fresh: Path, links: Path) -> None:
    """Let the venv at ``fresh`` use what this environment has installed, offline: a folder of
    links to each entry of this site-packages but modelport's and pip's, named by a ``.pth`` file of
    the fresh venv, and the commands of those distributions copied into its ``bin`` (a script's
    ``#!`` line pointed at the fresh interpreter; a binary such as ruff's linked)."""
    site = Path(sysconfig.get_paths()["purelib"])
    links.mkdir()
    for entry in site.iterdir():
        if not NOT_SHARED.match(entry.name) and not entry.name.endswith(".pth"):
            (links / entry.name).symlink_to(entry)
    (fresh_site,) = (fresh / "lib").glob("python*/site-packages")
    (fresh_site / "shared-installed.pth").write_text(f"{links}\n", encoding="utf-8")
    python = fresh / "bin" / "python"
    for dist in metadata.distributions(path=[str(links)]):
        # RECORD itself, not ``dist.files``: on Python 3.12+ the latter leaves out the entries outside
        # site-packages (``../../../bin/pytest``) when the dist-info is reached through a link.
        for file in (row[0] for row in csv.reader((dist.read_text("RECORD") or "").splitlines()) if row):
            source = Path(os.path.normpath(site / file))
            if source.parent != Path(sys.prefix) / "bin" or not source.is_file():
                continue
            target = fresh / "bin" / source.name
            if target.exists():
                continue
            head = source.read_bytes()[:2]
            if head == b"#!":
                _, rest = source.read_text(encoding="utf-8").split("\n", 1)
                target.write_text(f"#!{python}\n{rest}", encoding="utf-8")
                target.chmod(0o755)
            else:
                target.symlink_to(source)


def workflow_steps(workflow: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, command) of every ``run`` step of the workflow's one job, in order."""
    (job,) = workflow["jobs"].values()
    return [(step.get("name", ""), step["run"]) for step in job["steps"] if "run" in step]


def test_the_generated_project_passes_its_own_workflow_offline_from_wheels(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    build_env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    build_env.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull)
    _run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(wheels), str(ROOT / "core"), str(ROOT / "conformance")],
        cwd=tmp_path, env=build_env,
    )  # fmt: skip
    assert sorted(p.name.split("-")[0] for p in wheels.iterdir()) == ["modelport", "modelport_conformance"]
    venv.create(tmp_path / "venv", with_pip=True)
    share_installed(tmp_path / "venv", tmp_path / "outer-packages")
    bin_dir = tmp_path / "venv" / "bin"
    env = _offline_env(bin_dir)
    env["MODELPORT_SPEC"] = f"--find-links {wheels} modelport modelport-conformance"
    assert shutil.which("modelport", path=str(bin_dir)) is None
    _run(["bash", "-e", "-c", "python -m pip install --quiet $MODELPORT_SPEC"], tmp_path, env)

    project = tmp_path / "project"
    _run(["modelport", "new-provider", NAME, "--directory", str(project), *OPTIONS], tmp_path, env)
    workflow = yaml.safe_load((project / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    steps = workflow_steps(workflow)
    assert [name for name, _ in steps] == [
        "install", "lint", "type check", "tests", "wheel", "conformance from the installed wheel",
    ]  # fmt: skip
    (job,) = workflow["jobs"].values()
    assert job["env"] == {"MODELPORT_SPEC": "${{ vars.MODELPORT_SPEC }}"}
    outputs = {}
    for name, command in steps:
        assert "${{" not in command, f"step {name!r} needs GitHub's expressions; it cannot run here"
        outputs[name] = _run(["bash", "-e", "-c", command], project, env)

    assert re.search(r"^=+ \d+ passed, \d+ skipped in ", outputs["tests"], flags=re.M), outputs["tests"]
    # recording again gives the recordings, importing them gives the cases: two tests
    assert re.search(r"^tests/test_recording\.py \.\.\s", outputs["tests"], flags=re.M), outputs["tests"]
    conformance_lines = outputs["conformance from the installed wheel"].splitlines()
    assert f"{NAME}: {CASES} cases: {CASES} passed, 0 failed, 0 skipped" in conformance_lines
    # modelport came from the wheels, and the conformance step ran from the plugin's wheel, not from
    # the editable install of the source tree.
    located = _run(
        [
            "python",
            "-c",
            "import modelport, modelport_my_llm; print(modelport.__file__, modelport_my_llm.__file__)",
        ],
        tmp_path,
        env,
    )
    core, plugin = located.split()
    assert core.startswith(str(tmp_path / "venv")) and "site-packages" in core, core
    assert plugin.startswith(str(tmp_path / "venv")) and str(project) not in plugin, plugin


def test_a_spec_of_checkout_paths_installs_the_core_and_the_suite_offline(tmp_path: Path) -> None:
    """The README's first form, ``MODELPORT_SPEC="/x/core /x/conformance"``: built from the
    checkout by the install itself, with no index."""
    venv.create(tmp_path / "venv", with_pip=True)
    share_installed(tmp_path / "venv", tmp_path / "outer-packages")
    env = _offline_env(tmp_path / "venv" / "bin")
    env["MODELPORT_SPEC"] = f"{ROOT / 'core'} {ROOT / 'conformance'}"
    _run(["bash", "-e", "-c", "python -m pip install --quiet ${MODELPORT_SPEC:-modelport}"], tmp_path, env)
    located = _run(
        [
            "python",
            "-c",
            "import modelport, modelport_conformance as c; print(modelport.__file__, c.__file__)",
        ],
        tmp_path,
        env,
    )
    for path in located.split():
        assert path.startswith(str(tmp_path / "venv")) and "site-packages" in path, path
    assert "modelport conformance" in _run(["modelport", "conformance", "--help"], tmp_path, env)
