"""Commands on deals and lines: ``deal`` (print an opening), ``replay`` (check a line)."""

import json
import sys

import click

from solver.api import deal as deal_opening
from solver.api import explain_steps, is_won, replay_steps
from solver.cli.options import (
    board_option,
    input_name,
    numbering_option,
    opening,
    parse_deal_number,
    rules_options,
    variant_option,
)
from solver.cli.terminal import color_option, echo
from solver.errors import YukonError, counted, decoded_text
from solver.game.ranges import split_numbering


@click.command()
@click.argument("deal")
@variant_option
@numbering_option
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@color_option
def deal(deal, variant, numbering, output_format):
    """Print the opening position of deal number DEAL.

    Text form: one column per line, bottom card first, face-down cards in <>.
    """
    board = deal_opening(parse_deal_number(deal), variant, numbering=numbering)
    if output_format == "json":
        click.echo(json.dumps(board.to_json()))
    else:
        echo(board.to_text(), nl=False)


@click.command()
@click.argument("words", nargs=-1, required=True)
@board_option
@rules_options
@numbering_option
@click.option("--show", is_flag=True, help="Print the board after every move.")
@click.option("--explain", is_flag=True, help="Say what every move does.")
@color_option
def replay(words, board_file, rules, numbering, show, explain):
    """Replay a solution line on a deal or a board.

    \b
    yukon replay DEAL "3>7:TS 5>F:AH ..."
    yukon replay --board FILE "3>7:TS ..."
    Use - as the line to read it from stdin. An illegal move is named by its number, its
    token and the rule it breaks.
    """
    if board_file is not None and words[0].strip().isdigit():
        raise YukonError("give a deal number or --board FILE, not both")
    if board_file is not None and input_name(board_file) == "standard input" and list(words) == ["-"]:
        raise YukonError("--board - and the line - cannot both be read from standard input")
    deal_text, numbering = (
        (None, numbering) if board_file is not None else split_numbering(words[0], numbering)
    )
    line_words = words if board_file is not None else words[1:]
    if not line_words:
        raise YukonError(
            'give the line to replay after the deal, e.g. yukon replay 12 "3>7:TS 5>F:AH" (- reads stdin)'
        )
    board, _ = opening(deal_text, board_file, rules, numbering)
    tokens = " ".join(line_words).split()
    if tokens == ["-"]:
        tokens = line_text(sys.stdin.buffer, "standard input").split()
    steps = explain_steps(board, tokens, rules) if explain else quiet_steps(board, tokens, rules)
    final = board
    for number, (move, said, final) in enumerate(steps, start=1):
        if show or explain:
            echo(f"{number}. {move.token}{said and ' ' + said}" + (f"\n{final.to_text()}" if show else ""))
    won = is_won(final)
    echo(f"{counted(len(tokens), 'move')}, all legal; {'won' if won else 'not won'}")
    sys.exit(0 if won else 1)


def quiet_steps(board, tokens: list[str], rules):
    """``explain_steps`` without the words: (LineMove, "", board after)."""
    for move, after in replay_steps(board, tokens, rules):
        yield move, "", after


# The longest line read from standard input: a line of moves is some kilobytes (the longest
# lines a search finds, some 2 MB); a longer input, or an endless one, is refused.
MAX_LINE_BYTES = 16 << 20


def line_text(stream, where: str) -> str:
    """A line of moves read from the binary ``stream``: at most MAX_LINE_BYTES, UTF-8."""
    data = stream.read(MAX_LINE_BYTES + 1)
    if len(data) > MAX_LINE_BYTES:
        raise YukonError(f"{where} holds more than {MAX_LINE_BYTES >> 20} MiB: not a line of moves")
    return decoded_text(data, where)


COMMANDS = (deal, replay)
