"""The one result record: a verdict with everything needed to trust, redo or count it.

``Record``'s fields, in their order, are the published names: the results store's columns,
the objects of ``yukon export`` and ``yukon solve --json``, and (the fields marked
``REPLAYED``, which lead every object after its format keys) what ``yukon verify`` needs to
replay a record. Fields marked ``OPTIONAL`` came after release 0.1.0: a JSON object leaves
them out when they are None (so what an older store exports is as it was) and may lack them.
Nothing else spells the list out; the conversions to and from a JSON object (format
``yukon-record``, ``solver/schemas/record.schema.json``) and a store row live here.

A store row differs from the JSON object in two ways: booleans are 0/1, and a deal number
beyond SQLite's integers (2**63 - 1; PySolFC numbers deals up to 10**20) is stored as
21-digit zero-padded text. SQLite sorts every INTEGER before every TEXT, so ordering by the
stored deal is numeric order either way.
"""

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Self

from solver.common.formats import RECORD, check_format, deal_of_json, json_deal, stamped
from solver.errors import YukonError
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import LARGEST_INTEGER, SOLVED, UNKNOWN, UNSOLVABLE, Result, Spent, Status
from solver.version import __version__, verdict_source

STATUSES = tuple(Status)
DECIDED = (SOLVED, UNSOLVABLE)
REASON_CHARS = 500
DEAL_DIGITS = 21
# Field metadata: the fields ``yukon verify`` replays a record from.
REPLAYED = {"replayed": True}
OPTIONAL = {"optional": True}


@dataclass(frozen=True)
class Record:
    """One verdict on one position under one rule set, as stored and exported.

    ``deal`` is None for a position given as a board. ``status`` is solved (``solution``
    replayed as a win on the reference engine), unsolvable or unknown (``budget`` names
    what ran out; ``reason`` names the fault when the solve failed instead). ``loss_reason``:
    why an unsolvable position is lost, in words (``solver.search.loss_reason``). ``status`` and
    ``budget`` are the enums ``Status`` and ``Spent`` (given as their strings, they are
    made enums); the JSON object and the store row hold their strings."""

    variant: str = field(metadata=REPLAYED)
    foundation_return: bool = field(metadata=REPLAYED)
    numbering: str = field(metadata=REPLAYED)
    deal: int | None = field(metadata=REPLAYED)
    board: str = field(metadata=REPLAYED)
    status: Status = field(metadata=REPLAYED)
    solution: str = field(metadata=REPLAYED)
    solution_length: int
    proven_minimal: bool
    nodes: int
    seconds: float
    peak_table_entries: int | None
    budget: Spent | None
    reason: str | None
    time_limit: float | None
    max_nodes: int | None
    solver_version: str
    finished_at: str
    loss_reason: str | None = field(default=None, metadata=OPTIONAL)
    solver_source: str | None = field(default=None, metadata=OPTIONAL)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"record of deal {self.deal} has status {self.status!r}")
        object.__setattr__(self, "status", Status(self.status))
        if self.budget is not None:
            object.__setattr__(self, "budget", Spent(self.budget))

    @classmethod
    def from_result(
        cls,
        result: Result,
        *,
        rules: Rules,
        numbering: str,
        deal: int | None,
        board_text: str,
        limits: Limits,
        **more: Any,
    ) -> Self:
        """The record of a solver verdict on ``board_text`` (deal ``deal`` or a given board);
        ``more``: the fields a subclass adds."""
        return cls(
            **provenance(rules, numbering, deal, board_text, limits),
            status=result.status,
            solution=result.solution,
            solution_length=result.solution_length,
            proven_minimal=result.proven_minimal,
            nodes=result.nodes,
            seconds=result.seconds,
            peak_table_entries=result.peak_table_entries,
            budget=result.budget,
            reason=None,
            loss_reason=result.loss_reason,
            **more,
        )

    @classmethod
    def failure(
        cls,
        reason: str,
        *,
        rules: Rules,
        numbering: str,
        deal: int | None,
        board_text: str,
        limits: Limits,
        seconds: float = 0.0,
    ) -> "Record":
        """An unknown record for a solve that failed (an exception, a dead worker)."""
        return cls(
            **provenance(rules, numbering, deal, board_text, limits),
            status=UNKNOWN,
            solution="",
            solution_length=0,
            proven_minimal=False,
            nodes=0,
            seconds=seconds,
            peak_table_entries=None,
            budget=None,
            reason=reason[:REASON_CHARS],
        )

    @property
    def rules(self) -> Rules:
        return Rules(self.variant, self.foundation_return)

    def to_json(self) -> dict[str, Any]:
        """A JSON object: the format keys, then every field in field order (an OPTIONAL one
        only when set); a deal number above 2**53 - 1 as a decimal string (``formats.json_deal``)."""
        fields = {
            name: value
            for name, value in self.stored_fields().items()
            if value is not None or name not in OPTIONAL_NAMES
        }
        return stamped(fields | {"deal": json_deal(self.deal)}, RECORD)

    def stored_fields(self) -> dict[str, Any]:
        """The fields ``Record`` defines (a subclass's own left out), in field order, the
        enums as their strings."""
        return {name: plain(getattr(self, name)) for name in FIELD_NAMES}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Record":
        """The record of a JSON object, with or without the format keys (release 0.1.0
        wrote none) and the OPTIONAL fields; YukonError for another format or a newer version."""
        check_format(data, RECORD, f"record of deal {data.get('deal')}")
        fields = {name: data[name] for name in FIELD_NAMES if name in data or name not in OPTIONAL_NAMES}
        return cls(**fields | {"deal": deal_of_json(fields["deal"])})

    def to_row(self) -> tuple[Any, ...]:
        """The store row: every field in field order, booleans as 0/1, the deal encoded."""
        return store_row(self)

    @classmethod
    def from_row(cls, values: Sequence[Any]) -> "Record":
        data = row_fields(cls, values)
        data["time_limit"] = finite_or_none(data["time_limit"])
        return cls(**data)


def provenance(rules: Rules, numbering: str, deal: int | None, board_text: str, limits: Limits) -> dict:
    """The fields saying what was solved, how, by which solver, and when."""
    return {
        "variant": rules.variant,
        "foundation_return": rules.foundation_return,
        "numbering": numbering,
        "deal": deal,
        "board": board_text,
        "time_limit": finite_or_none(limits.time_limit),
        "max_nodes": limits.max_nodes,
        "solver_version": __version__,
        "finished_at": now_text(),
        "solver_source": verdict_source(),
    }


FIELDS = fields(Record)
FIELD_NAMES = tuple(item.name for item in FIELDS)
REPLAY_FIELDS = tuple(item.name for item in FIELDS if item.metadata.get("replayed"))
OPTIONAL_NAMES = tuple(item.name for item in FIELDS if item.metadata.get("optional"))


def plain(value: Any) -> Any:
    """A stored value: an enum (``Status``, ``Spent``) as its string, anything else as it is."""
    return str(value) if isinstance(value, StrEnum) else value


def store_row(row) -> tuple:
    """A dataclass of store columns (a Record, a player table's row) as its store row: every
    field in field order, booleans as 0/1, enums as their strings, the deal encoded."""
    values = row.stored_fields() if isinstance(row, Record) else asdict(row)
    values["deal"] = encode_deal(values["deal"])
    return tuple(int(value) if isinstance(value, bool) else plain(value) for value in values.values())


def row_fields(kind, values) -> dict:
    """The fields of dataclass ``kind`` from a store row (``store_row`` backwards)."""
    items = fields(kind)
    data = dict(zip((item.name for item in items), values, strict=True))
    data["deal"] = decode_deal(data["deal"])
    for item in items:
        if item.type is bool:
            data[item.name] = bool(data[item.name])
    return data


def finite_or_none(seconds: float | None) -> float | None:
    """A time limit as recorded: an infinite one is no limit (None), which JSON can hold."""
    return seconds if seconds is not None and math.isfinite(seconds) else None


def budget_at_least(record, other) -> bool:
    """Whether ``record`` was given at least ``other``'s node and time budgets (None: none);
    either is anything with a ``max_nodes`` and a ``time_limit`` (a Record, a ``Retry``)."""
    return all(
        mine is None or (theirs is not None and mine >= theirs)
        for mine, theirs in ((record.max_nodes, other.max_nodes), (record.time_limit, other.time_limit))
    )


def larger_budget(first, second):
    """The larger of two limits, None (no limit) being the largest."""
    return None if first is None or second is None else max(first, second)


class Contradiction(YukonError):
    """Two decisions on one deal disagree: one says solved, the other unsolvable."""


def settle(stored: Record | None, new: Record) -> Record:
    """The record a store keeps when ``new`` arrives for the deal of ``stored``.

    A decided verdict is replaced only by a decision; solved against unsolvable raises
    Contradiction (never resolved silently). Between two unknowns, the one given the larger
    budget is kept, its limits raised to the largest tried, so the row records them."""
    if stored is None or stored.status == UNKNOWN and new.status in DECIDED:
        return new
    if stored.status in DECIDED:
        if new.status == UNKNOWN:
            return stored
        if new.status != stored.status:
            raise Contradiction(
                f"deal {new.deal}: stored {stored.status} (solver {stored.solver_version}), "
                f"now {new.status} (solver {new.solver_version})"
            )
        return new
    kept = stored if budget_at_least(stored, new) and not budget_at_least(new, stored) else new
    return replace(
        kept,
        max_nodes=larger_budget(stored.max_nodes, new.max_nodes),
        time_limit=larger_budget(stored.time_limit, new.time_limit),
    )


def now_text() -> str:
    """The current UTC time to the second, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def encode_deal(deal: int | None):
    """A deal number as stored: an integer when SQLite holds it, else zero-padded text."""
    if deal is None or deal <= LARGEST_INTEGER:
        return deal
    return str(deal).zfill(DEAL_DIGITS)


def decode_deal(value) -> int | None:
    return None if value is None else int(value)
