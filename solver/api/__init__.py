"""The public Python API: the names ``import solver`` offers (listed in ``solver.__all__``).

A thin layer over the modules that do the work: deal numbers (``numbering``), boards
(``board``), the solver (``solve``), lines (``notation``, ``reference``), results files
(``verify``), the player's hints (``player``) and the catalogues (``catalogue``). Importing it
loads no numba: the first solve or hint of a process does (once per machine it compiles, and
says so on the ``solver`` logger, about 50 s; README, "Start-up").

One way to say things: every call takes its rule set as a variant name (``"russian"``,
``"lexington-harp"``) or a ``Rules``; a deal number as an int or as the command line takes
it (``"#12"``, ``"ms12345"``); everything after the rule set by keyword (``numbering=``,
``limits=``, ``directory=``); a day as a ``date`` or ISO text (``"2026-12-24"``).

Every error raised on bad input is a ``YukonError`` (hierarchy in ``solver.errors``): a value
a call does not take is an ``ArgumentError`` naming the argument, an illegal move an
``IllegalMove``. A solved line has always been replayed as a win on the reference engine;
``ReplayMismatch`` (a RuntimeError, never bad input) would mean a bug in the solver.
"""

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

from solver.api.game import Game, Move
from solver.api.runs import (
    deal_range,
    export_results,
    play_range,
    rate_range,
    solve_range,
    store_summary,
    summary_text,
)
from solver.common.formats import HINT, VERIFY_REPORT, stamped
from solver.errors import ArgumentError, YukonError, type_name
from solver.game.board import Board, board_from_json, check_board
from solver.game.board import read_board as read_board_text
from solver.game.explain import board_sentence
from solver.game.notation import LineMove, line_steps, parse_token
from solver.game.numbering import NUMBERINGS as NUMBERINGS
from solver.game.numbering import deal_board
from solver.game.ranges import named_deal
from solver.game.reference import IllegalMove, is_won
from solver.game.rules import VARIANTS as VARIANTS
from solver.game.rules import Rules, rules_named
from solver.player.view import View
from solver.results.limits import Limits
from solver.results.record import FIELD_NAMES as RECORD_FIELDS
from solver.results.record import Record
from solver.results.result import TIER_NAMES as TIER_NAMES
from solver.results.result import Spent, Status
from solver.results.verify import verify_records


class Cancel(Protocol):
    """A cancel handle for a running solve or hint: anything with ``is_set()``, such as a
    ``threading.Event`` set from another thread."""

    def is_set(self) -> bool: ...


if TYPE_CHECKING:  # the catalogues' names: see CATALOGUE_NAMES
    from solver.api.catalogue import (
        CatalogueHit,
        DailyDeal,
        DailyPick,
        TierBuild,
        build_catalogues,
        catalogue_hits,
        check_deal,
        daily_deal,
        entries_by_difficulty,
        load_catalogue,
        verify_catalogues,
    )
# The names of ``solver.api.catalogue`` offered here, loaded on first use (``__getattr__``): the
# catalogues' checks and schedule cost a twentieth of a second to import, which a solve never needs.
CATALOGUE_NAMES = frozenset(
    {
        "CatalogueHit",
        "DailyDeal",
        "DailyPick",
        "TierBuild",
        "build_catalogues",
        "catalogue_hits",
        "check_deal",
        "daily_deal",
        "entries_by_difficulty",
        "load_catalogue",
        "verify_catalogues",
    }
)


def __dir__() -> list[str]:
    """The module's names with CATALOGUE_NAMES, which ``__getattr__`` loads."""
    return sorted(set(globals()) | CATALOGUE_NAMES)


def __getattr__(name: str):
    """A name of CATALOGUE_NAMES, from ``solver.api.catalogue``."""
    if name in CATALOGUE_NAMES:
        return getattr(import_module("solver.api.catalogue"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:  # the player loads numba: imported when a hint is asked for
    from solver.player.decision import Confidence
    from solver.player.hint import Hint as PolicyHint

__all__ = [
    "ArgumentError",
    "Board",
    "Cancel",
    "CatalogueHit",
    "DailyDeal",
    "DailyPick",
    "Game",
    "Hint",
    "IllegalMove",
    "Limits",
    "LineMove",
    "Move",
    "NUMBERINGS",
    "Outcome",
    "Record",
    "Replay",
    "Rules",
    "Spent",
    "Status",
    "TIER_NAMES",
    "TierBuild",
    "VARIANTS",
    "View",
    "YukonError",
    "build_catalogues",
    "catalogue_hits",
    "check_deal",
    "daily_deal",
    "deal",
    "deal_range",
    "entries_by_difficulty",
    "explain_steps",
    "export_results",
    "hint",
    "load_catalogue",
    "play_range",
    "rate_range",
    "read_board",
    "replay",
    "replay_steps",
    "solve_board",
    "solve_deal",
    "solve_range",
    "store_summary",
    "summary_text",
    "verify_catalogues",
    "verify_results",
]

YUKON = Rules()
DEFAULT_LIMITS = Limits()


# --- deals and boards ---------------------------------------------------------------------


def deal(number: int | str, variant: Rules | str = "yukon", *, numbering: str = "pysol") -> Board:
    """The opening of deal ``number`` (an int, or text as the command line reads it: ``"#12"``,
    ``"12,345"``, ``"ms12345"`` for PySolFC's Microsoft deals) of ``variant`` (a name or
    Rules), numbered as PySolFC numbers its games (``"pysol"``, 1..10**20), its Microsoft
    deals (``"ms"``) or KDE Patience's (``"kpat"``, 1..2**31 - 1)."""
    number, numbering = named_deal(number, numbering)
    return deal_board(rules_named(variant).variant, number, numbering)


def read_board(
    source: str | dict[str, Any], rules: Rules | str = "yukon", *, unknown_cards: bool = False
) -> Board:
    """A position from its text form, its JSON text, or its JSON object (``Board.to_json()``),
    checked to hold the whole deck (two with Milligan) of ``rules``; ``Board.to_text()`` and
    ``Board.to_json()`` write it back. ``unknown_cards``: hidden cards may be unknown (``<?>``,
    ``Stock: ?``; JSON ``"?"``), as a player has the position (``Game`` and ``hint`` take it;
    a solve does not)."""
    named = rules_named(rules)
    if not isinstance(unknown_cards, bool):
        raise ArgumentError("unknown_cards", f" must be True or False, not {unknown_cards!r}")
    if isinstance(source, dict):
        return board_from_json(source, named, unknown_cards)
    if not isinstance(source, str):
        raise ArgumentError(
            "source", f" must be board text, JSON text or a JSON object, not {type_name(source)}"
        )
    return read_board_text(source, named, unknown_cards)


def checked_board(board: object) -> Board:
    """``board`` if it is a Board; ArgumentError else."""
    if not isinstance(board, Board):
        raise ArgumentError(
            "board", f" must be a Board (solver.deal, solver.read_board), not {type_name(board)}"
        )
    return board


def checked_limits(limits: object) -> Limits:
    """``limits`` if it is a Limits; ArgumentError else."""
    if not isinstance(limits, Limits):
        raise ArgumentError("limits", f" must be a Limits, not {type_name(limits)}")
    return limits


# --- solving ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome(Record):
    """A verdict on a position: its ``Record`` (every field of it, as ``yukon solve --json``
    prints it) with the position solved and how far a search for a shortest line got.

    ``status`` is solved (``solution``, the line as tokens from the position ``opening``,
    replayed as a win on the reference engine, and ``moves``, the same line as LineMoves),
    unsolvable (an exhaustive search proved it) or unknown (``budget`` names what ran out:
    time, nodes, memory, depth, or interrupted by Ctrl-C); both are enums whose values are
    those strings (``Status``, ``Spent``). ``proven_minimal``: no shorter line exists
    (searched for with ``Limits(minimal=True)``); ``lower_bound``: else, with it, no line is
    shorter than that. The effort is ``nodes``, ``seconds`` and ``peak_table_entries``;
    ``record`` is the plain Record: ``record.to_json()`` (as ``to_json()``) is the object."""

    opening: Board = field(kw_only=True)
    lower_bound: int | None = field(default=None, kw_only=True)

    @property
    def record(self) -> Record:
        """The results record alone, as a store keeps it."""
        return Record(**{name: getattr(self, name) for name in RECORD_FIELDS})

    @cached_property
    def moves(self) -> tuple[LineMove, ...]:
        """The line as LineMoves, replayed from ``opening`` on the reference engine when first
        asked for (a caller that only wants the verdict, as a batch does, never pays for it)."""
        return tuple(move for move, _ in line_steps(self.opening, self.solution.split(), self.rules))


def solve_deal(
    number: int | str,
    rules: Rules | str = YUKON,
    *,
    numbering: str = "pysol",
    limits: Limits = DEFAULT_LIMITS,
    cancel: Cancel | None = None,
    on_bound: Callable[[int, int], object] | None = None,
) -> Outcome:
    """Solve deal ``number`` (see ``deal``) under ``rules`` (a name or Rules) within ``limits``.
    ``cancel``: a handle with ``is_set()`` (a ``threading.Event``) that, once set from another
    thread, ends the solve within a fraction of a second with an unknown verdict, interrupted.
    Solves on several threads are independent; no signal handler is touched.
    ``on_bound(lower_bound, length)``: with ``Limits(minimal=True)``, called as the search for
    a shorter line than the one found (``length`` moves) proves none is shorter than ``lower_bound``."""
    named, (number, numbering) = rules_named(rules), named_deal(number, numbering)
    board = deal_board(named.variant, number, numbering)
    return solved(board, named, checked_limits(limits), numbering, number, cancel, on_bound)


def solve_board(
    board: Board,
    rules: Rules | str = YUKON,
    *,
    limits: Limits = DEFAULT_LIMITS,
    cancel: Cancel | None = None,
    on_bound: Callable[[int, int], object] | None = None,
) -> Outcome:
    """Solve any position (a mid-game one too; every card known) under ``rules`` within
    ``limits``; its record has no deal number. ``cancel``, ``on_bound``: as in ``solve_deal``."""
    named = rules_named(rules)
    check_board(checked_board(board), named)
    return solved(board, named, checked_limits(limits), "pysol", None, cancel, on_bound)


def solved(
    board: Board,
    rules: Rules,
    limits: Limits,
    numbering: str,
    number: int | None,
    cancel: Cancel | None = None,
    on_bound: Callable[[int, int], object] | None = None,
) -> Outcome:
    """The Outcome of solving ``board``, deal ``number`` (None: a board given by hand) of
    ``numbering`` (the one place a position is solved into a record for a caller)."""
    from solver.search.solve import solve_position

    result = solve_position(board, rules, limits, cancel=cancel, on_bound=on_bound)
    return Outcome.from_result(
        result,
        rules=rules,
        numbering=numbering,
        deal=number,
        board_text=board.to_text(),
        limits=limits,
        opening=board,
        lower_bound=result.lower_bound,
    )


# --- replaying and verifying --------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """A line replayed on the reference engine: its ``moves`` (LineMoves), the ``final``
    position and whether it is ``won``."""

    moves: tuple[LineMove, ...]
    final: Board
    won: bool


def replay_steps(
    board: Board, line: str | Sequence[str | Move], rules: Rules | str = YUKON
) -> Iterator[tuple[LineMove, Board]]:
    """Yield each move of ``line`` (a string of tokens, or a list of tokens or Moves) as a
    LineMove with the position after it. An illegal move raises IllegalMove naming its
    number, token and the rule it breaks (``illegal move 3 3>7:TS: ...``); an unreadable
    token, YukonError."""
    named, tokens = rules_named(rules), line_tokens(line)
    try:
        yield from line_steps(checked_board(board), tokens, named)
    except IllegalMove as error:
        raise IllegalMove(f"illegal {error}") from None


def explain_steps(
    board: Board, line: str | Sequence[str | Move], rules: Rules | str = YUKON
) -> Iterator[tuple[LineMove, str, Board]]:
    """As ``replay_steps``, each move with what it does in words (``yukon replay --explain``):
    ``(LineMove, sentence, board after)``."""
    before = board
    for move, after in replay_steps(board, line, rules):
        yield move, move_sentence_on(before, move.token), after
        before = after


def move_sentence_on(board: Board, token: str) -> str:
    """What the move written ``token`` does on ``board``, in words."""
    return board_sentence(board, parse_token(token, board))


def line_tokens(line: object) -> list[str]:
    """A line's tokens: from a string of tokens, or a list of tokens or Moves."""
    if isinstance(line, str):
        return line.split()
    if isinstance(line, (list, tuple)) and all(isinstance(move, (str, Move)) for move in line):
        return [str(move) for move in line]
    raise ArgumentError("line", f" must be a string of moves or a list of them, not {type_name(line)}")


def replay(board: Board, line: str | Sequence[str | Move], rules: Rules | str = YUKON) -> Replay:
    """Replay ``line`` from ``board`` (errors as ``replay_steps``)."""
    tokens = line_tokens(line)  # checked before any move is made
    steps = list(replay_steps(board, tokens, rules))
    final = steps[-1][1] if steps else board
    return Replay(tuple(move for move, _ in steps), final, is_won(final))


def verify_results(
    lines: Iterable[str | bytes],
    source: str = "the results",
    progress: Callable[[int], object] | None = None,
) -> dict[str, Any]:
    """Replay every record of a results file (JSON lines: an open file, text or binary, or a
    list of lines) as ``yukon verify`` does. Returns ``yukon verify --json``'s report: the
    format keys, the counts ``good``, ``illegal``,
    ``unverifiable`` (unsolvable and unknown records) and ``unreadable``, ``problems`` (one
    line per illegal record, naming ``source`` and the line) and ``first_unreadable``;
    ``progress(lines_read)`` is called after every line."""
    return stamped(verify_records(lines, source, progress), VERIFY_REPORT)


# --- hints --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """A hint and how it was asked for. ``status`` says move / won / lost / gone / stuck, ``move`` is
    a token (None without a move), ``confidence`` the sampled deals still won after it (a
    ``Confidence``: ``won`` of ``samples``, ``fraction``, ``interval``; None for greedy),
    ``reason`` why: those of ``advice``, the policy's own answer; ``policy`` and ``seed`` as
    given. ``to_json()`` is ``yukon hint --json``'s object (``solver/schemas/hint.schema.json``)."""

    advice: "PolicyHint"
    policy: str
    seed: int

    @property
    def status(self) -> str:
        return self.advice.status

    @property
    def move(self) -> str | None:
        return self.advice.move

    @property
    def confidence(self) -> "Confidence | None":
        return self.advice.confidence

    @property
    def reason(self) -> str:
        return self.advice.reason

    @property
    def exit_status(self) -> int:
        """``yukon hint``'s exit status for it (README, "Exit statuses")."""
        return self.advice.exit_status

    def text(self) -> str:
        """The line ``yukon hint`` prints: the move, its confidence and reason."""
        return self.advice.text()

    def to_json(self) -> dict[str, Any]:
        """The JSON object, with its format keys: ``confidence`` is the fraction (null for
        greedy), ``sampled`` the counts behind it, then ``policy`` and ``seed``."""
        return stamped(self.advice.as_dict() | {"policy": self.policy, "seed": self.seed}, HINT)


def hint(
    board: Board,
    rules: Rules | str = YUKON,
    *,
    after: str = "",
    history: str = "",
    policy: str = "expert",
    samples: int | None = None,
    max_nodes: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    cancel: Cancel | None = None,
) -> Hint:
    """One move for ``board`` after the moves ``after`` (e.g. a deal and the moves played),
    from what a person can see: face-down cards and the stock's order stay hidden from the
    policy (the board may leave them unknown), ``"expert"`` (plans up to the next card
    turned, compared over at most ``samples`` deals of the unseen cards, default 24, each
    solved within ``max_nodes``, default 10,000), ``"sampling"`` (``samples`` deals, default
    16) or ``"greedy"``. ``history``: moves that led to ``board``, taken back on what is
    visible. The hint never undoes the last move nor returns to a position seen in the game.
    The same ``seed`` gives the same hint. ``Hint.status`` says move / won / lost / gone (every
    sampled deal proved lost: no move) / stuck. ``progress(done, total)`` follows the deals
    solved. ``cancel``: as in ``solve_deal``; once it is set every search of a sampling hint
    stops at once, and the hint answers from what they found (nothing found: the greedy
    order's first move, confidence 0)."""
    from solver.common.interrupts import cancelled_by
    from solver.player.hint import game_so_far
    from solver.player.hint import hint as policy_hint
    from solver.runs.play import check_seed
    from solver.search.budget import checked_cancel

    named = rules_named(rules)
    checked_board(board)
    for name, moves in (("after", after), ("history", history)):
        if not isinstance(moves, str):
            raise ArgumentError(name, f" must be a string of moves, not {type_name(moves)}")
    check_seed(seed)
    settings = {"samples": samples, "max_nodes": max_nodes}
    given = {name: value for name, value in settings.items() if value is not None}
    position, game = game_so_far(board, named, after, history)
    with cancelled_by(checked_cancel(cancel)):
        return Hint(policy_hint(position, named, policy, seed, game, progress, **given), policy, seed)
