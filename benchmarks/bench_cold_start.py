"""A new user's first minute: the first ``yukon solve`` with an empty kernel cache.

    python benchmarks/bench_cold_start.py

Every run is the command line of this checkout in a fresh process (``python -c "from solver.cli
import main; main()"`` with this checkout first on ``PYTHONPATH``: what the installed ``yukon``
runs), with ``NUMBA_CACHE_DIR`` pointing at a new, empty folder, as on a machine that has never
run the solver; each with its wall and CPU seconds (the process's user + system time):

* ``yukon solve 12`` cold (compiles the first look's kernels, says so once on stderr), then warm runs
  that load the cache;
* each kernel group's compile on its own (``solver.engine.groups``: the first look every solve
  runs, then the search, the pairwise tests, the test over triples, the loss reasons, which only
  harder deals need);
* ``yukon solve 1-20 --jobs 2 --out DB`` cold: the two workers share one compilation (the
  first compiles, the other waits and loads), so the notice appears once;
* commands that do not search (``deal``, ``--help``) with an empty cache: they must leave it
  empty (they never compile a kernel).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import command_line, machine_info, now, write_json

from solver.commands import solve_arguments

CHECKOUT = Path(__file__).resolve().parent.parent
YUKON = [sys.executable, "-c", "from solver.cli import main; main()"]
NOTICE = "compiling the solver"
# Each group's kernels made ready in turn in one fresh process: wall and CPU seconds of each.
GROUPS_PROBE = """
import json, time
from solver.search import readiness
try:
    from solver.engine import groups
except ImportError:  # a checkout from before the groups: one compile, measured by the cold solve
    raise SystemExit(print("{}"))
seconds = {}
every_group = getattr(groups, "ALL", None) or (groups.SEARCH, groups.PAIRS, groups.TRIPLES, groups.LOSS)
for group in every_group:
    wall, cpu = time.perf_counter(), time.process_time()
    readiness.kernels_ready(group)
    seconds[group.name] = [round(time.perf_counter() - wall, 2), round(time.process_time() - cpu, 2)]
print(json.dumps(seconds))
"""


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deal", default="12")
    parser.add_argument("--batch", default="1-20", help="range of the cold batch run (default 1-20)")
    parser.add_argument("--warm-runs", type=int, default=3, help="warm runs after the cold one (default 3)")
    parser.add_argument("--out", default="benchmarks/results/cold_start.json")
    return parser.parse_args(argv)


def environment(cache_dir: str) -> dict:
    return {
        "NUMBA_CACHE_DIR": cache_dir,
        "PATH": "/usr/bin:/bin",
        "HOME": cache_dir,
        "PYTHONPATH": str(CHECKOUT),
    }


def timed(command: list[str], cache_dir: str) -> tuple[subprocess.CompletedProcess, float, float]:
    """``command`` run to its end: the process, its wall and its CPU seconds (it and its children)."""
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    completed = subprocess.run(command, env=environment(cache_dir), capture_output=True, text=True)
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return completed, wall, cpu


def run(arguments: list[str], cache_dir: str) -> dict:
    """One ``yukon`` process: its wall and CPU time, the notices it printed, the cache files after."""
    completed, wall, cpu = timed(YUKON + arguments, cache_dir)
    cache_files = [path for path in Path(cache_dir).rglob("*") if path.suffix in (".nbi", ".nbc")]
    return {
        "command": "yukon " + " ".join(arguments),
        "exit_status": completed.returncode,
        "wall_seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "compile_notices": completed.stderr.count(NOTICE),
        "cache_files_after": len(cache_files),
    }


def group_compiles(cache_dir: str) -> dict:
    """Each kernel group's compile from an empty cache: [wall, CPU] seconds by group."""
    completed, _wall, _cpu = timed([sys.executable, "-c", GROUPS_PROBE], cache_dir)
    if completed.returncode != 0:
        raise SystemExit(completed.stderr)
    return json.loads(completed.stdout.splitlines()[-1])


def fresh_cache(function):
    with tempfile.TemporaryDirectory(prefix="yukon-cold-") as cache_dir:
        return function(cache_dir)


def main(argv=None) -> int:
    args = parse_args(argv)
    single = solve_arguments(args.deal)[1:]

    def cold_then_warm(cache_dir):
        return [run(single, cache_dir)] + [run(single, cache_dir) for _ in range(args.warm_runs)]

    solves = fresh_cache(cold_then_warm)
    groups = fresh_cache(group_compiles)
    batch = fresh_cache(
        lambda cache_dir: run(solve_arguments(args.batch, jobs=2, out=f"{cache_dir}/b.db")[1:], cache_dir)
    )
    quiet = [fresh_cache(lambda cache_dir, a=a: run(a, cache_dir)) for a in (["deal", args.deal], ["--help"])]
    data = {
        "benchmark": "bench_cold_start",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "cold_solve": solves[0],
        "warm_solves": solves[1:],
        "group_compiles_wall_cpu_seconds": groups,
        "cold_batch": batch,
        "commands_that_do_not_search": quiet,
    }
    write_json(args.out, data)
    print(f"command: {data['command']}  (load average at start {os.getloadavg()[0]:.2f})")
    print(f"{'run':52}{'wall s':>8}{'CPU s':>8}{'notices':>9}{'cache files':>13}")
    for name, entry in (
        [("cold", solves[0])]
        + [("warm", w) for w in solves[1:]]
        + [("cold", batch)]
        + [("cold", q) for q in quiet]
    ):
        label = f"{name}: {entry['command']}"[:50]
        print(
            f"{label:52}{entry['wall_seconds']:>8.2f}{entry['cpu_seconds']:>8.2f}"
            f"{entry['compile_notices']:>9}{entry['cache_files_after']:>13}"
        )
    for group, (wall, cpu) in groups.items():
        print(f"{'compile of the ' + group:52}{wall:>8.2f}{cpu:>8.2f}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
