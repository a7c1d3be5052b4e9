"""Where the expert's games are lost: what its decisions cost against what any plan could do.

    nice -n 5 python benchmarks/bench_expert_loss.py play --variant yukon --deals 70001-70100
    python benchmarks/bench_expert_loss.py summary --variant yukon --deals 70001-70100

``play`` plays each deal once with the default expert (seed ``--seed``: the same games as
``bench_player.py expert``) and, at each of its decisions with a card still hidden, deals
``--worlds`` fresh worlds of the view it decided from (never those it decided with) and
solves, in every one, the position itself and the position after each plan proposed at the
decision (``PlanSearch.plans``: the first plans of every sampled winning line, not only the
``candidates`` most voted, and one for every legal move; a plan runs up to the next card
turned), as the expert judges a plan (``PlanSearch.solved_after``: a world counts 1 when won, 0
when proved lost, ``unknown_weight`` when the budget left it undecided). Per decision it
keeps, as shares of the worlds:

* ``before``: the worlds winnable from the position (what a player who saw the cards keeps);
* ``chosen``: the worlds still winnable after the plan the expert chose;
* ``best``: the best plan's share, chosen after seeing these worlds (in-sample: it
  also rewards the luck of the draw, the winner's curse);
* ``cross``: a plan picked on one half of the worlds and judged on the other, both ways
  averaged, a pick that could be made without hindsight of the worlds judged (ties go to the
  expert's choice).

So ``before - best`` is lost to every plan proposed (what no single plan keeps: different
worlds need different plans, and the player cannot tell them apart until a card is turned),
``best - chosen`` the most a better choice among them could gain in-sample, and
``cross - chosen`` what it gains out of sample. One JSON line a deal is appended to
``--rows`` (default ``benchmarks/results/expert_loss/<rule set>_<deals>.jsonl``; run it
again to play only the deals missing): won, moves, and per decision ``[hidden cards,
plans proposed, before, chosen, best, cross]``.

``summary`` writes the per-game sums (the mean over games of each share's drop summed over
the game's decisions) and their split by hidden cards to ``expert_loss_<rule set>_<deals>.json``.
"""

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from common import appended_rows, now, parse_deals, played_rows, warm_up, write_figures

from solver.catalogue.files import rule_set_name
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.expert import LOST, WON, Expert, Plan, PlanSearch
from solver.player.history import NO_HISTORY
from solver.player.view import View, sample_world

RESULTS = Path(__file__).parent / "results"
HIDDEN_BANDS = ((1, 9), (10, 20), (21, 104))
WORLD_VALUES = {WON: 1.0, LOST: 0.0}  # an undecided world counts the expert's unknown_weight


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


def ignore(_search: PlanSearch, _choice) -> None:
    """A watch that keeps nothing."""


@dataclass(frozen=True)
class Watched(Expert):
    """The default expert, which hands each decision's plan search and choice to ``watch``."""

    watch: Callable = ignore

    def choose(self, view: View, seed: int, history=NO_HISTORY, progress=None):
        search = self.plan_search(view, seed, history, progress)
        choice = search.run()
        self.watch(search, choice)
        return choice


def world_values(search: PlanSearch, plan: Plan, boards: list) -> list[float]:
    """Each world after ``plan`` as the expert scores it (``PlanSearch.solved_after``): 1 won, 0
    proved lost, ``unknown_weight`` undecided."""
    undecided = search.expert.unknown_weight
    return [WORLD_VALUES.get(search.solved_after(plan, board), undecided) for board in boards]


def decision_row(search: PlanSearch, chosen: tuple, worlds: int, rng: random.Random) -> list:
    """``[hidden, candidates, before, chosen, best, cross]`` for one decision (see the docstring)."""
    keys = [key for key, plan in search.plans.items() if search.first_is_fresh(plan)]
    boards = [sample_world(search.view, rng) for _ in range(worlds)]
    before = world_values(search, Plan((), None), boards)
    values = {key: world_values(search, search.plans[key], boards) for key in keys}
    return [search.view.hidden_count, len(keys), *decision_shares(before, values, chosen)]


def decision_shares(before: list[float], values: dict[tuple, list[float]], chosen: tuple) -> list[float]:
    """``[before, chosen, best, cross]`` as shares of the worlds, from each world's value before the
    decision and after each plan: ``cross`` picks the best plan on the even worlds and judges it on
    the odd ones, then the other way round (a tie goes to the chosen plan)."""
    worlds = len(before)
    keys = sorted(values, key=lambda key: key != chosen)
    halves = (range(0, worlds, 2), range(1, worlds, 2))

    def pick(half: range) -> tuple:
        return max(keys, key=lambda key: sum(values[key][at] for at in half))

    cross = sum(values[pick(half)][at] for half, other in (halves, halves[::-1]) for at in other)
    shares = [sum(before), sum(values[chosen]), max(map(sum, values.values())), cross]
    return [round(share / worlds, 4) for share in shares]


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


def play(args, rules: Rules) -> None:
    done = {row["deal"] for row in played_rows(args.rows)}
    print(f"{now()} warm-up: {warm_up(rules.variant, 'pysol')['seconds']:.1f} s", file=sys.stderr, flush=True)
    with appended_rows(args.rows) as rows:
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


def rounded_mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def summary(args, rules: Rules) -> None:
    started = time.perf_counter()
    wanted = set(parse_deals(args.deals))
    rows = [row for row in played_rows(args.rows) if row["deal"] in wanted]
    if not rows:
        sys.exit(f"{args.rows}: no rows of deals {args.deals}")
    games = [drops(row["decisions"]) for row in rows]
    bands = {}
    for low, high in HIDDEN_BANDS:
        band = [[d for d in row["decisions"] if low <= d[0] <= high] for row in rows]
        bands[f"{low}-{high} hidden"] = {
            "decisions": sum(map(len, band)),
            "per_game": {name: rounded_mean([drops(d)[name] for d in band]) for name in games[0]},
        }
    openings = [row["decisions"][0][2] for row in rows if row["decisions"]]
    figures = {
        "rule_set": args.rule_set,
        "deals": args.deals,
        "games": len(rows),
        "won": sum(row["won"] for row in rows),
        "worlds": rows[0]["worlds"],
        "decisions_per_game": rounded_mean([len(row["decisions"]) for row in rows]),
        "opening_share_winnable": rounded_mean(openings),
        "per_game": {name: rounded_mean([game[name] for game in games]) for name in games[0]},
        "by_hidden_cards": bands,
        "cpu_seconds_per_game": rounded_mean([row["cpu_seconds"] for row in rows]),
    }
    write_figures(RESULTS / f"expert_loss_{args.rule_set}_{args.deals}.json", "expert_loss", figures, started)
    print(json.dumps(figures, indent=2))


def main() -> None:
    args = arguments()
    rules = Rules(args.variant, foundation_return=args.foundation_return)
    args.rule_set = rule_set_name(rules.variant, rules.foundation_return)
    args.rows = args.rows or RESULTS / "expert_loss" / f"{args.rule_set}_{args.deals}.jsonl"
    (play if args.step == "play" else summary)(args, rules)


if __name__ == "__main__":
    main()
