"""Options and arguments shared by several commands, and the position they name."""

import click

from solver.board import Board, board_bytes, read_board
from solver.errors import YukonError, decoded_text
from solver.numbering import NUMBERINGS, deal_board
from solver.ranges import whole_number
from solver.rules import VARIANTS, Rules


def variant_option(function):
    return click.option(
        "--variant", type=click.Choice(VARIANTS), default="yukon", show_default=True, help="Game."
    )(function)


def numbering_option(function):
    return click.option(
        "--numbering",
        type=click.Choice(NUMBERINGS),
        default="pysol",
        show_default=True,
        help="Whose deal numbers: PySolFC's game numbers or KDE Patience's.",
    )(function)


def return_option(function):
    return click.option(
        "--foundation-return",
        is_flag=True,
        help="Allow a foundation's top card back onto a column that can take it.",
    )(function)


def json_option(function):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(function)


def board_option(function):
    return click.option(
        "--board",
        "board_file",
        type=click.File("rb"),
        help="Read the position from a file (text or JSON form; - for stdin) instead of a deal number.",
    )(function)


def parse_deal_number(text: str) -> int:
    """A deal number given on the command line (spaces around it allowed)."""
    return whole_number(text.strip(), "deal number")


def opening(deal: str | None, board_file, rules: Rules, numbering: str) -> tuple[Board, int | None]:
    """The position to work on: a numbered deal or a board file, and the deal number."""
    if board_file is not None:
        if deal is not None:
            raise YukonError("give a deal number or --board FILE, not both")
        where = input_name(board_file)
        return read_board(decoded_text(board_bytes(board_file, where), where), rules), None
    if deal is None:
        raise YukonError("give a deal number or --board FILE")
    number = parse_deal_number(deal)
    return deal_board(rules.variant, number, numbering), number


def input_name(stream) -> str:
    """How an error names an input file: its path, or ``standard input``."""
    name = getattr(stream, "name", "-")
    return "standard input" if name in ("-", "<stdin>") or not isinstance(name, str) else f"file {name}"
