"""Generation 2 of the catalogues: tiers cut on the model's own scores with no score holding
more than a tenth of a tier, and the shipped files of that generation holding the deals and
lines of generation 1 (byte for byte), enough of them for the daily schedule's spacing."""

from collections import Counter

import pytest

from solver.catalogue.entries import score_problem
from solver.catalogue.epochs import GAP
from solver.catalogue.files import (
    catalogue_name,
    read_catalogue,
    read_manifest,
    rule_set_of,
    shipped_directory,
)
from solver.catalogue.generation import MIN_SCORES, SHARE, Scored, cap_of, capped_size, split, tiers_of
from solver.errors import YukonError
from solver.results.result import TIER_NAMES

SHIPPED = shipped_directory()
GENERATION_2 = sorted(
    record["file"] for record in read_manifest(SHIPPED)["files"] if record.get("generation") == 2
)
# Entry keys a new generation rewrites; every other key is the generation 1 entry's.
RESCORED = {"tier", "difficulty", "difficulty_se", "ladder", "since"}


def test_the_cap_keeps_each_score_within_its_share():
    assert cap_of([1000] + [10] * 30) == 33  # 33 + 300 kept: 33 is 9.9% of them
    assert capped_size([1000] + [10] * 30) == 333
    assert cap_of([100] * 20) == 100 and cap_of([5] * 20) == 5


def test_the_split_gives_each_tier_enough_scores_and_balances_the_smallest():
    assert split([5] * 60) == (20, 40)
    assert split([5] * 59) is None
    counts = [1] * 20 + [50] * 20 + [1] * 20 + [50] * 20
    first_normal, first_hard = split(counts)
    sizes = [
        capped_size(part)
        for part in (counts[:first_normal], counts[first_normal:first_hard], counts[first_hard:])
    ]
    assert min(sizes) >= 20 and first_normal >= MIN_SCORES and first_hard - first_normal >= MIN_SCORES


def scored(difficulties: list[float]) -> list[Scored]:
    return [
        Scored({"deal": deal}, ((0, 1),), difficulty, 0.5) for deal, difficulty in enumerate(difficulties, 1)
    ]


def test_tiers_are_thresholds_on_the_score_and_no_score_holds_more_than_its_share():
    # 60 scores; the hardest holds 500 deals, of which a tier keeps only its share.
    difficulties = [float(value) for value in range(59) for _ in range(3)] + [59.0] * 500
    thresholds, tiers = tiers_of(scored(difficulties))
    assert thresholds == sorted(thresholds) and len(thresholds) == 2
    for tier, items in tiers.items():
        counts = Counter(item.difficulty for item in items)
        assert len(counts) >= MIN_SCORES and max(counts.values()) <= SHARE * len(items), tier
        low = -float("inf") if tier == "easy" else thresholds[TIER_NAMES.index(tier) - 1]
        high = float("inf") if tier == "hard" else thresholds[TIER_NAMES.index(tier)]
        assert all(low < item.difficulty <= high for item in items)
    kept = [item.entry["deal"] for item in tiers["hard"] if item.difficulty == 59.0]
    assert kept == sorted(kept) and kept[0] == 3 * 59 + 1  # the first deals of a score, in deal order


def test_too_few_scores_for_three_tiers_are_refused():
    with pytest.raises(YukonError, match="too few"):
        tiers_of(scored([float(value) for value in range(3 * MIN_SCORES - 1)]))


def test_some_rule_set_has_its_generation_2_files():
    assert len(GENERATION_2) >= 3 and len(GENERATION_2) % 3 == 0


@pytest.mark.parametrize("name", GENERATION_2)
def test_every_generation_2_tier_spreads_its_scores_and_fills_a_year(name):
    catalogue = read_catalogue(SHIPPED / name)
    scores = Counter(entry["difficulty"] for entry in catalogue["entries"])
    assert len(scores) >= MIN_SCORES
    assert max(scores.values()) <= SHARE * len(catalogue["entries"])
    assert len(catalogue["entries"]) >= GAP
    model = catalogue["difficulty_model"]
    assert "tiering" not in model  # the tiers are the model's own
    for entry in catalogue["entries"][::10]:
        assert score_problem(entry, model) is None


@pytest.mark.parametrize("name", GENERATION_2)
def test_a_generation_2_entry_is_a_generation_1_entry_rescored(name):
    catalogue = read_catalogue(SHIPPED / name)
    variant, foundation_return, numbering = rule_set_of(catalogue)
    earlier = {}
    for tier in TIER_NAMES:
        for entry in read_catalogue(SHIPPED / catalogue_name(variant, tier, foundation_return, numbering))[
            "entries"
        ]:
            earlier[entry["deal"]] = entry
    assert catalogue["generation"] == 2 and name == catalogue_name(
        variant, catalogue["tier"], foundation_return, numbering, 2
    )
    for entry in catalogue["entries"]:
        first = earlier[entry["deal"]]
        assert {key: value for key, value in entry.items() if key not in RESCORED} == {
            key: value for key, value in first.items() if key not in RESCORED
        }
        floors = len(entry["ladder"]) - len(first["ladder"])
        assert entry["ladder"][floors:] == first["ladder"] and entry["tier"] == catalogue["tier"]


@pytest.mark.parametrize("generation", ["2", 0, 1.5])
def test_a_manifest_record_with_a_bad_generation_names_no_file(generation):
    from solver.catalogue.files import record_problem

    record = read_manifest(SHIPPED)["files"][0] | {"generation": generation}
    assert "generation" in record_problem(record)


def test_a_floor_rung_plays_the_greedy_player_with_its_share_of_random_moves():
    from solver.game.numbering import deal_board
    from solver.game.rules import Rules
    from solver.player.greedy import Greedy
    from solver.player.ladder import FLOOR, deal_seeds

    board, rules = deal_board("yukon", 2), Rules("yukon")
    for rung in FLOOR:
        seeds = deal_seeds(rung.name, 2, rung.games)
        expected = sum(Greedy(random_moves=dict(rung.settings)["random_moves"]).wins(board, rules, seeds))
        assert rung.wins(board, rules, 2) == expected
