"""The player's store tables: schema 2, the migration of a release 0.1.0 store, plays that
resume after SIGKILL without duplicates, ratings beside verdicts."""

import dataclasses
import io
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from stores import RUSSIAN, YUKON, Faulty, comparable

from solver.errors import YukonError
from solver.game.notation import final_position
from solver.game.numbering import deal_board
from solver.game.reference import IllegalMove, is_won
from solver.game.rules import Rules
from solver.player.play import play_deal
from solver.results.limits import Limits
from solver.runs.play import play_series, run_plays, run_ratings
from solver.runs.player_work import RatingSeries, check_line, play_games
from solver.runs.summary import summarize
from solver.store import Store, schema
from solver.store.player_rows import Play, Rating
from solver.store.schema import SCHEMA_VERSION

LEGACY_STORE = Path(__file__).parent / "data" / "legacy" / "store-v1.db"
# Polling deadline for the subprocess test; only a fail-safe, never part of a verdict.
DEADLINE_SECONDS = 120
GREEDY_TWICE = play_series("greedy", {}, runs=2, seed=5)


@pytest.fixture
def legacy_store(tmp_path):
    target = tmp_path / "store-v1.db"
    shutil.copyfile(LEGACY_STORE, target)
    return target


def schema_of(path) -> tuple[str, set[str]]:
    connection = sqlite3.connect(path)
    try:
        (version,) = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        tables = {
            name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    finally:
        connection.close()
    return version, tables


# ---- schema and migration ---------------------------------------------------------------------


def test_a_new_store_has_this_schema_and_the_player_tables(tmp_path):
    path = tmp_path / "new.db"
    Store.open_for_run(path, YUKON, "pysol").close()
    assert schema_of(path) == (SCHEMA_VERSION, {"meta", "results", "plays", "ratings", "claims"})


def test_the_player_tables_columns_are_the_fields_of_their_rows(tmp_path):
    path = tmp_path / "new.db"
    Store.open_for_run(path, YUKON, "pysol").close()
    connection = sqlite3.connect(path)
    try:
        for table, kind in (("plays", Play), ("ratings", Rating)):
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            assert columns == [item.name for item in dataclasses.fields(kind)]
    finally:
        connection.close()


def test_player_rows_read_back_as_written(tmp_path):
    """Booleans come back as booleans and a deal beyond SQLite's integers as its number."""
    deal = 10**20
    play = Play("yukon", False, "pysol", deal, "greedy", "{}", 5, 0, 99, True, 1, "1>F:AH", "0.1.0", "now")
    rating = Rating("yukon", False, "pysol", deal, 4, 2, 1, None, "unknown", None, 7, "0.1.0", "now")
    with Store.open_for_run(tmp_path / "p.db", YUKON, "pysol") as store:
        store.write_plays([play])
        store.write_rating(rating)
        assert store.plays() == [play] and store.ratings() == [rating]
        assert store.plays()[0].won is True and store.ratings()[0].foundation_return is False
        with pytest.raises(ValueError, match="not of this store's rule set"):
            store.write_plays([dataclasses.replace(play, variant="russian")])


def test_a_release_0_1_0_store_is_migrated_without_losing_a_row(legacy_store):
    before = comparable(legacy_store)
    assert schema_of(legacy_store) == ("1", {"meta", "results"})
    with Store.open_existing(legacy_store) as store:  # reading does not migrate
        assert store.plays() == [] and store.ratings() == [] and store.policy_figures() == []
    assert schema_of(legacy_store)[0] == "1"
    Store.open_for_run(legacy_store, YUKON, "pysol").close()
    assert schema_of(legacy_store) == (SCHEMA_VERSION, {"meta", "results", "plays", "ratings", "claims"})
    assert comparable(legacy_store) == before and len(before) == 30
    with Store.open_for_run(legacy_store, YUKON, "pysol") as store:  # a migrated store keeps opening
        assert store.meta["schema"] == SCHEMA_VERSION
    assert summarize(legacy_store)["counts"] == {"solved": 27, "unsolvable": 1, "unknown": 2}


def test_the_migration_is_one_transaction(legacy_store, monkeypatch):
    """A migration failing at its last statement leaves the store exactly as it was."""
    run_script = schema.run_script

    def failing_at_the_end(connection, script):
        run_script(connection, script + "CREATE TABLE results (deal);")

    monkeypatch.setattr(schema, "run_script", failing_at_the_end)
    before = legacy_store.read_bytes()
    with pytest.raises(YukonError, match="table results already exists"):
        Store.open_for_run(legacy_store, YUKON, "pysol")
    assert schema_of(legacy_store) == ("1", {"meta", "results"})
    assert comparable(legacy_store) == comparable(LEGACY_STORE) and legacy_store.read_bytes() == before


def test_a_store_of_another_rule_set_is_refused_before_playing(legacy_store):
    with pytest.raises(YukonError, match="was made for yukon"):
        run_plays(range(1, 3), RUSSIAN, "pysol", legacy_store, GREEDY_TWICE, jobs=1, progress=False)
    assert schema_of(legacy_store)[0] == "1"


# ---- plays ------------------------------------------------------------------------------------


def test_plays_are_stored_replayable_and_not_repeated(tmp_path):
    path = tmp_path / "p.db"
    report = run_plays(range(1, 5), YUKON, "pysol", path, GREEDY_TWICE, jobs=2, progress=False)
    assert (report.to_do, report.done, report.errors) == (4, 4, [])
    with Store.open_existing(path) as store:
        plays = store.plays()
    assert [(row.deal, row.run) for row in plays] == [(deal, run) for deal in range(1, 5) for run in (0, 1)]
    for row in plays:
        final = final_position(deal_board("yukon", row.deal), row.line.split(), YUKON)
        assert is_won(final) == row.won and row.moves == len(row.line.split())
        assert (row.policy, row.settings, row.seed) == ("greedy", '{"max_moves": 1000}', 5)
    again = run_plays(range(1, 7), YUKON, "pysol", path, GREEDY_TWICE, jobs=1, progress=False)
    assert (again.to_do, again.done) == (2, 2)
    with Store.open_existing(path) as store:
        assert store.plays()[: len(plays)] == plays and len(store.plays()) == 12


def test_a_failing_deal_is_reported_not_stored_and_the_run_goes_on(tmp_path):
    path = tmp_path / "p.db"
    stream = io.StringIO()
    report = run_plays(
        range(1, 6),
        YUKON,
        "pysol",
        path,
        GREEDY_TWICE,
        jobs=2,
        stream=stream,
        play_one=Faulty(play_games, raises=2, dies=3),
    )
    assert (report.to_do, report.done, report.exit_status) == (5, 3, 1)
    errors = sorted(report.errors)
    assert errors[0].startswith("deal 2: ValueError at stores.py:")
    assert errors[0].endswith(": deliberate fault on deal 2")
    assert errors[1] == "deal 3: worker process died while solving (killed by SIGKILL)"
    assert f"error on {errors[0]}" in stream.getvalue()
    with Store.open_existing(path) as store:
        assert sorted({play.deal for play in store.plays()}) == [1, 4, 5]
    again = run_plays(range(1, 6), YUKON, "pysol", path, GREEDY_TWICE, jobs=1, progress=False)
    assert (again.to_do, again.done, again.errors) == (2, 2, [])


def test_a_game_is_stored_only_if_its_line_replays_as_recorded():
    game = play_deal(2, YUKON, "greedy", seed=1)
    check_line(game, YUKON)
    with pytest.raises(RuntimeError, match="does not replay as recorded"):
        check_line(dataclasses.replace(game, won=not game.won), YUKON)
    truncated = dataclasses.replace(game, line=" ".join(game.line.split()[1:]))
    with pytest.raises(IllegalMove):
        check_line(truncated, YUKON)


BLOCKING_SCRIPT = """
import os
import sys
import time

from solver.runs.play import play_series, run_plays
from solver.runs.player_work import play_games
from solver.game.rules import Rules

LAST_FINISHING_DEAL = 6


def blocking_play(deal, rules, numbering, series):
    # Deals after LAST_FINISHING_DEAL never finish while the run lives.
    if deal <= LAST_FINISHING_DEAL:
        return play_games(deal, rules, numbering, series)
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.05)
    os._exit(0)


if __name__ == "__main__":
    series = play_series("greedy", {}, runs=2, seed=5)
    run_plays(range(1, 13), Rules("russian"), "pysol", sys.argv[1], series, jobs=2, play_one=blocking_play)
"""


def play_rows(path) -> int:
    if not path.exists():
        return 0
    connection = sqlite3.connect(path, timeout=10)
    try:
        return connection.execute("SELECT COUNT(*) FROM plays").fetchone()[0]
    except sqlite3.OperationalError:  # tables not made yet
        return 0
    finally:
        connection.close()


def test_a_killed_play_run_resumes_without_duplicates(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(BLOCKING_SCRIPT))
    path = tmp_path / "p.db"
    process = subprocess.Popen(
        [sys.executable, str(script), str(path)], cwd=tmp_path, stderr=subprocess.PIPE, text=True
    )
    end = time.monotonic() + DEADLINE_SECONDS
    while play_rows(path) < 12 and time.monotonic() < end and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    _, stderr = process.communicate(timeout=DEADLINE_SECONDS)
    assert process.returncode == -signal.SIGKILL, stderr
    with Store.open_existing(path) as store:
        killed = store.plays()
    assert sorted({row.deal for row in killed}) == list(range(1, 7)) and len(killed) == 12

    report = run_plays(range(1, 13), RUSSIAN, "pysol", path, GREEDY_TWICE, jobs=2, progress=False)
    assert (report.to_do, report.done) == (6, 6)
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    keys = connection.execute("SELECT deal, policy, settings, seed, run FROM plays").fetchall()
    connection.close()
    assert len(keys) == len(set(keys)) == 24
    with Store.open_existing(path) as store:
        assert store.plays()[:12] == killed


# ---- ratings ----------------------------------------------------------------------------------


def test_ratings_sit_beside_verdicts_and_reproduce(tmp_path):
    nodes = Limits(max_nodes=300_000, time_limit=None)
    series = RatingSeries(runs=4, seed=2)
    paths = [tmp_path / "a.db", tmp_path / "b.db"]
    for path in paths:
        report = run_ratings([2, 6, 10, 11], YUKON, "pysol", path, series, nodes, jobs=1, progress=False)
        assert (report.done, report.errors) == (4, [])
    stored = []
    for path in paths:
        with Store.open_existing(path) as store:
            verdicts = {record.deal: record for record in store.records()}
            ratings = store.ratings()
        stored.append([dataclasses.replace(row, rated_at="") for row in ratings])
        for row in ratings:
            record = verdicts[row.deal]
            assert row.status == record.status and (row.tier is not None) == (record.status == "solved")
            assert 0 <= row.failures <= 4 and row.runs == 4
    assert stored[0] == stored[1]
    again = run_ratings([2, 6, 10, 11], YUKON, "pysol", paths[0], series, nodes, jobs=1, progress=False)
    assert again.to_do == 0


def test_an_expert_series_is_keyed_on_the_every_move_its_rule_set_plays():
    """A series names what the expert played (Milligan's plans in doubt, Yukon's always on), not
    the null default whose meaning a later release may change; without a rule set it keeps null."""

    def every_move(series):
        return dict(series.settings)["every_move"]

    assert every_move(play_series("expert", {}, runs=1, seed=0, rules=Rules("milligan"))) == "doubt"
    assert every_move(play_series("expert", {}, runs=1, seed=0, rules=Rules("yukon"))) is True
    assert (
        every_move(play_series("expert", {"every_move": False}, runs=1, seed=0, rules=Rules("milligan")))
        is False
    )
    assert every_move(play_series("expert", {}, runs=1, seed=0)) is None
