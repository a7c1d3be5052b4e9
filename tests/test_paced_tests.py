"""Paced tests (``engine.dead_ends.pacing``): the full pairwise tests inside the search, the checks of the
remembered dead tables and the case split on twins stand down while they have not paid for
themselves. Which sound tests run changes what a search costs, never a decided verdict: the
gates follow the counts they are written over, a paced search with gates that close early gives
every verdict of the unpaced one (and of the exhaustive reference search) on small positions of
every one-deck rule set and on lost deals, and where the tests, checks or splits find little the
paced search stops running them (the split one test in ``split_sample`` after, where it pays it stays
on)."""

from collections import Counter
from dataclasses import replace

import pytest
from engine_helpers import NO_SHRINK, NODE_LIMITS, SETTINGS, UNPACED_TUNING, checked_solve, verdict_positions
from exhaustive import TooBig, exhaustive_verdict
from hypothesis import event, given, settings
from test_h2 import one_deck

from solver.engine import layout, moves, search
from solver.engine.dead_ends import arrays, entry, pacing
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE
from solver.search import searching
from solver.search.budget import Budget
from solver.search.config import DEFAULT
from solver.search.dead_ends import dead_end_counters
from solver.search.packing import pack

# Tests a paced solve may run beyond its trial and the positions proved dead: each of its searches
# (the probes and the full search) tests its own root, paced or not.
BEYOND_TRIAL = len(DEFAULT.probes) + 1


def control(tests_on_trial: int, checks_per_table: int = 0, splits_on_trial: int = 0):
    """A control block with the pairwise test due on every position (``UNPACED_TUNING``), paced
    by these trials and allowance per table."""
    tuning = UNPACED_TUNING._replace(
        tests_on_trial=tests_on_trial, checks_per_table=checks_per_table, splits_on_trial=splits_on_trial
    )
    return search.make_control(search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 40, tuning)


def agreed_verdict(board, rules: Rules, unpaced: str, paced: str) -> str | None:
    """The verdict the unpaced and the paced solve agree on, which is the exhaustive search's
    where that search is small enough; None when a solve ran out of nodes."""
    if UNKNOWN in (unpaced, paced):
        event("node limit")
        return None
    assert paced == unpaced, board.to_text()
    try:
        assert paced == exhaustive_verdict(board, rules, 5_000), board.to_text()
    except TooBig:
        event("too big for the exhaustive search")
    return paced


def test_the_gates_follow_the_counts():
    """Full tests run while fewer than the trial plus the positions the full test and the
    remembered tables proved dead (the families of the test over triples do not count); checks
    of the remembered tables while fewer than ``checks_per_dead`` a position they proved dead plus
    the allowance of each table stored; a slot of 0 paces nothing, and the search's trigger of
    the full test and its check of the tables ask the gates."""
    tables = arrays.make_tables()
    header = tables.header
    header[arrays.HEADER_DEAD], header[arrays.HEADER_NOGOOD_DEAD], header[arrays.HEADER_FAMILY_DEAD] = 2, 3, 4
    header[arrays.HEADER_PAIRS_ON], header[arrays.HEADER_RING_FILL], header[arrays.HEADER_FACTS] = 1, 1, 10
    paced, unpaced = control(10, 100), control(0, 0)
    checks_allowed = DEFAULT.checks_per_dead * 3 + 100 * 2
    for calls, checks, tests_run, checks_run in [
        (14, checks_allowed - 1, True, True),
        (15, checks_allowed, False, False),
    ]:
        header[arrays.HEADER_CALLS], header[arrays.HEADER_NOGOOD_CALLS] = calls, checks
        assert pacing.tests_pay(paced, tables) == pacing.pairs_due(paced, tables, 0) == tests_run
        assert pacing.checks_pay(paced, tables) == entry.ring_asked(paced, tables) == checks_run
        assert pacing.tests_pay(control(0, 100), tables) and pacing.checks_pay(control(10, 0), tables)
        assert pacing.pairs_due(unpaced, tables, 0) and entry.ring_asked(unpaced, tables)


@one_deck
def test_paced_searches_keep_every_verdict(rules):
    """With the pairwise test due on every position (so the gates meet many tests), a trial of 1
    test and 20 checks for each table stored: the paced search's verdict is the unpaced one's and
    the exhaustive search's on small positions, won and lost ones among them, and on some won
    ones it ran fewer tests. (On these small lost positions the tests keep proving positions
    dead, so their gate stays open; the lost deals below close it.)"""
    every_position = replace(DEFAULT, root_pairs_after=0, pairs_spacing=0, first_look_nodes=0)
    limits = Limits(max_nodes=100_000, time_limit=None)
    seen = Counter()

    def solved(board, trial, per_table):
        config = replace(every_position, tests_on_trial=trial, checks_per_table=per_table)
        result = checked_solve(board, rules, moves.ALL_REDUCTIONS, limits, config)
        return result.status, dead_end_counters()["tests"]

    @settings(max_examples=60, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules))
    def check(board):
        (unpaced, unpaced_tests), (paced, paced_tests) = solved(board, 0, 0), solved(board, 1, 20)
        verdict = agreed_verdict(board, rules, unpaced, paced)
        if verdict is not None:
            seen[verdict, paced_tests < unpaced_tests] += 1

    check()
    assert seen[SOLVED, True] > 0 and seen[UNSOLVABLE, True] + seen[UNSOLVABLE, False] > 0, seen


@pytest.mark.parametrize("deal", [291, 539, 96, 462])
def test_a_paced_search_proves_a_lost_deal_lost(deal):
    """PySolFC deals whose pairwise tests prove nothing dead (40-96 k positions, 15-76 tests):
    with a trial of 5 tests the gate closes, and the search, exhausted with fewer tests, proves
    each lost as the unpaced search does. (The tests find nothing here, so both search the same
    positions: what this shows is that the gate cuts the tests and leaves the proof whole.)"""
    board, rules = deal_board("yukon", deal, "pysol"), Rules("yukon")
    tests = {}
    for trial in (0, 5):
        config = replace(DEFAULT, tests_on_trial=trial)
        assert (
            checked_solve(board, rules, moves.ALL_REDUCTIONS, Limits(max_nodes=1_000_000), config).status
            == UNSOLVABLE
        )
        counters = dead_end_counters()
        assert counters["dead"] == counters["nogood_dead"] == 0
        tests[trial] = counters["tests"]
    assert 5 <= tests[5] <= 5 + BEYOND_TRIAL < tests[0], tests


@pytest.mark.parametrize(
    "trial, spacing, stood_down",
    [
        (DEFAULT.tests_on_trial, DEFAULT.pairs_spacing, True),
        (500, 10**9, True),
        (0, DEFAULT.pairs_spacing, False),
    ],
    ids=["paced", "costly positions only, paced", "unpaced"],
)
def test_tests_that_find_nothing_stand_down(trial, spacing, stood_down):
    """KPat 7000007, whose pairwise tests prove no position dead: paced as the solver is, its
    first 4 M positions run the trial's tests and at most BEYOND_TRIAL more; so with only the tests
    of costly positions of the path (a spacing beyond the search) and a trial of 500; unpaced, well
    over 2,000."""
    result = checked_solve(
        deal_board("yukon", 7000007, "kpat"),
        Rules("yukon"),
        moves.ALL_REDUCTIONS,
        Limits(max_nodes=4_000_000),
        replace(DEFAULT, tests_on_trial=trial, pairs_spacing=spacing),
    )
    counters = dead_end_counters()
    assert result.status == UNKNOWN and counters["dead"] == counters["nogood_dead"] == 0
    if stood_down:
        assert trial <= counters["tests"] <= trial + BEYOND_TRIAL, counters
    else:
        assert counters["tests"] > DEFAULT.tests_on_trial + BEYOND_TRIAL, counters


@pytest.mark.parametrize("per_table", [DEFAULT.checks_per_table, 0], ids=["paced", "unpaced"])
def test_checks_that_find_little_stand_down(per_table):
    """KPat 700194 (won in 0.3 M positions) stores one dead table whose checks find a dead position
    about once in 6,000: paced, the checks stop where the allowance of its table and of the
    positions they proved dead runs out; unpaced, they go on past it. Won either way."""
    config = replace(DEFAULT, checks_per_table=per_table)
    result = checked_solve(
        deal_board("yukon", 700194, "kpat"), Rules("yukon"), moves.ALL_REDUCTIONS, NODE_LIMITS, config
    )
    counters = dead_end_counters()
    per_dead, per_table_stored = DEFAULT.checks_per_dead, DEFAULT.checks_per_table
    allowance = per_dead * counters["nogood_dead"] + per_table_stored * counters["dead"]
    assert result.status == SOLVED and counters["dead"] >= 1
    assert (counters["nogood_checks"] == allowance) == (per_table > 0), counters
    assert (counters["nogood_checks"] > allowance) == (per_table == 0), counters


def test_the_split_gate_follows_the_counts():
    """The case split runs while its tests are fewer than the trial plus ``splits_per_dead`` for
    each position only it proved dead; then one test in ``split_sample`` (the others counted as
    skipped); a trial of 0 paces nothing."""
    paced = control(0, splits_on_trial=10)
    paced[layout.CONTROL_SPLIT_DEAD] = 2
    allowed = 10 + 2 * DEFAULT.splits_per_dead
    paced[layout.CONTROL_SPLIT_CALLS] = allowed - 1
    assert pacing.split_now(paced) and paced[layout.CONTROL_SPLIT_SKIPS] == 0
    paced[layout.CONTROL_SPLIT_CALLS] = allowed
    sample = DEFAULT.split_sample
    taken = [bool(pacing.split_now(paced)) for _ in range(2 * sample)]
    assert taken == ([False] * (sample - 1) + [True]) * 2
    assert paced[layout.CONTROL_SPLIT_SKIPS] == 2 * sample
    unpaced = control(0)
    unpaced[layout.CONTROL_SPLIT_CALLS] = 10**9
    assert pacing.split_now(unpaced) and unpaced[layout.CONTROL_SPLIT_SKIPS] == 0


@one_deck
def test_a_paced_split_keeps_every_verdict(rules):
    """With a trial of 1 test (the split then runs one test in ``split_sample`` unless it proves
    positions dead): the verdict of the solve is the unpaced one's and the exhaustive search's on
    small positions, won and lost ones among them."""
    limits = Limits(max_nodes=100_000, time_limit=None)
    seen = Counter()

    def solved(board, trial):
        config = replace(DEFAULT, splits_on_trial=trial)
        return checked_solve(board, rules, moves.ALL_REDUCTIONS, limits, config).status

    @settings(max_examples=60, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules))
    def check(board):
        verdict = agreed_verdict(board, rules, solved(board, 0), solved(board, 1))
        if verdict is not None:
            seen[verdict] += 1

    check()
    assert seen[SOLVED] > 0 and seen[UNSOLVABLE] > 0, seen


def full_search_splits(numbering: str, deal: int, trial: int, max_nodes: int):
    """The full search of a deal's root (no probes) with a split trial of ``trial``: its status
    and its split counters (tests, of them dead by the split only, skipped)."""
    packed = pack(deal_board("yukon", deal, numbering), Rules("yukon"))
    config = replace(DEFAULT, splits_on_trial=trial)
    searched = searching.Search(packed, search.DFS, moves.ALL_REDUCTIONS, 0, 1 << 28, config=config)
    status = searched.run(Budget(Limits(max_nodes=max_nodes, time_limit=None)))
    control = searched.control
    slots = (layout.CONTROL_SPLIT_CALLS, layout.CONTROL_SPLIT_DEAD, layout.CONTROL_SPLIT_SKIPS)
    return (status, *(int(control[slot]) for slot in slots))


def test_a_split_that_finds_nothing_stands_down():
    """KPat 9000102, whose case split proves no position dead that HOPELESS leaves alive: paced
    with a trial of 1,000, its first 400,000 positions take the split in the trial and then in one
    test of ``split_sample``; unpaced in every test, well over the trial."""
    _, calls, dead, skips = full_search_splits("kpat", 9000102, 1_000, 400_000)
    assert dead == 0 and skips > 0 and calls == 1_000 + skips // DEFAULT.split_sample
    _, calls, dead, skips = full_search_splits("kpat", 9000102, 0, 400_000)
    assert dead == 0 and skips == 0 and calls > 3_000


def test_a_split_that_pays_stays_on():
    """KPat 9000156, where the split proves a position dead in most of its tests: with a trial of
    1,000 it never stands down in the first 300,000 positions, test for test the unpaced search;
    KPat 5000064, whose split proves little in its first tests and much later: the gate closes,
    and the dead positions of the sampled tests open it again (more tests than the trial and the
    samples, and open at the end)."""
    paced = full_search_splits("kpat", 9000156, 1_000, 300_000)
    assert paced == full_search_splits("kpat", 9000156, 0, 300_000)
    assert paced[2] > 10_000 and paced[3] == 0, paced
    _, calls, dead, skips = full_search_splits("kpat", 5000064, 1_000, 300_000)
    assert skips > 0 and calls > 1_000 + skips // DEFAULT.split_sample, (calls, dead, skips)
    assert calls < 1_000 + DEFAULT.splits_per_dead * dead, (calls, dead, skips)


@pytest.mark.parametrize("deal", [988, 192])
def test_a_paced_split_proves_a_lost_deal_lost(deal):
    """PySolFC 988 (the split finds nothing) and 192 (it finds much): with a trial of 1 the solve
    proves each lost, as unpaced."""
    board, rules = deal_board("yukon", deal, "pysol"), Rules("yukon")
    for trial in (0, 1):
        config = replace(DEFAULT, splits_on_trial=trial)
        assert (
            checked_solve(board, rules, moves.ALL_REDUCTIONS, Limits(max_nodes=2_000_000), config).status
            == UNSOLVABLE
        )
