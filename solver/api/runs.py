"""The API's calls on deal ranges and results stores (what ``yukon solve --out``, ``play``,
``rate``, ``stats`` and ``export`` do): solve, play or rate a range into a store, summarise a
store, write it as a results file. Each is one call over ``solver.runs`` and ``solver.store``;
a run's report (a ``RunReport``) says what it did and its exit status.

A deal range is given as text as the command line takes it (``"1-1000"``, ``"1,5,9-20"``,
``"ms1-10"``) or as a ``DealRange`` (``deal_range``)."""

from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.game.ranges import DealRange, parse_range
from solver.game.rules import Rules
from solver.results.limits import Limits

if TYPE_CHECKING:  # the runs load the solver: imported when a run starts
    from solver.runs.report import RunReport


def deal_range(deals: "str | DealRange", numbering: str = "pysol") -> DealRange:
    """The deals of ``deals``: a DealRange as it is, text (``"1-1000"``) read as the command
    line reads it; YukonError for text that names no deals."""
    return deals if isinstance(deals, DealRange) else parse_range(deals, numbering)


def solve_range(
    deals: "str | DealRange",
    rules: Rules,
    store: str | Path,
    *,
    numbering: str = "pysol",
    limits: Limits,
    jobs: int | None = None,
    retry_unknown: bool = False,
    dask: str | None = None,
    chunk_size: int | None = None,
    resume_command: str | None = None,
) -> "RunReport":
    """Solve every deal of ``deals`` the store lacks (and its unknowns with ``retry_unknown``)
    into the results store ``store``, on ``jobs`` local processes or the Dask scheduler
    ``dask`` (``"local"``: a LocalCluster), with progress on stderr; ``resume_command`` is
    what a stopped run says to type to resume it."""
    from solver.runs.batch import run_batch
    from solver.runs.cluster import DASK_QUEUED

    return run_batch(
        deal_range(deals, numbering),
        rules,
        numbering,
        store,
        limits,
        jobs=jobs,
        retry_unknown=retry_unknown,
        dask=dask,
        progress=True,
        chunk_size=chunk_size or DASK_QUEUED,
        resume_command=resume_command,
    )


def play_range(
    deals: "str | DealRange",
    rules: Rules,
    store: str | Path,
    *,
    policy: str,
    settings: dict[str, int] | None = None,
    runs: int = 1,
    seed: int = 0,
    numbering: str = "pysol",
    jobs: int | None = None,
) -> "RunReport":
    """Play every deal of ``deals`` ``runs`` times with ``policy`` (its ``settings``:
    ``samples``, ``max_nodes``; its defaults for those left out), as a person would, into
    the store ``store`` (``yukon play``)."""
    from solver.runs.play import play_series, run_plays

    series = play_series(policy, settings or {}, runs, seed, rules)
    return run_plays(deal_range(deals, numbering), rules, numbering, store, series, jobs)


def rate_range(
    deals: "str | DealRange",
    rules: Rules,
    store: str | Path,
    *,
    runs: int = 16,
    seed: int = 0,
    numbering: str = "pysol",
    limits: Limits,
    jobs: int | None = None,
) -> "RunReport":
    """Rate every deal of ``deals`` into the store ``store``: the greedy player's failures
    over ``runs`` seeded games and the tier of a solvable deal; deals the store lacks are
    solved first within ``limits`` (``yukon rate``)."""
    from solver.runs.play import RatingSeries, run_ratings

    chosen = deal_range(deals, numbering)
    return run_ratings(chosen, rules, numbering, store, RatingSeries(runs, seed), limits, jobs)


def store_summary(store: str | Path) -> dict[str, Any]:
    """Everything ``yukon stats --json`` prints of a results store, as a JSON object."""
    from solver.runs.summary import summarize

    return summarize(store)


def summary_text(summary: dict[str, Any]) -> str:
    """A store's summary (``store_summary``) as ``yukon stats`` prints it."""
    from solver.runs.summary import format_summary

    return format_summary(summary)


def export_results(store: str | Path, out: Any = "-") -> int:
    """Write the results store ``store`` as a results file (JSON lines, one record a line,
    in deal order) to ``out`` (a path, ``"-"`` for stdout, or an open text file); the number
    of records written (``yukon export``)."""
    from solver.store import export_jsonl

    return export_jsonl(store, out)
