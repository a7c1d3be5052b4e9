"""The ``results`` table: one row per (variant, foundation_return, numbering, deal).

Every result is written in its own transaction, settled against the deal's stored row
(``record.settle``: a decided verdict is never replaced by unknown, solved against
unsolvable is a contradiction reported and never resolved, an unknown keeps the largest
budget tried), so a run killed at any moment keeps every committed result and never leaves
a partial or duplicate row. Rows are converted by the record (see there why a large deal
number is stored as text).
"""

from collections.abc import Iterable, Iterator

from solver.results.record import (
    FIELD_NAMES,
    Contradiction,
    Record,
    decode_deal,
    encode_deal,
    finite_or_none,
    settle,
)
from solver.results.result import SOLVED, UNKNOWN
from solver.store.connection import translated
from solver.store.tables import RULE_KEY, Tables, blocks

COLUMNS = FIELD_NAMES


class ResultsTable(Tables):
    """The ``results`` methods of ``Store``."""

    def write(self, record: Record) -> str | None:
        """Store one record in its own transaction (see ``write_many``)."""
        contradictions = self.write_many([record])
        return contradictions[0] if contradictions else None

    def write_many(self, records: Iterable[Record]) -> list[str]:
        """Store records in one transaction, each settled against the deal's stored row
        (``record.settle``: a decided verdict is never replaced by unknown, an unknown keeps
        the largest budget), releasing any claim on the deal. Returns one message per
        contradiction (solved against unsolvable), whose stored row is kept unchanged."""
        records = [self.checked(record) for record in records]
        contradictions = []
        placeholders = ", ".join("?" * len(COLUMNS))
        with self.transaction():
            for record in records:
                try:
                    kept = settle(self.stored(record.deal), record)
                except Contradiction as error:
                    contradictions.append(str(error))
                    kept = None
                if kept is not None:
                    self.connection.execute(
                        f"INSERT OR REPLACE INTO results ({', '.join(COLUMNS)}) VALUES ({placeholders})",
                        kept.to_row(),
                    )
                self.connection.execute(
                    f"DELETE FROM claims WHERE {RULE_KEY} AND deal = ?", (*self.key, encode_deal(record.deal))
                )
        return contradictions

    def stored(self, deal: int) -> Record | None:
        """The stored record of ``deal`` under this store's rule set, if any."""
        row = self.connection.execute(
            f"SELECT {self.result_columns} FROM results WHERE {RULE_KEY} AND deal = ?",
            (*self.key, encode_deal(deal)),
        ).fetchone()
        return None if row is None else Record.from_row(row)

    def statuses_in(self, first: int, last: int) -> dict[int, str]:
        """Status of every stored deal of this rule set in first..last."""
        rows = self.fetch(
            f"SELECT deal, status FROM results WHERE {RULE_KEY} AND deal BETWEEN ? AND ?",
            (*self.key, encode_deal(first), encode_deal(last)),
        )
        return {decode_deal(deal): status for deal, status in rows}

    def count_in(self, first: int, last: int, statuses) -> int:
        marks = ", ".join("?" * len(statuses))
        (count,) = self.column(
            f"SELECT COUNT(*) FROM results WHERE {RULE_KEY} AND status IN ({marks}) AND deal BETWEEN ? AND ?",
            (*self.key, *statuses, encode_deal(first), encode_deal(last)),
        )
        return count

    def pending(self, deals, skip_statuses) -> Iterator[int]:
        """The deals of a DealRange (ascending) whose stored status is not in skip_statuses."""
        for first, last in blocks(deals):
            stored = self.statuses_in(first, last)
            yield from (deal for deal in range(first, last + 1) if stored.get(deal) not in skip_statuses)

    def count_pending(self, deals, skip_statuses) -> int:
        skipped = sum(self.count_in(first, last, tuple(skip_statuses)) for first, last in deals.intervals)
        return deals.count - skipped

    def records(self) -> Iterator[Record]:
        """Every stored record, ordered by rule set then deal number."""
        with translated(self.path, "cannot read"):
            cursor = self.connection.execute(
                f"SELECT {self.result_columns} FROM results "
                "ORDER BY variant, foundation_return, numbering, deal"
            )
            for values in cursor:
                yield Record.from_row(values)

    def summary_figures(self) -> dict:
        """What ``yukon stats`` counts: records by status, unknowns by cause (error, or the
        budget that ran out), sorted seconds and solved line lengths, total nodes, the
        first and last deal, and the distinct limits and solver versions."""
        return {
            "counts": dict(self.fetch("SELECT status, COUNT(*) FROM results GROUP BY status")),
            "unknown_causes": dict(
                self.fetch(
                    "SELECT CASE WHEN reason IS NOT NULL THEN 'error' ELSE COALESCE(budget, 'other') END, "
                    "COUNT(*) FROM results WHERE status = ? GROUP BY 1",
                    (UNKNOWN,),
                )
            ),
            "seconds": self.column("SELECT seconds FROM results ORDER BY seconds"),
            "solution_lengths": self.column(
                "SELECT solution_length FROM results WHERE status = ? ORDER BY solution_length", (SOLVED,)
            ),
            "nodes": self.fetch("SELECT COALESCE(SUM(nodes), 0) FROM results")[0][0],
            "deal_span": tuple(map(decode_deal, self.fetch("SELECT MIN(deal), MAX(deal) FROM results")[0])),
            "time_limits": sorted(
                {finite_or_none(limit) for limit in self.column("SELECT DISTINCT time_limit FROM results")},
                key=lambda limit: (limit is not None, limit or 0),
            ),
            "max_nodes": self.column("SELECT DISTINCT max_nodes FROM results ORDER BY 1"),
            "solver_versions": self.column("SELECT DISTINCT solver_version FROM results ORDER BY 1"),
        }
