"""Sharing one store between concurrent runs: each deal is claimed before it is solved.

A run claims a deal in the store (``Store.claim``) just before handing it to a worker and
the claim goes when its result is written. Another run skips a claimed deal for now and
comes back to it at the end: by then it is stored (and skipped) or its claim has lapsed (a
killed run's claims outlive it by at most ``store.CLAIM_SECONDS``) and it is taken over.
A live run renews its claims from a thread, so a long solve keeps its deal.
"""

import threading
import time
import uuid
from collections import deque
from contextlib import suppress

from solver.errors import YukonError, counted
from solver.store.claims import BUSY, CLAIM_SECONDS, CLAIMED, Retry

# What ``ClaimedDeals`` yields when every deal left is claimed by another run: ask again later.
WAIT = None
# How often deals claimed by other runs are looked at again.
RETRY_SECONDS = 1.0


class ClaimedDeals:
    """An iterator over the deals of ``pending`` this run has claimed, in order, then over
    those other runs held; yields WAIT while only deals held elsewhere are left. A run
    retrying unknowns (``retry``) leaves those another run retried meanwhile; the deals held
    elsewhere are asked for again at most every ``retry_seconds``."""

    def __init__(
        self,
        store,
        pending,
        skip_statuses,
        retry: Retry | None = None,
        say=None,
        retry_seconds: float = RETRY_SECONDS,
    ):
        self.store = store
        self.retry_seconds = retry_seconds
        self.say = say  # told once what the run waits for
        self.pending = pending
        self.skip_statuses = skip_statuses
        self.retry = retry
        self.owner = uuid.uuid4().hex
        self.deferred: deque[int] = deque()
        self.next_retry = 0.0

    def __iter__(self):
        return self

    def __next__(self):
        for deal in self.pending:
            if self.take(deal):
                return deal
        if not self.deferred:
            raise StopIteration
        if time.monotonic() < self.next_retry:
            return WAIT
        self.next_retry = time.monotonic() + self.retry_seconds
        for _ in range(len(self.deferred)):
            if self.take(deal := self.deferred.popleft()):
                return deal
        if self.deferred and self.say is not None:
            self.say(
                f"waiting for {counted(len(self.deferred), 'deal')} another run sharing {self.store.path} "
                f"is solving (from deal {self.deferred[0]}); a stopped run's claims lapse within "
                f"{CLAIM_SECONDS:g} s"
            )
            self.say = None
        return WAIT if self.deferred else next(self)

    def take(self, deal: int) -> bool:
        """Claim ``deal``; a deal another run holds is deferred, a stored one dropped."""
        outcome = self.store.claim(deal, self.owner, self.skip_statuses, self.retry)
        if outcome == BUSY:
            self.deferred.append(deal)
        return outcome == CLAIMED


class ClaimKeeper:
    """While active, renews the claims of ``deals`` (a ClaimedDeals) every third of their
    lifetime; on exit releases every claim left (deals not finished)."""

    def __init__(self, deals: ClaimedDeals):
        self.deals = deals
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.renew, name="yukon-claims", daemon=True)

    def renew(self) -> None:
        while not self.stopped.wait(CLAIM_SECONDS / 3):
            with suppress(YukonError):  # a store busy for long: try again next time
                self.deals.store.renew_claims(self.deals.owner)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc_info):
        self.stopped.set()
        self.thread.join()
        self.deals.store.release_claims(self.deals.owner)
        return False
