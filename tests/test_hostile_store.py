"""Hostile stores and catalogues (issue 53): a store is checked in its shape when it is opened
(schema, rows) and a catalogue wherever it is read (checksum, schema, replay); odd outputs,
full disks and malformed option values end in one line and exit 2, nothing lost."""

import sqlite3
import time
from pathlib import Path

import pytest
from stores import YUKON, fake_record
from test_cli import assert_bad_input, run

from solver.errors import YukonError
from solver.result import SOLVED
from solver.runs.claims import WAIT, ClaimedDeals
from solver.store import BUSY, CLAIMED, Store

LEGACY_STORE = "tests/data/legacy/store-v1.db"


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
        "a trigger 'wipe'",
    ),
    "a view": (["CREATE VIEW everything AS SELECT * FROM results"], "a view 'everything'"),
    "a table of its own": (["CREATE TABLE notes (text)"], "a table 'notes'"),
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
    assert "trigger 'wipe'" in result.stderr and row_count(store_path) == 5


def test_a_store_missing_a_column_is_refused_before_a_deal_is_claimed(store_path):
    edited(store_path, "ALTER TABLE results DROP COLUMN budget")
    result = run("solve", "6", "--out", str(store_path), "--max-nodes", "1000")
    assert_bad_input(result)
    assert "lacks its column budget" in result.stderr
    connection = sqlite3.connect(store_path)
    assert connection.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)


def test_a_legacy_store_still_opens_and_migrates(tmp_path):
    copy = tmp_path / "v1.db"
    copy.write_bytes(Path(LEGACY_STORE).read_bytes())
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


def test_a_run_waiting_for_another_says_what_it_waits_for(store_path):
    lines = []
    with Store.open_for_run(store_path, YUKON, "pysol") as store:
        assert store.claim(8, "other run", (SOLVED,)) == CLAIMED
        deals = ClaimedDeals(store, iter([8]), (SOLVED,), say=lines.append)
        assert next(deals) is WAIT and next(deals) is WAIT
    assert len(lines) == 1 and "waiting for 1 deal another run sharing" in lines[0]
