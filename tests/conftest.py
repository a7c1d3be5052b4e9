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
    a test would otherwise leave the terminal silent for its length): through pytest's terminal
    reporter, or in a pytest-xdist worker (which has none, and whose output is captured) on the
    worker's own standard error as it was before any capture, named after the worker."""

    def __init__(self, write):
        super().__init__(logging.WARNING)
        self.write = write

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith(("compiling", "waiting")):
            self.write(message)


def reporter_writer(reporter):
    def write(message: str) -> None:
        reporter.ensure_newline()
        reporter.write(f"[{message}]\n", flush=True)

    return write


def worker_writer(worker: str):
    terminal = os.fdopen(os.dup(2), "w", encoding="utf-8")

    def write(message: str) -> None:
        terminal.write(f"\n[{worker}: {message}]\n")
        terminal.flush()

    return write


@pytest.hookimpl(trylast=True)  # after the terminal reporter is registered
def pytest_configure(config):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is not None:
        logging.getLogger("solver").addHandler(CompileProgress(worker_writer(worker)))
    elif reporter is not None:
        logging.getLogger("solver").addHandler(CompileProgress(reporter_writer(reporter)))


def pytest_collection_modifyitems(items):
    """The slow system tests first (in their order), the others after them in theirs: under
    pytest-xdist the long ones then run beside the short ones from the start, rather than one of
    them ending the run alone on one worker; their fresh processes use the core a worker waiting
    for them leaves idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
