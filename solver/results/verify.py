"""Replaying a results file (JSON lines): the check behind ``yukon verify``.

Every line is read and checked, so one unreadable line does not hide the illegal records
around it. A record is *good* when it claims solved and its line wins from its board (the
deal its number names); *illegal* when a solved line does not win, when a field has the
wrong type or value (a status ``"SOLVED"``, a list), or when a record claiming unsolvable
carries a line that wins (a contradiction); otherwise *unverifiable* (unsolvable and
unknown verdicts cannot be checked by replay). A line that is not UTF-8 JSON holding a
record object (format ``yukon-record`` of this release or older, or no format keys, as
release 0.1.0 wrote) is *unreadable*: bad input, counted, the first one named.
"""

import json

from solver.common.formats import RECORD, check_format, deal_of_json
from solver.errors import YukonError, clipped, decoded_text
from solver.game.board import parse_board
from solver.game.notation import final_position, replay_tokens
from solver.game.numbering import NUMBERINGS, deal_board
from solver.game.reference import IllegalMove, is_won
from solver.game.rules import VARIANTS, Rules
from solver.results.record import REPLAY_FIELDS, STATUSES
from solver.results.result import SOLVED, UNSOLVABLE

# The type each replayed field must have (``deal`` may also be null: a board given by hand).
FIELD_TYPES = {
    "variant": str,
    "foundation_return": bool,
    "numbering": str,
    "deal": int,
    "board": str,
    "status": str,
    "solution": str,
}
# The longest line read (a record holds a line of moves; the deepest search paths give some
# 2 MB): a longer one ends the check.
MAX_LINE_CHARS = 16 << 20
# Unreadable lines, or blank lines in a row, after which the input is taken for something else
# than a results file (random bytes, an endless device) and the check ends: no results file
# loses this many lines to damage.
MAX_UNREADABLE = 1_000
ALLOWED_VALUES = {"variant": VARIANTS, "numbering": NUMBERINGS, "status": STATUSES}


def verify_records(lines, source: str, progress=None) -> dict:
    """Counts of good, illegal, unverifiable and unreadable records, one line per illegal
    record (``problems``) and the first unreadable line's message (``first_unreadable``).
    ``lines`` are bytes or text; ``progress(lines_read)`` is called after every line."""
    report = {"good": 0, "illegal": 0, "unverifiable": 0, "unreadable": 0, "problems": []}
    report["first_unreadable"] = None
    blank_run = 0  # blank lines in a row
    for line_number, line in enumerate(capped_lines(lines), start=1):
        where = f"{source} line {line_number}"
        record = readable_record(line, where, report)
        blank_run = blank_run + 1 if not line.strip() else 0
        if blank_run > MAX_UNREADABLE:
            raise YukonError(
                f"{source}: more than {MAX_UNREADABLE:,} blank lines in a row: not a results file"
            )
        if report["unreadable"] > MAX_UNREADABLE:
            raise YukonError(
                f"{source}: more than {MAX_UNREADABLE:,} unreadable lines by line {line_number:,} "
                f"(the first: {report['first_unreadable']}): not a results file"
            )
        if record is not None:
            problem = check_record(record)
            if problem is None:
                report["good" if record["status"] == SOLVED else "unverifiable"] += 1
            else:
                report["illegal"] += 1
                report["problems"].append(f"{where} (deal {clipped(repr(record['deal']), 40)}): {problem}")
        if progress is not None:
            progress(line_number)
    return report


def readable_record(line, where: str, report: dict) -> dict | None:
    """The record a line holds (None for a blank one); an unreadable line is counted in
    ``report`` (the first one's message kept) and gives None. A line longer than
    MAX_LINE_CHARS ends the check."""
    if len(line) > MAX_LINE_CHARS:
        raise YukonError(f"{where} is longer than {MAX_LINE_CHARS >> 20} MiB: not a results file")
    try:
        return read_record(decoded_text(line, where) if isinstance(line, bytes) else line, where)
    except YukonError as error:
        report["unreadable"] += 1
        report["first_unreadable"] = report["first_unreadable"] or str(error)
        return None


def capped_lines(lines):
    """The lines of a file (read at most MAX_LINE_CHARS + 1 at a time, so a line longer than
    that, or an endless input such as a device, shows as a line that long) or of a list."""
    if not hasattr(lines, "readline"):
        return lines
    end = lines.read(0)  # b"" or "": what readline returns at the end of the file
    return iter(lambda: lines.readline(MAX_LINE_CHARS + 1), end)


def read_record(line: str, where: str) -> dict | None:
    """The record object of a line (None for a blank line); YukonError when unreadable."""
    if not line.strip():
        return None
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise YukonError(f"{where}: not JSON ({error.msg})") from None
    except (ValueError, RecursionError) as error:
        raise YukonError(
            f"{where}: not JSON ({type(error).__name__}: too large or too deeply nested)"
        ) from None
    if not isinstance(record, dict):
        raise YukonError(f"{where}: not a JSON object")
    check_format(record, RECORD, where)
    missing = [field for field in REPLAY_FIELDS if field not in record]
    if missing:
        raise YukonError(f"{where}: missing field {', '.join(missing)}")
    return record | {"deal": deal_of_json(record["deal"])}


def field_problem(record: dict) -> str | None:
    """What is wrong with the type or value of a replayed field, or None."""
    for name, kind in FIELD_TYPES.items():
        value = record[name]
        if value is None and name == "deal":
            continue
        if type(value) is not kind:
            return f"field {name} is {clipped(json.dumps(value), 60)}, not a {kind.__name__}"
        if name in ALLOWED_VALUES and value not in ALLOWED_VALUES[name]:
            return f"field {name} is {clipped(repr(value), 60)}, not one of {', '.join(ALLOWED_VALUES[name])}"
    return None


def check_record(record: dict) -> str | None:
    """Why a record is illegal, or None: a wrong field, a solved line that does not win, an
    unsolvable record whose line wins (or reaches a win before it goes on or breaks)."""
    problem = field_problem(record)
    if problem is not None or record["status"] not in (SOLVED, UNSOLVABLE):
        return problem
    if record["status"] == UNSOLVABLE and not record["solution"].strip():
        return None
    try:
        rules = Rules(record["variant"], record["foundation_return"])
        board = parse_board(record["board"], rules)
        dealt = (
            None if record["deal"] is None else deal_board(rules.variant, record["deal"], record["numbering"])
        )
    except YukonError as error:
        return str(error) if record["status"] == SOLVED else None
    if dealt is not None and board != dealt:
        return f"board is not {record['numbering']} deal {record['deal']}"
    tokens = record["solution"].split()
    if record["status"] == UNSOLVABLE:
        return "claims unsolvable, but its line wins" if wins_on_the_way(board, tokens, rules) else None
    try:
        final = final_position(board, tokens, rules)
    except (IllegalMove, YukonError) as error:
        return str(error)
    return None if is_won(final) else "the line is legal but does not win"


def wins_on_the_way(board, tokens: list[str], rules: Rules) -> bool:
    """Whether the line reaches a won position, whatever follows it (more moves, junk)."""
    try:
        return any(is_won(after) for _token, _move, after in replay_tokens(board, tokens, rules))
    except (IllegalMove, YukonError):
        return False
