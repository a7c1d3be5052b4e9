"""The pairwise (h^2) dead-end test (``solver/engine/dead_ends/h2.py``) on its own: what one call costs,
that no position on a winning line is flagged, and what it decides at the root of a range.

    python benchmarks/bench_h2.py cost                      # ms a call on mid-game positions
    python benchmarks/bench_h2.py lines                     # every position of every catalogue line
    python benchmarks/bench_h2.py root --deals 1-2000       # root verdicts against the study's
    python benchmarks/bench_h2.py compare --numbering kpat --deals 1-600   # solve with and without it
    python benchmarks/bench_h2.py compare --against unpaced --deals 1-2000  # paced and unpaced
    python benchmarks/bench_h2.py compare --against plain --deals 50001-50300  # no reduction at all
    python benchmarks/bench_h2.py search --deals 395,2368 --switches every  # positions and CPU a proof

``cost`` times calls inside one numba loop (no Python call in the figure) on positions from
random playouts of hard PySolFC deals, strict and with foundation return, split by verdict.
``lines`` replays every one-deck catalogue line (under its own rules, and a strict line with
foundation return too, where it is legal as well) and tests every position on it: any
flagged position is a soundness bug, and the script exits 1. ``root`` tests the opening of
each deal (and lists the deals the twin rule's case split, ``prune.twins_hopeless``, flags
and the pairwise test does not) and counts the result against
``study/results/yukon[-return].verdicts.csv.gz``: a flagged solved deal is a
soundness bug (exit 1). ``compare`` solves each deal with the
default reductions and with the same but the pairwise test (``--against unpaced``: the same with
the tests unpaced, ``engine.dead_ends.pacing``; ``tests``: without every pairwise and triple test and the twin
split; ``plain``: with no reduction at all), at a node budget: a deal solved one way and proved lost
the other is a soundness bug (exit 1); the deals whose positions differ are listed. ``search``
solves each deal with the switches named (``off``: no pairwise test; ``root``: on the root only;
``search``: also ``H2_SEARCH``; ``every``, the default: also ``NOGOODS``) and reports its verdict,
positions, CPU seconds and the tests' counters.
Each writes ``benchmarks/results/h2_<what>.json``.
"""

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
from common import parse_deals, percentiles, unpaced, write_figures
from tqdm import tqdm

from solver.engine import moves
from solver.engine.dead_ends import arrays, h2, prune
from solver.game.board import read_board
from solver.game.notation import replay_tokens
from solver.game.numbering import NUMBERINGS, deal_board
from solver.game.reference import apply_move, legal_moves
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import UNKNOWN
from solver.search.config import DEFAULT
from solver.search.dead_ends import dead_end_counters
from solver.search.packing import pack
from solver.search.solve import solve_position
from study.tables import RESULTS as STUDY_TABLES
from study.tables import read_table

RESULTS = Path(__file__).parent / "results"
CATALOGUE = Path(__file__).parent.parent / "catalogue"
COST_DEALS = (91, 137, 173, 185, 192, 274, 324, 355, 538, 644, 681, 886)


@numba.njit(cache=True)
def timed_calls(states, params, tables, repeats):
    """Each state's verdict, and the best of ``repeats`` timings of its call, in seconds."""
    dead = np.zeros(states.shape[0], dtype=np.bool_)
    seconds = np.full(states.shape[0], np.inf)
    for i in range(states.shape[0]):
        for _ in range(repeats):
            with numba.objmode(started="f8"):
                started = time.perf_counter()
            dead[i] = h2.h2_dead(states[i], params, tables)
            with numba.objmode(took="f8"):
                took = time.perf_counter() - started
            seconds[i] = min(seconds[i], took)
    return dead, seconds


def playout_boards(rules: Rules, deal: int, rng: random.Random, games: int):
    root = deal_board(rules.variant, deal, "pysol")
    for _ in range(games):
        board = root
        for _ in range(rng.randint(5, 60)):
            moves = legal_moves(board, rules)
            if not moves:
                break
            board = apply_move(board, rng.choice(moves), rules)
        yield root, board


def cost(args) -> dict:
    rows = {}
    for foundation_return in (False, True):
        rules = Rules("yukon", foundation_return)
        rng = random.Random(args.seed)
        verdicts = {"alive": [], "dead": []}
        for deal in COST_DEALS:
            tables = arrays.make_tables()
            boards = list(playout_boards(rules, deal, rng, args.games))
            packed = [pack(board, rules) for _root, board in boards]
            root = pack(boards[0][0], rules)
            h2.build_tables(root.state, root.params, tables)
            states = np.stack([p.state for p in packed])
            dead, seconds = timed_calls(states, root.params, tables, args.repeats)
            for is_dead, took in zip(dead, seconds):
                verdicts["dead" if is_dead else "alive"].append(took * 1000)
        rows[rules.label()] = {
            verdict: {"positions": len(ms), "ms": percentiles(ms)} for verdict, ms in verdicts.items()
        }
    return {"deals": COST_DEALS, "games_per_deal": args.games, "repeats": args.repeats, "rule_sets": rows}


def lines(args) -> dict:
    counts = {}
    flagged = []
    tables = arrays.make_tables()
    paths = sorted(path for path in CATALOGUE.glob("*-*.json") if not path.name.startswith("milligan"))
    for path in paths:
        entries = json.loads(path.read_text())["entries"]
        for entry in tqdm(entries, desc=path.stem, file=sys.stderr):
            # a strict line is legal with foundation return too
            for foundation_return in sorted({entry["foundation_return"], True}):
                rules = Rules(entry["variant"], foundation_return)
                root = read_board(entry["board"], rules)
                packed_root = pack(root, rules)
                h2.build_tables(packed_root.state, packed_root.params, tables)
                steps = replay_tokens(root, entry["solution"].split(), rules)
                for board in [root, *(after for _token, _move, after in steps)]:
                    packed = pack(board, rules)
                    counts[rules.label()] = counts.get(rules.label(), 0) + 1
                    if h2.h2_dead(packed.state, packed.params, tables):
                        flagged.append(
                            {"rules": rules.label(), "deal": entry["deal"], "board": board.to_text()}
                        )
    return {"catalogues": [path.name for path in paths], "positions": counts, "flagged": flagged}


def study_verdicts(foundation_return: bool) -> dict[int, str]:
    name = "yukon-return" if foundation_return else "yukon"
    return {deal: status for deal, status, *_ in read_table(STUDY_TABLES, name).rows}


def root(args) -> dict:
    rules = Rules("yukon", args.foundation_return)
    known = study_verdicts(args.foundation_return) if args.numbering == "pysol" else {}
    tables = arrays.make_tables()
    counts, flagged_solved, flagged, twins_only = {}, [], [], []
    for deal in tqdm(parse_deals(args.deals), desc="deals", file=sys.stderr):
        packed = pack(deal_board("yukon", deal, args.numbering), rules)
        h2.build_tables(packed.state, packed.params, tables)
        dead = bool(h2.h2_dead(packed.state, packed.params, tables))
        status = known.get(deal, "not in the study")
        key = f"{status}, {'flagged' if dead else 'not flagged'}"
        counts[key] = counts.get(key, 0) + 1
        if dead:
            flagged.append(deal)
            if status == "solved":
                flagged_solved.append(deal)
        if prune.twins_hopeless(packed.state, packed.params) and not dead:
            twins_only.append(deal)
    return {
        "rules": rules.label(),
        "numbering": args.numbering,
        "deals": args.deals,
        "counts": counts,
        "flagged": flagged,
        "unsound": flagged_solved,
        "twin_case_split_flags_h2_does_not": twins_only,
    }


def unpaced_solve(board, rules: Rules, limits: Limits):
    """The default solve with the tests unpaced (``engine.dead_ends.pacing``)."""
    return solve_position(board, rules, limits, moves.ALL_REDUCTIONS, config=unpaced())


def solve_with(options: int):
    """A solve with only ``options`` on."""
    return lambda board, rules, limits: solve_position(board, rules, limits, options)


DEAD_END_TESTS = moves.EVERY_PAIR_TEST | moves.EVERY_TRIPLE_TEST | moves.TWIN_SPLIT
BASELINES = {
    "pairs": solve_with(moves.ALL_REDUCTIONS & ~moves.EVERY_PAIR_TEST),
    "unpaced": unpaced_solve,
    "tests": solve_with(moves.ALL_REDUCTIONS & ~DEAD_END_TESTS),
    "plain": solve_with(0),
}


def compare(args) -> dict:
    rules = Rules("yukon", args.foundation_return)
    limits = Limits(max_nodes=args.max_nodes, time_limit=None)
    changed, contradictions, nodes, differ = [], [], {"with": 0, "without": 0}, []
    for deal in tqdm(parse_deals(args.deals, args.numbering), desc="deals", file=sys.stderr):
        board = deal_board("yukon", deal, args.numbering)
        with_it = solve_position(board, rules, limits, moves.ALL_REDUCTIONS)
        without = BASELINES[args.against](board, rules, limits)
        nodes["with"] += with_it.nodes
        nodes["without"] += without.nodes
        if with_it.nodes != without.nodes:
            differ.append(deal)
        if with_it.status != without.status:
            changed.append({"deal": deal, "with": with_it.status, "without": without.status})
            if UNKNOWN not in (with_it.status, without.status):
                contradictions.append(deal)
    return {
        "rules": rules.label(),
        "numbering": args.numbering,
        "deals": args.deals,
        "max_nodes": args.max_nodes,
        "against": args.against,
        "nodes": nodes,
        "positions_differ": differ,
        "changed": changed,
        "unsound": contradictions,
    }


SWITCHES = {
    "off": moves.ALL_REDUCTIONS & ~moves.EVERY_PAIR_TEST,
    "root": moves.ALL_REDUCTIONS & ~(moves.H2_SEARCH | moves.NOGOODS),
    "search": moves.ALL_REDUCTIONS & ~moves.NOGOODS,
    "every": moves.ALL_REDUCTIONS,
}


def search(args) -> dict:
    config = DEFAULT if args.spacing is None else replace(DEFAULT, pairs_spacing=args.spacing)
    rules = Rules("yukon", args.foundation_return)
    limits = Limits(max_nodes=args.max_nodes, time_limit=None)
    rows = []
    for deal in parse_deals(args.deals, args.numbering):
        started = time.process_time()
        board = deal_board("yukon", deal, args.numbering)
        result = solve_position(board, rules, limits, SWITCHES[args.switches], config=config)
        row = {
            "deal": deal,
            "status": result.status,
            "nodes": result.nodes,
            "cpu": time.process_time() - started,
        }
        rows.append(row | dead_end_counters())
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return {
        "rules": rules.label(),
        "numbering": args.numbering,
        "switches": args.switches,
        "spacing": config.pairs_spacing,
        "rows": rows,
    }


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=("cost", "lines", "root", "compare", "search"))
    parser.add_argument("--games", type=int, default=20, help="cost: playouts per deal (default 20)")
    parser.add_argument(
        "--repeats", type=int, default=7, help="cost: timings per call, best kept (default 7)"
    )
    parser.add_argument("--seed", type=int, default=5, help="cost: playout seed (default 5)")
    parser.add_argument("--deals", default="1-2000", help="root, compare, search: deals (default 1-2000)")
    parser.add_argument(
        "--numbering", choices=NUMBERINGS, default="pysol", help="root, compare: deal numbering"
    )
    parser.add_argument(
        "--max-nodes", type=int, default=1_000_000, help="compare, search: node budget a solve"
    )
    parser.add_argument("--switches", choices=SWITCHES, default="every", help="search: pairwise tests on")
    parser.add_argument(
        "--against",
        choices=BASELINES,
        default="pairs",
        help="compare: the default solve against the same without the pairwise tests (pairs), "
        "unpaced, without every pairwise and triple test and the twin split (tests), or with no "
        "reduction at all (plain: exhaustive search with the transposition table only)",
    )
    parser.add_argument(
        "--spacing",
        type=int,
        default=None,
        help="search: positions searched below a position before its later children are tested",
    )
    parser.add_argument(
        "--foundation-return", action="store_true", help="root, compare, search: with foundation return"
    )
    parser.add_argument("--out", default=None, help="JSON file (default benchmarks/results/h2_<what>.json)")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    figures = {"cost": cost, "lines": lines, "root": root, "compare": compare, "search": search}[args.what](
        args
    )
    suffix = "-return" if args.what == "root" and args.foundation_return else ""
    write_figures(
        args.out or RESULTS / f"h2_{args.what}{suffix}.json", f"bench_h2 {args.what}", figures, started
    )
    print(json.dumps({key: value for key, value in figures.items() if key != "flagged"}, indent=2))
    unsound = figures.get("unsound") or (args.what == "lines" and figures["flagged"])
    return 1 if unsound else 0


if __name__ == "__main__":
    sys.exit(main())
