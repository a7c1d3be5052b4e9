"""The ``claims`` table: a run claims each deal before solving it, so that concurrent runs
on one store share the work; a claim lasts CLAIM_SECONDS unless renewed, so a killed run's
claims soon lapse. The table is added when a store is opened for a run (older releases
ignore it); writing a deal's result drops its claim (``results``)."""

import time
from dataclasses import dataclass

from solver.results.record import budget_at_least, encode_deal, finite_or_none
from solver.results.result import UNKNOWN
from solver.store.connection import translated
from solver.store.tables import RULE_KEY, Tables

CLAIMS_SCHEMA = """
CREATE TABLE IF NOT EXISTS claims (
    variant TEXT NOT NULL,
    foundation_return INTEGER NOT NULL,
    numbering TEXT NOT NULL,
    deal NOT NULL,
    owner TEXT NOT NULL,
    expires REAL NOT NULL,
    PRIMARY KEY (variant, foundation_return, numbering, deal)
)
"""
CLAIM_SECONDS = 10.0
# How far beyond CLAIM_SECONDS a claim may expire and still hold its deal: another run that
# set or renewed it may have read the clock a little after this one (several seconds when a
# loaded machine deschedules a process between reading the clock and writing).
CLAIM_SLACK_SECONDS = CLAIM_SECONDS
CLAIMED, DONE, BUSY = "claimed", "done", "busy"
# What ``Retry.covers`` reads of a stored result.
RETRY_COLUMNS = ("status", "finished_at", "max_nodes", "time_limit")


@dataclass(frozen=True)
class Retry:
    """A run retrying unknown deals, started at ``since`` (a time as records spell it) with
    budgets ``max_nodes`` and ``time_limit`` (None: none): an unknown deal stored since
    then with at least these budgets was just retried by another run sharing the store."""

    since: str
    max_nodes: int | None
    time_limit: float | None

    def covers(self, status: str, finished_at: str, max_nodes, time_limit) -> bool:
        """Whether a stored row of this status, time and budgets needs no retry by this run."""
        stored = Retry(finished_at, max_nodes, finite_or_none(time_limit))
        return status == UNKNOWN and finished_at >= self.since and budget_at_least(stored, self)


class ClaimsTable(Tables):
    """The ``claims`` methods of ``Store``."""

    def claim(self, deal: int, owner: str, skip_statuses, retry: "Retry | None" = None) -> str:
        """Try to claim ``deal`` for run ``owner`` for CLAIM_SECONDS: ``CLAIMED``; ``DONE``
        when its stored status is in ``skip_statuses``, or, for a run retrying unknowns, when
        another run has just retried it (``retry``); ``BUSY`` while another run's claim on it
        has not expired. A claim set to expire later than any live run sets one (beyond
        CLAIM_SECONDS + CLAIM_SLACK_SECONDS: a clock stepped back, a hand-edited store) is
        taken as lapsed: it cannot hold a deal for ever. The clock is read once the write lock
        is held, so a claim another run wrote while this one waited for the lock is seen."""
        key = (*self.key, encode_deal(deal))
        with self.transaction():
            now = time.time()
            row = self.connection.execute(
                f"SELECT {', '.join(RETRY_COLUMNS)} FROM results WHERE {RULE_KEY} AND deal = ?", key
            ).fetchone()
            holder = self.connection.execute(
                f"SELECT owner FROM claims WHERE {RULE_KEY} AND deal = ? AND expires > ? AND expires <= ?",
                (*key, now, now + CLAIM_SECONDS + CLAIM_SLACK_SECONDS),
            ).fetchone()
            if row is not None and (row[0] in skip_statuses or retry is not None and retry.covers(*row)):
                return DONE
            if holder is not None and holder[0] != owner:
                return BUSY
            self.connection.execute(
                "INSERT OR REPLACE INTO claims "
                "(variant, foundation_return, numbering, deal, owner, expires) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (*key, owner, now + CLAIM_SECONDS),
            )
            return CLAIMED

    def renew_claims(self, owner: str) -> None:
        """Extend every claim of run ``owner`` by CLAIM_SECONDS from now."""
        with translated(self.path, "cannot write to"):
            self.connection.execute(
                "UPDATE claims SET expires = ? WHERE owner = ?", (time.time() + CLAIM_SECONDS, owner)
            )

    def release_claims(self, owner: str) -> None:
        """Drop every claim of run ``owner`` (a run that ends, or stops)."""
        with translated(self.path, "cannot write to"):
            self.connection.execute("DELETE FROM claims WHERE owner = ?", (owner,))
