"""Catalogues: build from a results store then verify, every kind of tampering caught, daily
and check commands, all through the real ``yukon`` command line."""

import json
import shutil
import zlib
from datetime import date

import pytest
from click.testing import CliRunner

from solver.catalogue.build import Shelf, build_catalogue
from solver.catalogue.candidates import TRIALS, Shortener, solve_missing, solved_records
from solver.catalogue.entries import RatedDeal
from solver.catalogue.files import (
    MANIFEST_NAME,
    read_catalogue,
    read_manifest,
    save_catalogue,
    shipped_directory,
)
from solver.catalogue.verify import verify_directory
from solver.cli import main
from solver.errors import YukonError
from solver.game.board import Board
from solver.game.cards import KING
from solver.game.notation import final_position
from solver.game.numbering import deal_board
from solver.game.ranges import DealRange
from solver.game.rules import Rules
from solver.player.difficulty import MIN_RUNS, TIERS
from solver.results.result import TIER_NAMES
from solver.store import Store

TODAY = date(2026, 12, 1)
RUSSIAN_SOLVED = (16, 33, 35, 44)  # PySolFC Russian deals the solver wins at once


def run(*args: str):
    result = CliRunner().invoke(main, list(args), prog_name="yukon")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A russian results store (no foundation return) holding RUSSIAN_SOLVED, solved."""
    path = tmp_path_factory.mktemp("store") / "russian.db"
    deals = DealRange(tuple((deal, deal) for deal in RUSSIAN_SOLVED))
    report = solve_missing(path, Rules("russian"), "pysol", deals, 30.0, jobs=1)
    assert report.counts == {"solved": len(RUSSIAN_SOLVED)}
    return path


@pytest.fixture(scope="module")
def candidates(store) -> list[RatedDeal]:
    """The stored deals as easy candidates (the builder takes any rated deals)."""
    return [
        RatedDeal("russian", "pysol", record.deal, record.board, record.solution, MIN_RUNS, 0, 0, "easy")
        for record in solved_records(store, None)
    ]


@pytest.fixture
def built(tmp_path, candidates):
    """A small russian easy catalogue of three entries."""
    report = build_catalogue(candidates, tmp_path, Shelf("russian", "easy"), 3, TODAY)
    assert (report.added, report.refused) == (3, [])
    return tmp_path


def russian_easy(directory):
    return directory / "russian-easy.json"


def edit_entries(directory, change) -> None:
    """Hand-edit the entries and rewrite the file with a fresh checksum."""
    data = read_catalogue(russian_easy(directory))
    change(data["entries"])
    save_catalogue(directory, data)


def test_build_then_verify_is_clean(built):
    report = verify_directory(built)
    assert (report.files, report.entries, report.problems) == (1, 3, [])
    result = run("catalogue", "verify", str(built))
    assert result.exit_code == 0 and "1 files, 3 entries, 0 problems" in result.stdout


def test_build_extends_in_place_and_new_entries_join_after_today(built, candidates):
    before = read_catalogue(russian_easy(built))["entries"]
    report = build_catalogue(candidates, built, Shelf("russian", "easy"), 4, TODAY)
    after = read_catalogue(russian_easy(built))["entries"]
    assert (report.kept, report.added) == (3, 1)
    assert after[:3] == before and after[3]["since"] == "2026-12-02"
    with pytest.raises(YukonError, match="after today"):
        build_catalogue(candidates, built, Shelf("russian", "easy"), 5, TODAY, since=TODAY)


def test_build_asks_for_no_candidate_beyond_the_count(tmp_path, candidates):
    """Each candidate costs a rating and a minimal search: none is drawn once the file is full."""

    def supply():
        yield from candidates[:2]
        raise AssertionError("a third candidate was drawn")

    assert build_catalogue(supply(), tmp_path, Shelf("russian", "easy"), 2, TODAY).added == 2


def test_build_refuses_a_line_that_does_not_win(tmp_path, candidates):
    broken = RatedDeal(**{**vars(candidates[0]), "solution": " ".join(candidates[0].solution.split()[:-1])})
    report = build_catalogue([broken, candidates[1]], tmp_path, Shelf("russian", "easy"), 2, TODAY)
    assert report.added == 1 and report.refused == ["pysol deal 16: the line is legal but does not win"]
    with pytest.raises(YukonError, match="no russian hard deal among the candidates"):
        build_catalogue(candidates, tmp_path, Shelf("russian", "hard"), 2, TODAY)


def illegal_first_move(entries):
    tokens = entries[1]["solution"].split()
    entries[1]["solution"] = " ".join(["1>F:KS", *tokens[1:]])


def other_deal(entries):
    entries[0]["deal"] = 17


TAMPERING = [
    (illegal_first_move, "entry 2 (deal 33): move 1 1>F:KS: only a column's exposed card goes"),
    (other_deal, "entry 1 (deal 17): board is not pysol deal 17"),
    (lambda entries: entries.append(dict(entries[0])), "entry 4 (deal 16): duplicate of entry 1"),
    (lambda entries: entries[2].pop("board"), "entry 3 (deal 35): field 'board' is missing"),
    (
        lambda entries: entries[0].update(score=0.5),
        "entry 1 (deal 16): score 0.5 is not 0 failures / 16 runs",
    ),
    (lambda entries: entries[0].update(failures=17), "entry 1 (deal 16): tier 'easy' or failures 17 of 16"),
]


@pytest.mark.parametrize(("change", "reason"), TAMPERING)
def test_a_hand_edited_entry_is_named_with_its_reason(built, change, reason):
    edit_entries(built, change)
    problems = verify_directory(built).problems
    assert len(problems) == 1 and problems[0].startswith(f"{russian_easy(built)}: {reason}")
    result = run("catalogue", "verify", str(built))
    assert result.exit_code == 1 and reason in result.stderr


def test_a_truncated_file_is_caught(built):
    text = russian_easy(built).read_text()
    russian_easy(built).write_text(text[: len(text) // 2])
    problems = verify_directory(built).problems
    assert any("checksum does not match" in problem for problem in problems)
    assert any("not valid JSON" in problem and "russian-easy.json" in problem for problem in problems)


def test_a_wrong_checksum_is_caught_and_daily_refuses_to_serve(built):
    manifest = json.loads((built / MANIFEST_NAME).read_text())
    manifest["files"][0]["sha256"] = "0" * 64
    (built / MANIFEST_NAME).write_text(json.dumps(manifest))
    assert verify_directory(built).problems == [
        f"{russian_easy(built)}: checksum does not match manifest.json"
    ]
    result = run("daily", "--variant", "russian", "--dir", str(built), "--date", "2026-12-01")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {russian_easy(built)}: checksum does not match manifest.json; refusing to serve it"
    ]


def test_an_unlisted_file_is_caught(built):
    shutil.copy(russian_easy(built), built / "russian-hard.json")
    assert verify_directory(built).problems == [f"{built / 'russian-hard.json'}: not listed in manifest.json"]


def test_daily_serves_an_entry_and_its_json(built):
    result = run("daily", "--variant", "russian", "--dir", str(built), "--date", "2026-12-01", "--json")
    assert result.exit_code == 0
    served = json.loads(result.stdout)
    entries = read_catalogue(russian_easy(built))["entries"]
    assert served["date"] == "2026-12-01"
    assert {key: served[key] for key in entries[0]} == entries[served["entry_index"]]


def test_daily_bad_date_is_one_line():
    result = run("daily", "--date", "2026-13-01")
    assert result.exit_code == 2 and result.stderr == "error: date '2026-13-01' is not YYYY-MM-DD\n"


def test_check_names_the_tier_or_says_not_checked(built):
    found = run("check", "33", "--variant", "russian", "--dir", str(built))
    assert found.exit_code == 0 and "in the catalogues russian easy (russian-easy.json)" in found.stdout
    result = run("check", "12", "--variant", "russian", "--dir", str(built))
    assert result.exit_code == 5 and "solvability not checked" in result.stdout
    solved = run("check", "12", "--variant", "russian", "--dir", str(built), "--solve")
    assert solved.exit_code == 1 and "solver says unsolvable" in solved.stdout


def test_build_command_rates_stored_deals_into_their_tiers(store, tmp_path):
    tiers = {}
    for tier in ("easy", "normal", "hard"):
        result = run(*BUILD, "--tier", tier, "--from", str(store), "--out", str(tmp_path))
        assert result.exit_code in (0, 2), result.stderr
        if result.exit_code == 0:
            assert "lengths: min" in result.stdout and "minimal mode:" in result.stdout
            entries = read_catalogue(tmp_path / f"russian-{tier}.json")["entries"]
            tiers |= {entry["deal"]: entry for entry in entries}
        else:
            assert f"no russian {tier} deal among the candidates" in result.stderr
    assert sorted(tiers) == list(RUSSIAN_SOLVED)
    easy_max, normal_max = TIERS["russian"]
    for entry in tiers.values():
        rate = entry["failures"] / entry["runs"]
        expected = "easy" if rate <= easy_max else "normal" if rate <= normal_max else "hard"
        assert (entry["tier"], entry["runs"], entry["foundation_return"]) == (expected, MIN_RUNS, False)
    assert verify_directory(tmp_path).problems == []


BUILD = ("catalogue", "build", "--variant", "russian", "--count", "4", "--minimal-seconds", "0")


def test_build_solves_missing_deals_into_the_store(tmp_path):
    store = tmp_path / "russian.db"
    result = run(*BUILD, "--tier", "easy", "--from", str(store), "--deals", "33", "--out", str(tmp_path))
    assert "1 deals in range, 0 already in" in result.stderr
    assert [record.deal for record in solved_records(store, None)] == [33]


def test_build_refuses_a_store_of_another_rule_set(tmp_path):
    path = tmp_path / "return.db"
    Store.open_for_run(path, Rules("russian", foundation_return=True), "pysol").close()
    result = run(*BUILD, "--from", str(path), "--out", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: results store {path} holds russian with foundation return deals")
    assert not list(tmp_path.glob("*.json"))


def test_build_refuses_a_store_of_another_variant(store, tmp_path):
    result = run(*BUILD, "--variant", "yukon", "--from", str(store), "--out", str(tmp_path))
    assert result.exit_code == 2 and "holds russian deals (pysol numbering), not yukon" in result.stderr


def test_the_minimal_mode_shortens_a_russian_line(store):
    record = solved_records(store, DealRange(((16, 16),)))[0]
    shortener = Shortener(5.0)
    line = shortener.line(deal_board("russian", 16, "pysol"), Rules("russian"), record.solution)
    assert len(line.split()) < record.solution_length
    assert (shortener.tried, shortener.shortened) == (1, 1)
    assert shortener.moves_saved == record.solution_length - len(line.split())


def test_the_minimal_mode_stops_once_it_does_not_pay():
    assert not Shortener(0.0).pays
    assert Shortener(1.0, tried=TRIALS - 1).pays
    assert not Shortener(1.0, tried=TRIALS).pays
    assert Shortener(1.0, tried=TRIALS, shortened=1).pays


# One line in REPLAY_EVERY of each shipped file is replayed by the test below, chosen by a
# digest of the line itself: a different sample in every file, spread through all of it.
REPLAY_EVERY = 25
WON = Board(((),) * 7, (0,) * 7, (KING,) * 4)  # every foundation up to its king


def sampled_replay(replayed: set):
    """``final_position`` for the sampled lines (added to ``replayed``), and a won position
    for the others."""

    def final_position_if_sampled(board, tokens, rules):
        line = " ".join(tokens)
        if zlib.crc32(line.encode()) % REPLAY_EVERY:
            return WON
        replayed.add(line)
        return final_position(board, tokens, rules)

    return final_position_if_sampled


def test_the_shipped_catalogues_verify_with_a_sample_of_lines_replayed(monkeypatch):
    """What CI runs: every shipped file matches the manifest (checksum, count, rule set), and
    every entry is checked as ``yukon catalogue verify`` checks it (fields, difficulty, the
    board being the deal it names), but only one line in about REPLAY_EVERY of each file is
    replayed here. Replaying every line is what ``yukon catalogue verify`` does, and the build
    for each entry before it writes it; last run on the project's 2-core machine at commit
    39cf49e (2026-12-02), ``time yukon catalogue verify``: "21 files, 20629 entries, 0
    problems" in 1 min 49 s wall, 70 s of CPU (other work running)."""
    replayed = set()
    monkeypatch.setattr("solver.catalogue.entries.final_position", sampled_replay(replayed))
    report = verify_directory(shipped_directory())
    assert report.problems == []
    listed = {record["file"] for record in read_manifest(shipped_directory())["files"]}
    assert report.files == len(listed) and set(SHIPPED) <= listed
    for name, least in SHIPPED.items():
        lines = {entry["solution"] for entry in read_catalogue(shipped_directory() / name)["entries"]}
        assert len(lines) >= least and len(lines & replayed) >= least // (2 * REPLAY_EVERY), name


# What ships, with the fewest entries each file has (catalogue/README.md says why Russian
# with foundation return holds fewer normal deals).
RULE_SETS = (
    "yukon",
    "russian",
    "milligan",
    "milligan-return",
    "yukon-return",
    "yukon-kpat",
    "russian-return",
)
SHIPPED = {f"{rule_set}-{tier}.json": 1000 for rule_set in RULE_SETS for tier in TIER_NAMES}
SHIPPED["russian-return-normal.json"] = 629
