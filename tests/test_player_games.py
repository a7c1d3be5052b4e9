"""Pinned greedy games: the difficulty tiers are calibrated on the greedy player, so its
games must not change unless the tiers are calibrated again.

``tests/data/greedy_games.json`` holds games of the greedy player recorded before its
kernels moved into the engine (at commit 845bbf0): PySolFC deals of each variant, with and
without foundation return, each a list of entries ``{variant, foundation_return, deal,
seed, won, line}``. The deals mix won and lost games and seeds that break ties differently
(the same deal's games differ by seed), and Milligan deal 4069 is among them.
"""

import json
from pathlib import Path

import pytest

from solver.numbering import deal_board
from solver.player.greedy import Greedy
from solver.player.play import play_deal
from solver.rules import Rules

GAMES = json.loads((Path(__file__).parent / "data" / "greedy_games.json").read_text())


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
