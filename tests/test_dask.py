"""Runs on a Dask cluster (solving and playing) agree with local runs."""

import dataclasses
import tempfile

import pytest
from stores import NODES, YUKON, YUKON_DEALS, comparable

from solver.runs.batch import run_batch
from solver.runs.play import play_series, run_plays, run_ratings
from solver.runs.player_work import RatingSeries
from solver.store import Store


@pytest.mark.slow
def test_dask_local_cluster_agrees_and_leaves_no_scratch_files(yukon_store, tmp_path, monkeypatch):
    """Issue 53: the LocalCluster left its scratch folder and lock files in the temp folder."""
    pytest.importorskip("distributed")
    system_temp = tmp_path / "temp"
    system_temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(system_temp))  # the worker processes'
    monkeypatch.setattr(tempfile, "tempdir", str(system_temp))  # this process's
    path = tmp_path / "dask.db"
    report = run_batch(
        YUKON_DEALS, YUKON, "pysol", path, NODES, jobs=2, dask="local", chunk_size=1, progress=False
    )
    assert report.done == 7
    assert comparable(path) == comparable(yukon_store)
    assert list(system_temp.iterdir()) == []


@pytest.mark.slow
def test_plays_on_a_dask_local_cluster_agree(tmp_path):
    pytest.importorskip("distributed")
    series = play_series("greedy", {}, runs=2, seed=5)
    games = []
    for path, dask in ((tmp_path / "local.db", None), (tmp_path / "dask.db", "local")):
        report = run_plays(range(1, 5), YUKON, "pysol", path, series, jobs=2, progress=False, dask=dask)
        assert (report.done, report.errors) == (4, [])
        with Store.open_existing(path) as store:
            games.append(
                [(play.deal, play.run, play.game_seed, play.won, play.line) for play in store.plays()]
            )
    assert games[0] == games[1] and len(games[0]) == 8


@pytest.mark.slow
def test_ratings_on_a_dask_local_cluster_agree(tmp_path):
    """One cluster both solves the deals the store lacks and rates them."""
    pytest.importorskip("distributed")
    ratings = []
    for path, dask in ((tmp_path / "local.db", None), (tmp_path / "dask.db", "local")):
        report = run_ratings([2, 6, 10], YUKON, "pysol", path, RatingSeries(3, 1), NODES, jobs=2, dask=dask)
        assert (report.done, report.errors) == (3, [])
        with Store.open_existing(path) as store:
            ratings.append([dataclasses.replace(rating, rated_at="") for rating in store.ratings()])
    assert ratings[0] == ratings[1] and len(ratings[0]) == 3
