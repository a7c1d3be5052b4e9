"""The confidence benchmark's summary (benchmarks/bench_confidence.py) on made-up games, and
one real game's rows."""

import bench_confidence

from solver.game.rules import Rules
from solver.player.sampling import Sampling
from solver.results.limits import Limits
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE


def hint_row(won: int, proved_lost: int, truth: str, game_won: bool, samples: int = 4) -> dict:
    confidence = {"won": won, "samples": samples, "proved_lost": proved_lost, "fraction": won / samples}
    return confidence | {"truth_after": truth, "game_won": game_won}


def test_bins_split_at_their_edges_and_keep_k_equal_n_in_the_last():
    assert [bench_confidence.bin_of(value) for value in (0.0, 0.1, 0.125, 0.5, 0.874, 0.875, 1.0)] == [
        0,
        0,
        1,
        2,
        3,
        4,
        4,
    ]


def test_the_summary_counts_each_bin_against_the_truth():
    won = [hint_row(4, 0, SOLVED, True), hint_row(4, 0, SOLVED, True), hint_row(3, 0, UNSOLVABLE, True)]
    lost = [
        hint_row(4, 0, UNSOLVABLE, False),
        hint_row(0, 4, UNSOLVABLE, False),
        hint_row(0, 1, UNKNOWN, False),
    ]
    games = [
        {"deal": 1, "won": True, "at_cap": False, "cpu_seconds": 1.0, "settings": {}, "hints": won},
        {"deal": 2, "won": False, "at_cap": True, "cpu_seconds": 2.0, "settings": {}, "hints": lost},
    ]
    summary = bench_confidence.variant_summary(games)
    assert (summary["games"], summary["games_won"], summary["hints"], summary["games_at_the_move_cap"]) == (
        2,
        1,
        6,
        1,
    )
    top = summary["bins"][-1]
    assert (top["hints"], top["winnable"]["wins"], top["winnable"]["deals"]) == (3, 2, 3)
    assert top["later_won"]["wins"] == 2
    bottom = summary["bins"][0]
    assert (bottom["hints"], bottom["truth_undecided"], bottom["winnable"]["deals"]) == (2, 1, 1)
    assert summary["every_sample_proved_lost"]["hints"] == 1


def test_a_played_game_records_every_sampling_move_with_its_truth():
    rules = Rules("yukon")
    sampling = Sampling(samples=2, max_nodes=2000)
    game = bench_confidence.played_game(2, rules, sampling, Limits(time_limit=5), 0)
    assert game["hints"] and len(game["hints"]) <= game["moves"]
    assert all(hint["samples"] in (1, 2) and hint["game_won"] == game["won"] for hint in game["hints"])
    assert {hint["truth_after"] for hint in game["hints"]} <= {SOLVED, UNSOLVABLE, UNKNOWN}
