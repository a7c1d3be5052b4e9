"""Catalogues: build then verify, every kind of tampering caught, daily and check commands."""

import json
import shutil
from datetime import date

import pytest
from click.testing import CliRunner

from solver.catalogue.build import build_catalogue
from solver.catalogue.commands import catalogue, check, daily
from solver.catalogue.entries import RatedDeal
from solver.catalogue.files import MANIFEST_NAME, read_catalogue, save_catalogue, shipped_directory
from solver.catalogue.provisional import solved_candidates
from solver.catalogue.verify import verify_directory
from solver.cli import YukonGroup
from solver.errors import YukonError

TODAY = date(2026, 12, 1)
RUSSIAN_SOLVED = (16, 33, 35, 44)  # PySolFC Russian deals the solver wins at once
yukon = YukonGroup(commands={"catalogue": catalogue, "daily": daily, "check": check})


def run(*args: str):
    result = CliRunner().invoke(yukon, list(args), prog_name="yukon")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def candidates() -> list[RatedDeal]:
    rated = list(solved_candidates("russian", "pysol", RUSSIAN_SOLVED, 30.0, 0.0))
    assert [candidate.deal for candidate in rated] == list(RUSSIAN_SOLVED)
    return [RatedDeal(**{**vars(candidate), "tier": "easy"}) for candidate in rated]


@pytest.fixture
def built(tmp_path, candidates):
    """A small russian easy catalogue of three entries."""
    report = build_catalogue(candidates, tmp_path, "russian", "easy", 3, TODAY)
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
    report = build_catalogue(candidates, built, "russian", "easy", 4, TODAY)
    after = read_catalogue(russian_easy(built))["entries"]
    assert (report.kept, report.added) == (3, 1)
    assert after[:3] == before and after[3]["since"] == "2026-12-02"
    with pytest.raises(YukonError, match="after today"):
        build_catalogue(candidates, built, "russian", "easy", 5, TODAY, since=TODAY)


def test_build_refuses_a_line_that_does_not_win(tmp_path, candidates):
    broken = RatedDeal(**{**vars(candidates[0]), "solution": " ".join(candidates[0].solution.split()[:-1])})
    report = build_catalogue([broken, candidates[1]], tmp_path, "russian", "easy", 2, TODAY)
    assert report.added == 1 and report.refused == ["pysol deal 16: the line is legal but does not win"]
    with pytest.raises(YukonError, match="no russian hard deal among the candidates"):
        build_catalogue(candidates, tmp_path, "russian", "hard", 2, TODAY)


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
    assert "in the easy catalogue" in run("check", "33", "--variant", "russian", "--dir", str(built)).stdout
    result = run("check", "12", "--variant", "russian", "--dir", str(built))
    assert result.exit_code == 0 and "solvability not checked" in result.stdout
    solved = run("check", "12", "--variant", "russian", "--dir", str(built), "--solve")
    assert "solver says unsolvable" in solved.stdout


def test_the_shipped_catalogues_verify():
    """What CI runs: every shipped line replays as a win from the deal it names."""
    report = verify_directory(shipped_directory())
    assert report.problems == []
    assert report.files >= 3 and report.entries >= 30
