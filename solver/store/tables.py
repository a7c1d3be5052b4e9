"""What the tables of a results store share: the open connection, the store's rule set
(the first columns of every table's key), reading queries, checking a row before it is
written, and deal ranges walked in blocks."""

import sqlite3
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

from solver.errors import YukonError
from solver.results.record import LARGEST_INTEGER
from solver.store.connection import transaction, translated

RULE_SET_COLUMNS = ("variant", "foundation_return", "numbering")
RULE_KEY = " AND ".join(f"{name} = ?" for name in RULE_SET_COLUMNS)
# Deals per query when walking a range against the store.
RANGE_BLOCK = 10_000


class Tables:
    """The part of ``Store`` each table's methods build on; ``key`` is the store's rule set
    as stored (variant, foundation_return as 0/1, numbering)."""

    path: Path
    connection: sqlite3.Connection
    key: tuple[str, int, str]

    def fetch(self, sql: str, parameters=()) -> list[tuple]:
        with translated(self.path, "cannot read"):
            return self.connection.execute(sql, parameters).fetchall()

    def column(self, sql: str, parameters=()) -> list:
        return [value for (value,) in self.fetch(sql, parameters)]

    def transaction(self):
        """One write transaction on the store (``connection.transaction``)."""
        return transaction(self.connection, self.path)

    def checked(self, row):
        """``row`` (a Record or a player table's row), when it is of this store's rule set
        and every value fits its column."""
        if (row.variant, int(row.foundation_return), row.numbering) != self.key:
            raise ValueError(f"{type(row).__name__} of deal {row.deal} is not of this store's rule set")
        for item, value in zip(fields(row), row.to_row(), strict=True):
            if isinstance(value, int) and not -LARGEST_INTEGER - 1 <= value <= LARGEST_INTEGER:
                raise YukonError(
                    f"{item.name} {value} of deal {row.deal} is too large for results store {self.path}"
                )
        return row


def blocks(deals) -> Iterator[tuple[int, int]]:
    """The intervals of a DealRange cut into RANGE_BLOCK-deal pieces."""
    for first, last in deals.intervals:
        for start in range(first, last + 1, RANGE_BLOCK):
            yield start, min(last, start + RANGE_BLOCK - 1)
