"""The signal helper: stop flags for runs and searches, SIGINT ignored while workers start;
Ctrl-C ends commands that solve again and again, and catalogue writes."""

import signal
import threading

import pytest
from test_cli import run
from test_hostile import SHIPPED, small_catalogue

from solver.catalogue import candidates, files
from solver.catalogue.candidates import Shortener
from solver.catalogue.verify import verify_directory
from solver.common.interrupts import (
    CtrlC,
    StopFlag,
    exit_status,
    passing_ctrl_c_on,
    sigint_ignored,
    watched_by_search,
)
from solver.game.numbering import deal_board
from solver.game.ranges import parse_range
from solver.game.rules import Rules
from solver.runs.report import RunReport
from solver.search import readiness, solve


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


def test_an_ignored_signal_stays_ignored():
    """A run started under nohup (SIGHUP ignored) or as a background job keeps ignoring it."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with StopFlag((signal.SIGINT, signal.SIGTERM)) as stop:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) == stop.handle
            signal.raise_signal(signal.SIGINT)
            assert not stop.requested
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_closed_terminal_stops_a_run():
    previous = signal.signal(signal.SIGHUP, signal.SIG_DFL)  # as a terminal's run has it
    try:
        with StopFlag() as stop:
            signal.raise_signal(signal.SIGHUP)
            assert stop.signal == signal.SIGHUP and exit_status(stop.signal) == 129
    finally:
        signal.signal(signal.SIGHUP, previous)


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


# ---- issue 27: Ctrl-C during a command that solves again and again ends it, with 130 ----------


@pytest.fixture(params=["stops it", "as it wins"])
def ctrl_c_in_the_third_search(request, monkeypatch):
    """Ctrl-C pressed while the third search of this process runs, a real SIGINT: before its
    first chunk (the search stops with an interrupted verdict) or once it has won (the
    search ends solved); the count of searches started. A search is the look and search of
    a verdict (``solve_position``) or of a player's estimate (``estimate_position``), both
    inside the solve's watch for Ctrl-C. The kernels are loaded first, so that no warm-up
    search counts."""
    readiness.warm_up()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    started = []
    real_search = solve.looked_then_searched

    def looked_then_searched(*args):
        started.append(True)
        if len(started) == 3 and request.param == "stops it":
            signal.raise_signal(signal.SIGINT)
        searched = real_search(*args)
        if len(started) == 3 and request.param == "as it wins":
            signal.raise_signal(signal.SIGINT)
        return searched

    monkeypatch.setattr(solve, "looked_then_searched", looked_then_searched)
    yield started
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_ends_a_sampling_hint(ctrl_c_in_the_third_search):
    result = run("hint", "12", "--policy", "sampling", "--samples", "1000")
    assert result.exit_code == 130 and result.stdout == ""
    assert len(ctrl_c_in_the_third_search) == 3


def test_ctrl_c_ends_check_solve(ctrl_c_in_the_third_search, tmp_path):
    ctrl_c_in_the_third_search.extend([True, True])  # the next search is the third
    folder = small_catalogue(tmp_path)
    result = run("check", "12", "--variant", "russian", "--dir", str(folder), "--solve")
    assert result.exit_code == 130 and result.stdout == ""


def test_ctrl_c_ends_the_catalogue_shortener(ctrl_c_in_the_third_search):
    ctrl_c_in_the_third_search.extend([True, True])
    board = deal_board("russian", 16)
    with pytest.raises(KeyboardInterrupt):
        Shortener(5.0).line(board, Rules("russian"), "1>F:AS")


def test_ctrl_c_while_solving_missing_deals_ends_the_build(monkeypatch, tmp_path):
    stopped = RunReport("r.db", in_range=3, skipped=0, to_do=3, interrupted_by=signal.SIGINT)
    monkeypatch.setattr(candidates, "run_batch", lambda *args: stopped)
    with pytest.raises(KeyboardInterrupt):
        candidates.solve_missing(tmp_path / "r.db", Rules("russian"), "pysol", parse_range("1-3"), 1.0, 1)


def test_ctrl_c_while_a_catalogue_is_written_leaves_both_files_agreeing(tmp_path, monkeypatch):
    folder = small_catalogue(tmp_path, count=1)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    real_replace = files.replace_files

    def replace_then_ctrl_c(directory, written):
        signal.raise_signal(signal.SIGINT)  # while the catalogue and its manifest are written
        real_replace(directory, written)

    monkeypatch.setattr(files, "replace_files", replace_then_ctrl_c)
    catalogue = files.read_catalogue(SHIPPED / "russian-easy.json")
    try:
        with pytest.raises(KeyboardInterrupt):
            files.save_catalogue(folder, catalogue | {"entries": catalogue["entries"][:2]})
    finally:
        signal.signal(signal.SIGINT, previous)
    assert verify_directory(folder).problems == []
    assert verify_directory(folder).entries == 2


def test_the_commands_ctrl_c_cancels_a_watching_search_then_raises():
    """The command line's handler: the first Ctrl-C while a search watches only cancels it; a
    second one, or one with no search watching, raises KeyboardInterrupt (exit status 130)."""
    with CtrlC().installed() as ctrl_c:
        assert signal.getsignal(signal.SIGINT) == ctrl_c.handle
        with watched_by_search():
            signal.raise_signal(signal.SIGINT)
            assert ctrl_c.is_set()
            with pytest.raises(KeyboardInterrupt):
                signal.raise_signal(signal.SIGINT)
    with CtrlC().installed() as ctrl_c, pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)


def test_passing_ctrl_c_on_ends_the_caller_once_the_search_is_done():
    with CtrlC().installed():
        with watched_by_search():
            signal.raise_signal(signal.SIGINT)  # a search ended with it: no more
        with pytest.raises(KeyboardInterrupt), passing_ctrl_c_on(), watched_by_search():
            pass


def test_after_a_command_its_handler_is_gone_or_sigint_ignored():
    before = signal.getsignal(signal.SIGINT)
    with CtrlC().installed():
        pass
    assert signal.getsignal(signal.SIGINT) is before
    try:
        with CtrlC().installed(ignored_after=True):
            pass
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # the program only has to leave
    finally:
        signal.signal(signal.SIGINT, before)
