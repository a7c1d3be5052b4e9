"""Fixtures shared by several test files: small stores made by real batch runs; the cold starts."""

import inspect
import logging
import sys
from pathlib import Path

import pytest
from cold_start_runs import ColdStarts
from stores import NODES, RUSSIAN, YUKON, YUKON_DEALS

from solver.game.ranges import parse_range
from solver.runs.batch import run_batch

# The study package (``study/``, not installed) is read from the checkout root, placed LAST on
# the import path: ``solver`` stays the installed package the command-line tests run, so the
# kernels are not compiled a second time for a second location.
sys.path.append(str(Path(__file__).resolve().parents[1]))


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


@pytest.fixture(scope="session", autouse=True)
def cold_starts(request, tmp_path_factory):
    """``test_cold_start``'s two cold compilations (``cold_start_runs``), started with the session
    when a test that uses them is among the tests, so that they run beside the in-process tests."""
    wanted = any(
        {"first_solve", "cold_starts"} & set(inspect.signature(item.obj).parameters)
        for item in request.session.items
        if item.path.name == "test_cold_start.py"
    )
    runs = ColdStarts(tmp_path_factory.mktemp("cold")) if wanted else None
    yield runs
    if runs is not None:
        runs.stop()


class CompileProgress(logging.Handler):
    """The solver's compile and waiting notices on the terminal as they happen (a compile inside
    a test would otherwise leave the terminal silent for its length)."""

    def __init__(self, reporter):
        super().__init__(logging.WARNING)
        self.reporter = reporter

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith(("compiling", "waiting")):
            self.reporter.ensure_newline()
            self.reporter.write(f"[{message}]\n", flush=True)


def pytest_configure(config):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        logging.getLogger("solver").addHandler(CompileProgress(reporter))
