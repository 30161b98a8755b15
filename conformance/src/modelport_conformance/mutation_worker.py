"""The process one mutant runs in: ``python -m modelport_conformance.mutation_worker JOB.json``.

The job names a provider, the cases to replay and, for a mutant, the module, its file and the
mutant's number (see :mod:`modelport_conformance.mutants`). An import hook placed first on
``sys.meta_path`` serves that one module from the mutated syntax tree; nothing on disk is edited,
and whatever the mutant does (raise at import, hang, exit) happens in this process only. The cases
run as ``modelport conformance`` runs them (:func:`~modelport_conformance.bounds.bounded_case`).

With ``trace`` set (the unmutated run), every line executed in the files under ``trace`` (the
plugin's package directory) is recorded with the case that ran it (``<import>`` before any case):
which cases can tell a mutant apart. The result is written as JSON to the job's ``result`` file
(standard output belongs to the plugin).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import threading
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import Any

__all__ = ["IMPORT", "MutantFinder", "main", "run_job"]

#: The name the lines run before any case (at import, at discovery) are recorded under.
IMPORT = "<import>"


class _MutantLoader(importlib.machinery.SourceFileLoader):
    """Loads the module from its file with one mutant applied (never from a cached ``.pyc``)."""

    def __init__(self, fullname: str, path: str, index: int) -> None:
        super().__init__(fullname, path)
        self.index = index

    def get_code(self, fullname: str) -> CodeType:
        from .mutants import mutated_code

        source = Path(self.path).read_text(encoding="utf-8")
        return mutated_code(source, self.index, self.path)


class MutantFinder(importlib.abc.MetaPathFinder):
    """Finds the one mutated module (``module``, from ``path``) ahead of every other finder."""

    def __init__(self, module: str, path: str, index: int) -> None:
        self.module, self.path, self.index = module, path, index

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.module:
            return None
        loader = _MutantLoader(fullname, self.path, self.index)
        package = Path(self.path).name == "__init__.py"
        locations = [str(Path(self.path).parent)] if package else None
        return importlib.util.spec_from_file_location(
            fullname, self.path, loader=loader, submodule_search_locations=locations
        )


class _LineTracer:
    """Records ``(file, line) → cases`` for the files under ``root`` (every thread)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.case = IMPORT
        self.hits: dict[str, dict[int, set[str]]] = {}

    def calls(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename.startswith(self.root):
            return self.lines
        return None

    def lines(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            lines = self.hits.setdefault(frame.f_code.co_filename, {})
            lines.setdefault(frame.f_lineno, set()).add(self.case)
        return self.lines

    def start(self) -> None:
        threading.settrace(self.calls)
        sys.settrace(self.calls)

    def stop(self) -> None:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, dict[str, list[str]]]:
        return {
            file: {str(line): sorted(cases) for line, cases in sorted(lines.items())}
            for file, lines in sorted(self.hits.items())
        }


def _outcome(outcome: Any) -> dict[str, Any]:
    """A case's outcome as the parent compares it: the failed checks, and whether the provider
    crashed (raised what is not a modelport error: that fails with or without goldens)."""
    failed = sorted({check.name for check in outcome.checks if check.status == "fail"})
    crashed = any(
        check.name == "expected"
        and check.status == "fail"
        and check.message.startswith("the provider raised")
        for check in outcome.checks
    )
    if outcome.status == "fail" and not outcome.checks:
        failed = ["run"]
    return {"status": outcome.status, "failed": failed, "crashed": crashed}


def _suite(provider_id: str, wanted: dict[str, str] | None) -> Any:
    """The provider's suite with only the ``wanted`` cases (name → directory) loaded, or all of
    them; a string saying why when it does not load."""
    from .cases import Case, Suite, _merge, discover_suites
    from .suites import conformance_suites

    if wanted is None:
        suites, errors = discover_suites([provider_id])
        suite = suites.get(provider_id)
        if suite is None or suite.load_error:
            why = (suite.load_error if suite is not None else "") or errors.get(provider_id, "no suite")
            return f"the suite did not load: {why}"
        return suite
    registrations = conformance_suites().get(provider_id, [])
    if not registrations:
        return "the suite did not load: no suite registered"
    records = []
    for registration in registrations:
        record = Suite(provider_id)
        record.registration = registration
        records.append(record)
    suite = _merge(records)
    suite.cases = [Case.load(Path(directory)) for directory in wanted.values()]
    return suite


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """Run the job (see the module) and return its result."""
    mutant = job.get("mutant")
    if mutant is not None:
        sys.meta_path.insert(0, MutantFinder(mutant["module"], mutant["file"], int(mutant["index"])))
    tracer = _LineTracer(job["trace"]) if job.get("trace") else None
    if tracer is not None:
        tracer.start()
    try:
        from .bounds import bounded_case

        suite = _suite(job["provider"], job.get("cases"))
        if isinstance(suite, str):
            return {"error": suite}
        outcomes: dict[str, Any] = {}
        for case in suite.cases:
            if tracer is not None:
                tracer.case = case.name
            outcome = bounded_case(suite, case, timeout=job.get("case_timeout"))
            outcomes[case.name] = _outcome(outcome)
        result: dict[str, Any] = {"cases": outcomes}
    finally:
        if tracer is not None:
            tracer.stop()
    if tracer is not None:
        result["lines"] = tracer.as_dict()
    return result


def serve() -> int:
    """``--serve``: a fork server. The runner's imports are paid once; each job file named on a
    line of standard input runs in a child forked from this process (the plugin is never imported
    here, so each child imports it afresh, mutated or not). Writes ``pid N`` when a child starts
    and ``exit S`` when it ended (the caller kills a child that takes too long)."""
    from . import bounds, cases, runner  # noqa: F401  (the imports a job needs, made once)

    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        child = os.fork()
        if child == 0:
            status = 1
            try:
                quiet = os.open(os.devnull, os.O_WRONLY)
                os.dup2(quiet, 1)  # standard output carries this protocol; the plugin's goes nowhere
                status = main([path])
            finally:
                os._exit(status)
        print(f"pid {child}", flush=True)
        _, status = os.waitpid(child, 0)
        print(f"exit {status}", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Read the job file, run it, write the result file next to what it names."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--serve"]:
        return serve()
    job = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    try:
        result = run_job(job)
    except BaseException as error:  # a mutant that breaks the run is a finding, not a crash here
        result = {"error": f"{type(error).__name__}: {error}"}
    Path(job["result"]).write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
