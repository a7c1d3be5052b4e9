"""A new user's first minute: the first ``yukon solve`` with an empty kernel cache.

    python benchmarks/bench_cold_start.py

Every run is the installed ``yukon`` command (beside this Python) in a fresh process, with
``NUMBA_CACHE_DIR`` pointing at a new, empty folder, as on a machine that has never run the
solver:

* ``yukon solve 12`` cold (compiles every kernel, says so once on stderr), then warm runs
  that load the cache;
* ``yukon solve 1-20 --jobs 2 --out DB`` cold: the two workers share one compilation (the
  first compiles, the other waits and loads), so the notice appears once;
* commands that do not search (``deal``, ``--help``) with an empty cache: they must leave it
  empty (they never compile a kernel).
"""

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import command_line, machine_info, now, write_json

from solver.commands import solve_arguments

YUKON = str(Path(sys.executable).parent / "yukon")
NOTICE = "compiling the solver"


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deal", default="12")
    parser.add_argument("--batch", default="1-20", help="range of the cold batch run (default 1-20)")
    parser.add_argument("--warm-runs", type=int, default=3, help="warm runs after the cold one (default 3)")
    parser.add_argument("--out", default="benchmarks/results/cold_start.json")
    return parser.parse_args(argv)


def run(arguments: list[str], cache_dir: str) -> dict:
    """One ``yukon`` process: its wall time, the notices it printed, the cache files after."""
    environment = {"NUMBA_CACHE_DIR": cache_dir, "PATH": "/usr/bin:/bin", "HOME": cache_dir}
    started = time.perf_counter()
    completed = subprocess.run([YUKON, *arguments], env=environment, capture_output=True, text=True)
    wall = time.perf_counter() - started
    cache_files = [path for path in Path(cache_dir).rglob("*") if path.suffix in (".nbi", ".nbc")]
    return {
        "command": "yukon " + " ".join(arguments),
        "exit_status": completed.returncode,
        "wall_seconds": round(wall, 3),
        "compile_notices": completed.stderr.count(NOTICE),
        "cache_files_after": len(cache_files),
    }


def fresh_cache(function):
    with tempfile.TemporaryDirectory(prefix="yukon-cold-") as cache_dir:
        return function(cache_dir)


def main(argv=None) -> int:
    args = parse_args(argv)
    single = solve_arguments(args.deal)[1:]

    def cold_then_warm(cache_dir):
        return [run(single, cache_dir)] + [run(single, cache_dir) for _ in range(args.warm_runs)]

    solves = fresh_cache(cold_then_warm)
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
        "cold_batch": batch,
        "commands_that_do_not_search": quiet,
    }
    write_json(args.out, data)
    print(f"command: {data['command']}")
    print(f"{'run':52}{'wall s':>8}{'notices':>9}{'cache files':>13}")
    for name, entry in (
        [("cold", solves[0])]
        + [("warm", w) for w in solves[1:]]
        + [("cold", batch)]
        + [("cold", q) for q in quiet]
    ):
        label = f"{name}: {entry['command']}"[:50]
        print(
            f"{label:52}{entry['wall_seconds']:>8.2f}{entry['compile_notices']:>9}{entry['cache_files_after']:>13}"
        )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
