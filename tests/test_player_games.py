"""Pinned greedy games: the difficulty tiers are calibrated on the greedy player, so its
games, and the calibration's failure counts, must not change unless the tiers are
calibrated again.

``tests/data/greedy_games.json`` holds games of the greedy player recorded before its
kernels moved into the engine (at commit 845bbf0): PySolFC deals of each variant, with and
without foundation return, each a list of entries ``{variant, foundation_return, deal,
seed, won, line}``. The deals mix won and lost games and seeds that break ties differently
(the same deal's games differ by seed), and Milligan deal 4069 is among them.
"""

import json
from pathlib import Path

import pytest

from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.difficulty import greedy_failures
from solver.player.greedy import Greedy
from solver.player.play import play_deal

GAMES = json.loads((Path(__file__).parent / "data" / "greedy_games.json").read_text())
CALIBRATION = Path(__file__).parent.parent / "benchmarks" / "results"
CALIBRATED_DEALS = 40  # per variant: 1,280 games each


def game_id(game: dict) -> str:
    return f"{Rules(game['variant'], game['foundation_return']).label()}-{game['deal']}-{game['seed']}"


@pytest.mark.parametrize("game", GAMES, ids=game_id)
def test_a_pinned_greedy_game_is_played_again_move_for_move(game):
    rules = Rules(game["variant"], game["foundation_return"])
    record = play_deal(game["deal"], rules, "greedy", seed=game["seed"])
    assert (record.won, record.line) == (game["won"], game["line"])


def test_the_rating_games_win_exactly_the_pinned_games():
    """``Greedy.wins`` (the games a rating counts, played wholly in numba) agrees with them."""
    for (variant, foundation_return, deal), games in grouped(GAMES).items():
        rules = Rules(variant, foundation_return)
        seeds = [game["seed"] for game in games]
        assert Greedy().wins(deal_board(variant, deal), rules, seeds) == [game["won"] for game in games]


def grouped(games: list[dict]) -> dict[tuple, list[dict]]:
    """The games by (variant, foundation return, deal)."""
    groups = {}
    for game in games:
        groups.setdefault((game["variant"], game["foundation_return"], game["deal"]), []).append(game)
    return groups


def test_the_pinned_games_cover_every_rule_set_and_both_outcomes():
    covered = {(game["variant"], game["foundation_return"], game["won"]) for game in GAMES}
    assert covered == {
        (variant, foundation_return, won)
        for variant in ("yukon", "russian", "milligan")
        for foundation_return in (False, True)
        for won in (False, True)
    }


@pytest.mark.parametrize("variant", ["yukon", "russian", "milligan"])
def test_the_calibration_ratings_come_out_again(variant):
    """The failure counts the tiers were calibrated on (``player_calibration_<variant>.jsonl``:
    16 games with seeds drawn from 0, and 16 from 1 as a check) for its first solved deals."""
    lines = (CALIBRATION / f"player_calibration_{variant}.jsonl").read_text().splitlines()
    rows = (json.loads(line) for line in lines)
    solved = [row for row in rows if row["status"] == "solved"][:CALIBRATED_DEALS]
    rules = Rules(variant)
    for row in solved:
        board = deal_board(variant, row["deal"])
        failures = (greedy_failures(board, rules, 16, 0), greedy_failures(board, rules, 16, 1))
        assert failures == (row["failures"], row["check_failures"]), f"deal {row['deal']}"
