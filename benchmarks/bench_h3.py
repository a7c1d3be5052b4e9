"""Would a test over triples of facts (h^3) pay inside the search? A research measurement, not an
engine feature: the kernel below is the plain h^m recursion for m = 3 over ``solver/engine/h2.py``'s
encoding (facts, actions, the argument of its docstring with sets of at most three facts instead
of pairs), kept here because measured inside the search it cost far more than it saved
(benchmarks/README.md, "The hard tail": the search with it on costly positions is the patch
``results/h3_search.patch`` on top of f38384a).

    python benchmarks/bench_h3.py sample --numbering kpat --deals 9000156,5000064 --samples 30
    python benchmarks/bench_h3.py lines --every 100

``sample`` runs the full search of lost deals and, every ``--every`` positions, tests the position
the search stands on (every one of them is lost) with the pairwise test and, where that says
alive, with triples: how many each flags, and what a call of triples costs. ``lines`` tests every
position of every ``--every``-th strict one-deck catalogue line: a flagged one is a soundness bug
(exit 1). Writes ``benchmarks/results/h3_<what>.json``.
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numba
import numpy as np
from common import parse_deals, percentiles, write_figures
from numba.cpython.unsafe.numbers import trailing_zeros

from solver import solve
from solver.board import read_board
from solver.engine import h2, layout, moves, search
from solver.engine.h2 import (
    ADD,
    ADD_COUNT,
    H2_ACTIONS,
    H2_HEADER,
    H2_MASKS,
    H2_POSITION_MASK,
    HEADER_ACTIONS,
    HEADER_FACTS,
    HEADER_WORDS,
    MASK_ADD,
    MASK_DELETE,
    MASK_PRE,
    PRE,
    PRE_COUNT,
    has_bit,
    position_facts,
    set_bit,
)
from solver.notation import replay_tokens
from solver.numbering import NUMBERINGS, deal_board
from solver.packing import pack
from solver.result import Limits
from solver.rules import Rules

RESULTS = Path(__file__).parent / "results"
CATALOGUE = Path(__file__).parent.parent / "catalogue"


@numba.njit(cache=True)
def set_triple(triples, a, b, c):
    """Put {a, b, c} in the family (every order); was it new?"""
    if has_bit(triples[a, b], c):
        return False
    set_bit(triples[a, b], c)
    set_bit(triples[b, a], c)
    set_bit(triples[a, c], b)
    set_bit(triples[c, a], b)
    set_bit(triples[b, c], a)
    set_bit(triples[c, b], a)
    return True


@numba.njit(cache=True)
def homes_reached(triples):
    count = 0
    for card in range(52):
        count += has_bit(triples[card, card], card)
    return count


@numba.njit(cache=True)
def h3_dead(state, params, tables, triples, partners, second):
    """Is some card's {home(c)} outside the position's h^3 family? (``triples[p, q]``: bit r
    when {p, q, r} is in it; smaller sets are stored with a fact repeated.)"""
    header = tables[H2_HEADER]
    fact_count, words, action_count = header[HEADER_FACTS], header[HEADER_WORDS], header[HEADER_ACTIONS]
    if fact_count == 0 or not position_facts(state, params, tables):
        return False
    mask, actions, masks = tables[H2_POSITION_MASK], tables[H2_ACTIONS], tables[H2_MASKS]
    triples[:fact_count, :fact_count, :words] = 0
    for p in range(fact_count):
        for q in range(fact_count):
            if has_bit(mask, p) and has_bit(mask, q):
                triples[p, q, :words] = mask[:words]
    grew = True
    while grew and homes_reached(triples) < 52:
        grew = False
        for a in range(action_count):
            pre_count, add_count = actions[a, PRE_COUNT], actions[a, ADD_COUNT]
            applicable = True
            for w in range(words):
                partners[w] = ~(masks[a, MASK_ADD, w] | masks[a, MASK_DELETE, w])
            for i in range(pre_count):
                for j in range(pre_count):
                    row = triples[actions[a, PRE + i], actions[a, PRE + j]]
                    for w in range(words):
                        applicable &= row[w] & masks[a, MASK_PRE, w] == masks[a, MASK_PRE, w]
                        partners[w] &= row[w]
            if not applicable:
                continue
            for i in range(add_count):  # (1) sets within the added facts
                for j in range(add_count):
                    for k in range(add_count):
                        grew |= set_triple(
                            triples, actions[a, ADD + i], actions[a, ADD + j], actions[a, ADD + k]
                        )
            for w in range(words):
                bits = partners[w]
                while bits:
                    q = w * 64 + trailing_zeros(bits)
                    bits &= bits - np.uint64(1)
                    if q >= fact_count:
                        break
                    for i in range(add_count):  # (2) one partner q with one or two added facts
                        for j in range(add_count):
                            grew |= set_triple(triples, actions[a, ADD + i], actions[a, ADD + j], q)
                    for v in range(words):  # (3) partners q, r with one added fact
                        second[v] = partners[v] & triples[q, q, v]
                    for i in range(pre_count):
                        for v in range(words):
                            second[v] &= triples[q, actions[a, PRE + i], v]
                    for i in range(add_count):
                        p = actions[a, ADD + i]
                        for v in range(words):
                            new = second[v] & ~triples[p, q, v]
                            while new:
                                r = v * 64 + trailing_zeros(new)
                                new &= new - np.uint64(1)
                                grew |= set_triple(triples, p, q, r)
    return homes_reached(triples) < 52


def scratch():
    return (
        np.zeros((h2.MAX_FACTS, h2.MAX_FACTS, h2.WORDS), dtype=np.uint64),
        np.zeros(h2.WORDS, dtype=np.uint64),
        np.zeros(h2.WORDS, dtype=np.uint64),
    )


def sample(args) -> dict:
    rules, rows, work = Rules("yukon"), [], scratch()
    solve.warm_up()
    for deal in parse_deals(args.deals):
        packed = pack(deal_board("yukon", deal, args.numbering), rules)
        tables = h2.make_tables()
        h2.build_tables(packed.state, packed.params, tables)
        dead_ends = solve.dead_end_tables(packed)
        dead_ends[h2.H2_HEADER][h2.HEADER_PAIRS_ON] = 1
        searched = solve.Search(packed, search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 30, dead_ends=dead_ends)
        budget = solve.Budget(Limits(time_limit=None))
        counts, milliseconds, status = {"positions": 0, "pairs": 0, "triples_only": 0, "neither": 0}, [], None
        while counts["positions"] < args.samples and status not in (search.EXHAUSTED, search.SOLVED):
            status = searched.run(budget, node_cap=int(searched.control[layout.CONTROL_NODES]) + args.every)
            state = packed.state.copy()
            counts["positions"] += 1
            if h2.h2_dead(state, packed.params, tables):
                counts["pairs"] += 1
                continue
            started = time.process_time()
            dead = h3_dead(state, packed.params, tables, *work)
            milliseconds.append((time.process_time() - started) * 1000)
            counts["triples_only" if dead else "neither"] += 1
        rows.append(
            {"deal": deal, "numbering": args.numbering, **counts, "triples_ms": percentiles(milliseconds)}
        )
        print(json.dumps(rows[-1]), file=sys.stderr)
    return {"every": args.every, "samples": args.samples, "rows": rows}


def lines(args) -> dict:
    checked, flagged, work = 0, [], scratch()
    tables = h2.make_tables()
    for path in sorted(CATALOGUE.glob("*-*.json")):
        if path.name.startswith("milligan") or "return" in path.name:
            continue
        for entry in json.loads(path.read_text())["entries"][:: args.every]:
            rules = Rules(entry["variant"], entry["foundation_return"])
            root = read_board(entry["board"], rules)
            packed_root = pack(root, rules)
            h2.build_tables(packed_root.state, packed_root.params, tables)
            steps = replay_tokens(root, entry["solution"].split(), rules)
            for board in [root, *(after for _token, _move, after in steps)]:
                checked += 1
                if h3_dead(pack(board, rules).state, packed_root.params, tables, *work):
                    flagged.append({"rules": rules.label(), "deal": entry["deal"], "board": board.to_text()})
    return {"every": args.every, "positions": checked, "flagged": flagged}


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=("sample", "lines"))
    parser.add_argument("--deals", default="9000156,5000064,3000028,1000051", help="sample: lost deals")
    parser.add_argument("--numbering", choices=NUMBERINGS, default="kpat", help="sample: deal numbering")
    parser.add_argument("--samples", type=int, default=30, help="sample: positions tested a deal")
    parser.add_argument(
        "--every",
        type=int,
        default=None,
        help="sample: positions between two (300,000); lines: every N-th line (100)",
    )
    parser.add_argument("--out", default=None, help="JSON file (default benchmarks/results/h3_<what>.json)")
    args = parser.parse_args(argv)
    args.every = args.every or (300_000 if args.what == "sample" else 100)
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    figures = {"sample": sample, "lines": lines}[args.what](args)
    write_figures(args.out or RESULTS / f"h3_{args.what}.json", f"bench_h3 {args.what}", figures, started)
    print(json.dumps({key: value for key, value in figures.items() if key != "rows"}, indent=2))
    return 1 if figures.get("flagged") else 0


if __name__ == "__main__":
    sys.exit(main())
