"""Helpers shared by the benchmark scripts: deal lists, machine facts, statistics, JSON output."""

import datetime
import functools
import json
import os
import platform
import resource
import shlex
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
from shapes import BENCHMARK

from solver.common.formats import Format
from solver.common.stats import percentile
from solver.game.numbering import deal_board
from solver.game.ranges import parse_range
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.record import STATUSES
from solver.search.config import DEFAULT, SearchConfig
from solver.search.solve import solve_position
from solver.version import source_digest
from study import reports

PACING = ("tests_on_trial", "checks_per_table", "splits_on_trial")  # ``SearchConfig``'s pacing


def unpaced(names: tuple[str, ...] = PACING) -> SearchConfig:
    """The solver's tuning with its tests unpaced (``solver.engine.dead_ends.pacing``): the pacing fields
    ``names`` of ``SearchConfig`` at 0, the others as the solver has them."""
    return replace(DEFAULT, **dict.fromkeys(names, 0))


def parse_deals(text: str, numbering: str = "pysol") -> list[int]:
    """``12``, ``1-1000`` or ``1,5,9-20`` -> sorted deal numbers (the CLI's range syntax)."""
    return list(parse_range(text, numbering))


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_state() -> str:
    """The checked-out commit, marked ``+dirty`` when tracked files have local changes."""
    here = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=here, check=False).returncode != 0
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "")


def solver_source_digest() -> str:
    """A digest of the solver package's .py files, to tell apart runs on a dirty tree."""
    import solver

    return source_digest(Path(solver.__file__).resolve().parent)[:12]


@functools.lru_cache(maxsize=1)
def machine_info() -> dict:
    return {
        "solver_git": git_state(),
        "solver_source_sha1": solver_source_digest(),
        "cpu_model": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "load_average_at_start": list(os.getloadavg()),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
    }


def command_line() -> str:
    return shlex.join([Path(sys.executable).name, *sys.argv])


def now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def max_rss_bytes(who: int = resource.RUSAGE_SELF) -> int:
    """Peak resident set size; Linux reports it in KiB."""
    return resource.getrusage(who).ru_maxrss * 1024


def percentiles(values: list[float]) -> dict:
    """Median / p90 / p99 / max (linear interpolation between order statistics)."""
    ordered = sorted(float(value) for value in values)
    return {
        "median": percentile(ordered, 0.5),
        "p90": percentile(ordered, 0.9),
        "p99": percentile(ordered, 0.99),
        "max": ordered[-1] if ordered else None,
    }


def status_counts(statuses) -> dict:
    counts = dict.fromkeys(STATUSES, 0)
    for status in statuses:
        counts[status] += 1
    return counts


def warm_up(variant: str, numbering: str, deal: int = 1, time_limit: float = 10.0) -> dict:
    """One solve whose only purpose is to load (or compile) the numba kernels."""
    board = deal_board(variant, deal, numbering)
    started = time.perf_counter()
    result = solve_position(board, Rules(variant), Limits(time_limit=time_limit))
    return {
        "deal": deal,
        "status": result.status,
        "seconds": time.perf_counter() - started,
        "note": "includes numba compile or on-disk cache load; not counted in the per-deal figures",
    }


def write_json(path: str | Path, data: dict, kind: Format = BENCHMARK) -> None:
    """Write ``data`` as a figures file of format ``kind`` (its keys first; the study's writer)."""
    reports.write_json(path, data, kind)


def write_figures(path: str | Path, benchmark: str, figures: dict, started: float) -> None:
    """A benchmark's figures with what produced them: the command, the date, the machine and the
    wall seconds since ``started`` (``time.perf_counter``)."""
    header = {"benchmark": benchmark, "command": command_line(), "date": now(), "machine": machine_info()}
    write_json(path, {**header, "seconds": time.perf_counter() - started, **figures})


def played_rows(path: Path) -> list[dict]:
    """The JSON lines of a resumable run's rows file (a last line cut short by a kill left out)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    return rows


@contextmanager
def appended_rows(path: Path):
    """A resumable run's rows file opened to append, on a line of its own after a line cut short
    by a kill; its folder made first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as rows:
        if path.stat().st_size and not path.read_bytes().endswith(b"\n"):
            rows.write("\n")
        yield rows
