"""The format keys: stamped first on every document, accepted when absent (release 0.1.0),
refused naming another format or a newer version, by every reader of the project's JSON."""

import json

import pytest
from stores import fake_record

from solver.common.formats import BOARD, FORMATS, RECORD, Format, check_format, stamped, unstamped
from solver.errors import YukonError
from solver.game.board import read_board
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.record import Record
from solver.results.verify import read_record


def test_the_keys_come_first_and_the_rest_is_unchanged():
    document = {"status": "solved", "deal": 3}
    result = stamped(document, Format("yukon-thing", 2))
    assert list(result.items()) == [("format", "yukon-thing"), ("format_version", 2), *document.items()]
    assert unstamped(result) == document


def test_every_format_has_its_own_name_and_schema_file():
    assert len({kind.name for kind in FORMATS}) == len({kind.schema_name for kind in FORMATS}) == len(FORMATS)
    assert RECORD.schema_name == "record.schema.json"


@pytest.mark.parametrize("document", [{}, {"format": "yukon-record"}, {"format_version": 1}])
def test_an_unversioned_or_current_document_is_accepted(document):
    check_format(document | {"deal": 1}, RECORD, "here")


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (
            {"format": "yukon-hint", "format_version": 1},
            "here: a 'yukon-hint' document, not a yukon-record one",
        ),
        ({"format": "yukon-record", "format_version": 2}, "here: yukon-record version 2; this release reads"),
        ({"format": "yukon-record", "format_version": "1"}, "here: yukon-record version '1'"),
        ({"format": "yukon-record", "format_version": 0}, "here: yukon-record version 0"),
    ],
)
def test_another_format_or_a_newer_version_is_refused(document, message):
    with pytest.raises(YukonError, match=f"^{message}"):
        check_format(document, RECORD, "here")


def test_a_record_reads_back_with_or_without_the_keys():
    record = fake_record(1, "solved", solution="1>F:AS", budget=None)
    data = json.loads(json.dumps(record.to_json()))
    assert Record.from_json(data) == Record.from_json(unstamped(data)) == record
    with pytest.raises(YukonError, match="version 9"):
        Record.from_json(data | {"format_version": 9})


def test_verify_counts_a_line_of_another_format_as_unreadable():
    record = fake_record(1, "unknown", budget="nodes").to_json()
    assert read_record(json.dumps(record), "here") == record
    assert read_record(json.dumps(unstamped(record)), "here") == unstamped(record)
    with pytest.raises(YukonError, match="here: a 'yukon-stats' document"):
        read_record(json.dumps(record | {"format": "yukon-stats"}), "here")


def test_a_json_board_reads_with_or_without_its_keys_and_refuses_another_format():
    board = deal_board("yukon", 12)
    bare = unstamped(board.to_json())
    assert board.to_json() == stamped(bare, BOARD)
    for document in (bare, board.to_json()):
        assert read_board(json.dumps(document), Rules("yukon")) == board
    with pytest.raises(YukonError, match="board JSON: a 'yukon-record' document"):
        read_board(json.dumps(stamped(bare, RECORD)), Rules("yukon"))
