"""Playing and rating deal ranges into a results store, on the local worker pool.

``run_plays`` (``yukon play``): a policy plays every deal of a range ``runs`` times, run r
with the seed ``difficulty.run_seeds(seed, runs)[r]`` (so greedy's games are the games its
ratings count). A deal's games are one unit of work: the worker plays them, the parent
replays every line on the reference engine (a won line must win, every line must be legal)
and stores them in one transaction, keyed by (deal, policy, settings, seed, run). A run
killed at any moment keeps every stored deal; running it again plays only the deals that
lack a game of the series, and replays replace identical rows, never add to them.

``run_ratings`` (``yukon rate``): first the solver decides what the store does not hold yet
(``run_batch``, skipping stored verdicts), then the greedy reference player rates each
stored deal (one rating per transaction), beside its verdict; a deal whose verdict has
changed since its rating is rated again.

Workers run ``play_games`` and ``count_failures``, which never raise: a fault becomes an
error for that deal, reported and not stored, so the deal is retried by the next run.
"""

import json
import sys
import time
from dataclasses import asdict, dataclass, field

import solver
from solver.errors import YukonError
from solver.interrupts import StopFlag, exit_status
from solver.notation import final_position
from solver.numbering import check_deal_number, deal_board
from solver.player import difficulty
from solver.player.difficulty import greedy_failures, rating_of, run_seeds
from solver.player.play import PlayRecord, play_deal
from solver.player.policies import make_policy
from solver.record import now_text
from solver.reference import is_won
from solver.result import Limits
from solver.rules import Rules
from solver.runs.batch import as_deal_range, default_jobs, run_batch
from solver.runs.pool import run_local
from solver.runs.solve_deal import exception_reason
from solver.store import Store
from solver.store.player_rows import Play, Rating

# Without a terminal as well: a progress line every this many deals.
PROGRESS_EVERY = 100


@dataclass(frozen=True)
class PlaySeries:
    """What ``yukon play`` plays: ``policy`` with its full ``settings``, ``runs`` games a
    deal with seeds drawn from ``seed``."""

    policy: str
    settings: tuple[tuple[str, int], ...]
    runs: int
    seed: int

    @property
    def settings_text(self) -> str:
        """The settings as the store keys them: sorted JSON."""
        return json.dumps(dict(self.settings), sort_keys=True)


@dataclass(frozen=True)
class RatingSeries:
    """What ``yukon rate`` counts: the greedy player's failures in ``runs`` games from ``seed``."""

    runs: int
    seed: int


@dataclass(frozen=True)
class DealWork:
    """A worker's answer for one deal: its games or its failure count, or the error."""

    deal: int
    games: tuple[PlayRecord, ...] = ()
    failures: int | None = None
    error: str | None = None


@dataclass
class RunReport:
    """Deals to do, done, failed (``errors``: one line each) and the stopping signal."""

    to_do: int
    done: int = 0
    errors: list[str] = field(default_factory=list)
    interrupted_by: int | None = None
    seconds: float = 0.0

    @property
    def exit_status(self) -> int:
        """0 for a completed run, 1 when some deal failed, 128 + the signal when stopped."""
        if self.interrupted_by is not None:
            return exit_status(self.interrupted_by)
        return 1 if self.errors else 0


def play_series(policy: str, settings: dict, runs: int, seed: int) -> PlaySeries:
    """A checked series: the policy exists, its settings are valid (completed with its
    defaults), runs is positive and seed fits the store."""
    check_count("--runs", runs)
    check_seed(seed)
    full = make_policy(policy, **settings).settings()
    return PlaySeries(policy, tuple(sorted(full.items())), runs, seed)


def check_count(option: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise YukonError(f"{option} must be a positive integer, not {value!r}")


def check_seed(seed: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise YukonError(f"--seed must be a whole number from 0 to 2**63 - 1, not {seed!r}")


# ---- what workers run ------------------------------------------------------------------------


def play_games(deal: int, rules: Rules, numbering: str, series: PlaySeries) -> DealWork:
    """The series' games of one deal (a fault becomes the deal's error)."""
    try:
        settings = dict(series.settings)
        games = tuple(
            play_deal(deal, rules, series.policy, game_seed, numbering, **settings)
            for game_seed in run_seeds(series.seed, series.runs)
        )
    except Exception as error:  # a fault on one deal is reported, not fatal
        return DealWork(deal, error=exception_reason(error))
    return DealWork(deal, games=games)


def count_failures(deal: int, rules: Rules, numbering: str, series: RatingSeries) -> DealWork:
    """The greedy player's failures on one deal (a fault becomes the deal's error)."""
    try:
        board = deal_board(rules.variant, deal, numbering)
        return DealWork(deal, failures=greedy_failures(board, rules, series.runs, series.seed))
    except Exception as error:  # a fault on one deal is reported, not fatal
        return DealWork(deal, error=exception_reason(error))


# ---- the runs ----------------------------------------------------------------------------------


def run_plays(
    deals,
    rules: Rules,
    numbering: str,
    store_path,
    series: PlaySeries,
    jobs=None,
    progress=True,
    stream=None,
    *,
    play_one=play_games,
) -> RunReport:
    """Play ``series`` on every deal of ``deals`` that lacks one of its games in the store.
    ``play_one`` (module-level: it is sent to the workers) is ``play_games`` but in tests."""
    stream = sys.stderr if stream is None else stream
    deals, jobs = checked_range(deals, rules, numbering), checked_jobs(jobs)
    with Store.open_for_run(store_path, rules, numbering) as store:
        pending = store.pending_plays(deals, series.policy, series.settings_text, series.seed, series.runs)
        already = f"{deals.count - len(pending)} already played in {store_path}"
        games = f"{series.runs} {series.policy} games each"
        label = f"{rules.label()} ({numbering})"
        say(
            progress,
            stream,
            f"{label}: {deals.count} deals in range, {already}, playing {len(pending)} ({games})",
        )

        def store_games(work: DealWork) -> None:
            rows = [play_row(game, series, run) for run, game in enumerate(work.games)]
            for game in work.games:
                check_line(game, rules)
            store.write_plays(rows)

        return run_on_pool(pending, jobs, (rules, numbering, series, play_one), store_games, progress, stream)


def run_ratings(
    deals,
    rules: Rules,
    numbering: str,
    store_path,
    series: RatingSeries,
    limits: Limits,
    jobs=None,
    progress=True,
    stream=None,
) -> RunReport:
    """Solve what the store lacks of ``deals``, then rate every stored deal of them."""
    stream = sys.stderr if stream is None else stream
    deals, jobs = checked_range(deals, rules, numbering), checked_jobs(jobs)
    check_count("--runs", series.runs)
    check_seed(series.seed)
    solving = run_batch(
        deals, rules, numbering, store_path, limits, jobs=jobs, progress=progress, stream=stream
    )
    if solving.interrupted:
        return RunReport(to_do=deals.count, interrupted_by=solving.interrupted_by)
    with Store.open_for_run(store_path, rules, numbering) as store:
        verdicts = {
            deal: figures for deal, *figures in store.pending_ratings(deals, series.runs, series.seed)
        }
        say(
            progress,
            stream,
            f"rating {len(verdicts)} deals ({series.runs} greedy games each, seed {series.seed})",
        )

        def store_rating(work: DealWork) -> None:
            rating = rating_of(work.failures, series.runs, series.seed, rules.variant, *verdicts[work.deal])
            store.write_rating(rating_row(work.deal, rating, rules, numbering))

        arguments = (rules, numbering, series, count_failures)
        return run_on_pool(list(verdicts), jobs, arguments, store_rating, progress, stream)


def run_on_pool(pending: list[int], jobs, arguments, store_work, progress: bool, stream) -> RunReport:
    """Send ``pending`` deals to at most ``jobs`` workers (``arguments``: rules, numbering,
    series, worker function) and hand each deal's work to ``store_work``; errors are
    reported, not stored."""
    report = RunReport(to_do=len(pending))
    if not pending:
        return report
    started = time.monotonic()

    def on_work(work: DealWork) -> None:
        if work.error is not None:
            report.errors.append(f"deal {work.deal}: {work.error}")
            print(f"error on {report.errors[-1]}", file=stream, flush=True)
        else:
            store_work(work)
            report.done += 1
            if report.done % PROGRESS_EVERY == 0:
                say(progress, stream, f"{report.done}/{report.to_do} deals done")

    def dead_worker(deal: int, reason: str) -> DealWork:
        return DealWork(deal, error=reason)

    with StopFlag() as stop:
        workers = min(jobs, len(pending))
        completed = run_local(iter(pending), workers, arguments, on_work, stop, dead_worker)
        report.interrupted_by = None if completed else stop.signal
    report.seconds = time.monotonic() - started
    if report.interrupted_by is not None:
        left = report.to_do - report.done
        say(
            True,
            stream,
            f"stopped: {report.done} deals saved, {left} left; run the same command again to resume",
        )
    return report


# ---- rows and checks ---------------------------------------------------------------------------


def play_row(game: PlayRecord, series: PlaySeries, run: int) -> Play:
    """A game as the store's ``plays`` row."""
    return Play(
        variant=game.variant,
        foundation_return=game.foundation_return,
        numbering=game.numbering,
        deal=game.deal,
        policy=series.policy,
        settings=series.settings_text,
        seed=series.seed,
        run=run,
        game_seed=game.seed,
        won=game.won,
        moves=game.moves,
        line=game.line,
        solver_version=solver.__version__,
        finished_at=now_text(),
    )


def rating_row(deal: int, rating: difficulty.Rating, rules: Rules, numbering: str) -> Rating:
    """A rating as the store's ``ratings`` row."""
    return Rating(
        variant=rules.variant,
        foundation_return=rules.foundation_return,
        numbering=numbering,
        deal=deal,
        **asdict(rating),
        solver_version=solver.__version__,
        rated_at=now_text(),
    )


def check_line(game: PlayRecord, rules: Rules) -> None:
    """Replay a game on the reference engine: every move legal, won exactly when it says so."""
    final = final_position(deal_board(rules.variant, game.deal, game.numbering), game.line.split(), rules)
    if is_won(final) != game.won:
        raise RuntimeError(f"deal {game.deal}: the {game.policy} game's line does not replay as recorded")


def checked_jobs(jobs: int | None) -> int:
    """``jobs``, or every usable core when None; YukonError unless positive."""
    jobs = default_jobs() if jobs is None else jobs
    check_count("--jobs", jobs)
    return jobs


def checked_range(deals, rules: Rules, numbering: str):
    deals = as_deal_range(deals)
    if deals.intervals:
        check_deal_number(rules.variant, deals.first, numbering)
        check_deal_number(rules.variant, deals.last, numbering)
    return deals


def say(enabled: bool, stream, text: str) -> None:
    if enabled:
        print(text, file=stream, flush=True)
