"""The difficulty ladder: the Rasch fit recovers what made the games, its errors shrink
with games, its rungs' seeds vary by deal, the gate, the clustered interval, and a ladder
score in a catalogue entry checked against its games."""

import json

import numpy as np
import pytest

from solver.catalogue.entries import score_problem
from solver.catalogue.ladder_games import LadderGames
from solver.common.stats import clustered_rate_entry, wilson_interval
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.difficulty import ladder_rating, ladder_tier
from solver.player.ladder import FLOOR, GATE, LADDER, LADDER_2, Rung, deal_seeds, ladder_games, plays
from solver.player.rasch import fit_rasch, sigmoid


def simulated(deals: int, skills: np.ndarray, games: list[int], seed: int = 7):
    """Wins drawn from the model itself, with known difficulties."""
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(0.0, 1.5, deals)
    played = np.tile(np.array(games, dtype=float), (deals, 1))
    wins = rng.binomial(played.astype(int), sigmoid(skills[None, :] - difficulty[:, None]))
    return difficulty, wins, played


def test_the_fit_recovers_the_skills_and_orders_the_deals():
    skills = np.array([-1.0, 1.0, 2.5])
    difficulty, wins, games = simulated(3000, skills, [32, 4, 4])
    fit = fit_rasch(wins, games)
    assert fit.converged
    assert np.allclose(fit.skill, skills, atol=0.15)
    assert np.corrcoef(fit.difficulty, difficulty)[0, 1] > 0.9
    inside = np.abs(fit.difficulty - difficulty) <= 1.96 * fit.standard_error
    assert 0.9 < inside.mean() <= 1.0  # the standard errors are about right (with the prior's pull)


def test_held_skills_give_the_joint_fit_difficulties():
    skills = np.array([-1.0, 1.5])
    _difficulty, wins, games = simulated(500, skills, [32, 2])
    joint = fit_rasch(wins, games)
    held = fit_rasch(wins, games, skill=joint.skill)
    assert np.allclose(held.difficulty, joint.difficulty, atol=1e-4)


def test_more_games_mean_smaller_errors_and_extremes_stay_finite():
    skills = np.array([0.0])
    fit = fit_rasch(np.array([[0], [0], [16]]), np.array([[4], [64], [16]]), skill=skills)
    assert fit.standard_error[1] < fit.standard_error[0]
    assert np.all(np.isfinite(fit.difficulty)) and fit.difficulty[1] > fit.difficulty[0] > fit.difficulty[2]


def test_a_deal_never_played_keeps_the_prior():
    fit = fit_rasch(np.array([[0, 0]]), np.array([[0, 0]]), skill=np.array([0.0, 1.0]))
    assert fit.difficulty[0] == pytest.approx(0.0) and fit.standard_error[0] == pytest.approx(3.0)


def test_bad_arrays_are_refused():
    with pytest.raises(ValueError):
        fit_rasch(np.array([[3]]), np.array([[2]]))


def test_seeds_differ_between_deals_and_repeat_for_one():
    assert deal_seeds("greedy", 12, 8) == deal_seeds("greedy", 12, 8)
    assert not set(deal_seeds("greedy", 12, 8)) & set(deal_seeds("greedy", 13, 8))
    assert len(set(deal_seeds("greedy", 12, 32))) == 32


def test_greedy_games_of_one_deal_differ_in_their_tie_breaks():
    """Yukon deal 2's 16 greedy games with the ladder's seeds are not one game 16 times."""
    from solver.player.greedy import Greedy

    board, rules = deal_board("yukon", 2), Rules("yukon")
    lines = {tuple(Greedy().play(board, rules, seed)[1]) for seed in deal_seeds("greedy", 2, 16)}
    assert len(lines) > 1


def test_a_stronger_rung_plays_only_where_weaker_ones_mostly_lose():
    assert plays(0, [])
    assert plays(1, [(int(GATE * 32), 32)]) and not plays(1, [(int(GATE * 32) + 1, 32)])
    assert not plays(1, [(0, 0)])


def test_ladder_games_follow_the_gate():
    ladder = (Rung("greedy", "greedy", (), 4), Rung("greedy-again", "greedy", (), 2))
    board, rules = deal_board("yukon", 2), Rules("yukon")
    results = ladder_games(board, rules, 2, ladder)
    weak = results[0]
    assert weak[1] == 4 and results[1] == ((results[1][0], 2) if weak[0] <= GATE * 4 else (0, 0))


def test_the_clustered_interval_is_wider_than_by_game_when_a_deal_decides():
    per_deal = [(16, 16)] * 30 + [(0, 16)] * 70  # each deal's games all alike
    clustered = clustered_rate_entry(per_deal)
    low, high = wilson_interval(30 * 16, 100 * 16)
    assert clustered["rate"] == pytest.approx(0.3) and clustered["deals"] == 100
    assert clustered["high"] - clustered["low"] > 3 * (high - low)


def test_the_clustered_interval_of_one_deal_is_none():
    assert clustered_rate_entry([(3, 4)])["low"] is None


MODEL = {"skills": [0.0, 2.0], "thresholds": [-1.0, 1.0], "prior_sd": 3.0}


def scored_entry(results) -> dict:
    rating = ladder_rating(results, MODEL)
    return {
        "difficulty": rating.difficulty,
        "difficulty_se": rating.standard_error,
        "ladder": [list(pair) for pair in results],
        "tier": rating.tier,
    }


def test_a_ladder_score_is_checked_against_its_games():
    entry = scored_entry([(2, 32), (1, 1)])
    assert entry["tier"] == ladder_tier(entry["difficulty"], MODEL["thresholds"])
    assert score_problem(entry, MODEL) is None
    assert "its ladder games give" in score_problem(entry | {"difficulty": entry["difficulty"] + 0.5}, MODEL)
    other = "easy" if entry["tier"] != "easy" else "hard"
    assert "tier" in score_problem(entry | {"tier": other}, MODEL)
    assert "malformed" in score_problem(entry | {"ladder": [[1, 2, 3]]}, MODEL)
    assert "difficulty_se" in score_problem({k: v for k, v in entry.items() if k != "difficulty_se"}, MODEL)


def test_the_third_rung_plays_only_where_both_weaker_rungs_mostly_lose():
    assert len(LADDER) == 3
    assert plays(2, [(int(GATE * 32), 32), (0, 1)])
    assert not plays(2, [(int(GATE * 32), 32), (1, 1)])  # the second rung won its game
    assert not plays(2, [(int(GATE * 32) + 1, 32), (0, 0)])  # the second rung never played


def test_known_first_rungs_are_not_played_again():
    board, rules = deal_board("yukon", 2), Rules("yukon")
    # Made-up results a real game would not give (deal 2's greedy wins many of 32): kept as given.
    assert ladder_games(board, rules, 2, LADDER, [(9, 32), (0, 0)]) == [(9, 32), (0, 0), (0, 0)]


def ladder_line(deal: int, rungs: list[str], results) -> str:
    row = {"rule_set": "russian", "numbering": "pysol", "deal": deal, "rungs": rungs, "results": results}
    return json.dumps(row) + "\n"


def test_a_ladder_file_of_the_first_rungs_gets_only_the_new_rungs_games(tmp_path):
    path = tmp_path / "russian.ladder.jsonl"
    names = [rung.name for rung in LADDER]
    path.write_text(
        ladder_line(16, names[:2], [[0, 32], [0, 1]])  # made up: the third rung plays
        + ladder_line(33, names[:2], [[32, 32], [0, 0]])  # the third rung's gate is closed
        + ladder_line(40, ["greedy", "someone-else"], [[0, 32], [0, 1]])  # another ladder: ignored
        + '{"rule_set": "russian", "numbering"'  # a last line cut short by a kill
    )
    games = LadderGames(path, Rules("russian"), "pysol")
    assert sorted(games.known) == [16, 33]
    assert games.results(33, deal_board("russian", 33)) == ((32, 32), (0, 0), (0, 0))
    played = games.results(16, deal_board("russian", 16))
    assert played[:2] == ((0, 32), (0, 1)) and played[2][1] == LADDER[2].games
    again = LadderGames(path, Rules("russian"), "pysol")  # the longer lines were saved
    assert again.known[16] == played and again.results(16, deal_board("russian", 16), rungs=2) == played[:2]


def test_catalogue_entries_seed_the_ladder_file(tmp_path):
    games = LadderGames(tmp_path / "yukon.ladder.jsonl", Rules("yukon"), "kpat")
    entries = [
        {"numbering": "kpat", "deal": 5, "ladder": [[3, 32], [0, 1]]},
        {"numbering": "pysol", "deal": 6},
    ]
    assert games.take_from(entries, [rung.name for rung in LADDER[:2]]) == 1
    assert games.take_from(entries, [rung.name for rung in LADDER[:2]]) == 0  # nothing new
    assert LadderGames(tmp_path / "yukon.ladder.jsonl", Rules("yukon"), "kpat").known == {
        5: ((3, 32), (0, 1))
    }


def test_a_tiering_by_earlier_rungs_keeps_the_tier_the_refined_score_would_change():
    earlier = {"skills": [-2.0, 1.0], "thresholds": [-1.5, 2.3]}
    refined = {"skills": [-2.0, 1.0, 2.0], "thresholds": [-1.5, 2.5]}
    games = [(0, 32), (0, 1), (1, 1)]
    assert ladder_rating(games[:2], earlier).tier == "hard"
    assert ladder_rating(games, refined).tier == "normal"
    kept = ladder_rating(games, refined | {"tiering": {"by": "ladder", "rungs": 2} | earlier})
    assert kept.tier == "hard" and kept.difficulty == ladder_rating(games, refined).difficulty
    assert (
        ladder_rating(games, refined | {"tiering": {"by": "score", "thresholds": [0.5, 0.9]}}, 0.6).tier
        == "normal"
    )
    with pytest.raises(ValueError, match="2 rungs' games for a model of 3 rungs"):
        ladder_rating(games[:2], refined)


def test_floor_rungs_play_every_deal_and_gate_no_rung():
    greedy_at = LADDER_2.index(LADDER[0])
    assert all(plays(index, [], LADDER_2) for index, rung in enumerate(LADDER_2) if rung.floor)
    # Greedy plays every deal, whatever the floor rungs won; sampling reads only greedy's games.
    assert plays(greedy_at, [(64, 64), (32, 32)], LADDER_2)
    assert plays(greedy_at + 1, [(64, 64), (32, 32), (GATE * 32, 32)], LADDER_2)
    assert not plays(greedy_at + 1, [(0, 64), (0, 32), (GATE * 32 + 1, 32)], LADDER_2)


def test_generation_2_is_generation_1_between_the_floor_and_the_expert():
    assert LADDER_2[: len(FLOOR)] == FLOOR and all(rung.floor for rung in FLOOR)
    assert LADDER_2[len(FLOOR) : -1] == LADDER
    top = LADDER_2[-1]
    assert (top.name, top.policy, top.floor) == ("expert", "expert", False)


def test_random_moves_make_a_weaker_greedy_that_still_never_peeks():
    from solver.player.greedy import Greedy
    from solver.player.view import view_of

    rules = Rules("yukon")
    deals = range(1, 31)
    wins = {
        share: sum(
            sum(Greedy(random_moves=share).wins(deal_board("yukon", deal), rules, [1, 2, 3, 4]))
            for deal in deals
        )
        for share in (0, 500, 1000)
    }
    assert wins[0] > wins[500] > wins[1000]
    assert Greedy(random_moves=0).wins(deal_board("yukon", 5), rules, [1, 2]) == Greedy().wins(
        deal_board("yukon", 5), rules, [1, 2]
    )
    board = deal_board("yukon", 3)
    player = Greedy(random_moves=1000)
    moves = {player.decide(view_of(board, rules), seed).move for seed in range(8)}
    assert len(moves) > 1 and all(move in reference_moves(board, rules) for move in moves)


def reference_moves(board, rules):
    from solver.game import reference

    return reference.legal_moves(board, rules)


@pytest.mark.parametrize("share", [-1, 1001, True, 2.5])
def test_a_bad_share_of_random_moves_is_refused(share):
    from solver.errors import YukonError
    from solver.player.greedy import Greedy

    with pytest.raises(YukonError, match="random_moves"):
        Greedy(random_moves=share)
