"""Batch throughput: deals per second with 1 and 2 local workers, and the overhead of the
store and the process pool per deal compared with solving alone.

    python benchmarks/bench_batch.py --deals 1-2000 --max-nodes 2000000

Each deal gets a node budget and no time limit, so every run does exactly the same search
work whatever the load: the wall-clock figures compare fairly across worker counts. The
solving time of each deal is what the store records (the worker's own clock around solve).
"""

import argparse
import tempfile
import time
from pathlib import Path

from common import command_line, machine_info, now, parse_deals, status_counts, write_json

from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.runs.batch import run_batch
from solver.store import Store


def one_run(deals: list[int], rules: Rules, limits: Limits, jobs: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "bench.db"
        started = time.perf_counter()
        run_batch(deals, rules, "pysol", store, limits, jobs=jobs, progress=False)
        wall = time.perf_counter() - started
        with Store.open_existing(store) as opened:
            records = list(opened.records())
    solving = sum(record.seconds for record in records)
    return {
        "jobs": jobs,
        "deals": len(records),
        "counts": status_counts(record.status for record in records),
        "wall_seconds": wall,
        "solving_seconds": solving,
        "deals_per_second": len(records) / wall,
        "overhead_seconds_per_deal": (wall * jobs - solving) / len(records),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="yukon", choices=["yukon", "russian"])
    parser.add_argument("--deals", default="1-2000")
    parser.add_argument("--max-nodes", type=int, default=2_000_000)
    parser.add_argument("--jobs", default="1,2", help="worker counts to compare")
    parser.add_argument("--out", default="benchmarks/results/batch_throughput.json")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    limits = Limits(max_nodes=args.max_nodes, time_limit=None)
    rules = Rules(args.variant)
    one_run(deals[:4], rules, limits, 1)  # warm the numba cache outside the measurements
    runs = [one_run(deals, rules, limits, int(jobs)) for jobs in args.jobs.split(",")]
    base = runs[0]
    for run in runs:
        run["speed_up"] = run["deals_per_second"] / base["deals_per_second"]
        run["scaling_efficiency"] = run["speed_up"] * base["jobs"] / run["jobs"]
        print(
            f"jobs {run['jobs']}: {run['deals']} deals in {run['wall_seconds']:.1f} s = "
            f"{run['deals_per_second']:.1f} deals/s (speed-up {run['speed_up']:.2f}, efficiency "
            f"{run['scaling_efficiency']:.0%}); solving {run['solving_seconds']:.1f} s; overhead "
            f"{run['overhead_seconds_per_deal'] * 1000:.2f} ms per deal; {run['counts']}"
        )
    write_json(
        args.out,
        {
            "benchmark": "bench_batch",
            "command": command_line(),
            "date": now(),
            "machine": machine_info(),
            "settings": {"variant": args.variant, "deals": args.deals, "max_nodes": args.max_nodes},
            "runs": runs,
        },
    )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
