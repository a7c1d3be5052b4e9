"""Throughput benchmark: solve a range of deals one after another on one core.

    python benchmarks/bench_solver.py --variant russian --numbering pysol --deals 1-1000 \
        --time-limit 60 --out benchmarks/results/russian_pysol_1-1000.json
    python benchmarks/bench_solver.py --variant milligan --foundation-return --deals 1-1000 \
        --time-limit 10

The numba kernels are warmed up first with one solve that is timed and reported on its
own; every deal is then solved in this process, one at a time. The JSON is rewritten
every ``--checkpoint`` deals (with ``"complete": false``) so a long run can be read early.
"""

import argparse
import sys
import time

from common import (
    command_line,
    machine_info,
    max_rss_bytes,
    now,
    parse_deals,
    percentiles,
    status_counts,
    warm_up,
    write_json,
)
from tqdm import tqdm

from solver.engine.table import ENTRY_BYTES
from solver.game.numbering import NUMBERINGS, deal_board
from solver.game.rules import VARIANTS, Rules
from solver.results.limits import Limits
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE
from solver.search.solve import solve_position

SLOWEST_SHOWN = 20


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", choices=VARIANTS, default="yukon")
    parser.add_argument("--foundation-return", action="store_true", help="allow foundation return")
    parser.add_argument("--numbering", choices=NUMBERINGS, default="pysol")
    parser.add_argument("--deals", default="1-1000", help="e.g. 1-1000 or 1,5,9-20 (default 1-1000)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal (default 60)")
    parser.add_argument("--out", default=None, help="JSON file (default benchmarks/results/<variant>_...)")
    parser.add_argument("--checkpoint", type=int, default=50, help="rewrite the JSON every N deals")
    args = parser.parse_args(argv)
    if args.out is None:
        limit = f"{args.time_limit:g}s"
        rule_set = args.variant + ("-return" if args.foundation_return else "")
        args.out = f"benchmarks/results/{rule_set}_{args.numbering}_{args.deals}_{limit}.json"
    return args


def summary(args, rows: list[dict], peak_entries: int, warm: dict, wall: float, complete: bool) -> dict:
    seconds = [row["seconds"] for row in rows]
    total_seconds = sum(seconds)
    total_nodes = sum(row["nodes"] for row in rows)
    counts = status_counts(row["status"] for row in rows)
    decided = counts[SOLVED] + counts[UNSOLVABLE]
    return {
        "benchmark": "bench_solver",
        "complete": complete,
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "settings": {
            "variant": args.variant,
            "numbering": args.numbering,
            "foundation_return": args.foundation_return,
            "deals": args.deals,
            "time_limit_seconds": args.time_limit,
            "cores": 1,
        },
        "warm_up": warm,
        "deals_run": len(rows),
        "counts": counts,
        "decided_fraction": decided / len(rows) if rows else None,
        "seconds_per_deal": percentiles(seconds),
        "total_seconds": total_seconds,
        "wall_seconds": wall,
        "total_nodes": total_nodes,
        "nodes_per_second": total_nodes / total_seconds if total_seconds else None,
        "peak_memory": {
            "peak_table_entries": peak_entries,
            "table_bytes": peak_entries * ENTRY_BYTES,
            "entry_bytes": ENTRY_BYTES,
            "process_max_rss_bytes": max_rss_bytes(),
        },
        "unknown_deals": [row["deal"] for row in rows if row["status"] == UNKNOWN],
        "slowest": sorted(rows, key=lambda row: row["seconds"], reverse=True)[:SLOWEST_SHOWN],
        "rows": rows,
    }


def print_summary(data: dict) -> None:
    counts, per_deal = data["counts"], data["seconds_per_deal"]
    memory = data["peak_memory"]
    lines = [
        f"command:          {data['command']}",
        f"machine:          {data['machine']['cpu_model']}, python {data['machine']['python']}, "
        f"numba {data['machine']['numba']}",
        f"warm-up:          {data['warm_up']['seconds']:.2f} s (deal {data['warm_up']['deal']}, not counted)",
        f"deals:            {data['deals_run']}  solved {counts[SOLVED]}  unsolvable {counts[UNSOLVABLE]}  "
        f"unknown {counts[UNKNOWN]}",
        f"decided:          {data['decided_fraction']:.1%}",
        f"s per deal:       median {per_deal['median']:.4f}  p90 {per_deal['p90']:.4f}  "
        f"p99 {per_deal['p99']:.4f}  max {per_deal['max']:.4f}",
        f"total:            {data['total_seconds']:.1f} s solving ({data['wall_seconds']:.1f} s wall)",
        f"nodes/s:          {data['nodes_per_second']:,.0f} ({data['total_nodes']:,} nodes)",
        f"peak table:       {memory['peak_table_entries']:,} entries = "
        f"{memory['table_bytes'] / 2**20:.1f} MiB",
        f"process max RSS:  {memory['process_max_rss_bytes'] / 2**20:.0f} MiB",
    ]
    lines.append(f"unknown deals:    {' '.join(map(str, data['unknown_deals'])) or 'none'}")
    lines.append(f"slowest {len(data['slowest'])}:")
    lines += [
        f"  deal {row['deal']:>8}  {row['status']:<10}  {row['seconds']:8.3f} s  {row['nodes']:>12,} nodes"
        for row in data["slowest"]
    ]
    print("\n".join(lines))


def main(argv=None) -> int:
    args = parse_args(argv)
    deals = parse_deals(args.deals)
    machine_info()  # cached: record the machine, load and code version as they are at the start
    rules = Rules(args.variant, args.foundation_return)
    limits = Limits(time_limit=args.time_limit)
    warm = warm_up(args.variant, args.numbering, deals[0], min(args.time_limit, 10.0))
    print(f"warm-up solve: {warm['seconds']:.2f} s", file=sys.stderr)

    rows: list[dict] = []
    peak_entries = 0
    started = time.perf_counter()
    complete = False
    try:
        for index, deal in enumerate(tqdm(deals, desc=f"{args.variant} {args.numbering}", file=sys.stderr)):
            board = deal_board(args.variant, deal, args.numbering)
            solve_started = time.perf_counter()
            result = solve_position(board, rules, limits)
            seconds = time.perf_counter() - solve_started
            peak_entries = max(peak_entries, result.peak_table_entries)
            rows.append({"deal": deal, "status": result.status, "seconds": seconds, "nodes": result.nodes})
            if args.checkpoint and (index + 1) % args.checkpoint == 0:
                partial = summary(args, rows, peak_entries, warm, time.perf_counter() - started, False)
                write_json(args.out, partial)
        complete = True
    except KeyboardInterrupt:
        print("interrupted: writing the deals done so far", file=sys.stderr)
    data = summary(args, rows, peak_entries, warm, time.perf_counter() - started, complete)
    write_json(args.out, data)
    if rows:
        print_summary(data)
    print(f"wrote {args.out}")
    return 0 if complete else 130


if __name__ == "__main__":
    sys.exit(main())
