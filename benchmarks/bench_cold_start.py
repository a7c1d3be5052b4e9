"""Cold start: the first run's numba JIT compile against a run that loads the compiled cache.

    python benchmarks/bench_cold_start.py

Each run is a fresh ``python -c`` subprocess that imports the solver and solves one deal
(default: Russian Solitaire, PySolFC deal 1). Both runs share ``NUMBA_CACHE_DIR`` set to a
new, empty temporary directory, so the first run must compile every kernel (and writes the
cache) and the later runs load it. Reported per run: the subprocess's wall time (Python
start-up included), and from inside it the import time and the solve time.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import command_line, machine_info, now, write_json

CHILD = """
import json, time
started = time.perf_counter()
from solver.numbering import deal_board
from solver.result import Limits
from solver.rules import Rules
from solver.solve import solve_position
imported = time.perf_counter()
board = deal_board({variant!r}, {deal}, {numbering!r})
result = solve_position(board, Rules({variant!r}), Limits(time_limit=600))
solved = time.perf_counter()
print(json.dumps({{"import_seconds": imported - started, "solve_seconds": solved - imported,
                  "solver_seconds": result.seconds, "status": result.status, "nodes": result.nodes}}))
"""


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", choices=("yukon", "russian"), default="russian")
    parser.add_argument("--numbering", choices=("pysol", "kpat"), default="pysol")
    parser.add_argument("--deal", type=int, default=1)
    parser.add_argument("--warm-runs", type=int, default=3, help="warm runs after the cold one (default 3)")
    parser.add_argument("--out", default="benchmarks/results/cold_start.json")
    return parser.parse_args(argv)


def run_child(code: str, cache_dir: str) -> dict:
    environment = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    started = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - started
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    cache_files = [path for path in Path(cache_dir).rglob("*") if path.suffix in (".nbi", ".nbc")]
    return {"process_wall_seconds": wall, **report, "cache_files_after": len(cache_files)}


def main(argv=None) -> int:
    args = parse_args(argv)
    code = CHILD.format(variant=args.variant, deal=args.deal, numbering=args.numbering)
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache_dir:
        cold = run_child(code, cache_dir)
        warm = [run_child(code, cache_dir) for _ in range(args.warm_runs)]
    best_warm = min(warm, key=lambda run: run["process_wall_seconds"])
    data = {
        "benchmark": "bench_cold_start",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "settings": {"variant": args.variant, "numbering": args.numbering, "deal": args.deal},
        "cold": cold,
        "warm": warm,
        "jit_compile_seconds_estimate": cold["solve_seconds"] - best_warm["solve_seconds"],
    }
    write_json(args.out, data)
    print(f"command: {data['command']}")
    print(f"deal: {args.variant} {args.numbering} {args.deal} -> {cold['status']} ({cold['nodes']} nodes)")
    print(f"{'run':8}{'process wall s':>16}{'import s':>10}{'solve s':>10}{'cache files':>13}")
    for name, run in [("cold", cold)] + [(f"warm {i + 1}", run) for i, run in enumerate(warm)]:
        print(
            f"{name:8}{run['process_wall_seconds']:>16.2f}{run['import_seconds']:>10.2f}"
            f"{run['solve_seconds']:>10.2f}{run['cache_files_after']:>13}"
        )
    print(f"JIT compile (cold solve - best warm solve): {data['jit_compile_seconds_estimate']:.2f} s")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
