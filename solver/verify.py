"""Replaying a results file (JSON lines): the check behind ``yukon verify``."""

import json

from solver.board import parse_board
from solver.errors import YukonError
from solver.notation import final_position
from solver.numbering import deal_board
from solver.record import REPLAY_FIELDS
from solver.reference import IllegalMove, is_won
from solver.result import SOLVED
from solver.rules import Rules


def verify_records(lines, source: str) -> dict:
    """Counts of good, illegal and unverifiable records, and one line per illegal one.

    A line that is not a JSON record with the required fields is bad input (YukonError)."""
    report = {"good": 0, "illegal": 0, "unverifiable": 0, "problems": []}
    for line_number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = read_record(line, f"{source} line {line_number}")
        problem = check_record(record)
        if problem is None:
            report["good" if record["status"] == SOLVED else "unverifiable"] += 1
        else:
            report["illegal"] += 1
            report["problems"].append(f"{source} line {line_number} (deal {record['deal']}): {problem}")
    return report


def read_record(line: str, where: str) -> dict:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise YukonError(f"{where}: not JSON ({error.msg})") from None
    if not isinstance(record, dict):
        raise YukonError(f"{where}: not a JSON object")
    missing = [field for field in REPLAY_FIELDS if field not in record]
    if missing:
        raise YukonError(f"{where}: missing field {', '.join(missing)}")
    return record


def check_record(record: dict) -> str | None:
    """Why a solved record is illegal, or None. Records not claiming solved pass."""
    if record["status"] != SOLVED:
        return None
    if not isinstance(record["board"], str):
        return "board is not board text"
    try:
        rules = Rules(record["variant"], bool(record["foundation_return"]))
        board = parse_board(record["board"], rules)
        if record["deal"] is not None and board != deal_board(
            rules.variant, record["deal"], record["numbering"]
        ):
            return f"board is not {record['numbering']} deal {record['deal']}"
        final = final_position(board, str(record["solution"]).split(), rules)
    except (IllegalMove, YukonError) as error:
        return str(error)
    return None if is_won(final) else "the line is legal but does not win"
