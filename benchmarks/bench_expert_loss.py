"""Where the expert's games are lost: what its decisions cost against what any plan could do.

    nice -n 5 python benchmarks/bench_expert_loss.py play --variant yukon --deals 70001-70100
    python benchmarks/bench_expert_loss.py summary --variant yukon --deals 70001-70100

``play`` plays each deal once with the default expert (seed ``--seed``: the same games as
``bench_player.py expert``) and, at each of its decisions with a card still hidden, deals
``--worlds`` fresh worlds of the view it decided from (never those it decided with) and
solves, in every one, the position itself and the position after each candidate plan the
expert weighed there (``solver.player.expert``: a plan runs up to the next card turned; a
world counts 1 when won, 0 when proved lost, ``unknown_weight`` when the budget left it
undecided, as the expert scores plans). Per decision it keeps, as shares of the worlds:

* ``before``: the worlds winnable from the position (what a player who saw the cards keeps);
* ``chosen``: the worlds still winnable after the plan the expert chose;
* ``best``: the best candidate's share, chosen after seeing these worlds (in-sample: it
  also rewards the luck of the draw, the winner's curse);
* ``cross``: a plan picked on one half of the worlds and judged on the other, both ways
  averaged, a pick that could be made without hindsight of the worlds judged (ties go to the
  expert's choice).

So ``before - best`` is lost to every candidate plan (what no single plan keeps: different
worlds need different plans, and the player cannot tell them apart until a card is turned),
``best - chosen`` the most a better choice among the candidates could gain in-sample, and
``cross - chosen`` what it gains out of sample. One JSON line a deal is appended to
``--rows`` (default ``benchmarks/results/expert_loss/<rule set>_<deals>.jsonl``; run it
again to play only the deals missing): won, moves, and per decision ``[hidden cards,
candidates, before, chosen, best, cross]``.

``summary`` writes the per-game sums (the mean over games of each share's drop summed over
the game's decisions) and their split by hidden cards to ``expert_loss_<rule set>_<deals>.json``.
"""

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from common import command_line, machine_info, now, parse_deals, warm_up, write_json

from solver.catalogue.files import rule_set_name
from solver.game import reference
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.expert import Expert, PlanSearch
from solver.player.history import NO_HISTORY
from solver.player.sampling import estimated_within
from solver.player.view import View, sample_world
from solver.results.result import SOLVED, UNSOLVABLE

RESULTS = Path(__file__).parent / "results"
HIDDEN_BANDS = ((1, 9), (10, 20), (21, 104))


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("step", choices=("play", "summary"))
    parser.add_argument("--variant", default="yukon")
    parser.add_argument("--return", dest="foundation_return", action="store_true")
    parser.add_argument("--deals", required=True, help="PySolFC deal numbers, e.g. 70001-70100.")
    parser.add_argument("--worlds", type=int, default=48, help="Fresh worlds a decision (even).")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rows", type=Path)
    args = parser.parse_args()
    if args.worlds < 2 or args.worlds % 2:
        parser.error("--worlds must be an even number of at least 2")
    return args


@dataclass(frozen=True)
class Watched(Expert):
    """The default expert, which hands each decision's plan search and choice to ``watch``."""

    watch: object = None

    def choose(self, view: View, seed: int, history=NO_HISTORY, progress=None):
        search = PlanSearch(self, view, history, random.Random(seed), progress)
        choice = search.run()
        self.watch(search, choice)
        return choice


def outcome(board, moves, rules: Rules, nodes: int, undecided: float) -> float:
    """1 when the position after ``moves`` is won within ``nodes``, 0 when proved lost."""
    after = reference.replay(board, list(moves), rules)
    status = estimated_within(after, rules, nodes, with_line=False).status
    return 1.0 if status == SOLVED else 0.0 if status == UNSOLVABLE else undecided


def decision_row(search: PlanSearch, chosen: tuple, worlds: int, rng: random.Random) -> list:
    """``[hidden, candidates, before, chosen, best, cross]`` for one decision (see the docstring)."""
    expert, rules = search.expert, search.rules
    keys = [key for key, plan in search.plans.items() if search.first_is_fresh(plan)]
    keys.sort(key=lambda key: key != chosen)  # the chosen plan first: ties go to it
    boards = [sample_world(search.view, rng) for _ in range(worlds)]
    weight, nodes = expert.unknown_weight, expert.plan_nodes
    before = sum(outcome(board, (), rules, expert.max_nodes, weight) for board in boards)
    scores = {
        key: [outcome(b, search.plans[key].moves, rules, nodes, weight) for b in boards] for key in keys
    }
    halves = (range(0, worlds, 2), range(1, worlds, 2))

    def pick(half) -> tuple:
        return max(keys, key=lambda key: sum(scores[key][at] for at in half))

    cross = sum(scores[pick(a)][at] for a, b in (halves, halves[::-1]) for at in b)
    shares = [before, sum(scores[chosen]), max(sum(score) for score in scores.values()), cross]
    return [search.view.hidden_count, len(keys), *(round(share / worlds, 4) for share in shares)]


def game_row(deal: int, rules: Rules, seed: int, worlds: int) -> dict:
    """The expert's game on ``deal`` with a row for each of its decisions with cards hidden."""
    decisions = []

    def watch(search, choice):
        if search.view.hidden_count and choice.plan is not None and not choice.fallback:
            rng = random.Random(f"{deal}-{len(decisions)}")
            decisions.append(decision_row(search, choice.plan.key, worlds, rng))

    started = time.process_time()
    won, moves = Watched(watch=watch).play(deal_board(rules.variant, deal), rules, seed)
    return {
        "deal": deal,
        "won": won,
        "moves": len(moves),
        "seed": seed,
        "worlds": worlds,
        "cpu_seconds": round(time.process_time() - started, 3),
        "decisions": decisions,
    }


def read_rows(path: Path) -> list[dict]:
    """The deals already played (a last line cut short by a kill left out)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    return rows


def play(args, rules: Rules) -> None:
    done = {row["deal"] for row in read_rows(args.rows)}
    args.rows.parent.mkdir(parents=True, exist_ok=True)
    print(f"{now()} warm-up: {warm_up(rules.variant, 'pysol')['seconds']:.1f} s", file=sys.stderr, flush=True)
    with args.rows.open("a", encoding="utf-8") as rows:
        if args.rows.stat().st_size and not args.rows.read_bytes().endswith(b"\n"):
            rows.write("\n")  # after a line cut short by a kill
        for deal in parse_deals(args.deals):
            if deal not in done:
                row = game_row(deal, rules, args.seed, args.worlds)
                rows.write(json.dumps(row) + "\n")
                rows.flush()
                print(f"{now()} deal {deal}: won {row['won']}, {row['cpu_seconds']} s", file=sys.stderr)


def drops(decisions: list[list]) -> dict:
    """A game's decisions summed: the drops from ``before`` and the gains over ``chosen``."""
    total = dict.fromkeys(
        ("before_to_chosen", "before_to_best", "best_over_chosen", "cross_over_chosen"), 0.0
    )
    for _hidden, _candidates, before, chosen, best, cross in decisions:
        total["before_to_chosen"] += before - chosen
        total["before_to_best"] += before - best
        total["best_over_chosen"] += best - chosen
        total["cross_over_chosen"] += cross - chosen
    return total


def mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def summary(args, rules: Rules) -> None:
    wanted = set(parse_deals(args.deals))
    rows = [row for row in read_rows(args.rows) if row["deal"] in wanted]
    if not rows:
        sys.exit(f"{args.rows}: no rows of deals {args.deals}")
    games = [drops(row["decisions"]) for row in rows]
    bands = {}
    for low, high in HIDDEN_BANDS:
        band = [[d for d in row["decisions"] if low <= d[0] <= high] for row in rows]
        bands[f"{low}-{high} hidden"] = {
            "decisions": sum(map(len, band)),
            "per_game": {name: mean([drops(d)[name] for d in band]) for name in games[0]},
        }
    openings = [row["decisions"][0][2] for row in rows if row["decisions"]]
    figures = {
        "rule_set": rule_set_name(rules.variant, rules.foundation_return),
        "deals": args.deals,
        "games": len(rows),
        "won": sum(row["won"] for row in rows),
        "worlds": rows[0]["worlds"],
        "decisions_per_game": mean([len(row["decisions"]) for row in rows]),
        "opening_share_winnable": mean(openings),
        "per_game": {name: mean([game[name] for game in games]) for name in games[0]},
        "by_hidden_cards": bands,
        "cpu_seconds_per_game": mean([row["cpu_seconds"] for row in rows]),
    }
    header = {"benchmark": "expert_loss", "command": command_line(), "date": now(), "machine": machine_info()}
    path = RESULTS / f"expert_loss_{figures['rule_set']}_{args.deals}.json"
    write_json(path, header | figures)
    print(json.dumps(figures, indent=2))


def main() -> None:
    args = arguments()
    rules = Rules(args.variant, foundation_return=args.foundation_return)
    name = rule_set_name(rules.variant, rules.foundation_return)
    args.rows = args.rows or RESULTS / "expert_loss" / f"{name}_{args.deals}.jsonl"
    (play if args.step == "play" else summary)(args, rules)


if __name__ == "__main__":
    main()
