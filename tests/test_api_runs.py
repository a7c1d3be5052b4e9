"""The API's one record type and its calls on ranges, stores and catalogues (what the
command line is built on): an Outcome is its Record with the enums, a range solved into a
store is summarised and exported as the commands print it, a catalogue grows from it."""

import json
import sqlite3

import pytest
from stores import copy_store, fake_record

import solver
from solver import Limits, Rules, Spent, Status
from solver.game.explain import line_sentences
from solver.game.ranges import DealRange
from solver.results.record import Record

RUSSIAN = Rules("russian")
RUSSIAN_WON, RUSSIAN_LOST = 33, 1  # as in test_api: won at once, proved lost before any move
NODES = Limits(max_nodes=300_000, time_limit=None)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A russian results store holding RUSSIAN_LOST and RUSSIAN_WON, and its run's report."""
    path = tmp_path_factory.mktemp("store") / "russian.db"
    report = solver.solve_range(f"{RUSSIAN_LOST},{RUSSIAN_WON}", RUSSIAN, path, limits=NODES, jobs=1)
    return path, report


def test_an_outcome_is_its_record_with_the_enums():
    outcome = solver.solve_deal(RUSSIAN_WON, RUSSIAN, limits=NODES)
    assert isinstance(outcome, solver.Record) and outcome.status is Status.SOLVED and outcome.budget is None
    record = outcome.record
    assert type(record) is Record and record.to_json() == outcome.to_json()
    assert record.to_row() == outcome.to_row() and record.solution == outcome.solution
    assert outcome.opening.to_text() == record.board and len(outcome.moves) == record.solution_length


def test_a_record_holds_enums_and_writes_their_strings():
    record = fake_record(12, "unknown", budget="nodes")
    assert record.status is Status.UNKNOWN and record.budget is Spent.NODES
    written = record.to_json()
    assert type(written["status"]) is str and type(written["budget"]) is str
    assert json.loads(json.dumps(written))["budget"] == "nodes"
    row = record.to_row()
    assert all(type(value) is not Status and type(value) is not Spent for value in row)
    assert Record.from_json(written) == record == Record.from_row(row)
    with pytest.raises(ValueError, match="status 'SOLVED'"):
        fake_record(12, "SOLVED")


def test_explain_steps_say_what_each_move_of_a_line_does():
    outcome = solver.solve_deal(RUSSIAN_WON, RUSSIAN, limits=NODES)
    steps = list(solver.explain_steps(outcome.opening, outcome.solution, RUSSIAN))
    said = [sentence for _move, sentence, _after in steps]
    assert said == line_sentences(outcome.opening, outcome.solution.split(), RUSSIAN)
    replayed = list(solver.replay_steps(outcome.opening, outcome.solution, RUSSIAN))
    assert [(move, after) for move, _sentence, after in steps] == replayed
    with pytest.raises(solver.IllegalMove, match="illegal move 1"):
        list(solver.explain_steps(outcome.opening, "1>7:KS", RUSSIAN))


def test_a_deal_range_is_read_as_the_command_line_reads_it():
    chosen = solver.deal_range("1-3,9")
    assert list(chosen) == [1, 2, 3, 9] and solver.deal_range(chosen) is chosen
    assert isinstance(chosen, DealRange)
    with pytest.raises(solver.YukonError):
        solver.deal_range("3-1")


def test_a_range_solved_into_a_store_is_summarised_and_exported(store, tmp_path):
    path, report = store
    assert report.counts == {"solved": 1, "unsolvable": 1} and report.exit_status == 0
    summary = solver.store_summary(path)
    assert summary["counts"] == {"solved": 1, "unsolvable": 1, "unknown": 0}
    assert "solved" in solver.summary_text(summary)
    out = tmp_path / "russian.jsonl"
    assert solver.export_results(path, out) == 2
    lines = out.read_text().splitlines()
    assert [json.loads(line)["status"] for line in lines] == ["unsolvable", "solved"]
    assert solver.verify_results(lines)["good"] == 1


def test_a_catalogue_grows_from_a_store_and_verifies_clean(store, tmp_path):
    path, _report = store
    told = []
    shortener = solver.build_catalogues(
        RUSSIAN,
        tmp_path,
        tiers=("easy",),
        count=1,
        store=path,
        ladder=tmp_path / "ladder.jsonl",
        limits=NODES,
        minimal_seconds=0,
        on_tier=told.append,
    )
    assert shortener.tried == 0
    (built,) = told
    assert (built.rule_set, built.tier, built.store) == ("russian", "easy", path)
    assert built.report.added == 1 and built.report.path == tmp_path / "russian-easy.json"
    checked = solver.verify_catalogues(tmp_path)
    assert (checked.files, checked.entries, checked.problems) == (1, 1, [])


def test_a_store_whose_budget_is_no_word_of_spent_is_refused_as_damaged(store, tmp_path):
    path, _report = store
    edited = copy_store(path, tmp_path)
    with sqlite3.connect(edited) as connection:
        connection.execute("UPDATE results SET budget = 'timeout' WHERE deal = ?", (RUSSIAN_LOST,))
    connection.close()
    with pytest.raises(solver.YukonError, match="holds 'timeout' in column budget"):
        solver.export_results(edited, tmp_path / "out.jsonl")


def test_a_minimal_solve_tells_its_bounds_and_keeps_the_last():
    told = []
    limits = Limits(max_nodes=50_000, time_limit=None, minimal=True)
    outcome = solver.solve_deal(
        RUSSIAN_WON, RUSSIAN, limits=limits, on_bound=lambda *bound: told.append(bound)
    )
    assert outcome.status is Status.SOLVED and told
    assert all(bound < length for bound, length in told)
    assert outcome.lower_bound is not None and told[-1][0] <= outcome.lower_bound <= outcome.solution_length
    assert "lower_bound" not in outcome.to_json()  # the record's fields only, as a store keeps them
