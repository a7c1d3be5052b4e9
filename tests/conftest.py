"""Fixtures shared by several test files: small stores made by real batch runs; the cold starts.
Each is made once in a test run, whatever the number of pytest-xdist workers (``shared.made_once``)."""

import logging
import os
import sys
from pathlib import Path

import pytest
from cold_start_runs import ColdStarts, cold_start_results, run_cold_starts
from shared import made_once
from stores import NODES, RUSSIAN, YUKON, YUKON_DEALS

from solver.game.ranges import parse_range
from solver.runs.batch import run_batch

# The study package (``study/``, not installed) is read from the checkout root, placed LAST on
# the import path: ``solver`` stays the installed package the command-line tests run, so the
# kernels are not compiled a second time for a second location.
sys.path.append(str(Path(__file__).resolve().parents[1]))


def batch_store(name: str, deals, rules):
    """``make`` for ``made_once``: the store ``name`` of ``deals`` solved by a batch run of two workers."""

    def make(folder: Path) -> None:
        report = run_batch(deals, rules, "pysol", folder / name, NODES, jobs=2, progress=False)
        assert report.done == deals.count and not report.interrupted

    return make


@pytest.fixture(scope="session")
def yukon_store(tmp_path_factory):
    return made_once(tmp_path_factory, "yukon", batch_store("yukon.db", YUKON_DEALS, YUKON)) / "yukon.db"


@pytest.fixture(scope="session")
def russian_store(tmp_path_factory):
    deals = parse_range("1-40")
    return made_once(tmp_path_factory, "russian", batch_store("russian.db", deals, RUSSIAN)) / "russian.db"


@pytest.fixture(scope="session")
def cold_starts(tmp_path_factory) -> ColdStarts:
    """``test_cold_start``'s cold compilation (``cold_start_runs``), once in a test run: the worker
    of the first test that needs it runs it, beside the other worker's tests."""
    return cold_start_results(made_once(tmp_path_factory, "cold", run_cold_starts))


class CompileProgress(logging.Handler):
    """The solver's compile and waiting notices on the terminal as they happen (a compile inside
    a test would otherwise leave the terminal silent for its length): written to standard error
    as it was before pytest captured it (a test's output, the terminal reporter's too, is
    captured while it runs; a pytest-xdist worker's is never shown), named after the worker."""

    def __init__(self, worker: str | None):
        super().__init__(logging.WARNING)
        self.terminal = os.fdopen(os.dup(2), "w", encoding="utf-8")
        self.prefix = f"{worker}: " if worker else ""

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith(("compiling", "waiting")):
            self.terminal.write(f"\n[{self.prefix}{message}]\n")
            self.terminal.flush()


def pytest_configure(config):
    logging.getLogger("solver").addHandler(CompileProgress(os.environ.get("PYTEST_XDIST_WORKER")))


def pytest_collection_modifyitems(items):
    """The slow system tests first (in their order), the others after them in theirs: under
    pytest-xdist the long ones then run beside the short ones from the start, rather than one of
    them ending the run alone on one worker; their fresh processes use the core a worker waiting
    for them leaves idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
