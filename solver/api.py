"""The public Python API: the names ``import solver`` offers (listed in ``solver.__all__``).

A thin layer over the modules that do the work: deal numbers (``numbering``), boards
(``board``), the solver (``solve``), lines (``notation``, ``reference``), results files
(``verify``), the player's hints (``player``) and the catalogues (``catalogue``). Importing it
loads no numba: the first solve or hint of a process does (once per machine it compiles, and
says so on the ``solver`` logger, about 50 s; README, "Start-up").

Every error raised on bad input is a ``YukonError`` whose message is the one line the command
line prints after ``error:``; an illegal move is its subclass ``IllegalMove``. A solved line
has always been replayed as a win on the reference engine; ``ReplayMismatch`` (a
RuntimeError, never bad input) would mean a bug in the solver.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from solver.board import Board, board_from_json
from solver.board import read_board as read_board_text
from solver.catalogue.entries import difficulty_of
from solver.catalogue.files import load_checked, read_catalogue, read_manifest, rule_set_name, rule_set_of
from solver.catalogue.schedule import DailyPick, daily_in
from solver.errors import YukonError as YukonError
from solver.notation import LineMove, line_steps
from solver.numbering import NUMBERINGS as NUMBERINGS
from solver.numbering import deal_board
from solver.record import Record
from solver.reference import IllegalMove, is_won
from solver.result import TIER_NAMES as TIER_NAMES
from solver.result import Limits
from solver.rules import VARIANTS as VARIANTS
from solver.rules import Rules
from solver.verify import verify_records

if TYPE_CHECKING:  # the player loads numba: imported when a hint is asked for
    from solver.player.hint import Hint

YUKON = Rules()
DEFAULT_LIMITS = Limits()


# --- deals and boards ---------------------------------------------------------------------


def deal(number: int, variant: str = "yukon", numbering: str = "pysol") -> Board:
    """The opening of deal ``number`` of ``variant``, numbered as PySolFC numbers its games
    (``"pysol"``, 1..10**20) or as KDE Patience does (``"kpat"``, 1..2**31 - 1)."""
    return deal_board(variant, number, numbering)


def read_board(source: str | dict, rules: Rules = YUKON) -> Board:
    """A position from its text form, its JSON text, or its JSON object (``Board.to_json()``),
    checked to hold the whole deck (two with Milligan) of ``rules``; ``Board.to_text()`` and
    ``Board.to_json()`` write it back."""
    if isinstance(source, dict):
        return board_from_json(source, rules)
    return read_board_text(source, rules)


# --- solving ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """A verdict on a position, and how it was reached.

    ``status`` is ``"solved"`` (``solution``, the line as tokens from the position
    ``opening``, replayed as a win on the reference engine, and ``moves``, the same line as
    LineMoves), ``"unsolvable"`` (an exhaustive search proved it) or ``"unknown"`` (``budget``
    names what ran out: time, nodes, memory, depth, or interrupted by Ctrl-C).
    ``proven_minimal``: no shorter line exists (searched for with ``Limits(minimal=True)``).
    The effort is ``nodes``, ``seconds`` and ``peak_table_entries``; ``record`` is the whole
    results record with its provenance (rule set, numbering, deal, opening, limits, solver
    version, finish time): ``record.to_json()`` is what ``yukon solve --json`` prints."""

    status: str
    solution: str
    proven_minimal: bool
    budget: str | None
    nodes: int
    seconds: float
    peak_table_entries: int
    opening: Board
    record: Record

    @cached_property
    def moves(self) -> tuple[LineMove, ...]:
        """The line as LineMoves, replayed from ``opening`` on the reference engine when first
        asked for (a caller that only wants the verdict, as a batch does, never pays for it)."""
        return tuple(move for move, _ in line_steps(self.opening, self.solution.split(), self.record.rules))


def solve_deal(
    number: int, rules: Rules = YUKON, numbering: str = "pysol", limits: Limits = DEFAULT_LIMITS
) -> Outcome:
    """Solve deal ``number`` (see ``deal``) under ``rules`` within ``limits``."""
    return solved(deal(number, rules.variant, numbering), rules, limits, numbering, number)


def solve_board(board: Board, rules: Rules = YUKON, limits: Limits = DEFAULT_LIMITS) -> Outcome:
    """Solve any position (a mid-game one too) under ``rules`` within ``limits``; its record
    has no deal number."""
    return solved(board, rules, limits, "pysol", None)


def solved(board: Board, rules: Rules, limits: Limits, numbering: str, number: int | None) -> Outcome:
    """The Outcome of solving ``board``, deal ``number`` (None: a board given by hand) of ``numbering``."""
    from solver.solve import solve_position

    result = solve_position(board, rules, limits)
    record = Record.from_result(
        result, rules=rules, numbering=numbering, deal=number, board_text=board.to_text(), limits=limits
    )
    return Outcome(
        status=str(result.status),
        solution=result.solution,
        proven_minimal=result.proven_minimal,
        budget=None if result.budget is None else str(result.budget),
        nodes=result.nodes,
        seconds=result.seconds,
        peak_table_entries=result.peak_table_entries,
        opening=board,
        record=record,
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
    board: Board, line: str | list[str], rules: Rules = YUKON
) -> Iterator[tuple[LineMove, Board]]:
    """Yield each move of ``line`` (a string of tokens, or a list of them) as a LineMove with
    the position after it. An illegal move raises IllegalMove naming its number, token and the
    rule it breaks (``illegal move 3 3>7:TS: ...``); an unreadable token, YukonError."""
    tokens = line.split() if isinstance(line, str) else list(line)
    try:
        yield from line_steps(board, tokens, rules)
    except IllegalMove as error:
        raise IllegalMove(f"illegal {error}") from None


def replay(board: Board, line: str | list[str], rules: Rules = YUKON) -> Replay:
    """Replay ``line`` from ``board`` (errors as ``replay_steps``)."""
    steps = list(replay_steps(board, line, rules))
    final = steps[-1][1] if steps else board
    return Replay(tuple(move for move, _ in steps), final, is_won(final))


def verify_results(lines, source: str = "the results", progress=None) -> dict:
    """Replay every record of a results file (JSON lines: an open file, text or binary, or a
    list of lines) as ``yukon verify`` does. Returns the counts ``good``, ``illegal``,
    ``unverifiable`` (unsolvable and unknown records) and ``unreadable``, ``problems`` (one
    line per illegal record, naming ``source`` and the line) and ``first_unreadable``;
    ``progress(lines_read)`` is called after every line."""
    return verify_records(lines, source, progress)


# --- hints --------------------------------------------------------------------------------


def hint(
    board: Board,
    rules: Rules = YUKON,
    *,
    after: str = "",
    history: str = "",
    policy: str = "expert",
    samples: int | None = None,
    max_nodes: int | None = None,
    seed: int = 0,
    progress=None,
) -> "Hint":
    """One move for ``board`` after the moves ``after`` (e.g. a deal and the moves played),
    from what a person can see: face-down cards and the stock's order stay hidden from the
    policy (the board may leave them unknown), ``"expert"`` (plans up to the next card
    turned, compared over at most ``samples`` deals of the unseen cards, default 24, each
    solved within ``max_nodes``, default 10,000), ``"sampling"`` (``samples`` deals, default
    16) or ``"greedy"``. ``history``: moves that led to ``board``, taken back on what is
    visible. The hint never undoes the last move nor returns to a position seen in the game.
    The same ``seed`` gives the same hint. ``Hint.status`` says move / won / lost / gone (every
    sampled deal proved lost: no move) / stuck, ``Hint.move`` is a token (None without a
    move), ``Hint.confidence`` how many sampled deals are still won after it (None for
    greedy), ``Hint.reason`` why. ``progress(done, total)`` follows the deals solved."""
    from solver.player.hint import game_so_far
    from solver.player.hint import hint as policy_hint
    from solver.runs.play import check_seed

    check_seed(seed)
    settings = {"samples": samples, "max_nodes": max_nodes}
    given = {name: value for name, value in settings.items() if value is not None}
    position, game = game_so_far(board, rules, after, history)
    return policy_hint(position, rules, policy, seed, game, progress, **given)


# --- catalogues and the daily deal --------------------------------------------------------


@dataclass(frozen=True)
class CatalogueHit:
    """Where a catalogue holds a deal: its difficulty ``tier``, the catalogue file ``path``,
    the ``entry`` (board, solution line, length, difficulty; catalogue/README.md) and the
    ``rule_set`` the file is for (``yukon``, ``yukon-return``, ``yukon-kpat``, ...)."""

    tier: str
    path: Path
    entry: dict
    rule_set: str


def catalogue_folder(directory: str | Path | None) -> Path:
    """``directory``, or the catalogues installed with the package."""
    from solver.catalogue.files import shipped_directory

    return Path(directory) if directory else shipped_directory()


def catalogue_hits(
    number: int, variant: str = "yukon", numbering: str = "pysol", directory: str | Path | None = None
) -> tuple[CatalogueHit, ...]:
    """Every catalogue of ``variant`` in ``numbering`` (any rule set, shipped or in
    ``directory``, in manifest order) that holds deal ``number``; empty when none does (then
    only ``solve_deal`` can tell whether it is solvable). A folder that holds no catalogue is
    a YukonError."""
    folder = catalogue_folder(directory)
    hits = []
    for record in read_manifest(folder)["files"]:
        if rule_set_of(record)[0::2] != (variant, numbering):
            continue
        path = folder / str(record.get("file"))
        entries = read_catalogue(path)["entries"] if path.exists() else []
        for entry in entries:
            if (entry.get("numbering"), entry.get("deal")) == (numbering, number):
                hits.append(CatalogueHit(record["tier"], path, entry, rule_set_name(*rule_set_of(record))))
    return tuple(hits)


def check_deal(
    number: int, variant: str = "yukon", numbering: str = "pysol", directory: str | Path | None = None
) -> CatalogueHit | None:
    """The first of ``catalogue_hits`` (strict rules before foundation return), or None."""
    hits = catalogue_hits(number, variant, numbering, directory)
    return hits[0] if hits else None


def load_catalogue(
    variant: str = "yukon",
    tier: str = "easy",
    directory: str | Path | None = None,
    foundation_return: bool = False,
    numbering: str = "pysol",
) -> dict:
    """The catalogue of a rule set and tier (shipped, or in ``directory``) whose checksum
    matches its manifest: ``format``, ``variant``, ``tier`` and its ``entries``
    (catalogue/README.md). A rule set without one is a YukonError naming those there are."""
    return load_checked(catalogue_folder(directory), variant, tier, foundation_return, numbering)


def entries_by_difficulty(catalogue: dict) -> list[dict]:
    """A catalogue's entries easiest first: by ``difficulty`` (the ladder's score), else by
    ``score`` (a file without one), entries of one score in file order. Files keep their
    order (the daily schedule reads it), which is not always this one: a rescored file's
    entries are in the order of its first scores."""
    return sorted(catalogue["entries"], key=difficulty_of)


@dataclass(frozen=True)
class DailyDeal:
    """The deal of the day ``day``: the catalogue ``entry`` (deal, numbering, board text,
    solution line, length, difficulty) and ``pick``, where it sits in the schedule (entry
    index, cycle, day of the cycle, pool size)."""

    day: date
    entry: dict
    pick: DailyPick


def daily_deal(
    variant: str = "yukon",
    tier: str = "easy",
    day: date | None = None,
    directory: str | Path | None = None,
    foundation_return: bool = False,
    numbering: str = "pysol",
) -> DailyDeal:
    """The deal of ``day`` (default: today, local date) for a rule set and ``tier``, by the
    language-neutral schedule of catalogue/README.md."""
    chosen = day or date.today()
    entry, pick = daily_in(catalogue_folder(directory), variant, tier, chosen, foundation_return, numbering)
    return DailyDeal(chosen, entry, pick)
