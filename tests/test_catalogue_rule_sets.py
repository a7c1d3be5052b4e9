"""Catalogues of every rule set: a foundation-return catalogue scored by a difficulty model
is built, verified (its rule set and its scores included), served by ``daily`` and found by
``check``; a rule set without a catalogue is refused in one line; old files still load."""

import json
from datetime import date

import pytest
from test_catalogue import run

from solver.catalogue.build import Shelf, build_catalogue
from solver.catalogue.candidates import solve_missing, solved_records
from solver.catalogue.checks import load_checked
from solver.catalogue.entries import RatedDeal
from solver.catalogue.files import (
    MANIFEST_NAME,
    catalogue_name,
    read_catalogue,
    record_problem,
    save_catalogue,
    shipped_directory,
)
from solver.catalogue.verify import verify_directory
from solver.errors import YukonError
from solver.game.ranges import DealRange
from solver.game.rules import Rules
from solver.player.difficulty import ladder_rating

TODAY = date(2026, 12, 1)
RUSSIAN_SOLVED = (16, 33, 35)
MODEL = {
    "model": "rasch",
    "prior_sd": 3.0,
    "gate": 0.25,
    "rungs": [{"name": "greedy", "policy": "greedy", "settings": {}, "games": 4}],
    "skills": [0.5],
    "thresholds": [0.0, 1.0],
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A russian-with-foundation-return easy catalogue of three entries, scored by MODEL."""
    folder = tmp_path_factory.mktemp("catalogue")
    store = folder.parent / "russian-return.db"
    deals = DealRange(tuple((deal, deal) for deal in RUSSIAN_SOLVED))
    solve_missing(store, Rules("russian", True), "pysol", deals, 30.0, jobs=1)
    rating = ladder_rating([(4, 4)], MODEL)
    assert rating.tier == "easy"
    candidates = [
        RatedDeal("russian", "pysol", r.deal, r.board, r.solution, 16, 0, 0, "easy", True, rating)
        for r in solved_records(store, None)
    ]
    report = build_catalogue(candidates, folder, Shelf("russian", "easy", True, "pysol", MODEL), 3, TODAY)
    assert (report.added, report.refused) == (3, [])
    return folder


def test_names_of_rule_sets():
    assert catalogue_name("yukon", "easy") == "yukon-easy.json"
    assert catalogue_name("milligan", "hard", True) == "milligan-return-hard.json"
    assert catalogue_name("yukon", "normal", False, "kpat") == "yukon-kpat-normal.json"


def test_the_file_and_manifest_state_the_rule_set_and_model(built):
    catalogue = read_catalogue(built / "russian-return-easy.json")
    assert (catalogue["foundation_return"], catalogue["numbering"], catalogue["difficulty_model"]) == (
        True,
        "pysol",
        MODEL,
    )
    entry = catalogue["entries"][0]
    assert entry["foundation_return"] and entry["ladder"] == [[4, 4]] and entry["difficulty_se"] > 0
    (record,) = json.loads((built / MANIFEST_NAME).read_text())["files"]
    assert (record["foundation_return"], record["valid_with_foundation_return"]) == (True, [True])
    assert verify_directory(built).problems == []


def tampered(built, tmp_path, change):
    """A copy of the catalogue with ``change`` made to its data, saved with a fresh checksum."""
    data = read_catalogue(built / "russian-return-easy.json")
    change(data)
    save_catalogue(tmp_path, data)
    return verify_directory(tmp_path).problems


def test_verify_catches_an_entry_of_another_rule_set(built, tmp_path):
    problems = tampered(built, tmp_path, lambda data: data["entries"][0].update(foundation_return=False))
    assert (
        len(problems) == 1
        and "entry 1 (deal 16): entry is of the russian rule set, not its file's" in problems[0]
    )


def test_verify_catches_a_score_its_games_do_not_give(built, tmp_path):
    problems = tampered(built, tmp_path, lambda data: data["entries"][1].update(difficulty=2.5))
    assert len(problems) == 1 and "difficulty 2.5 but its ladder games give" in problems[0]


def test_verify_catches_a_tier_its_model_does_not_give(built, tmp_path):
    def harder_thresholds(data):
        data["difficulty_model"] = MODEL | {"thresholds": [-5.0, -4.0]}

    problems = tampered(built, tmp_path, harder_thresholds)
    assert len(problems) == 3 and all("is in the hard tier, not easy" in problem for problem in problems)


def test_daily_serves_the_rule_set_asked_for_and_refuses_one_without_a_catalogue(built):
    served = run("daily", "--variant", "russian", "--foundation-return", "--dir", str(built), "--json")
    assert served.exit_code == 0 and json.loads(served.stdout)["foundation_return"] is True
    refused = run("daily", "--variant", "russian", "--dir", str(built))
    assert refused.exit_code == 2 and refused.stderr.count("\n") == 1
    assert "no russian easy catalogue in manifest.json (there are: russian-return)" in refused.stderr
    with pytest.raises(YukonError, match="no milligan-kpat easy catalogue"):
        load_checked(built, "milligan", "easy", False, "kpat")


def test_check_looks_in_every_rule_set(built):
    found = run("check", "33", "--variant", "russian", "--dir", str(built))
    assert "in the catalogues russian-return easy (russian-return-easy.json)" in found.stdout


def test_a_manifest_record_must_name_its_rule_sets_file():
    record = {"variant": "yukon", "tier": "easy", "foundation_return": True, "file": "yukon-easy.json"}
    assert "not 'yukon-return-easy.json'" in record_problem(record)
    assert "names no rule set" in record_problem(record | {"numbering": "microsoft"})
    assert record_problem(record | {"file": "yukon-return-easy.json"}) is None


def test_release_0_1_0_files_load_as_strict_pysol():
    """The shipped files of release 0.1.0 name no rule set; they load as strict, PySolFC."""
    catalogue = load_checked(shipped_directory(), "yukon", "easy")
    assert "foundation_return" not in catalogue and catalogue["entries"][0]["foundation_return"] is False
