"""The keywords of a call are typed: one ``RequestKeywords`` TypedDict, equal to ``Request``'s fields
(plus ``prompt`` and ``system``), unpacked into every call's signature, so ``mypy --strict`` and editors
see them."""

from __future__ import annotations

import inspect
import textwrap
from pathlib import Path
from typing import Any

import pytest

import modelport
from modelport.types import Request, RequestKeywords

#: Every call that takes request keywords, and where it is.
CALLS: list[tuple[str, Any]] = [
    *(
        (f"Model.{name}", getattr(modelport.Model, name))
        for name in (
            "generate",
            "agenerate",
            "stream",
            "astream",
            "count_tokens",
            "acount_tokens",
            "prepare",
            "run",
            "arun",
            "run_stream",
        )
    ),
    *(
        (f"modelport.{name}", getattr(modelport, name))
        for name in ("generate", "agenerate", "stream", "astream")
    ),
]


def test_the_keywords_are_the_fields_of_request() -> None:
    assert set(RequestKeywords.__annotations__) == set(Request.model_fields) | {"prompt", "system"}
    assert RequestKeywords.__total__ is False  # every keyword may be left out


#: The calls whose result is generic in ``response_format`` take it as a keyword of its own.
TYPED_BY_FORMAT = {"Model.generate", "Model.agenerate", "modelport.generate", "modelport.agenerate"}


@pytest.mark.parametrize(("where", "call"), CALLS, ids=[where for where, _ in CALLS])
def test_each_call_unpacks_the_keywords(where: str, call: Any) -> None:
    parameters = inspect.signature(call).parameters
    kwargs = parameters["kwargs"]
    assert kwargs.kind is inspect.Parameter.VAR_KEYWORD
    if where in TYPED_BY_FORMAT:
        assert kwargs.annotation == "Unpack[KeywordsBesidesFormat]"
        assert parameters["response_format"].kind is inspect.Parameter.KEYWORD_ONLY
        assert parameters["response_format"].default is None
    else:
        assert kwargs.annotation == "Unpack[RequestKeywords]"


def test_the_keywords_besides_the_format_are_the_others() -> None:
    from modelport._contract.request import KeywordsBesidesFormat

    assert set(KeywordsBesidesFormat.__annotations__) == set(RequestKeywords.__annotations__) - {
        "response_format"
    }


def test_mypy_strict_checks_the_keywords(tmp_path: Path) -> None:
    mypy = pytest.importorskip("mypy.api")
    source = tmp_path / "user_code.py"
    source.write_text(
        textwrap.dedent(
            """\
            import modelport

            model = modelport.get_model("google/gemini-2.5-flash")
            model.generate(prompt="Hi", temperature=0.2, tools=[{"type": "provider", "id": "google.google_search"}])
            model.stream(messages=[{"role": "user", "content": "Hi"}], max_output_tokens=5)
            model.run(prompt="Hi", max_steps=2, reasoning_replay="strict")
            model.generate(prompt="Hi", temprature=0.2)
            model.generate(prompt="Hi", max_output_tokens="many")
            """
        )
    )
    out, err, status = mypy.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(source)]
    )
    errors = [line.split(":", 1)[1] for line in out.splitlines() if ": error: " in line]
    assert errors == [
        '7: error: Unexpected keyword argument "temprature" for "generate" of "Model"; '
        'did you mean "temperature"?  [call-arg]',
        '8: error: Argument "max_output_tokens" to "generate" of "Model" has incompatible type "str"; '
        'expected "int | None"  [arg-type]',
    ], out + err
    assert status == 1
