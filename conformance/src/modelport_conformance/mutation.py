"""The mutation score of a provider's cases: ``modelport conformance --mutate``.

The mapping modules are the ``.py`` files of the provider class's top-level package, minus those
its suite declares in ``mutation_exclude`` (``fnmatch`` patterns on the path relative to the
package directory, e.g. ``"_plugin.py"``, ``"_responses_*.py"``; ``"_request.py::build_body"``
leaves out one module-level function, class or one-name assignment, ``TABLE = ...``, of a module
shared with another API). Every
mutant of them is listed (:mod:`modelport_conformance.mutants`), ``sample`` of them are drawn with
``random.Random(seed)``, and each runs in its own process
(:mod:`modelport_conformance.mutation_worker`), so a mutant that crashes, hangs or exits is killed
without touching the run or the files on disk.

One unmutated run first, traced: the outcome every mutant is compared with, and which cases
execute which lines. A mutant inside a function replays only the cases that reach its statement
(the others run the very same code); one no case reaches survives without a run and is reported
so; one outside any function (import-time code) replays every case.

A mutant is *killed* when some check that passed (or was skipped) unmutated fails, when a case
cannot run, or when its process fails or passes its time limit twice (``mutant_timeout``, at least
three times the unmutated run's time, then double that). It is *killed without
goldens* when a check that does not read ``expected.json`` fails: the score a plugin keeps after
``--regenerate`` rewrote its goldens from the mutant (the ``expected`` check reads them, and so
does ``merged`` for a suite without ``merge_frames``; a crash fails either way).
"""

from __future__ import annotations

import fnmatch
import importlib
import json
import random
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .mutants import Mutant, find_mutants
from .mutation_pool import WorkerPool, run_fresh
from .mutation_worker import IMPORT

__all__ = [
    "DEFAULT_MUTANT_TIMEOUT",
    "DEFAULT_SAMPLE",
    "MutantResult",
    "MutationReport",
    "Target",
    "find_target",
    "render_mutation",
    "run_mutation",
    "sample_mutants",
]

_T = TypeVar("_T")

#: Mutants drawn per provider when ``--sample`` is not given.
DEFAULT_SAMPLE = 100
#: Seconds one mutant's process may run (every case it replays) before it is stopped and killed.
DEFAULT_MUTANT_TIMEOUT = 30.0


@dataclass
class Target:
    """What is mutated for one provider, and what its cases are."""

    provider_id: str
    package: str
    root: Path
    files: list[Path]
    cases: list[str]
    golden_checks: frozenset[str]
    #: Case name → its directory, where the cases are plain directories (a worker then loads only
    #: the cases it replays).
    directories: dict[str, str] = field(default_factory=dict)
    #: ``(file pattern, name)``: module-level functions, classes and assignments left out (``file.py::name``).
    scopes: tuple[tuple[str, str], ...] = ()

    def keeps(self, file: Path, mutant: Mutant) -> bool:
        """Whether ``mutant`` of ``file`` is not in a function or class left out."""
        relative = file.relative_to(self.root).as_posix()
        return not any(mutant.scope == n and fnmatch.fnmatch(relative, p) for p, n in self.scopes)

    def module(self, file: Path) -> str:
        """The import name of ``file`` (a file under :attr:`root`)."""
        parts = file.relative_to(self.root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join((self.package, *parts))

    def label(self, file: Path) -> str:
        """``package/relative/path.py``, as the report names it."""
        return f"{self.package}/{file.relative_to(self.root).as_posix()}"


@dataclass
class MutantResult:
    """One sampled mutant and what became of it (``status``: killed, survived or not-run)."""

    file: str
    mutant: Mutant
    status: str
    killed_without_goldens: bool = False
    how: str = ""

    def where(self) -> str:
        """``file:line: what changed``."""
        return f"{self.file}:{self.mutant.line}: {self.mutant.change}"


@dataclass
class MutationReport:
    """One provider's mutation run."""

    provider_id: str
    seed: int
    modules: int = 0
    total: int = 0
    results: list[MutantResult] = field(default_factory=list)
    seconds: float = 0.0
    problem: str = ""

    def count(self, status: str) -> int:
        """How many sampled mutants have ``status``."""
        return sum(1 for r in self.results if r.status == status)

    @property
    def run(self) -> int:
        """Mutants with a verdict (the sample less those the budget left out)."""
        return self.count("killed") + self.count("survived")

    @property
    def without_goldens(self) -> int:
        """Mutants killed by a check that does not read ``expected.json``."""
        return sum(1 for r in self.results if r.killed_without_goldens)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (``--format json``)."""
        return {
            "provider": self.provider_id,
            "seed": self.seed,
            "modules": self.modules,
            "mutants": self.total,
            "sampled": len(self.results),
            "killed": self.count("killed"),
            "killed_without_goldens": self.without_goldens,
            "survived": self.count("survived"),
            "not_run": self.count("not-run"),
            "seconds": round(self.seconds, 1),
            "problem": self.problem,
            "results": [
                {
                    "where": r.where(),
                    "operator": r.mutant.operator,
                    "status": r.status,
                    "killed_without_goldens": r.killed_without_goldens,
                    "how": r.how,
                }
                for r in self.results
            ],
        }


def find_target(provider_id: str) -> Target:
    """The mapping modules and the cases of ``provider_id`` (loads the plugins, in this process)."""
    from modelport import plugins
    from modelport.errors import ConfigurationError

    from .cases import discover_suites

    suites, errors = discover_suites([provider_id])
    suite = suites.get(provider_id)
    if suite is None or suite.load_error:
        why = (suite.load_error if suite is not None else None) or errors.get(provider_id, "")
        raise ConfigurationError(f"{provider_id}: no conformance cases to mutate against {why}".strip())
    package = plugins.provider_class(provider_id).__module__.split(".")[0]
    module = importlib.import_module(package)
    root = Path(module.__file__).parent if module.__file__ else Path(next(iter(module.__path__)))
    declared = suite.mutation_exclude
    exclude = tuple(p for p in declared if "::" not in p)
    scopes = tuple((p.split("::", 1)[0], p.split("::", 1)[1]) for p in declared if "::" in p)
    files = [
        path
        for path in sorted(root.rglob("*.py"))
        if "__pycache__" not in path.parts
        and not any(fnmatch.fnmatch(path.relative_to(root).as_posix(), p) for p in exclude)
    ]
    golden = {"expected"} | (set() if suite.merge_frames is not None else {"merged"})
    directories = {c.name: str(c.location) for c in suite.cases if isinstance(c.location, Path)}
    if len(directories) < len(suite.cases):
        directories = {}
    names = [c.name for c in suite.cases]
    return Target(provider_id, package, root, files, names, frozenset(golden), directories, scopes)


def _reached(mutant: Mutant, lines: dict[int, list[str]], cases: list[str]) -> list[str]:
    """The cases that can tell ``mutant`` apart (see the module)."""
    if not mutant.in_function:
        return list(cases)
    found: set[str] = set()
    for line in range(mutant.span[0], mutant.span[1] + 1):
        found.update(lines.get(line, ()))
    if IMPORT in found:
        return list(cases)
    return [case for case in cases if case in found]


def _verdict(
    baseline: dict[str, Any], result: dict[str, Any], cases: list[str], golden: frozenset[str]
) -> tuple[bool, bool, str]:
    """(killed, killed without goldens, how) of one mutant's run against the unmutated one."""
    killed, plain, how = False, False, ""
    for case in cases:
        before, after = baseline.get(case), result.get(case)
        if before is None:
            continue
        if after is None:
            return True, True, f"{case}: did not run"
        new = sorted(set(after["failed"]) - set(before["failed"]))
        crash = after.get("crashed", False) and not before.get("crashed", False)
        if new and not killed:
            killed, how = True, f"{case}: {', '.join(new)}"
        if crash or set(new) - golden:
            checks = ", ".join(sorted(set(new) - golden)) or "expected (the provider crashed)"
            return True, True, f"{case}: {checks}"
    return killed, plain, how


def _mutant_result(
    pool: WorkerPool,
    target: Target,
    file: Path,
    mutant: Mutant,
    baseline: dict[str, Any],
    limits: tuple[float, float],
) -> MutantResult:
    timeout, case_timeout = limits
    label = target.label(file)
    lines = baseline["lines"].get(str(file), {})
    cases = _reached(mutant, {int(k): v for k, v in lines.items()}, target.cases)
    if not cases:
        return MutantResult(label, mutant, "survived", how="no case reaches it")
    job = {
        "provider": target.provider_id,
        "mutant": {"module": target.module(file), "file": str(file), "index": mutant.index},
        "cases": {c: target.directories[c] for c in cases} if target.directories else None,
        "case_timeout": min(case_timeout, timeout),
    }
    result, why = pool.run(job, timeout)
    if result is None and why.startswith("timed out"):
        # A loaded machine slows every run, not only a mutant that hangs: a hang hangs twice.
        result, again = pool.run(job, 2 * timeout)
        why = f"timed out twice (after {timeout:g} s, then {2 * timeout:g} s)" if result is None else again
    if result is None or "error" in result:
        reason = why or str(result.get("error") if result else "")
        return MutantResult(label, mutant, "killed", True, reason.splitlines()[0] if reason else "")
    killed, plain, how = _verdict(baseline["cases"], result["cases"], cases, target.golden_checks)
    return MutantResult(label, mutant, "killed" if killed else "survived", plain, how)


def sample_mutants(every: list[_T], sample: int, seed: int) -> list[_T]:
    """``sample`` of ``every`` drawn with ``random.Random(seed)`` (all of them when ``sample`` is 0
    or not smaller), in their listed order: the same list, seed and size, the same sample."""
    if sample <= 0 or sample >= len(every):
        return list(every)
    picked = set(random.Random(seed).sample(range(len(every)), sample))
    return [item for at, item in enumerate(every) if at in picked]


def run_mutation(
    provider_id: str,
    *,
    sample: int = DEFAULT_SAMPLE,
    seed: int = 0,
    mutant_timeout: float = DEFAULT_MUTANT_TIMEOUT,
    case_timeout: float = 60.0,
    budget: float | None = None,
    jobs: int = 1,
    fork: bool | None = None,
    progress: Callable[[MutantResult], None] | None = None,
    only: Callable[[str, Mutant], bool] | None = None,
) -> MutationReport:
    """Mutate ``provider_id``'s mapping modules and replay its cases against ``sample`` mutants
    (every one when ``sample`` is 0). ``budget``: seconds after which no further mutant starts
    (those left are ``not-run``); ``jobs``: mutants run at once; ``fork``: run them through fork
    servers (the default where the platform forks) or each in a fresh interpreter; ``only``: keep
    the mutants it accepts (``file`` as reported, the mutant) before sampling."""
    started = time.monotonic()
    report = MutationReport(provider_id, seed)
    target = find_target(provider_id)
    report.modules = len(target.files)
    every = [
        (file, m)
        for file in target.files
        for m in find_mutants(file.read_text(encoding="utf-8"))
        if target.keeps(file, m)
    ]
    if only is not None:
        every = [(file, m) for file, m in every if only(target.label(file), m)]
    report.total = len(every)
    chosen = sample_mutants(every, sample, seed)
    baseline_job = {"provider": provider_id, "trace": str(target.root), "case_timeout": case_timeout}
    clock = time.monotonic()
    baseline, why = run_fresh(baseline_job, max(mutant_timeout, 600.0))
    # A mutant replays at most the cases the (traced, so slower) unmutated run did: its limit is
    # never under three times that run's time, however loaded the machine.
    mutant_timeout = max(mutant_timeout, 3 * (time.monotonic() - clock))
    if baseline is None or "error" in baseline:
        report.problem = "the unmutated run failed: " + (why or str((baseline or {}).get("error")))
        report.seconds = time.monotonic() - started
        return report

    def one(item: tuple[Path, Mutant]) -> MutantResult:
        file, mutant = item
        if budget is not None and time.monotonic() - started > budget:
            outcome = MutantResult(target.label(file), mutant, "not-run", how="the time budget was spent")
        else:
            limits = (mutant_timeout, case_timeout)
            outcome = _mutant_result(pool, target, file, mutant, baseline, limits)
        if progress is not None:
            progress(outcome)
        return outcome

    pool = WorkerPool(fork)
    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as threads:
            report.results = list(threads.map(one, chosen))
    finally:
        pool.close()
    report.seconds = time.monotonic() - started
    return report


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def render_mutation(reports: Iterable[MutationReport], fmt: str = "table") -> str:
    """The reports as text (every survivor as ``file:line: what changed``) or JSON."""
    reports = list(reports)
    if fmt == "json":
        return json.dumps({"version": 1, "providers": [r.as_dict() for r in reports]}, indent=2)
    lines: list[str] = []
    for r in reports:
        if r.problem:
            lines.append(f"mutation: {r.provider_id}: {r.problem}")
            continue
        killed, plain, run = r.count("killed"), r.without_goldens, r.run
        lines.append(
            f"mutation: {r.provider_id}: {len(r.results)} of {r.total} mutants in {r.modules} modules"
            f" (seed {r.seed}): {killed} killed ({_percent(killed, run)}), {plain} without goldens"
            f" ({_percent(plain, run)}), {r.count('survived')} survived, {r.count('not-run')} not run;"
            f" {r.seconds:.0f} s"
        )
        survivors = [x for x in r.results if x.status == "survived"]
        if survivors:
            lines.append("  survived:")
            lines += [f"    {x.where()}" + (f" [{x.how}]" if x.how else "") for x in survivors]
        golden_only = [x for x in r.results if x.status == "killed" and not x.killed_without_goldens]
        if golden_only:
            lines.append("  killed by expected.json alone (they survive --regenerate):")
            lines += [f"    {x.where()} [{x.how}]" for x in golden_only]
    return "\n".join(lines)
