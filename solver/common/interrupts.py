"""Signals: Ctrl-C, SIGTERM and SIGHUP turned into a flag a loop reads, and kept from new
workers; the command line's Ctrl-C, which a search reads as a cancel handle.

``StopFlag`` serves a batch run: SIGINT, SIGTERM and SIGHUP (a closed terminal) stop it, with
the line saying how to resume; a second Ctrl-C raises KeyboardInterrupt at once. Outside the
main thread it is a no-op, since Python only lets the main thread install handlers.

A library call never changes a signal handler: a search stops early only when its cancel handle
(any object with ``is_set()``, such as a ``threading.Event``) is set. The command line installs
``CtrlC`` for the whole command: while a search watches it (``watched_by_search``), a first
Ctrl-C only sets it, so the search ends with a clean unknown verdict; otherwise, and a second
time, it raises KeyboardInterrupt, which the command turns into exit status 130. Callers that
solve again and again (the sampling player, ``check --solve``, the catalogue builder) run each
solve inside ``passing_ctrl_c_on``: a search that ends with the command's Ctrl-C set then raises
KeyboardInterrupt, so that Ctrl-C ends the command, not just one search.
"""

import signal
import threading
from contextlib import contextmanager
from contextvars import ContextVar

# SIGHUP: the terminal was closed (absent on Windows).
HANGUP = (signal.SIGHUP,) if hasattr(signal, "SIGHUP") else ()
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, *HANGUP)
# How often a waiting loop wakes to read the flag.
POLL_SECONDS = 0.1
# Whether a search that ends with the command's Ctrl-C set raises KeyboardInterrupt.
PASSING_ON = ContextVar("passing_ctrl_c_on", default=False)


def exit_status(signum: int = signal.SIGINT) -> int:
    """The shell's exit status for a process stopped by ``signum`` (130 for Ctrl-C)."""
    return 128 + signum


def in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


class StopFlag:
    """While active, the given signals set ``signal`` (the last received) instead of their
    usual effect; ``requested`` says whether one came. A signal the process ignores (started
    under nohup, or a worker) stays ignored."""

    def __init__(self, signals=STOP_SIGNALS, *, second_raises: bool = True):
        self.signals = signals
        self.second_raises = second_raises
        self.signal = None
        self.previous = {}

    @property
    def requested(self) -> bool:
        return self.signal is not None

    def handle(self, signum, _frame):
        if self.second_raises and self.signal is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.signal = signum

    def __enter__(self):
        if in_main_thread():
            for signum in self.signals:
                if signal.getsignal(signum) is signal.SIG_IGN:  # nohup, a worker: kept ignored
                    continue
                self.previous[signum] = signal.signal(signum, self.handle)
        return self

    def __exit__(self, *exc_info):
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self.previous = {}
        return False


class CtrlC:
    """The command line's SIGINT handler (see the module's docstring); ``is_set()`` makes it a
    cancel handle. ``installed()`` puts it in place for a command and makes it the one every
    search started in that context reads (``COMMAND_CTRL_C``)."""

    def __init__(self):
        self.event = threading.Event()
        self.watchers = 0  # searches reading it now

    def is_set(self) -> bool:
        return self.event.is_set()

    def handle(self, _signum, _frame):
        first = not self.event.is_set()
        self.event.set()
        if not (first and self.watchers):
            raise KeyboardInterrupt

    @contextmanager
    def installed(self, ignored_after: bool = False):
        """Handle SIGINT inside; after, SIGINT is ignored if ``ignored_after`` (the process is
        about to leave), else handled as before."""
        if not in_main_thread():
            yield self
            return
        previous = signal.signal(signal.SIGINT, self.handle)
        token = COMMAND_CTRL_C.set(self)
        try:
            yield self
        finally:
            signal.signal(signal.SIGINT, signal.SIG_IGN if ignored_after else previous)
            COMMAND_CTRL_C.reset(token)


# The command's ``CtrlC`` while one is installed in this context; None in a program using the library.
COMMAND_CTRL_C: ContextVar[CtrlC | None] = ContextVar("command_ctrl_c", default=None)


# Cancel handles set by ``cancelled_by`` in this context, read by every search started in it.
CANCEL_HANDLES: ContextVar[tuple] = ContextVar("cancel_handles", default=())


@contextmanager
def cancelled_by(cancel):
    """Searches started inside (in this thread or task) also stop once ``cancel`` is set:
    how a call that runs many solves (a sampling hint) takes one cancel handle."""
    token = CANCEL_HANDLES.set((*CANCEL_HANDLES.get(), cancel)) if cancel is not None else None
    try:
        yield
    finally:
        if token is not None:
            CANCEL_HANDLES.reset(token)


@contextmanager
def watched_by_search():
    """Around a search: the command's Ctrl-C (if any) only cancels it, and, inside
    ``passing_ctrl_c_on``, a Ctrl-C that came raises KeyboardInterrupt once it has ended."""
    ctrl_c = COMMAND_CTRL_C.get()
    if ctrl_c is None:
        yield
        return
    ctrl_c.watchers += 1
    try:
        yield
    finally:
        ctrl_c.watchers -= 1
    if PASSING_ON.get() and ctrl_c.is_set():
        raise KeyboardInterrupt


@contextmanager
def passing_ctrl_c_on():
    """Searches ended inside raise KeyboardInterrupt when the command's Ctrl-C came (see the
    module's docstring): Ctrl-C during a search then ends the caller too."""
    token = PASSING_ON.set(True)
    try:
        yield
    finally:
        PASSING_ON.reset(token)


# The thread that makes kernels ready (``solver.search.readiness.apart``): a Ctrl-C can leave it
# compiling, and LLVM, torn down by the process's exit under it, aborts the process.
KERNELS_THREAD = "yukon-kernels-ready"


def kernels_still_compiling() -> bool:
    """Whether a thread making kernels ready has not finished (a Ctrl-C stopped the wait for it):
    one named KERNELS_THREAD whose ``done`` event is not set."""
    return any(thread.name == KERNELS_THREAD and not thread.done.is_set() for thread in threading.enumerate())


# What a worker process ignores: the terminal's Ctrl-C and its closing reach the whole process
# group, and the parent handles both (it stops the run and ends its workers).
WORKER_IGNORES = (signal.SIGINT, *HANGUP)


def ignore_in_worker() -> None:
    """In a worker process: ignore WORKER_IGNORES."""
    for signum in WORKER_IGNORES:
        signal.signal(signum, signal.SIG_IGN)


@contextmanager
def sigint_ignored():
    """Ignore WORKER_IGNORES while a worker process starts: an ignored signal stays ignored
    across exec, so the worker never sees the terminal's Ctrl-C (the parent handles it). Only
    a Ctrl-C pressed during the few milliseconds of the start is lost."""
    if not in_main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, signal.SIG_IGN) for signum in WORKER_IGNORES}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
