"""One catalogue entry: making it from a rated deal, and every check it must pass.

An entry is a JSON object (the schema is in ``catalogue/README.md``); ``entry_problem`` is
the one judge of it, used both before an entry is written and by ``yukon catalogue verify``.
"""

from dataclasses import dataclass
from datetime import date

from solver.errors import YukonError, clipped
from solver.game.notation import final_position
from solver.game.numbering import deal_board
from solver.game.reference import IllegalMove, is_won
from solver.game.rules import Rules
from solver.results.result import TIER_NAMES
from solver.version import __version__

FIELDS = {
    "variant": str,
    "numbering": str,
    "deal": int,
    "foundation_return": bool,
    "board": str,
    "solution": str,
    "length": int,
    "score": (int, float),
    "runs": int,
    "seed": int,
    "failures": int,
    "tier": str,
    "solver_version": str,
    "since": str,
}


# The keys an entry rated by the ladder adds (its file states the ``difficulty_model``).
LADDER_FIELDS = {"difficulty": (int, float), "difficulty_se": (int, float), "ladder": list}
# How far a stored difficulty may lie from the one recomputed (both are rounded to 3 places).
DIFFICULTY_TOLERANCE = 0.0015


@dataclass(frozen=True)
class RatedDeal:
    """A catalogue candidate: a solved deal, its opening board text, a winning line found
    under its rule set (``foundation_return``), and its rating: the reference greedy
    player failed it ``failures`` times in ``runs`` seeded from ``seed``; with ``ladder``
    (a ``difficulty.LadderRating``), its difficulty score, which gives ``tier``.

    This is the whole interface between a builder and where deals come from
    (``candidates.tier_candidates`` yields these from a results store)."""

    variant: str
    numbering: str
    deal: int
    board: str
    solution: str
    runs: int
    seed: int
    failures: int
    tier: str
    foundation_return: bool = False
    ladder: object = None

    @property
    def key(self) -> tuple[str, int]:
        return self.numbering, self.deal

    @property
    def score(self) -> float:
        return failure_score(self.failures, self.runs)


def failure_score(failures: int, runs: int) -> float:
    """The difficulty score: the failure rate, rounded to 4 places."""
    return round(failures / runs, 4)


def make_entry(rated: RatedDeal, since: date) -> dict:
    ladder = rated.ladder
    score = (
        {}
        if ladder is None
        else {
            "difficulty": ladder.difficulty,
            "difficulty_se": ladder.standard_error,
            "ladder": [list(pair) for pair in ladder.results],
        }
    )
    return {
        "variant": rated.variant,
        "numbering": rated.numbering,
        "deal": rated.deal,
        "foundation_return": rated.foundation_return,
        "board": rated.board,
        "solution": rated.solution,
        "length": len(rated.solution.split()),
        "score": rated.score,
        "runs": rated.runs,
        "seed": rated.seed,
        "failures": rated.failures,
        "tier": rated.tier,
        **score,
        "solver_version": __version__,
        "since": since.isoformat(),
    }


def difficulty_of(entry: dict) -> float:
    """The entry's difficulty, easiest lowest: the ladder's ``difficulty``, else (a file scored
    before the ladder) the greedy failure rate ``score``."""
    return entry.get("difficulty", entry["score"])


def entry_key(entry: dict) -> tuple:
    return entry.get("numbering"), entry.get("deal")


def field_problem(entry: dict, fields: dict) -> str | None:
    for field, kind in fields.items():
        value = entry.get(field)
        if value is None or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"field {field!r} is missing or not a {getattr(kind, '__name__', 'number')}"
    return None


def score_problem(entry: dict, model: dict) -> str | None:
    """Why the entry's ladder score is not what its file's ``difficulty_model`` gives, or
    None: its difficulty, recomputed from its ladder games, and the tier of that."""
    from solver.player.difficulty import ladder_rating  # here: reading a catalogue loads no numba

    problem = field_problem(entry, LADDER_FIELDS)
    if problem:
        return problem
    try:
        rating = ladder_rating(entry["ladder"], model, entry.get("score"))
    except (TypeError, ValueError, KeyError) as error:
        ladder = clipped(repr(entry["ladder"]), 80)
        return f"ladder {ladder} or the file's difficulty_model is malformed ({error})"
    if abs(rating.difficulty - entry["difficulty"]) > DIFFICULTY_TOLERANCE:
        return f"difficulty {entry['difficulty']} but its ladder games give {rating.difficulty}"
    if rating.tier != entry["tier"]:
        return f"difficulty {rating.difficulty} is in the {rating.tier} tier, not {entry['tier']}"
    return None


def entry_problem(entry: dict, variant: str, tier: str, model: dict | None = None) -> str | None:
    """Why the entry is not a valid entry of the ``variant``/``tier`` catalogue (whose
    ``difficulty_model`` is ``model``, if it has one), or None: its fields, its score,
    its board being exactly the numbered deal's canonical text, and its line replayed as
    a win on the reference engine under its rule set."""
    problem = field_problem(entry, FIELDS) or (score_problem(entry, model) if model else None)
    if problem:
        return problem
    if entry["variant"] != variant or entry["tier"] != tier:
        return f"entry is {entry['variant']} {entry['tier']}, in the {variant} {tier} catalogue"
    if tier not in TIER_NAMES or not 0 <= entry["failures"] <= entry["runs"] or entry["runs"] < 1:
        return f"tier {tier!r} or failures {entry['failures']} of {entry['runs']} runs out of range"
    if entry["score"] != failure_score(entry["failures"], entry["runs"]):
        return f"score {entry['score']} is not {entry['failures']} failures / {entry['runs']} runs"
    try:
        date.fromisoformat(entry["since"])
        rules = Rules(variant, entry["foundation_return"])
        board = deal_board(variant, entry["deal"], entry["numbering"])
        if entry["board"] != board.to_text():  # what ``daily`` prints: no comment, no other spelling
            return (
                f"board is not {entry['numbering']} deal {entry['deal']} (its text as `yukon deal` prints it)"
            )
        tokens = entry["solution"].split()
        if entry["length"] != len(tokens):
            return f"length {entry['length']} but the line has {len(tokens)} moves"
        final = final_position(board, tokens, rules)
    except (IllegalMove, YukonError, ValueError) as error:
        return str(error)
    return None if is_won(final) else "the line is legal but does not win"
