"""Cards on a terminal: suit symbols (♠♥♦♣) in red and black when standard output is a
terminal, plain card text (``TS``) when it is a pipe or a file, so that what other tools
read never changes. Every command reads the painted form back (``cards.plain_text``).

``--color auto`` (the default) paints only on a terminal and when ``NO_COLOR`` is unset or
empty (https://no-color.org); ``always`` paints even into a pipe, ``never`` never. Black
suits are drawn bold in the terminal's own text colour (black on a light background, and
still readable on a dark one), red suits in red. A terminal whose encoding has no suit
symbols gets the letters, painted.
"""

import os
import re
import sys

import click

from solver.game.cards import SUIT_SYMBOLS

COLOR_CHOICES = ("auto", "always", "never")
# A card as the commands print it (also inside a move token or <face down>), not part of a word.
CARD = re.compile(r"(?<![0-9A-Za-z])([A2-9TJQK])([SHDC])(?![0-9A-Za-z])")
RED, BLACK, RESET = "\x1b[31m", "\x1b[1m", "\x1b[0m"
STYLE_OF_SUIT = {"S": BLACK, "H": RED, "D": RED, "C": BLACK}
CHOICE_KEY = "yukon.color"


def remember_choice(context: click.Context, _option, choice: str) -> str:
    context.meta[CHOICE_KEY] = choice
    return choice


def color_option(function):
    """``--color auto|always|never``, kept for ``echo`` (the command does not see it)."""
    return click.option(
        "--color",
        type=click.Choice(COLOR_CHOICES),
        default="auto",
        show_default=True,
        expose_value=False,
        is_eager=True,
        callback=remember_choice,
        help="Suits in colour with symbols: on a terminal (auto, unless NO_COLOR is set), always or never.",
    )(function)


def painting(choice: str, stream=None) -> bool:
    """Does ``choice`` paint cards written to ``stream`` (standard output by default)?"""
    if choice != "auto":
        return choice == "always"
    stream = sys.stdout if stream is None else stream
    return not os.environ.get("NO_COLOR") and bool(getattr(stream, "isatty", lambda: False)())


def can_write_symbols(stream) -> bool:
    try:
        "".join(SUIT_SYMBOLS.values()).encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def paint(text: str, symbols: bool = True) -> str:
    """``text`` with every card in its suit's colour, the suit letter a symbol if ``symbols``."""

    def painted(match: re.Match) -> str:
        rank, suit = match.groups()
        return f"{STYLE_OF_SUIT[suit]}{rank}{SUIT_SYMBOLS[suit] if symbols else suit}{RESET}"

    return CARD.sub(painted, text)


def echo(text: str, nl: bool = True) -> None:
    """``click.echo`` to standard output, painting the cards when the ``--color`` choice says so."""
    context = click.get_current_context(silent=True)
    choice = context.meta.get(CHOICE_KEY, "auto") if context is not None else "auto"
    if painting(choice):
        click.echo(paint(text, can_write_symbols(sys.stdout)), nl=nl, color=True)
    else:
        click.echo(text, nl=nl)
