"""Options and arguments shared by several commands, and the position they name; the rule
set and the budgets are built (and so checked) here, once for every command."""

import functools

import click

from solver.api import NUMBERINGS, VARIANTS, Board, Limits, Rules, read_board
from solver.api import deal as deal_opening
from solver.errors import YukonError, decoded_text
from solver.game.board import board_bytes
from solver.game.ranges import deal_number, split_numbering
from solver.game.rules import VARIANT_ALIASES
from solver.results.limits import parse_memory


def variant_option(function):
    return click.option(
        "--variant",
        type=click.Choice(VARIANTS + tuple(VARIANT_ALIASES)),
        callback=lambda _context, _option, name: VARIANT_ALIASES.get(name, name),
        default="yukon",
        show_default=True,
        help="Game (lexington-harp: PySolFC's name for milligan).",
    )(function)


# The arguments that name deals, whose ``ms`` prefix sets the numbering.
DEAL_ARGUMENTS = ("deal", "deals")


def numbering_option(function):
    """``--numbering``; a deal argument written ``ms12345`` chooses the ``ms`` numbering."""

    @functools.wraps(function)
    def with_numbering(*args, numbering, **kwargs):
        for name in DEAL_ARGUMENTS:
            if kwargs.get(name) is not None:
                kwargs[name], numbering = split_numbering(kwargs[name], numbering)
        return function(*args, numbering=numbering, **kwargs)

    return click.option(
        "--numbering",
        type=click.Choice(NUMBERINGS),
        default="pysol",
        show_default=True,
        help="Whose deal numbers: PySolFC's game numbers, its Microsoft deals (also written ms12345) "
        "or KDE Patience's.",
    )(with_numbering)


def return_option(function):
    return click.option(
        "--foundation-return",
        is_flag=True,
        help="Allow a foundation's top card back onto a column that can take it.",
    )(function)


def rules_options(function):
    """``--variant`` and ``--foundation-return``, given to the command as ``rules``."""

    @functools.wraps(function)
    def with_rules(*args, variant, foundation_return, **kwargs):
        return function(*args, rules=Rules(variant, foundation_return), **kwargs)

    return variant_option(return_option(with_rules))


def memory_size(_context, _option, text: str) -> int:
    """The ``--memory`` option's text as bytes (YukonError when it names no usable size)."""
    return parse_memory(text)


# The options of the Limits fields besides the time limit, by field name.
LIMIT_OPTIONS = {
    "max_nodes": click.option(
        "--max-nodes",
        type=int,
        default=None,
        help="Positions to expand before giving up (a first look of at most 2,000 not counted).",
    ),
    "memory_bytes": click.option(
        "--memory",
        "memory_bytes",
        default="1G",
        show_default=True,
        callback=memory_size,
        help="Transposition table size (per worker), e.g. 512M, 2G.",
    ),
    "minimal": click.option("--minimal", is_flag=True, help="Search (IDA*) for a shortest line in moves."),
}


def limits_options(seconds: float, seconds_help: str, *fields: str):
    """``--time-limit`` (``seconds`` unless given; ``inf``: no limit) and the options of
    the other Limits ``fields`` named, given to the command as ``limits``: bad budgets are
    refused before the command runs."""

    def decorate(function):
        @functools.wraps(function)
        def with_limits(*args, time_limit, **kwargs):
            given = {name: kwargs.pop(name) for name in fields}
            return function(*args, limits=Limits(time_limit=time_limit, **given), **kwargs)

        for name in reversed(fields):
            with_limits = LIMIT_OPTIONS[name](with_limits)
        time_option = click.option(
            "--time-limit", type=float, default=seconds, show_default=True, help=seconds_help
        )
        return time_option(with_limits)

    return decorate


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
    """A deal number given on the command line, as PySolFC reads one (``#12``, ``12,345``)."""
    return deal_number(text)


def opening(
    deal: str | None, board_file, rules: Rules, numbering: str, unknown_cards: bool = False
) -> tuple[Board, int | None]:
    """The position to work on: a numbered deal or a board file (which may leave hidden
    cards unknown when ``unknown_cards``), and the deal number."""
    if board_file is not None:
        if deal is not None:
            raise YukonError("give a deal number or --board FILE, not both")
        where = input_name(board_file)
        text = decoded_text(board_bytes(board_file, where), where)
        return read_board(text, rules, unknown_cards=unknown_cards), None
    if deal is None:
        raise YukonError("give a deal number or --board FILE")
    number = parse_deal_number(deal)
    return deal_opening(number, rules.variant, numbering=numbering), number


def input_name(stream) -> str:
    """How an error names an input file: its path, or ``standard input``."""
    name = getattr(stream, "name", "-")
    return "standard input" if name in ("-", "<stdin>") or not isinstance(name, str) else f"file {name}"


class AsciiDigits:
    """A number type that takes only the digits 0-9: Python reads other scripts' digits
    (``١٠`` is 10), which a user can paste unseen."""

    def convert(self, value, param, context):
        if isinstance(value, str) and not value.isascii():
            self.fail(f"{value!r} is not a number written with the digits 0-9", param, context)
        return super().convert(value, param, context)


class AsciiInt(AsciiDigits, click.types.IntParamType):
    pass


class AsciiIntRange(AsciiDigits, click.IntRange):
    pass


class AsciiFloat(AsciiDigits, click.types.FloatParamType):
    pass


class AsciiFloatRange(AsciiDigits, click.FloatRange):
    pass


ASCII_TYPES = {
    click.IntRange: AsciiIntRange,
    click.FloatRange: AsciiFloatRange,
    click.types.IntParamType: AsciiInt,
    click.types.FloatParamType: AsciiFloat,
}


def ascii_numbers(group: click.Group) -> None:
    """Make every number option and argument of ``group``'s commands take only 0-9."""
    for command in group.commands.values():
        if isinstance(command, click.Group):
            ascii_numbers(command)
        for param in command.params:
            if type(param.type) in ASCII_TYPES:
                checked_type = ASCII_TYPES[type(param.type)]
                checked = checked_type.__new__(checked_type)
                checked.__dict__.update(vars(param.type))  # a range's bounds
                param.type = checked
