"""Solving one deal of a run into a record; this is what workers run.

A fault while solving never escapes: an exception becomes an unknown record whose
``reason`` names it (type, file and line, first line of the message).
"""

import os
import time
import traceback

from solver.errors import first_line
from solver.numbering import deal_board
from solver.record import Record
from solver.result import Limits
from solver.rules import Rules
from solver.solve import solve_position


def solve_deal(deal: int, rules: Rules, numbering: str, limits: Limits) -> Record:
    """Solve one deal and return its record; a solver exception becomes an unknown record."""
    started = time.perf_counter()
    board_text = ""
    try:
        board = deal_board(rules.variant, deal, numbering)
        board_text = board.to_text()
        result = solve_position(board, rules, limits)
    except Exception as error:  # any solver fault is recorded, not fatal
        return failure_record(
            deal, rules, numbering, limits, exception_reason(error), time.perf_counter() - started, board_text
        )
    return Record.from_result(
        result, rules=rules, numbering=numbering, deal=deal, board_text=board_text, limits=limits
    )


def solve_guarded(solve_one, deal: int, rules: Rules, numbering: str, limits: Limits) -> Record:
    """``solve_one``'s record, or an unknown record naming the exception it raised."""
    started = time.perf_counter()
    try:
        return solve_one(deal, rules, numbering, limits)
    except Exception as error:  # a fault on one deal is recorded, not fatal
        return failure_record(
            deal, rules, numbering, limits, exception_reason(error), time.perf_counter() - started
        )


def solve_task(deal: int, rules: Rules, numbering: str, limits: Limits, solve_one=solve_deal) -> Record:
    """A Dask task: the record of one deal."""
    return solve_guarded(solve_one, deal, rules, numbering, limits)


def failure_record(
    deal: int,
    rules: Rules,
    numbering: str,
    limits: Limits,
    reason: str,
    seconds: float = 0.0,
    board_text=None,
) -> Record:
    """An unknown record for a deal whose solve failed (exception, dead worker)."""
    if board_text is None:
        try:
            board_text = deal_board(rules.variant, deal, numbering).to_text()
        except Exception:
            board_text = ""
    return Record.failure(
        reason,
        rules=rules,
        numbering=numbering,
        deal=deal,
        board_text=board_text,
        limits=limits,
        seconds=seconds,
    )


def exception_reason(error: BaseException) -> str:
    """``Type at file.py:line: first line of the message``."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}{where}: {first_line(str(error))}".rstrip(": ")
