"""``Result`` is generic in the type of its ``parsed`` answer, for type checkers: with a Python type as
``response_format``, ``parsed`` is that type under ``mypy --strict`` and under pyright (basedpyright,
the PyPI build that brings its own Node.js); without one it stays ``Any``, so existing code keeps
checking. At run time every result is a plain ``Result``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx
import pytest
import yaml
from pydantic import BaseModel

import modelport
from modelport.types import Result
from tests.recordings import openai

USER_CODE = textwrap.dedent(
    """\
    import asyncio

    from pydantic import BaseModel

    import modelport


    class Person(BaseModel):
        name: str


    model = modelport.get_model("openai/gpt-4o-mini")
    reveal_type(model.generate(prompt="x", response_format=Person).parsed)
    reveal_type(model.generate(prompt="x").parsed)
    reveal_type(model.generate(prompt="x", response_format="json").parsed)
    reveal_type(asyncio.run(model.agenerate(prompt="x", response_format=Person)).parsed)
    reveal_type(modelport.generate("openai/gpt-4o-mini", prompt="x", response_format=Person).parsed)
    reveal_type(modelport.generate("openai/gpt-4o-mini", base_url="http://127.0.0.1:8000/v1", prompt="x").parsed)
    person: Person = model.generate(prompt="x", response_format=Person).parsed
    number: int = model.generate(prompt="x", response_format=Person).parsed
    """
)


@pytest.fixture
def user_code(tmp_path: Path) -> Path:
    source = tmp_path / "user_code.py"
    source.write_text(USER_CODE, encoding="utf-8")
    return source


def test_mypy_strict_sees_the_parsed_type(user_code: Path, tmp_path: Path) -> None:
    mypy = pytest.importorskip("mypy.api")
    out, err, status = mypy.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(user_code)]
    )
    lines = [line.split(":", 1)[1] for line in out.splitlines() if ": note: " in line or ": error: " in line]
    assert lines == [
        '13: note: Revealed type is "user_code.Person"',
        '14: note: Revealed type is "Any"',
        '15: note: Revealed type is "Any"',
        '16: note: Revealed type is "user_code.Person"',
        '17: note: Revealed type is "user_code.Person"',
        '18: note: Revealed type is "Any"',
        '20: error: Incompatible types in assignment (expression has type "Person", variable has type "int")  '
        "[assignment]",
    ], out + err
    assert status == 1


def test_pyright_sees_the_parsed_type(user_code: Path) -> None:
    binary = shutil.which("basedpyright", path=str(Path(sys.executable).parent)) or shutil.which(
        "basedpyright"
    )
    if binary is None:
        pytest.fail("basedpyright is in requirements-dev.txt: pip install -r requirements-dev.txt")
    done = subprocess.run(
        [binary, "--outputjson", str(user_code)],
        capture_output=True,
        text=True,
        cwd=user_code.parent,
        timeout=300,
    )
    report = json.loads(done.stdout)
    found = [
        (d["range"]["start"]["line"] + 1, d["severity"], d["message"])
        for d in report["generalDiagnostics"]
        if d["severity"] in ("information", "error")
    ]
    assert found == [
        (
            13,
            "information",
            'Type of "model.generate(prompt="x", response_format=Person).parsed" is "Person"',
        ),
        (14, "information", 'Type of "model.generate(prompt="x").parsed" is "Any"'),
        (15, "information", 'Type of "model.generate(prompt="x", response_format="json").parsed" is "Any"'),
        (
            16,
            "information",
            'Type of "asyncio.run(model.agenerate(prompt="x", response_format=Person)).parsed" is "Person"',
        ),
        (
            17,
            "information",
            'Type of "modelport.generate("openai/gpt-4o-mini", prompt="x", response_format=Person).parsed" '
            'is "Person"',
        ),
        (
            18,
            "information",
            'Type of "modelport.generate("openai/gpt-4o-mini", base_url="http://127.0.0.1:8000/v1", '
            'prompt="x").parsed" is "Any"',
        ),
        (20, "error", found[-1][2]),
    ], done.stdout
    assert 'Type "Person" is not assignable to declared type "int"' in found[-1][2]


class CityLocation(BaseModel):
    city: str
    country: str


def test_at_run_time_the_result_is_a_plain_result_holding_the_parsed_value() -> None:
    # REAL: the second answer of pydantic-ai's native-output recording (gpt-4o, a JSON schema).
    recording = yaml.safe_load(
        openai(
            "pydantic__pydantic-ai/tests__models__cassettes__test_openai__test_openai_native_output.yaml"
        ).read_text(encoding="utf-8")
    )
    answer = recording["interactions"][1]["response"]["parsed_body"]
    model = modelport.get_model(
        "openai/gpt-4o",
        api_key="k",
        transport=httpx.MockTransport(lambda r: httpx.Response(200, json=answer)),
    )
    result = model.generate(
        prompt="What is the largest city in the user country?", response_format=CityLocation
    )
    assert type(result) is Result
    assert result.parsed == CityLocation(city="Mexico City", country="Mexico")
    assert model.generate(prompt="Where?").parsed is None
