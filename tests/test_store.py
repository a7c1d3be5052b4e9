"""The results store: refusing other rule sets and damaged files, large deal numbers, export."""

import json
import sqlite3

import pytest
from stores import NODES, RUSSIAN, YUKON, YUKON_DEALS, copy_store, fake_record, snapshot, stored_rows

from solver.errors import YukonError
from solver.game.numbering import deal_board
from solver.game.ranges import parse_range
from solver.game.rules import Rules
from solver.runs.batch import run_batch
from solver.runs.summary import summarize
from solver.store import Store, export_jsonl


def test_store_of_other_rules_is_refused_untouched(russian_store, tmp_path):
    path = copy_store(russian_store, tmp_path)
    before = snapshot(tmp_path)
    for rules, numbering in ((YUKON, "pysol"), (Rules("russian", True), "pysol"), (RUSSIAN, "kpat")):
        with pytest.raises(YukonError) as error:
            run_batch(range(1, 6), rules, numbering, path, NODES, jobs=1, progress=False)
        assert "was made for russian, pysol numbering" in str(error.value)
        assert "\n" not in str(error.value)
        assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"this is not a database at all\n" * 100,
        lambda data: data[: len(data) // 2],
        lambda data: data[:4096] + b"\0" * (len(data) - 4096),
    ],
    ids=["garbage", "truncated", "zeroed"],
)
def test_corrupt_store_is_refused_untouched(russian_store, tmp_path, damage):
    path = tmp_path / "r.db"
    path.write_bytes(damage(russian_store.read_bytes()))
    before = snapshot(tmp_path)
    for attempt in (
        lambda: run_batch(range(1, 6), RUSSIAN, "pysol", path, NODES, jobs=1, progress=False),
        lambda: summarize(path),
        lambda: export_jsonl(path, tmp_path / "out.jsonl"),
    ):
        with pytest.raises(YukonError) as error:
            attempt()
        assert str(path) in str(error.value) and "\n" not in str(error.value)
        assert snapshot(tmp_path) == before


def test_other_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE t (x)")
    connection.commit()
    connection.close()
    with pytest.raises(YukonError, match="not a yukon-solver results store"):
        run_batch(range(1, 3), RUSSIAN, "pysol", path, NODES, jobs=1, progress=False)


def test_unwritable_store_place(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    with pytest.raises(YukonError, match="cannot create the directory"):
        run_batch(range(1, 3), RUSSIAN, "pysol", blocker / "runs" / "r.db", NODES, jobs=1, progress=False)
    with pytest.raises(YukonError, match="is a directory"):
        run_batch(range(1, 3), RUSSIAN, "pysol", tmp_path, NODES, jobs=1, progress=False)


def test_missing_store_for_reading(tmp_path):
    with pytest.raises(YukonError, match="no results store"):
        summarize(tmp_path / "absent.db")
    assert not (tmp_path / "absent.db").exists()


def test_deal_numbers_beyond_sqlite_integers_keep_their_order(tmp_path):
    path = tmp_path / "big.db"
    deals = [10**20, 2**63, 2**63 - 1, 5, 10**19 + 7]
    with Store.open_for_run(path, YUKON, "pysol") as store:
        for deal in deals:
            store.write(fake_record(deal, "unknown" if deal == 5 else "unsolvable"))
        store.write(fake_record(5, "solved", solution="1>F:AS"))
        assert store.statuses_in(2**63 - 1, 10**20) == {
            2**63 - 1: "unsolvable",
            2**63: "unsolvable",
            10**19 + 7: "unsolvable",
            10**20: "unsolvable",
        }
        assert list(store.pending(parse_range(f"4-6,{2**63 - 2}-{2**63 + 1}"), ("unsolvable",))) == [
            4,
            5,
            6,
            2**63 - 2,
            2**63 + 1,
        ]
    rows = stored_rows(path)  # in JSON: a deal above 2**53 - 1 is a decimal string
    assert [row["deal"] for row in rows] == [deal if deal < 2**53 else str(deal) for deal in sorted(deals)]
    assert rows[0]["status"] == "solved"
    assert summarize(path)["deals"] == {"total": 5, "first": 5, "last": str(10**20)}


def test_export_jsonl(yukon_store, tmp_path, capsys):
    out = tmp_path / "out" / "results.jsonl"
    out.parent.mkdir()
    assert export_jsonl(yukon_store, out) == 7
    lines = out.read_text().splitlines()
    objects = [json.loads(line) for line in lines]
    assert [item["deal"] for item in objects] == list(YUKON_DEALS)
    assert list(objects[0])[:9] == [
        "format",
        "format_version",
        "variant",
        "foundation_return",
        "numbering",
        "deal",
        "board",
        "status",
        "solution",
    ]
    for item, row in zip(objects, stored_rows(yukon_store)):
        assert item == row
        assert item["board"] == deal_board("yukon", item["deal"]).to_text()
    assert [path.name for path in out.parent.iterdir()] == ["results.jsonl"]
    assert export_jsonl(yukon_store, "-") == 7
    assert capsys.readouterr().out.splitlines() == lines
