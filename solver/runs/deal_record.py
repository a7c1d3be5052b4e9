"""Solving one deal of a run into a record; this is the task workers run when solving.

A fault while solving never escapes: an exception becomes an unknown record whose
``reason`` names it (``work.exception_reason``).
"""

import time

from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.record import Record
from solver.runs.work import exception_reason
from solver.search.solve import solve_position


def deal_record(deal: int, rules: Rules, numbering: str, limits: Limits) -> Record:
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
