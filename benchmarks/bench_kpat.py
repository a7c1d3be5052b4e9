"""KPat's Yukon solver and ours, side by side on the same KPat-numbered deals.

    python benchmarks/bench_kpat.py --deals 1-200 --time-limit 10
    python benchmarks/bench_kpat.py --deals 1-200 --kpat-only --out kpat_1-200.json   # KPat's half only

KPat runs first, as one headless process over the whole range:

    QT_QPA_PLATFORM=offscreen /usr/games/kpat --solve 10 --start A --end B

Its CPU time comes from resource.getrusage(RUSAGE_CHILDREN) and its per-deal verdicts from
its output lines ``<deal> won|lost|unknown (<ms> ms)``. KPat stops a deal when its 30 MB
position store is full (``unknown``). Then ours solves the same deals under the same rules
(yukon, no foundation return, kpat numbering) in this process, one at a time, with a time
limit per deal (wall seconds, ``--time-limit``; on a shared machine ``--time-limit inf
--max-nodes N`` gives a budget the load cannot shrink, and ``--kpat-from`` reuses KPat's half
of an earlier run of the range). Our per-deal seconds are CPU seconds. Every deal whose
verdicts differ is listed; where ours says solved, the line shown has been replayed as a win
on the reference rules engine (inside ``solve`` and once more here).
"""

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

from common import (
    command_line,
    machine_info,
    max_rss_bytes,
    now,
    parse_deals,
    status_counts,
    warm_up,
    write_json,
)
from tqdm import tqdm

from solver.game.notation import final_position
from solver.game.numbering import deal_board
from solver.game.reference import is_won
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE
from solver.search.solve import solve_position

KPAT_DEFAULT = "/usr/games/kpat"
YUKON_GAME_ID = "10"
KPAT_LINE = re.compile(r"^(\d+) (won|lost|unknown) \((\d+) ms\)$")
KPAT_VERDICTS = {"won": SOLVED, "lost": UNSOLVABLE, "unknown": UNKNOWN}
RULES = Rules("yukon", foundation_return=False)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", default="1-200", help="a contiguous range A-B (default 1-200)")
    parser.add_argument(
        "--time-limit", type=float, default=10.0, help="our wall seconds per deal (default 10; inf: none)"
    )
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=None,
        help="our positions per deal (default: none); on a shared machine, with --time-limit inf, a budget "
        "the load cannot shrink",
    )
    parser.add_argument(
        "--kpat-from",
        metavar="FILE",
        help="take KPat's half from an earlier run's JSON of the same range (run only ours)",
    )
    parser.add_argument(
        "--kpat-only",
        action="store_true",
        help="run only KPat and write its half (for a later --kpat-from), no solve of ours",
    )
    parser.add_argument("--kpat", default=None, help=f"KPat binary (default {KPAT_DEFAULT} or kpat on PATH)")
    parser.add_argument("--out", default="benchmarks/results/kpat_side_by_side.json")
    parser.add_argument("--from-json", metavar="FILE", help="print the report of an earlier run, run nothing")
    return parser.parse_args(argv)


def find_kpat(given: str | None) -> str | None:
    for candidate in (given, KPAT_DEFAULT, shutil.which("kpat")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_kpat(kpat: str, first: int, last: int) -> dict:
    command = [kpat, "--solve", YUKON_GAME_ID, "--start", str(first), "--end", str(last)]
    environment = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    cpu_before = children_cpu()
    started = time.perf_counter()
    print(f"running KPat on deals {first}-{last} (no progress until it ends) ...", file=sys.stderr)
    completed = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    cpu = children_cpu() - cpu_before
    verdicts, milliseconds = {}, {}
    for line in completed.stdout.splitlines():
        match = KPAT_LINE.match(line.strip())
        if match:
            deal = int(match[1])
            verdicts[deal] = KPAT_VERDICTS[match[2]]
            milliseconds[deal] = int(match[3])
    missing = [deal for deal in range(first, last + 1) if deal not in verdicts]
    if completed.returncode != 0 or missing:
        raise SystemExit(
            f"KPat run failed (exit {completed.returncode}, {len(missing)} deals without a verdict): "
            f"{completed.stderr.strip()[-500:]}"
        )
    return {
        "command": "QT_QPA_PLATFORM=offscreen " + " ".join(command),
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "max_rss_bytes_children": max_rss_bytes(resource.RUSAGE_CHILDREN),
        "verdicts": verdicts,
        "milliseconds": milliseconds,
    }


def kpat_from(path: str, first: int, last: int) -> dict:
    """KPat's half of an earlier run of the same range, as ``run_kpat`` returns it."""
    with open(path) as saved:
        data = json.load(saved)
    if data["settings"]["deals"] != f"{first}-{last}":
        raise SystemExit(f"--kpat-from {path} holds deals {data['settings']['deals']}, not {first}-{last}")
    rows = data["rows"]
    return {
        "command": data["kpat"]["command"],
        "wall_seconds": data["kpat"]["wall_seconds"],
        "cpu_seconds": data["kpat"]["cpu_seconds"],
        "max_rss_bytes_children": data["kpat"]["max_rss_bytes"],
        "verdicts": {row["deal"]: row["kpat"] for row in rows},
        "milliseconds": {row["deal"]: row["kpat_ms"] for row in rows},
        "from": path,
    }


def kpat_half(deals: list[int], kpat: dict) -> dict:
    """KPat's run alone, in the fields ``kpat_from`` reads."""
    counts = status_counts(kpat["verdicts"][deal] for deal in deals)
    return {
        "benchmark": "bench_kpat (KPat only)",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "settings": {"deals": f"{deals[0]}-{deals[-1]}", "variant": "yukon", "numbering": "kpat"},
        "kpat": {
            "command": kpat["command"],
            "counts": counts,
            "decided": counts[SOLVED] + counts[UNSOLVABLE],
            "cpu_seconds": kpat["cpu_seconds"],
            "wall_seconds": kpat["wall_seconds"],
            "max_rss_bytes": kpat["max_rss_bytes_children"],
        },
        "rows": [
            {"deal": deal, "kpat": kpat["verdicts"][deal], "kpat_ms": kpat["milliseconds"][deal]}
            for deal in deals
        ],
    }


def run_ours(deals: list[int], limits: Limits) -> dict:
    warm = warm_up("yukon", "kpat", deals[0], min(limits.time_limit or 10.0, 10.0))
    results = {}
    cpu_before, started = time.process_time(), time.perf_counter()
    for deal in tqdm(deals, desc="ours (yukon kpat)", file=sys.stderr):
        board = deal_board("yukon", deal, "kpat")
        solve_started = time.process_time()
        result = solve_position(board, RULES, limits)
        results[deal] = (result, time.process_time() - solve_started)
    return {
        "warm_up": warm,
        "wall_seconds": time.perf_counter() - started,
        "cpu_seconds": time.process_time() - cpu_before,
        "results": results,
    }


def replayed_win(deal: int, solution: str) -> bool:
    board = deal_board("yukon", deal, "kpat")
    return is_won(final_position(board, solution.split(), RULES))


def disagreements(deals, kpat: dict, ours: dict) -> list[dict]:
    rows = []
    for deal in deals:
        theirs, (result, seconds) = kpat["verdicts"][deal], ours["results"][deal]
        if theirs == result.status:
            continue
        decided = {theirs, result.status} <= {SOLVED, UNSOLVABLE}
        row = {
            "deal": deal,
            "kpat": theirs,
            "ours": result.status,
            "kind": "contradiction" if decided else "only one decided",
            "kpat_ms": kpat["milliseconds"][deal],
            "our_seconds": seconds,
        }
        if result.status == SOLVED:
            row["our_solution"] = result.solution
            row["our_solution_length"] = result.solution_length
            row["replayed_on_reference_engine"] = replayed_win(deal, result.solution)
            row["opening"] = deal_board("yukon", deal, "kpat").to_text()
        rows.append(row)
    return rows


def print_report(data: dict) -> None:
    kpat, ours = data["kpat"], data["ours"]
    print(f"command: {data['command']}")
    print(f"KPat:    {kpat['command']}")
    settings = data["settings"]
    nodes = settings.get("max_nodes")
    print(
        f"deals {settings['deals']}, our time limit {settings['time_limit_seconds']:g} s/deal"
        + (f", {nodes:,} positions/deal" if nodes else "")
    )
    print()
    print(f"{'':24}{'KPat':>12}{'ours':>12}")
    for status, kpat_word in ((SOLVED, "won"), (UNSOLVABLE, "lost"), (UNKNOWN, "unknown")):
        label = f"{status} ({kpat_word})"
        print(f"{label:24}{kpat['counts'][status]:>12}{ours['counts'][status]:>12}")
    print(f"{'decided':24}{kpat['decided']:>12}{ours['decided']:>12}")
    print(f"{'CPU seconds':24}{kpat['cpu_seconds']:>12.1f}{ours['cpu_seconds']:>12.1f}")
    print(f"{'wall seconds':24}{kpat['wall_seconds']:>12.1f}{ours['wall_seconds']:>12.1f}")
    ratio = data["speed"]
    print()
    print(f"speed ratio (KPat CPU / our CPU, whole range): {ratio['total_cpu_ratio']:.2f}")
    both = ratio["both_decided_deals"]
    kpat_both, our_both = ratio["both_decided_kpat_seconds"], ratio["both_decided_our_seconds"]
    print(
        f"both decided ({both} deals): KPat {kpat_both:.2f} s (sum of its per-deal ms), ours {our_both:.2f} s"
    )
    if "kpat_deals_over_1s" in ratio:
        print(f"deals over 1 s: KPat {ratio['kpat_deals_over_1s']}, ours {ratio['our_deals_over_1s']} (CPU)")
    print(f"our warm-up solve (not counted): {ours['warm_up']['seconds']:.2f} s")
    print()
    rows = data["disagreements"]
    contradictions = [row for row in rows if row["kind"] == "contradiction"]
    print(f"deals where the verdicts differ: {len(rows)} ({len(contradictions)} contradictions)")
    for row in contradictions:
        print(
            f"  deal {row['deal']}: KPat {row['kpat']} ({row['kpat_ms']} ms), ours {row['ours']} "
            f"({row['our_seconds']:.2f} s)"
        )
        if row.get("our_solution"):
            print(
                f"    our {row['our_solution_length']}-move solution, replayed as a win on the reference "
                f"engine: {row['replayed_on_reference_engine']}"
            )
            print("    opening:")
            for line in row["opening"].splitlines():
                print(f"      {line}")
            print(f"    solution: {row['our_solution']}")
    groups: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        if row["kind"] != "contradiction":
            groups.setdefault((row["kpat"], row["ours"]), []).append(row)
    for (theirs, mine), group in sorted(groups.items()):
        print(f"  KPat {theirs}, ours {mine} ({len(group)}): {' '.join(str(row['deal']) for row in group)}")
        replayed = [row["replayed_on_reference_engine"] for row in group if "our_solution" in row]
        if replayed:
            print(
                f"    our solutions (in the JSON) replayed as wins on the reference engine: "
                f"{sum(replayed)}/{len(replayed)}"
            )


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.from_json:
        with open(args.from_json) as saved:
            print_report(json.load(saved))
        return 0
    kpat_binary = find_kpat(args.kpat)
    if kpat_binary is None:
        print("KPat is not installed: run `apt-get install kpat` (needs /usr/games/kpat)", file=sys.stderr)
        return 2
    deals = parse_deals(args.deals)
    first, last = deals[0], deals[-1]
    if deals != list(range(first, last + 1)):
        raise SystemExit("--deals must be one contiguous range A-B (KPat solves --start A --end B)")

    machine_info()  # cached: record the machine, load and code version as they are at the start
    kpat = kpat_from(args.kpat_from, first, last) if args.kpat_from else run_kpat(kpat_binary, first, last)
    if args.kpat_only:
        write_json(args.out, kpat_half(deals, kpat))
        return 0
    limits = Limits(
        time_limit=None if args.time_limit == float("inf") else args.time_limit, max_nodes=args.max_nodes
    )
    ours = run_ours(deals, limits)

    kpat_counts = status_counts(kpat["verdicts"][deal] for deal in deals)
    our_counts = status_counts(ours["results"][deal][0].status for deal in deals)
    both = [
        deal
        for deal in deals
        if kpat["verdicts"][deal] != UNKNOWN and ours["results"][deal][0].status != UNKNOWN
    ]
    data = {
        "benchmark": "bench_kpat",
        "command": command_line(),
        "date": now(),
        "machine": machine_info(),
        "settings": {
            "deals": f"{first}-{last}",
            "variant": "yukon",
            "foundation_return": False,
            "numbering": "kpat",
            "time_limit_seconds": args.time_limit,
            "max_nodes": args.max_nodes,
            "our_seconds": "CPU seconds of each solve (process time)",
            "kpat_limit": "KPat's own: 30,000,000-byte position store (no time limit)",
        },
        "kpat": {
            "command": kpat["command"],
            "from": kpat.get("from"),
            "counts": kpat_counts,
            "decided": kpat_counts[SOLVED] + kpat_counts[UNSOLVABLE],
            "cpu_seconds": kpat["cpu_seconds"],
            "wall_seconds": kpat["wall_seconds"],
            "max_rss_bytes": kpat["max_rss_bytes_children"],
        },
        "ours": {
            "counts": our_counts,
            "decided": our_counts[SOLVED] + our_counts[UNSOLVABLE],
            "cpu_seconds": ours["cpu_seconds"],
            "wall_seconds": ours["wall_seconds"],
            "warm_up": ours["warm_up"],
            "max_rss_bytes": max_rss_bytes(),
        },
        "speed": {
            "total_cpu_ratio": kpat["cpu_seconds"] / ours["cpu_seconds"] if ours["cpu_seconds"] else None,
            "both_decided_deals": len(both),
            "both_decided_kpat_seconds": sum(kpat["milliseconds"][deal] for deal in both) / 1000,
            "both_decided_our_seconds": sum(ours["results"][deal][1] for deal in both),
            "kpat_deals_over_1s": sum(kpat["milliseconds"][deal] > 1000 for deal in deals),
            "our_deals_over_1s": sum(ours["results"][deal][1] > 1 for deal in deals),
        },
        "disagreements": disagreements(deals, kpat, ours),
        "rows": [
            {
                "deal": deal,
                "kpat": kpat["verdicts"][deal],
                "kpat_ms": kpat["milliseconds"][deal],
                "ours": ours["results"][deal][0].status,
                "our_seconds": ours["results"][deal][1],
                "our_nodes": ours["results"][deal][0].nodes,
            }
            for deal in deals
        ],
    }
    write_json(args.out, data)
    print_report(data)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
