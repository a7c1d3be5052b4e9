"""Signals: Ctrl-C and SIGTERM turned into a flag a loop reads, and kept from new workers.

``StopFlag`` serves both a batch run (SIGINT and SIGTERM stop it; a second Ctrl-C raises
KeyboardInterrupt at once) and a single search (``StopFlag((SIGINT,), second_raises=False,
keep_ignored=True)``: Ctrl-C only sets the flag; nothing is installed in a process that
ignores SIGINT, such as a batch worker). Outside the main thread both are no-ops, since
Python only lets the main thread install handlers.

A search's flag turns Ctrl-C into an unknown verdict, and a Ctrl-C that comes while a short
search is about to win is dropped with the flag. Callers that solve again and again (the
sampling player, ``check --solve``, the catalogue builder) run each solve inside
``passing_ctrl_c_on``: a flag that caught a signal then hands it, when it is left, to the
handler it replaced, so that Ctrl-C raises KeyboardInterrupt there and ends the command.
"""

import signal
import threading
from contextlib import contextmanager
from contextvars import ContextVar

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# How often a waiting loop wakes to read the flag.
POLL_SECONDS = 0.1
# Whether a flag left now hands the signal it caught to the handler it replaced.
PASSING_ON = ContextVar("passing_ctrl_c_on", default=False)


def exit_status(signum: int = signal.SIGINT) -> int:
    """The shell's exit status for a process stopped by ``signum`` (130 for Ctrl-C)."""
    return 128 + signum


def in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


class StopFlag:
    """While active, the given signals set ``signal`` (the last received) instead of their
    usual effect; ``requested`` says whether one came."""

    def __init__(self, signals=STOP_SIGNALS, *, second_raises: bool = True, keep_ignored: bool = False):
        self.signals = signals
        self.second_raises = second_raises
        self.keep_ignored = keep_ignored
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
                if self.keep_ignored and signal.getsignal(signum) is signal.SIG_IGN:
                    continue
                self.previous[signum] = signal.signal(signum, self.handle)
        return self

    def __exit__(self, *exc_info):
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        caught = self.signal if self.previous and PASSING_ON.get() else None
        self.previous = {}
        if caught is not None:
            signal.raise_signal(caught)  # to the handler just put back
        return False


@contextmanager
def passing_ctrl_c_on():
    """Flags left inside hand the signal they caught to the handler they replaced (see the
    module's docstring): Ctrl-C during a search then ends the caller too."""
    token = PASSING_ON.set(True)
    try:
        yield
    finally:
        PASSING_ON.reset(token)


@contextmanager
def sigint_ignored():
    """Ignore SIGINT while a worker process starts: an ignored signal stays ignored across
    exec, so the worker never sees the terminal's Ctrl-C (the parent handles it). Only a
    Ctrl-C pressed during the few milliseconds of the start is lost."""
    if not in_main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
