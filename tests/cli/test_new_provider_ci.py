"""``modelport new-provider`` from installed wheels in a clean virtual environment: the generated
project installs and passes its own CI with no edits, and the commands run here are read from the
generated workflow (.github/workflows/ci.yml), so the test and the workflow cannot drift apart.

The core and conformance wheels are built from this checkout and installed (not editable) into a
fresh venv; the ``modelport`` command of that venv generates the project (so the template ships as
package data); then every ``run`` step of the workflow runs in order, as GitHub runs it
(``bash -e``): install, lint, type check, tests, wheel, conformance from the installed wheel.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
NAME = "my-llm"
CASES = 11  # the template's recorded cases


def _run(command: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{command} failed ({done.returncode}):\n{output[-6000:]}"
    return output


def _clean_env(bin_dir: Path) -> dict[str, str]:
    """This process's environment without anything that points into the checkout or its venv."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTEST_ADDOPTS"}
        and not k.startswith("MODELPORT_")
    }
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(bin_dir.parent)
    return env


def workflow_steps(workflow: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, command) of every ``run`` step of the workflow's one job, in order."""
    (job,) = workflow["jobs"].values()
    return [(step.get("name", ""), step["run"]) for step in job["steps"] if "run" in step]


def test_the_generated_project_passes_its_own_workflow_from_installed_wheels(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    _run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels),
         str(ROOT / "core"), str(ROOT / "conformance")],
        cwd=tmp_path, env=dict(os.environ),
    )  # fmt: skip
    venv.create(tmp_path / "venv", with_pip=True)
    bin_dir = tmp_path / "venv" / "bin"
    env = _clean_env(bin_dir)
    (core,) = wheels.glob("modelport-*.whl")
    (conformance,) = wheels.glob("modelport_conformance-*.whl")
    _run(["python", "-m", "pip", "install", "--quiet", f"{core}[cli]", str(conformance)], tmp_path, env)

    project = tmp_path / "project"
    _run(["modelport", "new-provider", NAME, "--directory", str(project)], tmp_path, env)
    workflow = yaml.safe_load((project / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    steps = workflow_steps(workflow)
    assert [name for name, _ in steps] == [
        "install", "lint", "type check", "tests", "wheel", "conformance from the installed wheel",
    ]  # fmt: skip
    outputs = {}
    for name, command in steps:
        assert "${{" not in command, f"step {name!r} needs GitHub's expressions; it cannot run here"
        outputs[name] = _run(["bash", "-e", "-c", command], project, env)

    assert re.search(r"^=+ \d+ passed, \d+ skipped in ", outputs["tests"], flags=re.M), outputs["tests"]
    assert re.search(r"^tests/test_recording\.py \.\s", outputs["tests"], flags=re.M), outputs["tests"]
    conformance_lines = outputs["conformance from the installed wheel"].splitlines()
    assert f"{NAME}: {CASES} cases: {CASES} passed, 0 failed, 0 skipped" in conformance_lines
    # The conformance step ran from the wheel, not from the editable install of the source tree.
    located = _run(
        ["python", "-c", "import modelport_my_llm; print(modelport_my_llm.__file__)"], tmp_path, env
    )
    assert "site-packages" in located and str(project) not in located
