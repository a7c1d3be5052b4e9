"""The signal helper: stop flags for runs and searches, SIGINT ignored while workers start."""

import signal
import threading

import pytest

from solver.interrupts import StopFlag, exit_status, sigint_ignored


def test_exit_status_is_128_plus_the_signal():
    assert exit_status() == 130
    assert exit_status(signal.SIGTERM) == 143


def test_a_signal_sets_the_flag_and_the_handlers_come_back():
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    with StopFlag() as stop:
        assert not stop.requested
        signal.raise_signal(signal.SIGTERM)
        assert stop.requested and stop.signal == signal.SIGTERM
    assert {signum: signal.getsignal(signum) for signum in before} == before


def test_a_second_ctrl_c_raises_at_once():
    with StopFlag() as stop, pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
        assert stop.signal == signal.SIGINT
        signal.raise_signal(signal.SIGINT)


def test_a_search_flag_only_counts_ctrl_c():
    # Ctrl-C as an interactive shell leaves it (a shell's background job inherits it ignored)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with StopFlag((signal.SIGINT,), second_raises=False, keep_ignored=True) as stop:
            signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGINT)
            assert stop.signal == signal.SIGINT
            assert signal.getsignal(signal.SIGTERM) is not stop.handle
    finally:
        signal.signal(signal.SIGINT, previous)


def test_an_ignored_sigint_stays_ignored_when_asked():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with StopFlag((signal.SIGINT,), keep_ignored=True) as stop:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            signal.raise_signal(signal.SIGINT)
            assert not stop.requested
        with StopFlag((signal.SIGINT,)) as stop:
            assert signal.getsignal(signal.SIGINT) == stop.handle
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_outside_the_main_thread_nothing_is_installed():
    seen = {}

    def in_thread():
        with StopFlag() as stop:
            seen["handler"] = signal.getsignal(signal.SIGINT)
            seen["stop"] = stop
        with sigint_ignored():
            seen["ignored"] = signal.getsignal(signal.SIGINT)

    before = signal.getsignal(signal.SIGINT)
    thread = threading.Thread(target=in_thread)
    thread.start()
    thread.join()
    assert seen["handler"] is before and seen["ignored"] is before
    assert not seen["stop"].requested


def test_sigint_is_ignored_only_inside():
    before = signal.getsignal(signal.SIGINT)
    with sigint_ignored():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is before
