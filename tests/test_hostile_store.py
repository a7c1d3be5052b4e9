"""Hostile stores and catalogues (issue 53): a store is checked in its shape when it is opened
(schema, rows) and a catalogue wherever it is read (checksum, schema, replay); odd outputs,
full disks and malformed option values end in one line and exit 2, nothing lost."""

import errno
import hashlib
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest
from stores import YUKON, fake_record
from test_cli import assert_bad_input, run

from solver.api import catalogue_hits
from solver.catalogue import shape
from solver.catalogue.build import Shelf, build_catalogue
from solver.catalogue.checks import load_checked
from solver.catalogue.entries import RatedDeal
from solver.catalogue.files import (
    MANIFEST_NAME,
    checksum,
    json_bytes,
    manifest_line,
    read_catalogue,
    save_catalogue,
    shipped_directory,
)
from solver.catalogue.ladder_games import LadderGames
from solver.catalogue.verify import verify_directory
from solver.common.atomic import JOURNAL_NAME, finish_switch, written_beside
from solver.errors import YukonError
from solver.game.numbering import deal_board
from solver.results.result import SOLVED
from solver.runs.claims import WAIT, ClaimedDeals
from solver.store import BUSY, CLAIMED, Store, export_jsonl
from solver.store.claims import CLAIM_SECONDS

LEGACY_STORE = Path(__file__).parent / "data" / "legacy" / "store-v1.db"


@pytest.fixture
def store_path(tmp_path):
    """A store of yukon deals 1-5 (made-up solved records: no solver run)."""
    path = tmp_path / "s.db"
    with Store.open_for_run(path, YUKON, "pysol") as store:
        for deal in range(1, 6):
            store.write(fake_record(deal, SOLVED, solution="S"))
    return path


def edited(path, *statements):
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()
    return path


def row_count(path) -> int:
    connection = sqlite3.connect(path)
    (count,) = connection.execute("SELECT COUNT(*) FROM results").fetchone()
    connection.close()
    return count


HAND_EDITS = {
    "a DELETE trigger": (
        ["CREATE TRIGGER wipe AFTER INSERT ON results BEGIN DELETE FROM results; END"],
        "the trigger 'wipe'",
    ),
    "a view": (["CREATE VIEW everything AS SELECT * FROM results"], "the view 'everything'"),
    "a table of its own": (["CREATE TABLE notes (text)"], "the table 'notes'"),
    "a unique index of its own": (
        ["CREATE UNIQUE INDEX one_status ON results (deal)"],
        "the index 'one_status'",
    ),
    "a table without rowid": (
        ["ALTER TABLE ratings RENAME TO old", "CREATE TABLE ratings (deal PRIMARY KEY) WITHOUT ROWID"],
        "the table 'old'",
    ),
    "foundation_return 'maybe'": (
        ["UPDATE meta SET value = 'maybe' WHERE key = 'foundation_return'"],
        "foundation_return 'maybe'",
    ),
    "an unknown numbering": (["UPDATE meta SET value = 'xp' WHERE key = 'numbering'"], "numbering 'xp'"),
    "a row of another variant": (
        ["UPDATE results SET variant = 'russian' WHERE deal = 2"],
        "another rule set",
    ),
    "a text deal duplicating deal 3": (
        [
            "CREATE TEMP TABLE copied AS SELECT * FROM results WHERE deal = 3",
            "UPDATE copied SET deal = '000000000000000000003'",
            "INSERT INTO results SELECT * FROM copied",
        ],
        "column deal",
    ),
    "deal 0": (["UPDATE results SET deal = 0 WHERE deal = 2"], "column deal"),
    "deal -5": (["UPDATE results SET deal = -5 WHERE deal = 2"], "column deal"),
    "a deal beyond the numbering": (
        ["UPDATE results SET deal = '100000000000000000001' WHERE deal = 2"],
        "column deal",
    ),
    "a status outside its choices": (
        ["PRAGMA ignore_check_constraints = 1", "UPDATE results SET status = 'SOLVED' WHERE deal = 2"],
        "CHECK constraint failed",
    ),
    "a boolean of 7": (["UPDATE results SET proven_minimal = 7 WHERE deal = 2"], "column proven_minimal"),
    "a missing column": (["ALTER TABLE results DROP COLUMN loss_reason"], "lacks its column loss_reason"),
    "a column of its own": (["ALTER TABLE results ADD COLUMN colour TEXT"], "column results.colour"),
    "the player's tables dropped": (["DROP TABLE plays"], "lacks the table plays"),
}


@pytest.mark.parametrize("edit", HAND_EDITS, ids=list(HAND_EDITS))
def test_a_hand_edited_store_is_refused_at_open_and_keeps_its_rows(store_path, edit):
    statements, named = HAND_EDITS[edit]
    edited(store_path, *statements)
    rows = row_count(store_path)
    for opening in (Store.open_existing, lambda path: Store.open_for_run(path, YUKON, "pysol")):
        with pytest.raises(YukonError, match="damaged|corrupt") as refused:
            opening(store_path)
        assert named in str(refused.value) and "\n" not in str(refused.value)
    assert row_count(store_path) == rows


def test_a_delete_trigger_stops_a_run_before_it_claims_or_solves(store_path):
    edited(store_path, "CREATE TRIGGER wipe AFTER INSERT ON claims BEGIN DELETE FROM results; END")
    result = run("solve", "1-8", "--out", str(store_path), "--max-nodes", "1000")
    assert_bad_input(result)
    assert "the trigger 'wipe'" in result.stderr and row_count(store_path) == 5


def test_a_store_missing_a_column_is_refused_before_a_deal_is_claimed(store_path):
    edited(store_path, "ALTER TABLE results DROP COLUMN budget")
    result = run("solve", "6", "--out", str(store_path), "--max-nodes", "1000")
    assert_bad_input(result)
    assert "lacks its column budget" in result.stderr
    connection = sqlite3.connect(store_path)
    assert connection.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)


def test_a_legacy_store_still_opens_and_migrates(tmp_path):
    copy = tmp_path / "v1.db"
    copy.write_bytes(LEGACY_STORE.read_bytes())
    with Store.open_existing(copy) as store:
        read = len(list(store.records()))
    with Store.open_for_run(copy, YUKON, "pysol") as store:
        assert len(list(store.records())) == read > 0


def test_garbage_player_settings_are_refused_by_stats_and_play(store_path):
    with Store.open_for_run(store_path, YUKON, "pysol"):
        pass
    edited(
        store_path,
        "INSERT INTO plays VALUES "
        "('yukon', 0, 'pysol', 1, 'greedy', '{garbage', 0, 0, 1, 0, 3, '', 'x', 't')",
    )
    for arguments in (
        ["stats", str(store_path)],
        ["play", "1", "--policy", "greedy", "--out", str(store_path)],
    ):
        result = run(*arguments)
        assert_bad_input(result)
        assert "'{garbage' in column settings" in result.stderr


def test_a_claim_expiring_far_in_the_future_does_not_hold_a_deal(store_path):
    with Store.open_for_run(store_path, YUKON, "pysol") as store:
        assert store.claim(7, "other run", (SOLVED,)) == CLAIMED
        assert store.claim(7, "this run", (SOLVED,)) == BUSY  # a live claim holds
        store.connection.execute("UPDATE claims SET expires = ?", (time.time() + 1e9,))
        assert store.claim(7, "this run", (SOLVED,)) == CLAIMED


def test_a_claim_set_by_a_run_whose_clock_read_came_later_still_holds(store_path):
    """Another run read the clock a few seconds after this one (it was descheduled, or it
    wrote while this run waited for the lock): its fresh claim is live, not lapsed."""
    with Store.open_for_run(store_path, YUKON, "pysol") as store:
        assert store.claim(7, "other run", (SOLVED,)) == CLAIMED
        store.connection.execute("UPDATE claims SET expires = ?", (time.time() + CLAIM_SECONDS + 3,))
        assert store.claim(7, "this run", (SOLVED,)) == BUSY


def test_a_run_waiting_for_another_says_what_it_waits_for(store_path):
    lines = []
    with Store.open_for_run(store_path, YUKON, "pysol") as store:
        assert store.claim(8, "other run", (SOLVED,)) == CLAIMED
        deals = ClaimedDeals(store, iter([8]), (SOLVED,), say=lines.append)
        assert next(deals) is WAIT and next(deals) is WAIT
    assert len(lines) == 1 and "waiting for 1 deal another run sharing" in lines[0]


# --- catalogues -----------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path):
    """A catalogue folder holding the first four entries of the shipped yukon easy file."""
    shipped = read_catalogue(shipped_directory() / "yukon-easy.json")
    directory = tmp_path / "cat"
    save_catalogue(directory, shipped | {"entries": shipped["entries"][:4]})
    return directory


def rewritten(directory, change, sign=True, name="yukon-easy.json"):
    """Hand-edit a catalogue file (``change`` edits its JSON) and, with ``sign``, give the
    manifest its new checksum, as an attacker would."""
    path = directory / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1))
    if sign:
        edit_manifest(directory, lambda manifest: manifest_line(manifest, name).update(sha256=checksum(path)))
    return directory


def edit_manifest(directory, change):
    manifest = json.loads((directory / MANIFEST_NAME).read_text())
    change(manifest)
    (directory / MANIFEST_NAME).write_text(json.dumps(manifest))


def planted(deal: int, board_of: int | None = None):
    """An edit putting ``deal`` (unsolvable 151, say) into entry 1 with entry 1's line."""

    def change(data):
        entry = data["entries"][0]
        entry["deal"] = deal
        entry["board"] = deal_board("yukon", board_of or deal).to_text()

    return change


@pytest.mark.parametrize("sign", [True, False])
def test_check_refuses_a_planted_unsolvable_deal(folder, sign):
    rewritten(folder, planted(151), sign)
    result = run("check", "151", "--dir", str(folder))
    assert_bad_input(result)
    assert "yukon-easy.json" in result.stderr
    with pytest.raises(YukonError):
        catalogue_hits(151, directory=folder)


def test_check_refuses_a_file_whose_checksum_does_not_match_even_for_another_deal(folder):
    rewritten(folder, lambda data: data["entries"][1].update(solution="S"), sign=False)
    with pytest.raises(YukonError, match="checksum does not match"):
        catalogue_hits(2, directory=folder)


def illegal_line(data):
    entry = data["entries"][0]
    entry["solution"] = " ".join(["1>F:AS", *entry["solution"].split()[1:]])


@pytest.mark.parametrize(
    "change", [illegal_line, planted(2, board_of=3)], ids=["an illegal line", "another deal's board"]
)
def test_daily_refuses_every_tampered_entry_even_when_signed(folder, change):
    rewritten(folder, change)
    statuses = []
    for day in ("2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"):  # each entry once
        result = run("daily", "--dir", str(folder), "--date", day, "--json")
        statuses.append(result.exit_code)
        if result.exit_code == 0:
            assert json.loads(result.stdout)["entry_index"] != 0, f"served the tampered entry on {day}"
        else:
            assert_bad_input(result)
    assert sorted(statuses) == [0, 0, 0, 2]
    assert verify_directory(folder).problems


def test_build_refuses_to_launder_a_tampered_entry(folder):
    rewritten(folder, illegal_line, sign=False)
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    model = read_catalogue(folder / "yukon-easy.json", (folder / "yukon-easy.json").read_bytes())
    shelf = Shelf("yukon", "easy", model=model.get("difficulty_model"))
    with pytest.raises(YukonError, match="refusing"):
        build_catalogue([], folder, shelf, 6, date(2026, 12, 1))
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


def test_build_refuses_a_signed_tampered_entry_too(folder):
    rewritten(folder, illegal_line)
    model = read_catalogue(folder / "yukon-easy.json")["difficulty_model"]
    with pytest.raises(YukonError, match="entry 1"):
        build_catalogue([], folder, Shelf("yukon", "easy", model=model), 6, date(2026, 12, 1))


KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from solver.common.atomic import replace_files
renames = []
real = Path.replace
def replace(self, target):
    renames.append(target)
    if len(renames) == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)
    return real(self, target)
Path.replace = replace
folder = Path(sys.argv[1])
replace_files(folder, {"yukon-easy.json": b"new catalogue", "manifest.json": b"new manifest"})
"""


@pytest.mark.parametrize("killed_at", [1, 2, 3])
def test_a_write_killed_at_any_rename_leaves_both_files_old_or_both_new(tmp_path, killed_at):
    (tmp_path / "yukon-easy.json").write_bytes(b"old catalogue")
    (tmp_path / "manifest.json").write_bytes(b"old manifest")
    env = os.environ | {"PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(tmp_path), str(killed_at)], env=env)
    assert process.returncode == -signal.SIGKILL
    finish_switch(tmp_path)
    contents = {(tmp_path / name).read_bytes().split()[0] for name in ("yukon-easy.json", "manifest.json")}
    assert contents == ({b"old"} if killed_at == 1 else {b"new"})
    names = sorted(path.name for path in tmp_path.iterdir())
    assert [name for name in names if not name.startswith(".")] == ["manifest.json", "yukon-easy.json"]
    assert (
        names == ["manifest.json", "yukon-easy.json"] or killed_at == 1
    )  # before the commit: hidden leftovers


def test_a_reader_completes_an_interrupted_switch(folder):
    data = read_catalogue(folder / "yukon-easy.json")
    data["entries"] = data["entries"][:3]
    manifest = json.loads((folder / MANIFEST_NAME).read_text())
    manifest_line(manifest, "yukon-easy.json").update(
        count=3, sha256=hashlib.sha256(json_bytes(data)).hexdigest()
    )
    partials = {
        "yukon-easy.json": written_beside(folder / "yukon-easy.json", json_bytes(data)).name,
        MANIFEST_NAME: written_beside(folder / MANIFEST_NAME, json_bytes(manifest)).name,
    }
    (folder / JOURNAL_NAME).write_text(json.dumps(partials))  # killed after the commit
    assert len(load_checked(folder, "yukon", "easy")["entries"]) == 3
    assert not (folder / JOURNAL_NAME).exists() and verify_directory(folder).problems == []


def shipped_shape(change):
    def edit(directory):
        edit_manifest(directory, change)

    return edit


def reversed_thresholds(directory):
    def change(data):
        data["difficulty_model"]["thresholds"].reverse()

    rewritten(directory, change)


def nan_difficulty(directory):
    path = directory / "yukon-easy.json"
    text = path.read_text()
    first = json.loads(text)["entries"][0]["difficulty"]
    path.write_text(text.replace(f'"difficulty": {first},', '"difficulty": NaN,', 1))
    edit_manifest(
        directory, lambda manifest: manifest_line(manifest, "yukon-easy.json").update(sha256=checksum(path))
    )


def symlink_outside(directory):
    outside = directory.parent / "outside.json"
    (directory / "yukon-easy.json").rename(outside)
    (directory / "yukon-easy.json").symlink_to(outside)


def empty_file(directory):
    rewritten(directory, lambda data: data.update(entries=[]))
    edit_manifest(directory, lambda manifest: manifest_line(manifest, "yukon-easy.json").update(count=0))


def schedule(value):
    return shipped_shape(lambda manifest: manifest.update(schedule=value))


LEGACY_EPOCH = {"start": "2026-01-01", "method": "affine-fnv1a", "key": ""}
MALFORMED_FOLDERS = {
    "a symlink to a file outside": symlink_outside,
    "a difficulty of NaN": nan_difficulty,
    "a manifest version from the future": shipped_shape(lambda manifest: manifest.update(format_version=9)),
    "a manifest version as a string": shipped_shape(lambda manifest: manifest.update(format_version="2")),
    "tier thresholds in reverse order": reversed_thresholds,
    "a schedule with a bad date": schedule(
        [LEGACY_EPOCH, {"start": "2027-02-30", "method": "affine-fnv1a", "key": ""}]
    ),
    "an unknown method": schedule([LEGACY_EPOCH, {"start": "2027-02-01", "method": "feistel", "key": ""}]),
    "an empty schedule": schedule([]),
    "only future epochs": schedule([{"start": "2099-01-01", "method": "affine-fnv1a", "key": ""}]),
    "a huge key": schedule(
        [LEGACY_EPOCH, {"start": "2027-02-01", "method": "keyed-sort-sha256", "key": "k" * 100_000}]
    ),
    "no schedule at all": shipped_shape(lambda manifest: manifest.pop("schedule")),
    "a schedule that is no list": schedule({"start": "2026-01-01"}),
    "a schedule not sorted": schedule(
        [LEGACY_EPOCH, {"start": "2025-01-01", "method": "affine-fnv1a", "key": ""}]
    ),
    "a file of no entries": empty_file,
}


@pytest.mark.parametrize("damage", MALFORMED_FOLDERS, ids=list(MALFORMED_FOLDERS))
def test_verify_daily_and_check_refuse_a_malformed_folder(folder, damage):
    MALFORMED_FOLDERS[damage](folder)
    result = run("catalogue", "verify", str(folder))
    assert result.exit_code in (1, 2) and "0 problems" not in result.stdout, result.output
    for arguments in (["daily", "--date", "2026-01-02"], ["check", "2"]):
        refused = run(*arguments, "--dir", str(folder))
        assert_bad_input(refused)


def test_a_catalogue_file_that_is_a_directory_is_named(folder):
    (folder / "yukon-easy.json").unlink()
    (folder / "yukon-easy.json").mkdir()
    result = run("daily", "--dir", str(folder), "--date", "2026-01-02")
    assert_bad_input(result)
    assert f"{folder / 'yukon-easy.json'}: not a regular file" in result.stderr


@pytest.mark.parametrize("name", ["yukon-easy.json", MANIFEST_NAME])
def test_build_does_not_write_through_a_planted_symlink(folder, tmp_path, name):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (folder / name).unlink()
    (folder / name).symlink_to(victim)
    with pytest.raises(YukonError, match="symbolic link"):
        build_catalogue([], folder, Shelf("yukon", "easy"), 6, date(2026, 12, 1))
    assert victim.read_text() == "precious\n"


def test_a_new_catalogue_replaces_a_dangling_symlink_it_does_not_follow(tmp_path):
    entry = read_catalogue(shipped_directory() / "yukon-easy.json")["entries"][0]
    fields = ("deal", "board", "solution", "runs", "seed", "failures", "tier")
    rated = RatedDeal(variant="yukon", numbering="pysol", **{field: entry[field] for field in fields})
    folder, victim = tmp_path / "new", tmp_path / "victim.json"
    folder.mkdir()
    (folder / MANIFEST_NAME).symlink_to(victim)
    report = build_catalogue([rated], folder, Shelf("yukon", "easy"), 1, date(2026, 12, 1))
    assert report.added == 1 and not victim.exists() and not (folder / MANIFEST_NAME).is_symlink()
    assert verify_directory(folder).problems == []


# --- odd outputs, full disks, deal numbers, option values --------------------------------------


def test_export_to_a_fifo_no_program_reads_is_refused(store_path, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(YukonError, match="is a FIFO no program opened for reading in 0.2 s"):
        export_jsonl(store_path, fifo, reader_wait=0.2)
    assert stat.S_ISFIFO(fifo.stat().st_mode)


class FullDisk:
    """An output whose every write fails as a full disk does."""

    name = "full.jsonl"

    def write(self, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    def flush(self):
        pass


def test_an_export_to_a_full_output_is_an_error(store_path):
    with pytest.raises(YukonError, match="cannot write the export to full.jsonl: No space left on device"):
        export_jsonl(store_path, FullDisk())


FULL_DISK_STORE = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))  # a disk that takes 2,000 bytes a file
from solver.errors import YukonError
from solver.game.rules import Rules
from solver.store import Store
try:
    Store.open_for_run(sys.argv[1], Rules(), "pysol")
except YukonError as error:
    print(error)
"""


def test_a_new_store_refused_on_a_full_disk_leaves_no_file(tmp_path):
    env = os.environ | {"PYTHONPATH": os.pathsep.join(sys.path)}
    path = tmp_path / "new.db"
    process = subprocess.run(
        [sys.executable, "-c", FULL_DISK_STORE, str(path)], env=env, capture_output=True, text=True
    )
    assert process.stdout.startswith(f"cannot write to results store {path}"), process.stderr
    assert list(tmp_path.iterdir()) == []


def test_check_finds_an_ms_number_that_is_pysol_s_deal():
    result = run("check", "ms12")
    assert result.exit_code == 0 and "yukon hard (yukon-hard.json)" in result.stdout


@pytest.mark.parametrize(
    "arguments",
    [
        ["100000000000000000001"],
        ["2147483648", "--numbering", "kpat"],
        ["5", "--numbering", "kpat", "--variant", "milligan"],
    ],
)
def test_check_of_a_deal_the_numbering_lacks_is_bad_input(arguments):
    assert_bad_input(run("check", *arguments))


@pytest.mark.parametrize("seconds", ["-1", "nan", "inf"])
def test_build_refuses_minimal_seconds_that_are_no_duration(tmp_path, seconds):
    result = run("catalogue", "build", "--minimal-seconds", seconds, "--out", str(tmp_path / "out"))
    assert_bad_input(result)
    assert "--minimal-seconds" in result.stderr and not (tmp_path / "out").exists()


LADDER_LINES = [
    "[" * 100_000 + "]" * 100_000,
    '{"rule_set": "yukon", "numbering": "pysol", "deal": 1e999, "rungs": ["greedy"], "results": [[1, 2]]}',
    '{"rule_set": "yukon", "numbering": "pysol", "deal": 1, "rungs": ["greedy"], "results": [[1e999, 2]]}',
    '"a string"',
]


@pytest.mark.parametrize(
    "line", LADDER_LINES, ids=["nested", "an infinite deal", "infinite wins", "a string"]
)
def test_a_malformed_ladder_file_is_read_without_a_traceback(tmp_path, line):
    path = tmp_path / "ladder.jsonl"
    path.write_text(line + "\n")
    assert LadderGames(path, YUKON, "pysol").known == {}


# --- a pass of our own: Windows line endings and byte-order marks, journals, odd files --------


def windows_text(directory, name, bom=True):
    path = directory / name
    text = path.read_bytes().replace(b"\n", b"\r\n")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text)


def test_signed_files_with_windows_line_endings_and_a_bom_are_read_alike(folder):
    before = run("daily", "--dir", str(folder), "--date", "2026-01-03", "--json").stdout
    windows_text(folder, "yukon-easy.json")
    edit_manifest(
        folder,
        lambda manifest: manifest_line(manifest, "yukon-easy.json").update(
            sha256=checksum(folder / "yukon-easy.json")
        ),
    )
    windows_text(folder, MANIFEST_NAME)
    assert verify_directory(folder).problems == []
    assert run("daily", "--dir", str(folder), "--date", "2026-01-03", "--json").stdout == before


def test_an_unsigned_change_of_line_endings_is_refused(folder):
    windows_text(folder, "yukon-easy.json", bom=False)
    result = run("daily", "--dir", str(folder), "--date", "2026-01-03")
    assert_bad_input(result)
    assert "checksum does not match" in result.stderr


@pytest.mark.parametrize(
    "journal",
    ["{not json", '["a list"]', '{"manifest.json": "../../elsewhere"}', '{"../x.json": ".x.json.1.partial"}'],
)
def test_a_journal_that_is_not_ours_changes_nothing(folder, journal):
    (folder / JOURNAL_NAME).write_text(journal)
    (folder / ".x.json.1.partial").write_text("{}")
    assert verify_directory(folder).problems == []
    assert not (folder / JOURNAL_NAME).exists() and not (folder.parent / "x.json").exists()


@pytest.mark.parametrize("planted", ["fifo", "symlink"])
def test_a_journal_that_is_no_file_of_ours_blocks_no_reader(folder, tmp_path, planted):
    journal = folder / JOURNAL_NAME
    if planted == "fifo":
        os.mkfifo(journal)
    else:
        (tmp_path / "elsewhere").write_text('{"manifest.json": ".manifest.json.x.partial"}')
        journal.symlink_to(tmp_path / "elsewhere")
    result = run("daily", "--dir", str(folder), "--date", "2026-01-02")
    if planted == "fifo":  # no journal of ours: dropped, and the folder read as it is
        assert result.exit_code == 0 and not journal.exists()
    else:  # followed by no reader: refused in one line, nothing renamed
        assert_bad_input(result)
        assert "interrupted" in result.stderr and (folder / MANIFEST_NAME).is_file()


def test_a_manifest_that_is_a_fifo_is_refused_without_waiting(folder):
    (folder / MANIFEST_NAME).unlink()
    os.mkfifo(folder / MANIFEST_NAME)
    result = run("daily", "--dir", str(folder))
    assert_bad_input(result)
    assert "manifest.json: not a regular file" in result.stderr


def test_an_export_into_a_missing_folder_is_one_line(store_path, tmp_path):
    result = run("export", str(store_path), "-o", str(tmp_path / "no" / "such" / "out.jsonl"))
    assert_bad_input(result)


def test_a_store_that_is_a_symlink_to_a_fifo_is_refused(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "s.db").symlink_to(tmp_path / "fifo")
    for arguments in (["stats", str(tmp_path / "s.db")], ["solve", "1", "--out", str(tmp_path / "s.db")]):
        assert_bad_input(run(*arguments))


def test_a_store_with_the_largest_deals_of_a_long_run_opens(tmp_path):
    path = tmp_path / "long.db"
    deals = [1, 2**63 - 1, 2**63, 10**19, 10**20]
    with Store.open_for_run(path, YUKON, "pysol") as store:
        for deal in deals:
            store.write(fake_record(deal, SOLVED, solution="S"))
    with Store.open_existing(path) as store:
        assert [record.deal for record in store.records()] == deals


# --- the schemas, read at run time by solver/catalogue/shape.py --------------------------------


def schema_nodes(node):
    """Every schema object within ``node`` (properties' and $defs' values, subschemas)."""
    if isinstance(node, dict):
        yield node
        for key, value in node.items():
            if key in ("properties", "$defs", "patternProperties", "dependentSchemas"):
                for child in value.values():
                    yield from schema_nodes(child)
            elif key not in ("enum", "const", "required", "dependentRequired", "examples", "default"):
                yield from schema_nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from schema_nodes(item)


@pytest.mark.parametrize("name", ["catalogue", "manifest"])
def test_every_keyword_of_the_schemas_is_one_shape_reads(name):
    keywords = {key for node in schema_nodes(shape.schema(name)) for key in node}
    assert keywords <= shape.KEYWORDS.keys() | shape.ANNOTATIONS


def manifest_mutations(manifest):
    record = manifest["files"][0]
    yield manifest
    yield manifest | {"format_version": 9}
    yield manifest | {"format_version": "2"}
    yield manifest | {"files": [record | {"sha256": "ABC"}]}
    yield manifest | {"files": [record | {"count": -1}]}
    yield manifest | {"files": [record | {"surprise": 1}]}
    yield manifest | {"files": [{key: value for key, value in record.items() if key != "tier"}]}
    yield manifest | {"files": [record | {"valid_with_foundation_return": [True, True]}]}
    yield manifest | {"schedule": [{"start": "2026-01-01", "method": "affine-fnv1a", "key": "k" * 201}]}


def catalogue_mutations(catalogue):
    entry = catalogue["entries"][0]
    yield catalogue
    yield catalogue | {"format_version": 2}
    yield catalogue | {"tier": "medium"}
    yield catalogue | {"difficulty_model": catalogue["difficulty_model"] | {"prior_sd": 0}}
    yield catalogue | {"difficulty_model": catalogue["difficulty_model"] | {"thresholds": [1]}}
    for broken in (
        entry | {"deal": 0},
        entry | {"score": 1.5},
        entry | {"ladder": [[1, 2, 3]]},
        entry | {"solution": "3>7:TS  5>F:AH"},
        {key: value for key, value in entry.items() if key != "ladder"},
        entry | {"difficulty_se": 0},
    ):
        yield catalogue | {"entries": [broken]}


def test_shape_agrees_with_a_json_schema_validator():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency")
    manifest = json.loads((shipped_directory() / MANIFEST_NAME).read_text())
    catalogue = json.loads((shipped_directory() / "yukon-easy.json").read_text())
    catalogue["entries"] = catalogue["entries"][:2]
    for name, documents in (
        ("manifest", manifest_mutations(manifest)),
        ("catalogue", catalogue_mutations(catalogue)),
    ):
        validator = jsonschema.Draft202012Validator(shape.schema(name))
        for document in documents:
            parts = [shape.shape_problem(document, name)]
            parts += [shape.entry_shape_problem(entry) for entry in document.get("entries", ())]
            parts += [shape.record_shape_problem(record) for record in document.get("files", ())]
            ours = parts == [None] * len(parts)
            assert ours == validator.is_valid(document), (name, shape.shape_problem(document, name), document)


def test_a_deal_in_two_tiers_of_one_rule_set_is_a_problem(folder):
    easy = read_catalogue(folder / "yukon-easy.json")
    save_catalogue(folder, easy | {"tier": "hard", "entries": easy["entries"][:1]})
    problems = verify_directory(folder).problems
    assert any(
        "yukon-hard.json: entry 1" in problem and "also in yukon-easy.json" in problem for problem in problems
    )
