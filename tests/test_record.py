"""The result record: built from a solver result, converted to JSON and store rows and back,
and the one source of the published field names."""

import dataclasses
import json
import re
import sqlite3

import pytest
from stores import NODES, RUSSIAN, YUKON, fake_record

import solver
from solver.errors import YukonError
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.record import (
    FIELD_NAMES,
    OPTIONAL_NAMES,
    REPLAY_FIELDS,
    Record,
    decode_deal,
    encode_deal,
)
from solver.results.result import Result
from solver.results.verify import read_record
from solver.store import COLUMNS, Store
from solver.store.schema import SCHEMA_VERSION
from solver.version import verdict_source

# The names 0.1.0 published (store columns and JSON lines, in export order): they must stay.
PUBLISHED = (
    "variant",
    "foundation_return",
    "numbering",
    "deal",
    "board",
    "status",
    "solution",
    "solution_length",
    "proven_minimal",
    "nodes",
    "seconds",
    "peak_table_entries",
    "budget",
    "reason",
    "time_limit",
    "max_nodes",
    "solver_version",
    "finished_at",
)
# Names published since, optional: left out of a JSON object when None.
ADDED = ("loss_reason", "solver_source")


def solved_result() -> Result:
    return Result("solved", "1>F:AS 2>F:2S", 120, 0.25, 64, proven_minimal=True)


def test_published_names_keep_their_order():
    assert FIELD_NAMES == PUBLISHED + ADDED and OPTIONAL_NAMES == ADDED
    assert COLUMNS == FIELD_NAMES
    assert PUBLISHED[:7] == REPLAY_FIELDS


def test_from_result_carries_rules_numbering_deal_limits_and_version():
    board_text = deal_board("russian", 16).to_text()
    record = Record.from_result(
        solved_result(), rules=RUSSIAN, numbering="kpat", deal=16, board_text=board_text, limits=NODES
    )
    assert (record.variant, record.foundation_return, record.numbering, record.deal) == (
        "russian",
        False,
        "kpat",
        16,
    )
    assert record.rules == RUSSIAN
    assert (record.board, record.status, record.solution) == (board_text, "solved", "1>F:AS 2>F:2S")
    assert (record.solution_length, record.proven_minimal, record.nodes) == (2, True, 120)
    assert (record.seconds, record.peak_table_entries, record.budget, record.reason) == (0.25, 64, None, None)
    assert (record.time_limit, record.max_nodes) == (None, 300_000)
    assert record.solver_version == solver.__version__
    assert record.finished_at.endswith("+00:00")


def test_a_failure_is_an_unknown_record_with_a_short_reason():
    record = Record.failure(
        "x" * 2000, rules=Rules("yukon", True), numbering="pysol", deal=3, board_text="", limits=Limits()
    )
    assert (record.status, record.solution, record.solution_length, record.nodes) == ("unknown", "", 0, 0)
    assert (record.budget, record.peak_table_entries) == (None, None)
    assert record.reason == "x" * 500
    assert record.foundation_return is True and record.time_limit == 60.0


def test_records_are_immutable():
    record = fake_record(1, "solved", solution="1>F:AS")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.status = "unknown"


def test_a_record_refuses_an_unknown_status():
    with pytest.raises(ValueError, match="status 'won'"):
        fake_record(1, "won")


@pytest.mark.parametrize("loss_reason", [None, "AS can never go home"])
@pytest.mark.parametrize("deal", [None, 7, 2**63 - 1, 2**63, 10**20])
def test_json_and_row_round_trips(deal, loss_reason):
    record = fake_record(1, "solved", solution="1>F:AS", budget=None)
    record = dataclasses.replace(record, deal=deal, loss_reason=loss_reason)
    data = json.loads(json.dumps(record.to_json()))
    assert list(data) == ["format", "format_version"] + [
        name for name in FIELD_NAMES if getattr(record, name) is not None or name not in ADDED
    ]
    assert (data["format"], data["format_version"]) == ("yukon-record", 1)
    assert Record.from_json(data) == record
    row = record.to_row()
    assert len(row) == len(FIELD_NAMES)
    assert row[FIELD_NAMES.index("foundation_return")] == 0
    assert row[FIELD_NAMES.index("proven_minimal")] == 0
    assert Record.from_row(row) == record


def test_large_deals_are_stored_as_padded_text():
    assert encode_deal(2**63 - 1) == 2**63 - 1
    assert encode_deal(2**63) == "009223372036854775808"
    assert encode_deal(10**20) == "100000000000000000000"
    assert decode_deal(encode_deal(10**20)) == 10**20
    assert encode_deal(None) is None and decode_deal(None) is None


def test_verify_requires_exactly_the_replayed_fields():
    record = fake_record(1, "unknown", budget="nodes").to_json()
    replayed_only = {name: record[name] for name in REPLAY_FIELDS}
    assert read_record(json.dumps(replayed_only), "here") == replayed_only
    for name in REPLAY_FIELDS:
        partial = {key: value for key, value in replayed_only.items() if key != name}
        with pytest.raises(YukonError, match=f"here: missing field {name}"):
            read_record(json.dumps(partial), "here")


def test_a_record_names_the_source_its_verdict_came_from(tmp_path):
    """Every record a solve makes carries the digest of the rules, search and kernel code, in
    its JSON and its store row; a store of release 0.2.0 (schema 3, no such column) is
    migrated on opening for a run, its rows kept, their source unknown (NULL)."""
    made = Record.from_result(
        solved_result(), rules=YUKON, numbering="pysol", deal=12, board_text="", limits=Limits()
    )
    assert made.solver_source == verdict_source() and re.fullmatch("[0-9a-f]{16}", made.solver_source)
    assert Record.from_json(made.to_json()).solver_source == made.solver_source
    path = tmp_path / "r.db"
    with Store.open_for_run(path, YUKON, "pysol") as store:
        store.write(made)
        store.write(fake_record(13, "unknown", budget="nodes"))
    connection = sqlite3.connect(path)  # the store as release 0.2.0 made it
    with connection:
        connection.execute("ALTER TABLE results DROP COLUMN solver_source")
        connection.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
    connection.close()
    with Store.open_for_run(path, YUKON, "pysol") as store:
        assert store.meta["schema"] == SCHEMA_VERSION
        assert [(record.deal, record.solver_source) for record in store.records()] == [(12, None), (13, None)]
