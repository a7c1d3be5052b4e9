"""The Board: a position as plain Python data, with its text and JSON forms.

Text form (fc-solve / PySolFC style), one column per line, bottom card first, face-down
cards in ``<>``, an empty column as ``-``; then the optional lines
``Foundations: S-0 H-5 D-K C-A`` (two entries per suit with two decks) and
``Stock: 3H 4C ...`` (in dealing order: the first listed is dealt first, onto column 1).

A position as a player has it may leave hidden cards unknown (``unknown_cards=True`` when
reading): ``<?>`` is a face-down card whose face is not known and ``Stock: ?`` a stock of
every card not on the table, in an unknown order (JSON: ``"?"`` in ``face_down``, and
``"stock": "?"``). Such a Board holds UNKNOWN in those places; only what a player sees may
be asked of it (``player.view``), never a solve.
"""

import json
from collections import Counter
from dataclasses import dataclass
from numbers import Integral
from typing import Any

from solver.common.formats import BOARD, check_format, stamped
from solver.errors import YukonError, clipped, counted
from solver.game.cards import (
    KING,
    RANKS,
    SUITS,
    card_text,
    full_deck,
    make_card,
    parse_card,
    parse_rank,
    parse_suit,
    plain_text,
)
from solver.game.rules import Rules

EMPTY_COLUMN = "-"
UNKNOWN = -1  # a hidden card whose face is not given
UNKNOWN_TEXT = "?"
# The most a board file may hold (a board is under 1 kB; comments allowed): a larger input,
# or an endless one (a device), is refused after reading this much.
MAX_BOARD_BYTES = 1 << 20


@dataclass(frozen=True)
class Board:
    """A position. Foundation slot ``i`` builds suit ``i % 4``; its value is its height
    (0 empty, 13 complete). With two decks the two slots of a suit are kept with the higher
    one first, so equal positions are equal Boards."""

    columns: tuple[tuple[int, ...], ...]
    face_down_counts: tuple[int, ...]
    foundations: tuple[int, ...]
    stock: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        problem = shape_problem(self)
        if problem is not None:
            raise YukonError(f"not a board: {problem}")
        object.__setattr__(self, "foundations", canonical_foundations(self.foundations))

    def exposed_card(self, column: int) -> int | None:
        """The card on top of ``column`` (0-based), None for an empty one."""
        cards = self.columns[column]
        return cards[-1] if cards else None

    def to_text(self) -> str:
        """The text form (``<?>`` and ``Stock: ?`` where cards are unknown)."""
        lines = [column_text(cards, down) for cards, down in zip(self.columns, self.face_down_counts)]
        lines.append("Foundations: " + " ".join(foundation_entries(self.foundations)))
        if self.stock:
            lines.append("Stock: " + stock_text(self.stock))
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        """The JSON form, with its format keys (docs/formats.md, "Board text and JSON";
        ``solver/schemas/board.schema.json``): what ``yukon deal --format json`` prints."""
        return stamped(
            {
                "columns": [
                    {
                        "face_down": [hidden_text(card) for card in cards[:down]],
                        "face_up": [card_text(card) for card in cards[down:]],
                    }
                    for cards, down in zip(self.columns, self.face_down_counts)
                ],
                "foundations": {
                    suit: [
                        self.foundations[slot] for slot in range(len(self.foundations)) if slot % 4 == index
                    ]
                    for index, suit in enumerate(SUITS)
                },
                "stock": UNKNOWN_TEXT if UNKNOWN in self.stock else [card_text(card) for card in self.stock],
            },
            BOARD,
        )

    @property
    def unknown_count(self) -> int:
        """How many hidden cards are not given (``<?>`` and an unknown stock)."""
        return sum(cards.count(UNKNOWN) for cards in self.columns) + self.stock.count(UNKNOWN)


def shape_problem(board: Board) -> str | None:
    """What makes ``board`` no position at all, whatever the rule set (checked as it is made,
    so a Board built by hand cannot carry it into a solve): a face-down count that is not
    0..the column's length, one count per column, foundation heights 0..13."""
    try:
        if len(board.face_down_counts) != len(board.columns):
            return (
                f"{counted(len(board.face_down_counts), 'face-down count')} for {len(board.columns)} columns"
            )
        for number, (cards, down) in enumerate(zip(board.columns, board.face_down_counts), start=1):
            if not is_count(down) or not 0 <= down <= len(cards):
                return f"column {number} has {clipped(repr(down), 40)} face-down cards of {len(cards)}"
        for height in board.foundations:
            if not is_count(height) or not 0 <= height <= KING:
                return f"a foundation height is {clipped(repr(height), 40)}, not 0..13"
    except TypeError as error:
        return clipped(str(error), 80)
    return None


def is_count(value) -> bool:
    """An integer (a numpy one too), not a bool. ``type(value) is int`` first: a Board is made
    on every move a player tries, and the abstract check costs ten times as much."""
    return type(value) is int or (isinstance(value, Integral) and not isinstance(value, bool))


def hidden_text(card: int) -> str:
    return UNKNOWN_TEXT if card == UNKNOWN else card_text(card)


def stock_text(stock) -> str:
    """``?`` for an unknown stock, else its cards in dealing order."""
    return UNKNOWN_TEXT if UNKNOWN in stock else " ".join(card_text(card) for card in stock)


def canonical_foundations(heights) -> tuple[int, ...]:
    """Two slots of one suit are interchangeable: keep the higher one first."""
    heights = list(heights)
    for suit in range(4):
        slots = heights[suit::4]
        heights[suit::4] = sorted(slots, reverse=True)
    return tuple(heights)


def column_text(cards, face_down_count: int) -> str:
    if not cards:
        return EMPTY_COLUMN
    return " ".join(
        f"<{hidden_text(card)}>" if index < face_down_count else card_text(card)
        for index, card in enumerate(cards)
    )


def foundation_entries(heights) -> list[str]:
    return [f"{SUITS[slot % 4]}-{RANKS[height - 1] if height else 0}" for slot, height in enumerate(heights)]


def parse_board(text: str, rules: Rules, unknown_cards: bool = False) -> Board:
    """Read the text form; every card of the rule set's decks must appear exactly once
    (``unknown_cards``: or be a ``<?>`` or in a ``Stock: ?``)."""
    columns, face_down_counts, foundation_words, stock = [], [], None, ()
    for line_number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"on line {line_number}"
        if not line or line.startswith("#"):
            continue
        label, _, rest = line.partition(":")
        if label.strip().lower() in ("foundations", "founds"):
            foundation_words = (rest.split(), where)
        elif label.strip().lower() in ("stock", "talon"):
            stock = parse_stock(rest.split(), where)
        else:
            cards, down = parse_column(line.removeprefix(":").strip(), where)
            columns.append(cards)
            face_down_counts.append(down)
    heights = (
        parse_foundations(*foundation_words, rules) if foundation_words else (0,) * rules.foundation_count
    )
    return checked(Board(tuple(columns), tuple(face_down_counts), heights, stock), rules, unknown_cards)


def parse_stock(words: list[str], where: str) -> tuple[int, ...]:
    """The stock's cards; ``?`` alone: unknown (one UNKNOWN, filled in by ``checked``)."""
    if words == [UNKNOWN_TEXT]:
        return (UNKNOWN,)
    return tuple(parse_card(word, where) for word in words)


def checked(board: Board, rules: Rules, unknown_cards: bool) -> Board:
    """``board`` with an unknown stock made as long as the cards not on the table, once it
    is checked to fit the rule set; unknown cards are refused unless ``unknown_cards``."""
    check_stock(board, rules)
    if UNKNOWN in board.stock:
        in_columns = sum(cards.count(UNKNOWN) for cards in board.columns)
        rest = max(rules.card_count - shown_cards(board).total() - in_columns, 0)
        board = Board(board.columns, board.face_down_counts, board.foundations, (UNKNOWN,) * rest)
    check_board(board, rules, unknown_cards)
    return board


def parse_column(line: str, where: str) -> tuple[tuple[int, ...], int]:
    if line == EMPTY_COLUMN:
        return (), 0
    cards, face_down_count = [], 0
    for word in line.split():
        hidden = word.startswith("<") and word.endswith(">")
        if hidden:
            if face_down_count != len(cards):
                raise YukonError(f"face-down card {word} lies on a face-up card {where}")
            face_down_count += 1
            word = word[1:-1]
            if word == UNKNOWN_TEXT:
                cards.append(UNKNOWN)
                continue
        cards.append(parse_card(word, where))
    return tuple(cards), face_down_count


def parse_foundations(words: list[str], where: str, rules: Rules) -> tuple[int, ...]:
    per_suit: dict[int, list[int]] = {suit: [] for suit in range(4)}
    for word in words:
        suit_text, dash, rank_text = word.partition("-")
        if not dash:
            raise YukonError(f"foundation entry {word!r} is not SUIT-RANK {where}")
        suit = parse_suit(suit_text, where)
        per_suit[suit].append(0 if rank_text == "0" else parse_rank(rank_text, where))
    return slot_heights(per_suit, rules, where)


def slot_heights(per_suit: dict[int, list[int]], rules: Rules, where: str) -> tuple[int, ...]:
    """Foundation heights by slot from the heights listed per suit (slot ``suit + 4 * copy``)."""
    heights = [0] * rules.foundation_count
    for suit, suit_heights in per_suit.items():
        if len(suit_heights) > rules.decks:
            raise YukonError(
                f"{len(suit_heights)} foundations of suit {SUITS[suit]} {where}; "
                f"{rules.variant} has {rules.decks}"
            )
        for copy, height in enumerate(suit_heights):
            heights[suit + 4 * copy] = height
    return tuple(heights)


def check_board(board: Board, rules: Rules, unknown_cards: bool = False) -> None:
    """Raise YukonError unless the board fits the rule set: column and foundation counts,
    face-up exposed cards, and every card exactly ``rules.decks`` times (``unknown_cards``:
    or as many UNKNOWN hidden cards as cards not shown; otherwise none may be unknown)."""
    if board.unknown_count and not unknown_cards:
        raise YukonError(
            f"the board leaves {board.unknown_count} hidden cards unknown (<?> or Stock: ?): "
            "this needs every card (yukon hint takes such a board)"
        )
    if len(board.columns) != rules.column_count:
        raise YukonError(
            f"board has {counted(len(board.columns), 'column')}; {rules.variant} has {rules.column_count}"
        )
    if len(board.foundations) != rules.foundation_count:
        raise YukonError(
            f"board has {len(board.foundations)} foundations; {rules.variant} has {rules.foundation_count}"
        )
    for number, (cards, down) in enumerate(zip(board.columns, board.face_down_counts), start=1):
        if cards and down >= len(cards):
            raise YukonError(f"column {number}: its exposed card {card_text(cards[-1])} is face down")
    check_stock(board, rules)
    present = shown_cards(board)
    expected = Counter(full_deck(rules.decks))
    missing = sorted((expected - present).elements())
    extra = sorted((present - expected).elements())
    problems = []
    if extra:
        problems.append("duplicated " + " ".join(card_text(card) for card in extra))
    if len(missing) != board.unknown_count and board.unknown_count:
        problems.append(f"{board.unknown_count} unknown cards for the {len(missing)} not shown")
    elif missing and not board.unknown_count:
        problems.append("missing " + " ".join(card_text(card) for card in missing))
    if problems:
        raise YukonError(f"board is not a full {rules.variant} deck: " + "; ".join(problems))


def check_stock(board: Board, rules: Rules) -> None:
    """A stock (of cards, or ``Stock: ?``) only where the rule set deals one."""
    if board.stock and rules.variant != "milligan":
        raise YukonError(f"{rules.variant} has no stock, but the board lists one")


def shown_cards(board: Board) -> Counter:
    """Every card the board names, on the table, in the stock and on the foundations."""
    present = Counter(card for cards in board.columns for card in cards if card != UNKNOWN)
    present.update(card for card in board.stock if card != UNKNOWN)
    for slot, height in enumerate(board.foundations):
        present.update(make_card(rank, slot % 4) for rank in range(1, height + 1))
    return present


def board_from_json(data, rules: Rules, unknown_cards: bool = False) -> Board:
    """Read the JSON form (as produced by ``Board.to_json``; ``yukon deal --format json``
    adds the format keys of ``yukon-board``; ``unknown_cards`` as in ``parse_board``)."""
    if isinstance(data, dict):
        check_format(data, BOARD, "board JSON")
    try:
        columns, face_down_counts = [], []
        for number, column in enumerate(data["columns"], start=1):
            where = f"in column {number}"
            down = [
                UNKNOWN if text == UNKNOWN_TEXT else parse_card(text, where)
                for text in column.get("face_down", [])
            ]
            up = [parse_card(text, where) for text in column.get("face_up", [])]
            columns.append(tuple(down + up))
            face_down_counts.append(len(down))
        per_suit: dict[int, list[int]] = {}
        for suit_text, suit_heights in data.get("foundations", {}).items():
            for height in suit_heights:
                if type(height) is not int or not 0 <= height <= KING:
                    raise YukonError(
                        f"foundation height {clipped(repr(height))} of suit {suit_text} is not 0..13"
                    )
            per_suit[parse_suit(suit_text, "in foundations")] = list(suit_heights)
        heights = slot_heights(per_suit, rules, "in foundations")
        stock_words = data.get("stock", [])
        stock = parse_stock([stock_words] if stock_words == UNKNOWN_TEXT else stock_words, "in stock")
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise YukonError(f"board JSON is malformed: {clipped(repr(error))}") from None
    return checked(
        Board(tuple(columns), tuple(face_down_counts), tuple(heights), stock), rules, unknown_cards
    )


def board_bytes(stream, where: str) -> bytes:
    """The bytes of a board file, read from the binary ``stream``: at most MAX_BOARD_BYTES,
    else a YukonError naming ``where``."""
    data = stream.read(MAX_BOARD_BYTES + 1)
    if len(data) > MAX_BOARD_BYTES:
        raise YukonError(f"{where} holds more than {MAX_BOARD_BYTES >> 20} MiB: not a board")
    return data


def read_board(text: str, rules: Rules, unknown_cards: bool = False) -> Board:
    """Text or JSON, whichever the content is (``unknown_cards`` as in ``parse_board``); a
    board copied from a terminal, suit symbols and all, reads as its plain text."""
    text = plain_text(text)
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise YukonError(f"board JSON is malformed: {error}") from None
        except (ValueError, RecursionError):
            raise YukonError("board JSON is malformed: a number too long or nesting too deep") from None
        return board_from_json(data, rules, unknown_cards)
    return parse_board(text, rules, unknown_cards)


def foundation_top(heights, slot: int) -> int:
    """The top card of a non-empty foundation slot."""
    return make_card(heights[slot], slot % 4)
