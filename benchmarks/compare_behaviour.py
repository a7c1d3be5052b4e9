"""No behaviour change between two commits: the same status, line and node count deal by deal.

    python benchmarks/compare_behaviour.py solve --variant yukon --deals 1-1000 \
        --max-nodes 50000 --out /tmp/new-yukon.jsonl [--without-pairs] \
        [--foundation-return] [--numbering kpat]
    python benchmarks/compare_behaviour.py compare /tmp/old-yukon.jsonl /tmp/new-yukon.jsonl

``solve`` solves each deal of the range (PySolFC numbering unless ``--numbering`` says otherwise)
at a node budget (no time limit, so the figures do not depend on the machine) and writes one
JSON line a deal: status, line, nodes.
It is resumable: deals already in ``--out`` are skipped. It uses only names every commit since
release 0.1.0 has (``solve_position``, ``deal_board``, ``Limits``, ``moves.ALL_REDUCTIONS``), so
one copy of this script runs in an older checkout's venv. ``--without-pairs`` turns off the
pairwise dead-end test (``moves.H2``, issue 22), which an older commit lacks: with it off a
solve searches the same positions as before the test came in. ``compare`` prints the deals
whose status, line or node count differ and exits 1 if any do.
"""

import argparse
import json
import sys
from pathlib import Path

from solver.engine import moves
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.search.solve import solve_position

COMPARED = ("status", "solution", "nodes")


def solved_deals(out: Path) -> set[int]:
    """The deals ``out`` already holds (a line cut short by a stop is dropped)."""
    if not out.exists():
        return set()
    lines = out.read_text().splitlines()
    return {json.loads(line)["deal"] for line in lines if line.endswith("}")}


def solve_range(
    rules: Rules, numbering: str, deals: range, max_nodes: int, without_pairs: bool, out: Path
) -> None:
    pairs = sum(getattr(moves, name, 0) for name in ("H2", "H2_SEARCH", "NOGOODS", "WIDE_NOGOODS"))
    options = moves.ALL_REDUCTIONS & ~pairs if without_pairs else moves.ALL_REDUCTIONS
    limits = Limits(max_nodes=max_nodes, time_limit=None)
    done = solved_deals(out)
    with out.open("a") as written:
        for deal in deals:
            if deal in done:
                continue
            result = solve_position(deal_board(rules.variant, deal, numbering), rules, limits, options)
            row = {
                "deal": deal,
                "status": str(result.status),
                "solution": result.solution,
                "nodes": result.nodes,
            }
            written.write(json.dumps(row) + "\n")
            written.flush()


def differences(old: Path, new: Path) -> tuple[int, list[str]]:
    """How many deals the files hold, and one line per deal whose compared fields differ or
    that one file lacks."""
    rows = [
        {row["deal"]: row for row in map(json.loads, path.read_text().splitlines())} for path in (old, new)
    ]
    deals = sorted(rows[0].keys() | rows[1].keys())
    found = []
    for deal in deals:
        before, after = rows[0].get(deal), rows[1].get(deal)
        if before is None or after is None:
            found.append(f"deal {deal}: only in {old if after is None else new}")
            continue
        for field in COMPARED:
            if before[field] != after[field]:
                found.append(f"deal {deal}: {field} {before[field]!r} -> {after[field]!r}")
    return len(deals), found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    solve = commands.add_parser("solve")
    solve.add_argument("--variant", choices=("yukon", "russian", "milligan"), required=True)
    solve.add_argument("--deals", required=True, help="FIRST-LAST")
    solve.add_argument("--max-nodes", type=int, required=True)
    solve.add_argument("--without-pairs", action="store_true")
    solve.add_argument("--foundation-return", action="store_true")
    solve.add_argument("--numbering", choices=("pysol", "kpat"), default="pysol")
    solve.add_argument("--out", type=Path, required=True)
    compare = commands.add_parser("compare")
    compare.add_argument("old", type=Path)
    compare.add_argument("new", type=Path)
    args = parser.parse_args(argv)
    if args.command == "solve":
        first, last = map(int, args.deals.split("-"))
        rules = Rules(args.variant, args.foundation_return)
        deals = range(first, last + 1)
        solve_range(rules, args.numbering, deals, args.max_nodes, args.without_pairs, args.out)
        return 0
    compared, found = differences(args.old, args.new)
    for difference in found:
        print(difference)
    print(f"{compared} deals compared, {len(found)} differences")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
