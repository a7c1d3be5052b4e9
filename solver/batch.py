"""Batch runs: solve a range of deals in parallel into a results store, resumably.

``run_batch`` walks the range in ascending order, skips deals the store has already
decided (and unknown ones unless asked to retry them), and hands the rest to long-lived
worker processes (or to a Dask cluster). Workers only solve; every result comes back to
this process, which writes it to the store in its own transaction, so a run killed at any
moment loses nothing committed and running the same command again resumes it.

Local workers get one deal at a time (at most PIPELINE outstanding each), so the deal a
worker was solving when its process died is known exactly: it is stored as unknown with
the reason, the worker is replaced and the run goes on. An exception inside the solver is
caught in the worker and stored the same way.
"""

import ctypes
import logging
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections import Counter, deque
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from multiprocessing.connection import wait

import solver
from solver.errors import YukonError
from solver.numbering import check_deal_number, deal_board
from solver.ranges import DealRange, merge
from solver.result import SOLVED, UNKNOWN, UNSOLVABLE, Limits
from solver.rules import Rules
from solver.solve import solve_position
from solver.store import DECIDED, Store, now_text

# Deals sent to a local worker ahead of the one it is solving.
PIPELINE = 2
# Deals per Dask task.
DASK_CHUNK = 20
# How often the parent wakes to notice Ctrl-C while waiting for results.
POLL_SECONDS = 0.1
# Without a terminal, a progress line every this many deals or seconds.
LINE_EVERY_DEALS = 1000
LINE_EVERY_SECONDS = 30.0
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
REASON_CHARS = 500


# ---- solving one deal (runs in workers) ----------------------------------------------------


def solve_deal(deal: int, rules: Rules, numbering: str, limits: Limits) -> dict:
    """Solve one deal and return its store row. Never raises for a solver failure: an
    exception becomes an unknown row whose ``reason`` names it."""
    started = time.perf_counter()
    board_text = ""
    try:
        board = deal_board(rules.variant, deal, numbering)
        board_text = board.to_text()
        result = solve_position(board, rules, limits)
    except Exception as error:  # any solver fault is recorded, not fatal
        return failure_row(
            deal, rules, numbering, limits, exception_reason(error), time.perf_counter() - started, board_text
        )
    return base_row(deal, rules, numbering, limits, board_text) | {
        "status": result.status,
        "solution": result.solution,
        "solution_length": result.solution_length if result.solution else 0,
        "proven_minimal": result.proven_minimal,
        "nodes": result.nodes,
        "seconds": result.seconds,
        "peak_table_entries": result.peak_table_entries,
        "budget": result.budget,
        "reason": None,
    }


def solve_guarded(solve_one, deal, rules: Rules, numbering: str, limits: Limits) -> dict:
    """``solve_one``'s row, or an unknown row naming the exception it raised."""
    started = time.perf_counter()
    try:
        return solve_one(deal, rules, numbering, limits)
    except Exception as error:  # a fault on one deal is recorded, not fatal
        return failure_row(
            deal, rules, numbering, limits, exception_reason(error), time.perf_counter() - started
        )


def solve_chunk(deals, rules: Rules, numbering: str, limits: Limits, solve_one=solve_deal) -> list[dict]:
    """A Dask task: the rows of several deals."""
    return [solve_guarded(solve_one, deal, rules, numbering, limits) for deal in deals]


def base_row(deal, rules: Rules, numbering: str, limits: Limits, board_text: str) -> dict:
    return {
        "variant": rules.variant,
        "foundation_return": rules.foundation_return,
        "numbering": numbering,
        "deal": deal,
        "board": board_text,
        "time_limit": limits.time_limit,
        "max_nodes": limits.max_nodes,
        "solver_version": solver.__version__,
        "finished_at": now_text(),
    }


def failure_row(deal, rules, numbering, limits, reason: str, seconds: float = 0.0, board_text=None) -> dict:
    """An unknown row for a deal whose solve failed (exception, dead worker)."""
    if board_text is None:
        try:
            board_text = deal_board(rules.variant, deal, numbering).to_text()
        except Exception:
            board_text = ""
    return base_row(deal, rules, numbering, limits, board_text) | {
        "status": UNKNOWN,
        "solution": "",
        "solution_length": 0,
        "proven_minimal": False,
        "nodes": 0,
        "seconds": seconds,
        "peak_table_entries": None,
        "budget": None,
        "reason": reason[:REASON_CHARS],
    }


def exception_reason(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}{where}: {text}".rstrip(": ")


# ---- local worker processes ----------------------------------------------------------------


def worker_main(connection, rules, numbering, limits, solve_one, parent_pid) -> None:
    """A worker: receive deal numbers, send back rows, until told to stop or orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    die_with_parent(parent_pid)
    try:
        connection.send(("ready", os.getpid()))
        while True:
            deal = connection.recv()
            if deal is None:
                return
            connection.send(("row", solve_guarded(solve_one, deal, rules, numbering, limits)))
    except (EOFError, OSError):  # the parent has gone
        return


def die_with_parent(parent_pid: int) -> None:
    """Linux: have the kernel kill this worker when the parent dies (e.g. SIGKILL), so an
    orphan does not go on solving for up to a time limit. Best effort elsewhere."""
    with suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(0)


@contextmanager
def sigint_ignored():
    """Ignore SIGINT while a worker process starts: an ignored signal stays ignored across
    exec, so the worker never sees the terminal's Ctrl-C (the parent handles it). Only a
    Ctrl-C pressed during the few milliseconds of the start is lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class Worker:
    def __init__(self, context, arguments):
        self.connection, child_end = context.Pipe()
        self.process = context.Process(
            target=worker_main, args=(child_end, *arguments, os.getpid()), daemon=True, name="yukon-worker"
        )
        with sigint_ignored():
            self.process.start()
        child_end.close()
        self.pending: deque[int] = deque()
        self.ready = False

    def send(self, deal) -> None:
        self.connection.send(deal)
        self.pending.append(deal)

    def receive_all(self):
        """Every message already sent; stops at end of file."""
        messages = []
        try:
            while self.connection.poll():
                messages.append(self.connection.recv())
        except (EOFError, OSError):
            pass
        return messages

    def stop(self, graceful: bool) -> None:
        if graceful and self.process.is_alive():
            with suppress(OSError):
                self.connection.send(None)
            self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.terminate()

    def reap(self) -> None:
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=1)
        self.connection.close()


def run_local(deals, jobs: int, arguments, on_row, stop, make_failure) -> bool:
    """Solve ``deals`` (an iterator) on ``jobs`` worker processes; False if stopped early."""
    context = multiprocessing.get_context("spawn")
    workers = [Worker(context, arguments) for _ in range(jobs)]
    requeued: deque[int] = deque()
    source_left = True
    finished = False

    def next_deal():
        nonlocal source_left
        if requeued:
            return requeued.popleft()
        if source_left:
            deal = next(deals, None)
            if deal is not None:
                return deal
            source_left = False
        return None

    try:
        while not stop.requested:
            for worker in workers:
                while worker.ready and len(worker.pending) < PIPELINE:
                    deal = next_deal()
                    if deal is None:
                        break
                    worker.send(deal)
            busy = [worker for worker in workers if worker.pending or not worker.ready]
            if not busy:
                finished = True
                break
            handles = [worker.connection for worker in busy] + [worker.process.sentinel for worker in busy]
            ready = wait(handles, timeout=POLL_SECONDS)
            for index, worker in enumerate(workers):
                if worker.connection not in ready and worker.process.sentinel not in ready:
                    continue
                for kind, payload in worker.receive_all():
                    if kind == "ready":
                        worker.ready = True
                    else:
                        expected = worker.pending.popleft()
                        if payload["deal"] != expected:
                            raise RuntimeError(f"worker returned deal {payload['deal']}, expected {expected}")
                        on_row(payload)
                if not worker.process.is_alive():
                    worker.process.join()
                    code = worker.process.exitcode
                    if stop.requested:
                        break
                    if not worker.ready:
                        raise YukonError(f"a worker process died while starting ({describe_exit(code)})")
                    if worker.pending:
                        culprit = worker.pending.popleft()
                        on_row(
                            make_failure(
                                culprit, f"worker process died while solving ({describe_exit(code)})"
                            )
                        )
                        requeued.extendleft(reversed(worker.pending))
                    worker.reap()
                    workers[index] = Worker(context, arguments)
        return finished
    finally:
        for worker in workers:
            worker.stop(graceful=finished)
        for worker in workers:
            worker.reap()


def describe_exit(code) -> str:
    if code is not None and code < 0:
        with suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


# ---- Dask ----------------------------------------------------------------------------------


def import_distributed():
    try:
        import distributed
    except ImportError:
        raise YukonError("--dask needs the dask extra: pip install 'yukon-solver[dask]'") from None
    return distributed


def dask_client(distributed, address: str, jobs: int):
    """A Client for ``address`` (``local``: a new LocalCluster on loopback) and its cluster."""
    cluster = None
    try:
        if address == "local":
            cluster = distributed.LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.CRITICAL,
            )
            return distributed.Client(cluster), cluster
        return distributed.Client(address, timeout="30s"), None
    except (OSError, TimeoutError, ValueError) as error:
        if cluster is not None:
            cluster.close()
        text = str(error).splitlines()[0] if str(error) else type(error).__name__
        if address == "local":
            raise YukonError(f"cannot start a local Dask cluster: {text}") from None
        raise YukonError(f"cannot connect to the Dask scheduler at {address}: {text}") from None


def solver_version() -> str:
    return solver.__version__


def check_dask_workers(client, address: str) -> None:
    """Every worker present must import this solver at this version, or every deal would
    be stored as a failure (or results of two versions would mix)."""
    try:
        versions = client.run(solver_version)
    except Exception as error:
        raise YukonError(
            f"Dask workers at {address} cannot run yukon-solver: {exception_reason(error)}"
        ) from None
    others = sorted({version for version in versions.values() if version != solver.__version__})
    if others:
        raise YukonError(
            f"Dask workers at {address} run yukon-solver {', '.join(others)}, not {solver.__version__}"
        )


def run_dask(address, jobs, chunk_size, deals, arguments, on_row, stop, make_failure) -> bool:
    """Send chunks of ``deals`` to a Dask cluster; False if stopped early."""
    distributed = import_distributed()
    client, cluster = dask_client(distributed, address, jobs)
    pending: dict = {}
    completed = distributed.as_completed()
    retry_alone: deque[list[int]] = deque()
    source_left = True

    def submit_more():
        nonlocal source_left
        window = max(2 * sum(client.nthreads().values()), 4)
        while len(pending) < window:
            if retry_alone:
                chunk = retry_alone.popleft()
            elif source_left:
                chunk = [deal for _, deal in zip(range(chunk_size), deals)]
                if len(chunk) < chunk_size:
                    source_left = False
                if not chunk:
                    return
            else:
                return
            future = client.submit(solve_chunk, chunk, *arguments, pure=False)
            pending[future] = chunk
            completed.add(future)

    try:
        check_dask_workers(client, address)
        submit_more()
        while pending:
            if stop.requested:
                client.cancel(list(pending))
                if cluster is not None:
                    kill_local_workers(cluster)
                return False
            batch = completed.next_batch(block=False)
            if not batch:
                time.sleep(POLL_SECONDS / 2)
                continue
            for future in batch:
                chunk = pending.pop(future)
                try:
                    rows = future.result()
                except Exception as error:  # a task that failed as a whole
                    if len(chunk) > 1:
                        retry_alone.extend([deal] for deal in chunk)
                    else:
                        on_row(make_failure(chunk[0], f"dask task failed: {exception_reason(error)}"))
                    continue
                for row in rows:
                    on_row(row)
            submit_more()
        return True
    finally:
        with suppress(Exception):
            client.close()
        if cluster is not None:
            with suppress(Exception):
                cluster.close()


def kill_local_workers(cluster) -> None:
    """Stop a LocalCluster's worker processes at once: a worker busy in a solve would
    otherwise finish its deal (up to the time limit) before the cluster can close."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        with suppress(Exception):
            os.kill(nanny.process.pid, signal.SIGKILL)


# ---- progress and stopping -----------------------------------------------------------------


class Progress:
    """A tqdm bar on a terminal; otherwise a line every LINE_EVERY_DEALS deals or
    LINE_EVERY_SECONDS seconds; nothing when disabled."""

    def __init__(self, total: int, label: str, enabled: bool, stream):
        self.total, self.label, self.stream = total, label, stream
        self.counts = Counter({SOLVED: 0, UNSOLVABLE: 0, UNKNOWN: 0})
        self.done = 0
        self.started = self.last_line = time.monotonic()
        self.lines_done = 0
        self.bar = None
        self.lines = False
        if not enabled:
            return
        if is_terminal(stream):
            from tqdm import tqdm

            self.bar = tqdm(
                total=total, desc=label, unit="deal", file=stream, dynamic_ncols=True, smoothing=0.05
            )
        else:
            self.lines = True

    def update(self, row: dict) -> None:
        self.done += 1
        self.counts[row["status"]] += 1
        if self.bar is not None:
            self.bar.set_postfix(self.counts, refresh=False)
            self.bar.update(1)
        elif self.lines:
            now = time.monotonic()
            if self.done - self.lines_done >= LINE_EVERY_DEALS or now - self.last_line >= LINE_EVERY_SECONDS:
                self.write_line(now)

    def write_line(self, now: float) -> None:
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = format_duration(left / rate) if rate > 0 else "?"
        percent = 100.0 * self.done / self.total if self.total else 100.0
        print(
            f"{self.label}: {self.done}/{self.total} deals ({percent:.1f}%), {rate:.2f} deals/s, "
            f"ETA {eta}; {counts_text(self.counts)}",
            file=self.stream,
            flush=True,
        )
        self.last_line, self.lines_done = now, self.done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.lines and self.done != self.lines_done:
            self.write_line(time.monotonic())


def is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def counts_text(counts) -> str:
    return ", ".join(f"{counts[status]} {status}" for status in (SOLVED, UNSOLVABLE, UNKNOWN))


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{seconds:02d}s" if minutes else f"{seconds}s"


class StopOnSignal:
    """While active, Ctrl-C (SIGINT) or SIGTERM asks the run to stop: ``requested`` turns
    true and the loops wind down. A second Ctrl-C raises KeyboardInterrupt at once."""

    def __init__(self):
        self.signal = None
        self.previous = {}

    @property
    def requested(self) -> bool:
        return self.signal is not None

    def handle(self, signum, frame):
        if self.signal is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.signal = signum

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                self.previous[signum] = signal.signal(signum, self.handle)
        return self

    def __exit__(self, *exc_info):
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        return False


# ---- the batch run -------------------------------------------------------------------------


@dataclass
class BatchReport:
    store: str
    in_range: int
    skipped: int
    to_solve: int
    counts: Counter = field(default_factory=Counter)
    interrupted_by: int | None = None
    seconds: float = 0.0

    @property
    def done(self) -> int:
        return sum(self.counts.values())

    @property
    def interrupted(self) -> bool:
        return self.interrupted_by is not None

    @property
    def exit_status(self) -> int:
        """0 for a completed run; 128 + the signal (130 for Ctrl-C) for a stopped one."""
        return 128 + self.interrupted_by if self.interrupted else 0


def as_deal_range(deals) -> DealRange:
    if isinstance(deals, DealRange):
        return deals
    if isinstance(deals, range) and deals.step == 1:
        return DealRange(((deals.start, deals.stop - 1),) if deals else ())
    numbers = list(deals)
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int):
            raise YukonError(f"deal number {number!r} is not an integer")
    return DealRange(merge((number, number) for number in numbers))


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def run_batch(
    deals,
    rules: Rules,
    numbering: str,
    store_path,
    limits: Limits | None = None,
    jobs: int | None = None,
    retry_unknown: bool = False,
    dask: str | None = None,
    progress: bool = True,
    *,
    chunk_size: int = DASK_CHUNK,
    solve_one=solve_deal,
    resume_command: str | None = None,
    stream=None,
) -> BatchReport:
    """Solve ``deals`` (a DealRange or integers) into the store at ``store_path``.

    Deals the store already decided are skipped; unknown ones too unless ``retry_unknown``.
    ``jobs`` local worker processes (default: every usable core), or, with ``dask``, a
    Dask scheduler address or ``"local"`` (a LocalCluster of ``jobs`` single-thread
    workers). ``solve_one(deal, rules, numbering, limits) -> row`` must be a module-level
    function (it is sent to the workers). On Ctrl-C or SIGTERM the run stops, saying how to
    resume, and the report's ``exit_status`` is 128 + the signal number.
    """
    stream = sys.stderr if stream is None else stream
    limits = Limits() if limits is None else limits
    deals = as_deal_range(deals)
    if jobs is None:
        jobs = default_jobs()
    if jobs < 1:
        raise YukonError(f"--jobs must be at least 1, not {jobs}")
    if chunk_size < 1:
        raise YukonError(f"chunk size must be at least 1, not {chunk_size}")
    if dask is not None:
        import_distributed()
    if deals.intervals:
        check_deal_number(rules.variant, deals.first, numbering)
        check_deal_number(rules.variant, deals.last, numbering)
    skip = DECIDED if retry_unknown else (*DECIDED, UNKNOWN)
    started = time.monotonic()
    with Store.open_for_run(store_path, rules, numbering) as store:
        to_solve = store.count_pending(deals, skip)
        report = BatchReport(str(store_path), deals.count, deals.count - to_solve, to_solve)
        label = f"{rules.label()} ({numbering})"
        if progress:
            where = f"Dask {dask}" if dask else f"{jobs} worker{'s' if jobs != 1 else ''}"
            print(
                f"{label}: {deals.count} deals in range, {report.skipped} already in {store_path}, "
                f"solving {to_solve} with {where}",
                file=stream,
                flush=True,
            )
        if to_solve == 0:
            return report
        bar = Progress(to_solve, label, progress, stream)

        def on_row(row):
            store.write(row)
            report.counts[row["status"]] += 1
            bar.update(row)

        def make_failure(deal, reason):
            return failure_row(deal, rules, numbering, limits, reason)

        arguments = (rules, numbering, limits, solve_one)
        pending = store.pending(deals, skip)
        try:
            with StopOnSignal() as stop:
                if dask is not None:
                    completed = run_dask(
                        dask, jobs, chunk_size, pending, arguments, on_row, stop, make_failure
                    )
                else:
                    completed = run_local(pending, jobs, arguments, on_row, stop, make_failure)
                report.interrupted_by = None if completed else stop.signal
        finally:
            bar.close()
            report.seconds = time.monotonic() - started
    if report.interrupted:
        again = f": {resume_command}" if resume_command else ""
        print(
            f"stopped: {report.done} new results saved in {store_path}, "
            f"{to_solve - report.done} deals left; run the same command again to resume{again}",
            file=stream,
            flush=True,
        )
    return report


# ---- summary -------------------------------------------------------------------------------

Z_95 = 1.959963984540054


def wilson_interval(wins: int, trials: int, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval for ``wins`` out of ``trials`` (None without trials)."""
    if trials <= 0:
        return None
    p = wins / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_entry(wins: int, trials: int) -> dict:
    interval = wilson_interval(wins, trials)
    return {
        "wins": wins,
        "deals": trials,
        "rate": wins / trials if trials else None,
        "low": interval[0] if interval else None,
        "high": interval[1] if interval else None,
    }


def percentile(ordered: list, fraction: float):
    """Linear interpolation between closest ranks (numpy's default) of a sorted list."""
    if not ordered:
        return None
    position = (len(ordered) - 1) * fraction
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def histogram(ordered: list[int], buckets: int = 20) -> list[dict]:
    """Equal-width buckets (a multiple of 10 moves wide) covering a sorted list."""
    if not ordered:
        return []
    low, high = ordered[0], ordered[-1]
    width = 10 * max(1, math.ceil((high - low + 1) / (10 * buckets)))
    start = low - low % width
    counts = Counter((value - start) // width for value in ordered)
    return [
        {"from": start + i * width, "to": start + (i + 1) * width - 1, "count": counts.get(i, 0)}
        for i in range((high - start) // width + 1)
    ]


def summarize(store_path) -> dict:
    """Everything ``yukon stats`` reports, as a JSON-serialisable dict."""
    with Store.open_existing(store_path) as store:
        meta = store.meta
        counts = Counter(dict(store.query("SELECT status, COUNT(*) FROM results GROUP BY status")))
        causes = Counter(
            dict(
                store.query(
                    "SELECT CASE WHEN reason IS NOT NULL THEN 'error' ELSE COALESCE(budget, 'other') END, "
                    f"COUNT(*) FROM results WHERE status = '{UNKNOWN}' GROUP BY 1"
                )
            )
        )
        seconds = [value for (value,) in store.query("SELECT seconds FROM results ORDER BY seconds")]
        lengths = [
            value
            for (value,) in store.query(
                f"SELECT solution_length FROM results WHERE status = '{SOLVED}' ORDER BY solution_length"
            )
        ]
        (nodes,) = store.query("SELECT COALESCE(SUM(nodes), 0) FROM results")[0]
        deal_rows = store.query("SELECT MIN(deal), MAX(deal) FROM results")[0]
        time_limits = [
            value for (value,) in store.query("SELECT DISTINCT time_limit FROM results ORDER BY 1")
        ]
        node_limits = [value for (value,) in store.query("SELECT DISTINCT max_nodes FROM results ORDER BY 1")]
        versions = [
            value for (value,) in store.query("SELECT DISTINCT solver_version FROM results ORDER BY 1")
        ]
    solved, unsolvable, unknown = counts[SOLVED], counts[UNSOLVABLE], counts[UNKNOWN]
    total = solved + unsolvable + unknown
    total_seconds = math.fsum(seconds)
    lost, won = rate_entry(solved, total), rate_entry(solved + unknown, total)
    return {
        "store": str(store_path),
        "rules": {"variant": meta["variant"], "foundation_return": meta["foundation_return"] == "1"},
        "numbering": meta["numbering"],
        "created_at": meta.get("created_at"),
        "created_by": meta.get("created_by"),
        "deals": {
            "total": total,
            "first": int(deal_rows[0]) if total else None,
            "last": int(deal_rows[1]) if total else None,
        },
        "counts": {SOLVED: solved, UNSOLVABLE: unsolvable, UNKNOWN: unknown},
        "unknown_causes": dict(sorted(causes.items())),
        "win_rate": {
            "confidence": 0.95,
            "method": "Wilson score interval",
            "decided": rate_entry(solved, solved + unsolvable),
            "unknown_as_lost": lost,
            "unknown_as_won": won,
            "bounds": {"low": lost["low"], "high": won["high"]},
        },
        "seconds_per_deal": {
            "total": total_seconds,
            "mean": total_seconds / total if total else None,
            "median": percentile(seconds, 0.5),
            "p90": percentile(seconds, 0.9),
            "p99": percentile(seconds, 0.99),
            "max": seconds[-1] if seconds else None,
        },
        "nodes": {"total": nodes, "per_second": nodes / total_seconds if total_seconds > 0 else None},
        "solution_length": {
            "count": len(lengths),
            "min": lengths[0] if lengths else None,
            "median": percentile(lengths, 0.5),
            "mean": sum(lengths) / len(lengths) if lengths else None,
            "max": lengths[-1] if lengths else None,
            "histogram": histogram(lengths),
        },
        "time_limits": time_limits,
        "max_nodes": node_limits,
        "solver_versions": versions,
    }


def percent(value) -> str:
    return "n/a" if value is None else f"{100 * value:.2f}%"


def rate_text(entry: dict) -> str:
    if entry["rate"] is None:
        return "n/a (no deals)"
    return (
        f"{percent(entry['rate'])} ({entry['wins']}/{entry['deals']}), "
        f"95% CI {percent(entry['low'])} to {percent(entry['high'])}"
    )


def seconds_text(value) -> str:
    return "n/a" if value is None else f"{value:.3g} s"


def limit_text(values, unit: str) -> str:
    return ", ".join("none" if value is None else f"{value:g}{unit}" for value in values) or "n/a"


def format_summary(summary: dict) -> str:
    """The summary as text for a reader."""
    rules = summary["rules"]
    rule_set = rules["variant"] + (" with foundation return" if rules["foundation_return"] else "")
    counts, deals, rate = summary["counts"], summary["deals"], summary["win_rate"]
    causes = ", ".join(f"{cause} {count}" for cause, count in summary["unknown_causes"].items())
    span = f" (deals {deals['first']}..{deals['last']})" if deals["total"] else ""
    times, lengths, nodes = summary["seconds_per_deal"], summary["solution_length"], summary["nodes"]
    lines = [
        f"Store:        {summary['store']}",
        f"Rule set:     {rule_set}, {summary['numbering']} numbering",
        f"Deals:        {deals['total']}{span}: {counts[SOLVED]} solved, {counts[UNSOLVABLE]} unsolvable, "
        f"{counts[UNKNOWN]} unknown" + (f" ({causes})" if causes else ""),
        f"Win rate:     {rate_text(rate['decided'])} over decided deals",
        f"  unknown lost: {rate_text(rate['unknown_as_lost'])}",
        f"  unknown won:  {rate_text(rate['unknown_as_won'])}",
        f"  bounds:       {percent(rate['bounds']['low'])} to {percent(rate['bounds']['high'])} "
        "(95% Wilson, every unknown lost / won)",
        f"Time per deal: median {seconds_text(times['median'])}, p90 {seconds_text(times['p90'])}, "
        f"p99 {seconds_text(times['p99'])}, max {seconds_text(times['max'])} "
        f"(total {seconds_text(times['total'])})",
        "Nodes:        "
        + (
            f"{nodes['total']:,} total, {nodes['per_second']:,.0f} per second"
            if nodes["per_second"]
            else f"{nodes['total']:,} total"
        ),
    ]
    if lengths["count"]:
        lines.append(
            f"Solution length: min {lengths['min']}, median {lengths['median']:g}, "
            f"mean {lengths['mean']:.1f}, max {lengths['max']} moves"
        )
        biggest = max(bucket["count"] for bucket in lengths["histogram"])
        for bucket in lengths["histogram"]:
            bar = "#" * math.ceil(40 * bucket["count"] / biggest) if bucket["count"] else ""
            lines.append(f"  {bucket['from']:>4}-{bucket['to']:<4} {bucket['count']:>8}  {bar}")
    lines.append(
        f"Limits:       time {limit_text(summary['time_limits'], ' s')}; "
        f"nodes {limit_text(summary['max_nodes'], '')}; "
        f"solver {', '.join(summary['solver_versions']) or 'n/a'}"
    )
    return "\n".join(lines)
