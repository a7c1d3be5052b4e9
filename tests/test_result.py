"""Budgets and verdict words: Limits refuses what no search can use, the words are stored and
exported as the same strings as before they were enums, tiers come from one tuple."""

import json
import sqlite3
from contextlib import closing

import pytest

from solver.errors import YukonError
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.difficulty import TIERS, tier_of
from solver.results.limits import Limits, parse_memory
from solver.results.record import Record
from solver.results.result import LARGEST_INTEGER, TIER_NAMES, UNKNOWN, Spent
from solver.search.solve import solve_position
from solver.store import Store

INF, NAN = float("inf"), float("nan")


@pytest.mark.parametrize(
    ("budgets", "named"),
    [
        ({"max_nodes": 0}, "max_nodes 0"),
        ({"max_nodes": -5}, "max_nodes -5"),
        ({"max_nodes": LARGEST_INTEGER + 1}, f"max_nodes {LARGEST_INTEGER + 1}"),
        ({"time_limit": 0.0}, "time_limit 0.0"),
        ({"time_limit": -1.0}, "time_limit -1.0"),
        ({"time_limit": NAN}, "time_limit nan"),
        ({"time_limit": -INF}, "time_limit -inf"),
        ({"memory_bytes": 1}, "memory_bytes 1 "),
        ({"memory_bytes": (1 << 40) + 1}, f"memory_bytes {(1 << 40) + 1} "),
    ],
)
def test_limits_refuse_a_budget_no_search_can_use(budgets, named):
    with pytest.raises(YukonError) as refused:
        Limits(**budgets)
    assert str(refused.value).startswith(named)


@pytest.mark.parametrize(
    "budgets",
    [
        {"max_nodes": None, "time_limit": None},
        {"max_nodes": 1, "time_limit": INF},
        {"max_nodes": LARGEST_INTEGER, "time_limit": 1e-9},
        {"memory_bytes": parse_memory("1M")},
        {"memory_bytes": parse_memory("1T")},
    ],
)
def test_limits_keep_every_usable_budget(budgets):
    assert {name: getattr(Limits(**budgets), name) for name in budgets} == budgets


def test_the_words_of_a_real_verdict_are_stored_and_exported_as_before(tmp_path):
    """Status and Spent members are the published words (stores and results files of
    release 0.1.0 hold them): TEXT in the store, strings in JSON."""
    board, rules, limits = deal_board("yukon", 12), Rules("yukon"), Limits(max_nodes=1, time_limit=None)
    result = solve_position(board, rules, limits)
    assert (result.status, result.budget) == (UNKNOWN, Spent.NODES)
    record = Record.from_result(
        result, rules=rules, numbering="pysol", deal=12, board_text=board.to_text(), limits=limits
    )
    assert '"status": "unknown"' in json.dumps(record.to_json())
    assert '"budget": "nodes"' in json.dumps(record.to_json())
    path = tmp_path / "r.db"
    with Store.open_for_run(path, rules, "pysol") as store:
        store.write(record)
    with closing(sqlite3.connect(path)) as connection:
        row = connection.execute(
            "SELECT status, typeof(status), budget, typeof(budget) FROM results WHERE deal = 12"
        ).fetchone()
    assert row == ("unknown", "text", "nodes", "text")


@pytest.mark.parametrize("variant", sorted(TIERS))
def test_a_tier_is_the_first_whose_threshold_the_rate_does_not_exceed(variant):
    easy, normal, hard = TIER_NAMES
    easy_most, normal_most = TIERS[variant]
    rates = (0.0, easy_most, easy_most + 1e-9, normal_most, normal_most + 1e-9, 1.0)
    assert [tier_of(rate, variant) for rate in rates] == [easy, easy, normal, normal, hard, hard]
