"""Runs on a Dask cluster agree with local runs."""

import pytest
from stores import NODES, YUKON, YUKON_DEALS, comparable

from solver.runs.batch import run_batch


def test_dask_local_cluster_agrees(yukon_store, tmp_path):
    pytest.importorskip("distributed")
    path = tmp_path / "dask.db"
    report = run_batch(
        YUKON_DEALS, YUKON, "pysol", path, NODES, jobs=2, dask="local", chunk_size=1, progress=False
    )
    assert report.done == 7
    assert comparable(path) == comparable(yukon_store)
