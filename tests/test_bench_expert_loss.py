"""The expert-loss benchmark (benchmarks/bench_expert_loss.py): watching the expert leaves its
game as it is, and each decision's shares are consistent."""

import bench_expert_loss
import pytest

from solver.game.rules import Rules
from solver.player.play import play_deal


def test_watching_the_expert_plays_its_own_game_and_scores_each_decision():
    rules = Rules("yukon")
    row = bench_expert_loss.game_row(70001, rules, seed=0, worlds=4)
    record = play_deal(70001, rules, "expert", 0)
    assert (row["won"], row["moves"]) == (record.won, record.moves)
    assert row["decisions"]
    assert all(len(decision) == 6 and decision[1] >= 1 for decision in row["decisions"])


def test_a_plan_picked_on_half_the_worlds_is_judged_on_the_other_half():
    # Worlds 0 and 2 (even), 1 and 3 (odd). On the even worlds the chosen plan ties with "x" and
    # is kept; it wins neither odd world. On the odd worlds "y" leads; it wins neither even world.
    values = {"chosen": [1, 0, 1, 0], "x": [1, 1, 1, 0], "y": [0, 1, 0, 1]}
    shares = bench_expert_loss.decision_shares([1, 1, 1, 0.5], values, "chosen")
    assert shares == [0.875, 0.5, 0.75, 0.0]


def test_a_games_drops_are_its_decisions_summed():
    decisions = [[20, 3, 0.75, 0.5, 0.625, 0.5625], [5, 2, 1.0, 1.0, 1.0, 1.0]]
    assert bench_expert_loss.drops(decisions) == pytest.approx(
        {
            "before_to_chosen": 0.25,
            "before_to_best": 0.125,
            "best_over_chosen": 0.125,
            "cross_over_chosen": 0.0625,
        }
    )
