"""The typed rows of the player's tables (schema 2): ``Play``, one row of ``plays``, and
``Rating``, one row of ``ratings``. As with ``solver.results.record.Record``, a row's fields in
their order are its table's columns (``schema`` reads their SQL types from the fields'
types); booleans are stored as 0/1 and a large deal number as text (``record.store_row``).
"""

from dataclasses import dataclass, fields, make_dataclass

from solver.results.record import row_fields, store_row


class StoreRow:
    """Conversion of a row dataclass to and from its store row."""

    def to_row(self) -> tuple:
        return store_row(self)

    @classmethod
    def from_row(cls, values):
        return cls(**row_fields(cls, values))


@dataclass(frozen=True)
class Play(StoreRow):
    """One game of ``policy`` (``settings``: its settings as sorted JSON) on ``deal``, run
    ``run`` of a series drawn from ``seed`` (the game's own seed is ``game_seed``); a won
    ``line`` was replayed as a win on the reference engine before it was stored."""

    variant: str
    foundation_return: bool
    numbering: str
    deal: int
    policy: str
    settings: str
    seed: int
    run: int
    game_seed: int
    won: bool
    moves: int
    line: str
    solver_version: str
    finished_at: str


@dataclass(frozen=True)
class RatingFigures:
    """What a rating says (``solver.player.difficulty``): the greedy reference player's
    ``failures`` over ``runs`` runs drawn from ``seed``, the ``tier`` (None: not proved
    solvable), and the verdict (``status``, its line's length, its nodes) it was rated beside."""

    runs: int
    seed: int
    failures: int
    tier: str | None
    status: str
    thoughtful_length: int | None
    solver_nodes: int

    @property
    def failure_rate(self) -> float:
        return self.failures / self.runs


# One row of ``ratings``: the deal and its rule set, the rating's figures, who rated it when.
RATING_KEY = (("variant", str), ("foundation_return", bool), ("numbering", str), ("deal", int))
RATING_STAMP = (("solver_version", str), ("rated_at", str))
Rating = make_dataclass(
    "Rating",
    [*RATING_KEY, *((item.name, item.type) for item in fields(RatingFigures)), *RATING_STAMP],
    bases=(StoreRow,),
    frozen=True,
)
Rating.__doc__ = (
    "One row of ``ratings``: a deal's rule set and number, its ``RatingFigures``, version and time."
)
