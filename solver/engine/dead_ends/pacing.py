"""The rations of the dead-end tests, in one place: the paced tests inside the search, the tests of
costly positions of the path, and the solve's tests of its path over triples.

Paced tests: the dead-end tests inside the search stand down while they have not paid.

The tests inside the search cost time whether or not they find anything: a full pairwise test
(``h2``) 0.03-0.5 ms (README.md, "The pairwise dead-end test"), up to some 700 positions of
search; a check of the remembered dead tables (``nogoods``) about 0.2 us with the reading of the
position's facts. On most hard deals they pay
many times over (on the hard list 7-650 positions proved dead per full test, 2-64% of the checks
dead), but on a few they find next to nothing (KPat 4000172: 753 positions in 17,841 tests and
7.8 M checks, a fifth of its 16 s; KPat 7000007: none).

Paced, the search's full tests (``pairs_due``, ``entry.test_costly``) run only while their
count is below the trial (``control[CONTROL_TESTS_ON_TRIAL]``, the solve's
``SearchConfig.tests_on_trial``) plus the positions the pairwise tests and their remembered dead
tables have proved dead (``tests_pay``); the checks of the remembered tables only while their count
is below ``control[CONTROL_CHECKS_PER_DEAD]`` for each position they proved dead plus
``control[CONTROL_CHECKS_PER_TABLE]`` for each dead table the full test stored (``checks_pay``).
Either trial or allowance per table at 0 leaves its tests unpaced. A position proved dead spares at
least itself, so the count is a floor of what the tests bought; a closed gate opens again when a
test still running (a search's root test, a check of the tables) proves more positions dead. The
families of the test over triples (``triple_nogoods``) are not counted: they pay for the tests over
triples, which are rationed on their own. Not paced: the test of each search's root, and the tests
over triples.

The case split on twins (``prune.twins_verdict``, TWIN_SPLIT) costs about three plain HOPELESS tests
(1.3-1.7 us against 0.44 on a deal's opening) and, on most deals where it runs often, proves a
position dead that HOPELESS leaves alive every 3-35 tests (KPat 9000156, 5000064, 1000051, 1000130;
counted over a solve), on some one in 250-350 (PySolFC 531, KPat 3000105, 500023) or none (KPat
9000102). Paced, a search's tests after a move (``entry.pins_dead``) take the split while they
number fewer than the trial (``control[CONTROL_SPLITS_ON_TRIAL]``, the solve's
``SearchConfig.splits_on_trial``) plus ``control[CONTROL_SPLITS_PER_DEAD]`` for each position only
the split proved dead (``splits_pay``); after that one test in ``control[CONTROL_SPLIT_SAMPLE]``
still takes it (``split_now``), so a deal whose split pays only later (KPat 5000064: 26 such
positions in its first 12,600 splits, one in four tests over the solve) opens the gate again. The
others are HOPELESS's plain test. Each search keeps its own counts (``control``), the probes' and
the full search's apart.

The tests of costly positions of the path (``entry.test_costly``) are rationed too
(``costly_test_allowed``): at most one per ``control[CONTROL_COSTLY_AFTER]`` positions of the
search, plus ``control[CONTROL_COSTLY_CREDIT]`` for each that found a dead position, so a deal
where they seldom prune pays little; and paced (``tests_pay``).

The path's tests over triples are rationed from Python, between two chunks of the search
(``solver.search.config.PathRation``, which holds that ration's argument).

Why no verdict becomes wrong: every test is sound on any position (the split and HOPELESS alike,
``prune``; ``h3``, ``triple_nogoods``), and the rations only choose which of them run, so a paced
search proves a position lost only by tests that prove it, and an exhausted paced search is a proof
as an unpaced one is; a won deal stays won and a lost one lost.
Pacing changes what a search costs and which positions it visits, so under a budget of positions
or seconds what is left unknown can differ. The gates count positions and tests, not seconds, and
are asked between positions, so a paced search does not depend on the machine's speed.
"""

import numpy as np

from solver.engine.dead_ends.arrays import (
    HEADER_CALLS,
    HEADER_DEAD,
    HEADER_FACTS,
    HEADER_NOGOOD_CALLS,
    HEADER_NOGOOD_DEAD,
    HEADER_PAIRS_ON,
)
from solver.engine.jit import kernel
from solver.engine.layout import (
    CONTROL_CHECKS_PER_DEAD,
    CONTROL_CHECKS_PER_TABLE,
    CONTROL_COSTLY_AFTER,
    CONTROL_COSTLY_CREDIT,
    CONTROL_COSTLY_DEAD,
    CONTROL_COSTLY_TESTS,
    CONTROL_COSTLY_WAIT,
    CONTROL_OPTIONS,
    CONTROL_PAIRS_SPACING,
    CONTROL_SPLIT_CALLS,
    CONTROL_SPLIT_DEAD,
    CONTROL_SPLIT_SAMPLE,
    CONTROL_SPLIT_SKIPS,
    CONTROL_SPLITS_ON_TRIAL,
    CONTROL_SPLITS_PER_DEAD,
    CONTROL_TESTS_ON_TRIAL,
)
from solver.engine.moves import H2_SEARCH


@kernel
def tests_pay(control, tables):
    """Unpaced, or are the full tests run so far fewer than the trial
    (``control[CONTROL_TESTS_ON_TRIAL]``) plus the positions the pairwise tests and their
    remembered dead tables proved dead?"""
    trial, header = control[CONTROL_TESTS_ON_TRIAL], tables.header
    proved = header[HEADER_DEAD] + header[HEADER_NOGOOD_DEAD]
    return trial <= 0 or header[HEADER_CALLS] < trial + proved


@kernel
def checks_pay(control, tables):
    """Unpaced, or are the checks of the remembered dead tables so far fewer than
    ``control[CONTROL_CHECKS_PER_DEAD]`` for each position they proved dead plus
    ``control[CONTROL_CHECKS_PER_TABLE]`` for each table the full test stored?"""
    per_table, header = control[CONTROL_CHECKS_PER_TABLE], tables.header
    per_dead = control[CONTROL_CHECKS_PER_DEAD]
    allowed = per_dead * header[HEADER_NOGOOD_DEAD] + per_table * header[HEADER_DEAD]
    return per_table <= 0 or header[HEADER_NOGOOD_CALLS] < allowed


@kernel
def splits_pay(control):
    """Unpaced, or are the search's tests with the case split on twins so far fewer than the
    trial (``control[CONTROL_SPLITS_ON_TRIAL]``) plus ``control[CONTROL_SPLITS_PER_DEAD]`` for each
    position only the split proved dead?"""
    trial = control[CONTROL_SPLITS_ON_TRIAL]
    allowed = trial + control[CONTROL_SPLITS_PER_DEAD] * control[CONTROL_SPLIT_DEAD]
    return trial <= 0 or control[CONTROL_SPLIT_CALLS] < allowed


@kernel
def split_now(control):
    """Does this test of the search take the case split on twins: while the split pays
    (``splits_pay``), and after that one test in ``control[CONTROL_SPLIT_SAMPLE]`` (whose dead
    positions can open the gate again)? Counts the tests asked after the allowance ran out, the
    sampled ones included."""
    if splits_pay(control):
        return True
    control[CONTROL_SPLIT_SKIPS] += 1
    return control[CONTROL_SPLIT_SKIPS] % control[CONTROL_SPLIT_SAMPLE] == 0


@kernel
def costly_test_allowed(control, tables, nodes, after):
    """May ``entry.test_costly`` test a costly position now, ``nodes`` positions into the
    search (``after``: ``control[CONTROL_COSTLY_AFTER]``)? At most one test per ``after``
    positions plus ``control[CONTROL_COSTLY_CREDIT]`` for each that found a dead position, while
    the tests pay (``tests_pay``); when not, ``control[CONTROL_COSTLY_WAIT]`` says when to ask
    again (the next allowance, or ``after`` positions on)."""
    allowed = control[CONTROL_COSTLY_DEAD] * control[CONTROL_COSTLY_CREDIT] + nodes // after
    if control[CONTROL_COSTLY_TESTS] >= allowed:  # rationed: wait for the next allowance
        control[CONTROL_COSTLY_WAIT] = nodes + (control[CONTROL_COSTLY_TESTS] - allowed + 1) * after
        return False
    if not tests_pay(control, tables):  # paced out: ask again after ``after`` positions
        control[CONTROL_COSTLY_WAIT] = nodes + after
        return False
    return True


@kernel
def pairs_on(control, tables, option):
    """Is the pairwise test's ``option`` on, and has the solve let the tests run (it does so once
    the deal proved not easy: easy deals never pay for a test)?"""
    return (control[CONTROL_OPTIONS] & option) != 0 and tables.header[HEADER_PAIRS_ON] != 0


@kernel
def pairs_due(control, tables, searched_below_parent):
    """Does the full pairwise test run on a new position? With H2_SEARCH, once its parent has
    had ``control[CONTROL_PAIRS_SPACING]`` positions searched below it: a parent whose first
    children cost that much is likely to have costly later ones, and a test
    (about 0.5 ms) is then cheap beside what a dead child spares; positions with small
    subtrees (most of them) are never tested. Paced, only while the tests pay (``tests_pay``)."""
    if searched_below_parent < control[CONTROL_PAIRS_SPACING]:
        return False
    return pairs_on(control, tables, H2_SEARCH) and tests_pay(control, tables)


@kernel
def costly_after(control, tables):
    """The subtree size at which ``entry.test_costly`` runs, or never (the test off, not yet let
    run, or with no tables: Milligan)."""
    if control[CONTROL_COSTLY_AFTER] <= 0 or not pairs_on(control, tables, H2_SEARCH):
        return np.iinfo(np.int64).max
    if tables.header[HEADER_FACTS] == 0:
        return np.iinfo(np.int64).max
    return control[CONTROL_COSTLY_AFTER]
