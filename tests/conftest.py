"""Fixtures shared by several test files: small stores made by real batch runs."""

import pytest
from stores import NODES, RUSSIAN, YUKON, YUKON_DEALS

from solver.ranges import parse_range
from solver.runs.batch import run_batch


@pytest.fixture(scope="session")
def yukon_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("yukon") / "yukon.db"
    report = run_batch(YUKON_DEALS, YUKON, "pysol", path, NODES, jobs=2, progress=False)
    assert report.done == 7 and not report.interrupted
    return path


@pytest.fixture(scope="session")
def russian_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("russian") / "russian.db"
    report = run_batch(parse_range("1-40"), RUSSIAN, "pysol", path, NODES, jobs=2, progress=False)
    assert report.done == 40 and not report.interrupted
    return path
