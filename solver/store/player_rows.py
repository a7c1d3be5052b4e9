"""The typed rows of the player's tables (schema 2): ``Play``, one row of ``plays``, and
``Rating``, one row of ``ratings``. As with ``solver.record.Record``, a row's fields in
their order are its table's columns (``schema`` reads their SQL types from the fields'
types); booleans are stored as 0/1 and a large deal number as text (``record.store_row``).
"""

from dataclasses import dataclass

from solver.record import row_fields, store_row

# The difficulty tiers of ``solver.player.difficulty``, easiest first.
TIER_NAMES = ("easy", "normal", "hard")


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
class Rating(StoreRow):
    """The greedy reference player's ``failures`` over ``runs`` runs drawn from ``seed``, the
    ``tier`` (None: not proved solvable) and the verdict (``status``) it was rated beside."""

    variant: str
    foundation_return: bool
    numbering: str
    deal: int
    runs: int
    seed: int
    failures: int
    tier: str | None
    status: str
    thoughtful_length: int | None
    solver_nodes: int
    solver_version: str
    rated_at: str
