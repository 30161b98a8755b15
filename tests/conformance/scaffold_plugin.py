"""A plugin built from ``modelport new-provider`` with its generated ``merge_frames`` unregistered
(the checks under test are those that need no whole-answer cross-check), extended as an author would
extend it for an API that cites sources, and the mapping bugs the tests plant in it.

The extension: the answer and the stream's ``stop`` frame carry ``citations``, each ``{"start",
"end", "url"}`` with character offsets into the answer's text, decoded into numbered sources and
citations, and the wire map names them. Two cases exercise it (``generate-cited``,
``stream-cited``); their answers are MOCK: the scaffold's API is a fake one, so no real recording
exists.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from modelport.cli._new_provider import render_scaffold, scaffold_names

NAME = "mm-llm"
PACKAGE = "modelport_mm_llm"

_DECODE_CITED = '''

def cited(raw: Any) -> tuple[list[Source], list[Citation]]:
    """The answer's ``citations`` (character offsets into its text) → numbered sources and spans."""
    sources: list[Source] = []
    citations: list[Citation] = []
    for item in raw or []:
        sources.append(Source(number=len(sources) + 1, uri=item["url"]))
        citations.append(Citation(start=item["start"], end=item["end"], sources=[len(sources)]))
    return sources, citations
'''

#: (old, new) text replacements in _plugin.py that unregister the generated ``merge_frames``.
NO_MERGE_FRAMES = [
    ("    from .mapping import merge_frames\n", ""),
    ("        merge_frames=merge_frames,\n", ""),
]

#: (old, new) text replacements in mapping.py that add citations to the scaffold's API.
CITATIONS = [
    ("    Usage,\n)\n", "    Usage,\n)\nfrom modelport.types import Citation, Source\n"),
    (
        "from modelport.wire_map import BodyMap, Count,",
        "from modelport.wire_map import BodyMap, Count, Span,",
    ),
    (
        '        tool_arguments="/output/*/arguments",\n    ),',
        '        tool_arguments="/output/*/arguments",\n'
        '        citations=Span("/citations/*/start", "/citations/*/end"),\n    ),',
    ),
    (
        '        tool_arguments="[/type=tool_call]/arguments",\n    ),',
        '        tool_arguments="[/type=tool_call]/arguments",\n'
        '        citations=Span("[/type=stop]/citations/*/start", "[/type=stop]/citations/*/end"),\n    ),',
    ),
    (
        "            yield ev.FinishEvent(\n"
        '                finish_reason=finish, raw_finish_reason=reason, usage=usage(frame.get("usage"))\n'
        "            )",
        '            sources, citations = cited(frame.get("citations"))\n'
        "            yield ev.FinishEvent(\n"
        "                finish_reason=finish,\n"
        "                raw_finish_reason=reason,\n"
        '                usage=usage(frame.get("usage")),\n'
        "                sources=sources,\n"
        "                citations=citations,\n"
        "            )",
    ),
    (
        '{"type": "stop", "stop_reason": answer.get("stop_reason"), "usage": answer.get("usage")},',
        '{"type": "stop", "stop_reason": answer.get("stop_reason"), "usage": answer.get("usage"),'
        ' "citations": answer.get("citations")},',
    ),
    ("\n\nclass Decoder:", _DECODE_CITED + "\n\nclass Decoder:"),
]

_NO_ARGUMENTS = """

class _StreamDecoder(Decoder):
    def feed(self, frame: dict[str, Any]) -> Iterator[ev.StreamEvent]:
        if frame.get("type") == "tool_call":
            frame = {**frame, "arguments": {}}
        yield from super().feed(frame)
"""

#: The planted bugs: file → (old, new) replacements.
BUGS: dict[str, dict[str, list[tuple[str, str]]]] = {
    "usage swapped": {
        "mapping.py": [
            (
                'input_tokens=get("input_tokens"),\n        output_tokens=get("output_tokens"),',
                'input_tokens=get("output_tokens"),\n        output_tokens=get("input_tokens"),',
            )
        ]
    },
    "streamed tool arguments dropped": {
        "provider.py": [
            ("        return Decoder()\n", "        return _StreamDecoder()\n"),
            ("\n\nclass ${class}(HttpProvider):", _NO_ARGUMENTS + "\n\nclass ${class}(HttpProvider):"),
        ]
    },
    "citation offsets +1": {
        "mapping.py": [('Citation(start=item["start"],', 'Citation(start=item["start"] + 1,')]
    },
    "citation offsets -1": {
        "mapping.py": [('Citation(start=item["start"],', 'Citation(start=item["start"] - 1,')]
    },
    "system message lost": {
        "mapping.py": [('        body["system"] = "\\n\\n".join(system)\n', "        pass\n")]
    },
    "warning setting and details swapped": {
        "mapping.py": [
            (
                'setting=name, details="the API has no field for it"',
                'setting="the API has no field for it", details=name',
            )
        ]
    },
    # Wrong maps of a right plugin: a path the decoder does not read, and one that reaches nothing.
    "map names the id as text": {
        "mapping.py": [('text="[/type=text]/text",', 'text=("[/type=text]/text", "[/type=start]/id"),')]
    },
    "map misspells a count": {
        "mapping.py": [
            (
                '        usage=USAGE,\n        finish_reason="[/type=stop]/stop_reason",',
                '        usage=(USAGE[0], Count("output_tokens", "/usage/output_token"), USAGE[2]),\n'
                '        finish_reason="[/type=stop]/stop_reason",',
            )
        ]
    },
}


def _replace(path: Path, changes: list[tuple[str, str]], class_name: str) -> None:
    text = path.read_text(encoding="utf-8")
    for old, new in changes:
        old, new = old.replace("${class}", class_name), new.replace("${class}", class_name)
        assert text.count(old) == 1, f"{path.name}: {old!r} is not in it once"
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


def _cited_cassette(stream: bool) -> dict:
    text = "The capital of France is Paris."
    citations = [
        {"start": 4, "end": 21, "url": "https://example.test/capitals"},
        {"start": 25, "end": 30, "url": "https://example.test/paris"},
    ]
    usage = {"input_tokens": 12, "output_tokens": 8, "total_tokens": 20}
    request = {"model": "demo-1", "messages": [{"role": "user", "text": "Capital of France?"}]}
    if stream:
        request["stream"] = True
        body = {
            "sse": [
                {"data": {"type": "start", "id": "resp_c2", "model": "demo-1"}},
                {"data": {"type": "text", "text": text[:13]}},
                {"data": {"type": "text", "text": text[13:]}},
                {"data": {"type": "stop", "stop_reason": "end_turn", "usage": usage, "citations": citations}},
            ]
        }
        kind = "text/event-stream"
    else:
        answer = {
            "id": "resp_c1",
            "model": "demo-1",
            "output": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "usage": usage,
            "citations": citations,
        }
        body, kind = {"json": answer}, "application/json"
    return {
        "version": 1,
        "metadata": {"note": "MOCK: the scaffold's API is a fake one; no recording of it exists"},
        "interactions": [
            {
                "request": {
                    "method": "POST",
                    "uri": f"https://api.{NAME}.test/v1/generate",
                    "headers": {"content-type": ["application/json"], "authorization": ["<credential>"]},
                    "body": {"json": request},
                },
                "response": {
                    "status": {"code": 200, "message": "OK"},
                    "headers": {"content-type": [kind]},
                    "body": body,
                },
            }
        ],
    }


def build(root: Path, bug: str | None = None) -> Path:
    """The scaffold rendered into ``root``, extended with citations, ``bug`` planted; returns the
    folder its package is in (``src``)."""
    names = scaffold_names(NAME)
    render_scaffold(names, root)
    package = root / "src" / PACKAGE
    _replace(package / "mapping.py", CITATIONS, names.class_name)
    _replace(package / "_plugin.py", NO_MERGE_FRAMES, names.class_name)
    from modelport_conformance.cassette import dump_cassette, load_cassette

    for stream in (False, True):
        case = package / "cases" / ("stream-cited" if stream else "generate-cited")
        case.mkdir()
        method = "stream" if stream else "generate"
        (case / "case.yaml").write_text(
            f"description: An answer citing two sources (MOCK).\nmethod: {method}\nmodel: demo-1\n"
            "request:\n  prompt: Capital of France?\n",
            encoding="utf-8",
        )
        cassette = load_cassette(json.dumps(_cited_cassette(stream)))
        (case / "cassette.yaml").write_text(dump_cassette(cassette), encoding="utf-8")
    for file, changes in (BUGS[bug] if bug else {}).items():
        _replace(package / file, changes, names.class_name)
    return root / "src"


def forget_package() -> None:
    """Drop the plugin's modules, so the next test imports its own copy."""
    for module in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[module]


def rerecord_requests(cases: Path, body: Callable[[dict], dict]) -> None:
    """Each recorded request body passed through ``body``: what recording again with the plugin
    as it now is would store (the scaffold's fake server answers whatever it is sent)."""
    from modelport_conformance.cassette import dump_cassette, load_cassette

    for path in cases.glob("*/cassette.yaml"):
        cassette = load_cassette(path.read_text(encoding="utf-8"))
        for interaction in cassette.interactions:
            stored = interaction.request.get("body") or {}
            if isinstance(stored.get("json"), dict):
                stored["json"] = body(stored["json"])
        path.write_text(dump_cassette(cassette), encoding="utf-8")
