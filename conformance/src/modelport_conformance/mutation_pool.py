"""Running mutation worker jobs (:mod:`modelport_conformance.mutation_worker`), each in a process
of its own: forked from a fork server where the platform can fork (the runner's imports are paid
once), else a fresh interpreter. Either way a job past its time is killed, and a job that leaves
no result says why."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

__all__ = ["WorkerPool", "run_fresh"]

_WORKER = "modelport_conformance.mutation_worker"


def _environment() -> dict[str, str]:
    """This process's environment, with its ``sys.path`` (a worker imports what the runner imports)."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))


def _read_result(result_file: Path, why: str) -> tuple[dict[str, Any] | None, str]:
    if not result_file.exists():
        return None, why
    result: dict[str, Any] = json.loads(result_file.read_text(encoding="utf-8"))
    return result, ""


def run_fresh(job: dict[str, Any], timeout: float) -> tuple[dict[str, Any] | None, str]:
    """Run one job in a fresh interpreter; its result, or ``None`` and why there is none."""
    with tempfile.TemporaryDirectory(prefix="modelport-mutant-") as folder:
        job_file, result_file = Path(folder) / "job.json", Path(folder) / "result.json"
        job_file.write_text(json.dumps({**job, "result": str(result_file)}), encoding="utf-8")
        command = [sys.executable, "-m", _WORKER, str(job_file)]
        try:
            done = subprocess.run(
                command,
                env=_environment(),
                cwd=folder,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return None, f"timed out after {timeout:g} s"
        last = (done.stderr.decode("utf-8", "replace").strip().splitlines() or [""])[-1]
        return _read_result(result_file, f"the worker exited with {done.returncode} {last}".strip())


class _ForkServer:
    """One ``mutation_worker --serve`` process, run one job at a time."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""

    def _start(self) -> subprocess.Popen[bytes]:
        self.buffer = b""
        self.process = subprocess.Popen(
            [sys.executable, "-m", _WORKER, "--serve"],
            env=_environment(),
            cwd=self.folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        return self.process

    def _line(self, stream: IO[bytes], deadline: float) -> str | None:
        """The next line the server writes, ``None`` past ``deadline`` or when it is gone."""
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([stream], [], [], left)[0]:
                return None
            chunk = os.read(stream.fileno(), 4096)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("ascii", "replace")

    def run(self, job_file: Path, timeout: float) -> str:
        """Run one job file; ``""`` when its child exited, else why it did not."""
        process = self.process if self.process is not None and self.process.poll() is None else self._start()
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(f"{job_file}\n".encode())
        process.stdin.flush()
        started = self._line(process.stdout, time.monotonic() + 120)  # the server's own start
        if started is None or not started.startswith("pid "):
            self.close()
            return "the fork server did not start the job"
        ended = self._line(process.stdout, time.monotonic() + timeout)
        if ended is not None:
            return ""
        try:
            os.kill(int(started.split()[1]), signal.SIGKILL)
        except (OSError, ValueError):
            pass
        if self._line(process.stdout, time.monotonic() + 10) is None:
            self.close()
        return f"timed out after {timeout:g} s"

    def close(self) -> None:
        if self.process is not None:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.kill()
            self.process.wait()
            self.process = None


class WorkerPool:
    """Fork servers to run jobs through, one per concurrent job (``fork=False``: a fresh
    interpreter per job)."""

    def __init__(self, fork: bool | None = None) -> None:
        self.fork = hasattr(os, "fork") if fork is None else fork
        self.folder = tempfile.TemporaryDirectory(prefix="modelport-mutants-")
        self.idle: list[_ForkServer] = []
        self.lock = threading.Lock()
        self.count = 0

    def run(self, job: dict[str, Any], timeout: float) -> tuple[dict[str, Any] | None, str]:
        """Run one job; its result, or ``None`` and why there is none."""
        if not self.fork:
            return run_fresh(job, timeout)
        with self.lock:
            server = self.idle.pop() if self.idle else _ForkServer(self.folder.name)
            self.count += 1
            number = self.count
        job_file = Path(self.folder.name) / f"job-{number}.json"
        result_file = job_file.with_suffix(".result.json")
        try:
            job_file.write_text(json.dumps({**job, "result": str(result_file)}), encoding="utf-8")
            why = server.run(job_file, timeout)
            return _read_result(result_file, why or "the worker exited without a result")
        finally:
            for path in (job_file, result_file):
                path.unlink(missing_ok=True)
            with self.lock:
                self.idle.append(server)

    def close(self) -> None:
        """Stop every fork server and remove the job files."""
        with self.lock:
            for server in self.idle:
                server.close()
            self.idle = []
        self.folder.cleanup()
