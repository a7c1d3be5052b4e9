"""The command line in fresh processes with kernel caches of their own, and the cold start of
``test_cold_start``: it compiles the search kernels, once in a test run however many
pytest-xdist workers run it (``conftest.cold_starts``)."""

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


def start_yukon(arguments, cache_dir, cwd=None) -> subprocess.Popen:
    """The command line started in a fresh process whose kernel cache is ``cache_dir``."""
    environment = {"NUMBA_CACHE_DIR": str(cache_dir), "PATH": "/usr/bin:/bin", "HOME": str(cache_dir)}
    return subprocess.Popen(
        [sys.executable, "-c", "from solver.cli import main; main()", *arguments],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )


def finished(process: subprocess.Popen) -> subprocess.CompletedProcess:
    stdout, stderr = process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def yukon(arguments, cache_dir, cwd=None) -> subprocess.CompletedProcess:
    """The command line in a fresh process whose kernel cache is ``cache_dir``."""
    return finished(start_yukon(arguments, cache_dir, cwd))


# The compile (some 20 CPU seconds) is not the solve's: it starts its 5 s after the kernels are ready.
FIRST_SOLVE = ["solve", "12", "--json", "--time-limit", "5"]
RESULTS = "results.json"


def run_cold_starts(folder: Path) -> None:
    """``yukon solve 12 --json --time-limit 5`` and a batch of two workers, started together on one
    empty kernel cache in ``folder``: the one compilation of a test run's cold-start tests, which
    the three solving processes share (one compiles, the others wait and load). Their results
    are written to ``folder`` (``shared.made_once`` runs this once for every pytest-xdist worker)."""
    cache = folder / "cache"
    processes = {
        "first_solve": start_yukon(FIRST_SOLVE, cache),
        "batch": start_yukon(["solve", "1-4", "--jobs", "2", "--out", str(folder / "b.db")], cache),
    }
    try:
        results = {name: finished(process) for name, process in processes.items()}
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()
    saved = {
        name: [result.args, result.returncode, result.stdout, result.stderr]
        for name, result in results.items()
    }
    (folder / RESULTS).write_text(json.dumps(saved), encoding="utf-8")


@dataclass(frozen=True)
class ColdStarts:
    """What ``run_cold_starts`` left: each run's completed process, and the cache they compiled."""

    first_solve: subprocess.CompletedProcess
    batch: subprocess.CompletedProcess
    cache: Path


def cold_start_results(folder: Path) -> ColdStarts:
    """What ``run_cold_starts`` wrote in ``folder``."""
    saved = json.loads((folder / RESULTS).read_text(encoding="utf-8"))
    runs = {name: subprocess.CompletedProcess(*fields) for name, fields in saved.items()}
    return ColdStarts(**runs, cache=folder / "cache")
