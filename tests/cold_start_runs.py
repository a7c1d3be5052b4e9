"""The command line in fresh processes with kernel caches of their own, and the cold start of
``test_cold_start``, which the session starts at once (``conftest``): it compiles the search
kernels, and runs on the core the in-process tests leave idle."""

import subprocess
import sys
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


class ColdStarts:
    """``yukon solve 12 --json --time-limit 5`` and a batch of two workers, started together on one empty
    kernel cache in ``folder``: the one compilation of the session's cold-start tests, which the
    three solving processes share (one compiles, the others wait and load)."""

    def __init__(self, folder: Path):
        self.cache = folder / "cache"
        self.single = start_yukon(FIRST_SOLVE, self.cache)
        self.batch = start_yukon(["solve", "1-4", "--jobs", "2", "--out", str(folder / "b.db")], self.cache)
        self.results: dict | None = None

    def finish(self) -> dict:
        """``first_solve``: the single solve's result and the cache it compiled; ``batch``: the batch's."""
        if self.results is None:
            self.results = {"first_solve": (finished(self.single), self.cache), "batch": finished(self.batch)}
        return self.results

    def stop(self) -> None:
        for process in (self.single, self.batch):
            if process.poll() is None:
                process.kill()
            process.communicate()
