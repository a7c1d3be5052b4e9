"""Shared by the tests of runs and stores: rule sets, budgets, store helpers, made-up records."""

import os
import signal
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from solver.game.ranges import parse_range
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.record import Record
from solver.results.result import UNKNOWN, Result, Spent
from solver.store import Store

YUKON = Rules("yukon")
RUSSIAN = Rules("russian")
# A node budget, not a clock, so every run gives the same verdicts. (Which verdicts depends
# on the engine of the day: deal 10 has been unsolvable and deal 3 unknown in 300,000 nodes.)
NODES = Limits(max_nodes=300_000, time_limit=None)
YUKON_DEALS = parse_range("2-3,6,8,10-11,13")


def comparable(path):
    with Store.open_existing(path) as store:
        return [
            (record.deal, record.status, record.solution, record.nodes, record.budget, record.board)
            for record in store.records()
        ]


def stored_rows(path):
    """Every stored record as its JSON object."""
    with Store.open_existing(path) as store:
        return [record.to_json() for record in store.records()]


def snapshot(directory):
    return {
        path.name: (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(directory.iterdir())
        if path.is_file()
    }


def copy_store(source, directory):
    target = directory / "r.db"
    target.write_bytes(source.read_bytes())
    return target


def fake_record(deal, status, seconds=0.1, nodes=1100, solution="", budget=None, rules=YUKON) -> Record:
    """A made-up record (no solver run) of a yukon pysol deal."""
    return Record(
        variant=rules.variant,
        foundation_return=rules.foundation_return,
        numbering="pysol",
        deal=deal,
        board="",
        status=status,
        solution=solution,
        solution_length=len(solution.split()),
        proven_minimal=False,
        nodes=nodes,
        seconds=seconds,
        peak_table_entries=None,
        budget=budget,
        reason=None,
        time_limit=10.0,
        max_nodes=None,
        solver_version="0.1.0",
        finished_at="2026-01-01T00:00:00+00:00",
    )


@dataclass(frozen=True)
class Faulty:
    """A worker task (sent to the workers, so a module-level class) that raises on deal
    ``raises``, kills its worker process on deal ``dies`` and is ``task`` on the others."""

    task: Callable
    raises: int
    dies: int

    def __call__(self, deal, rules, numbering, settings):
        if deal == self.raises:
            raise ValueError(f"deliberate fault on deal {deal}")
        if deal == self.dies:
            os.kill(os.getpid(), signal.SIGKILL)
        return self.task(deal, rules, numbering, settings)


@dataclass(frozen=True)
class LoggedUnknown:
    """A worker task (module-level, sent to the workers) that notes each deal it is given in
    ``folder`` (one file a solve), waits until ``runs`` runs have each begun solving (so
    every result is written after all of them started), and answers unknown."""

    folder: str
    runs: int

    def __call__(self, deal, rules, numbering, limits):
        folder = Path(self.folder)
        (folder / f"run-{os.getppid()}").touch()
        (folder / f"deal-{deal}-{uuid.uuid4().hex}").touch()
        while len(list(folder.glob("run-*"))) < self.runs:
            time.sleep(0.01)  # waiting for the other runs, not timing them
        unknown = Result(
            UNKNOWN, "", nodes=limits.max_nodes, seconds=0.0, peak_table_entries=0, budget=Spent.NODES
        )
        return Record.from_result(
            unknown, rules=rules, numbering=numbering, deal=deal, board_text="", limits=limits
        )
