"""Paced tests: the dead-end tests inside the search stand down while they have not paid.

The tests inside the search cost time whether or not they find anything: a full pairwise test
(``h2``) 0.03-0.3 ms, up to some 400 positions of search; a check of the remembered dead tables
(``nogoods``) about 0.2 us with the reading of the position's facts. On most hard deals they pay
many times over (on the hard list 7-650 positions proved dead per full test, 2-64% of the checks
dead), but on a few they find next to nothing (KPat 4000172: 753 positions in 17,841 tests and
7.8 M checks, a fifth of its 16 s; KPat 7000007: none).

Paced (``control[CONTROL_TESTS_ON_TRIAL]`` > 0: the solve's ``TESTS_ON_TRIAL``; 0 switches pacing
off), the search's full tests (``search.pairs_due``, ``search.test_costly``) run only while their
count stays within that trial of the positions the pairwise tests, the remembered dead tables
and the remembered families (``triple_nogoods``) have proved dead (``tests_pay``); the checks of
the remembered tables only while they stay within CHECKS_PER_DEAD for each position they proved
dead plus ``control[CONTROL_CHECKS_PER_TABLE]`` for each dead table the full test stored
(``checks_pay``). A position proved dead spares at least itself, so the count is a floor of what
the tests bought; a closed gate opens again when another test proves more positions dead.

Why no verdict changes: every test is sound on any position, and pacing only chooses which of
them run, so a paced search proves a position lost only by tests that prove it, and an exhausted
paced search is a proof as an unpaced one is; pacing changes what a search costs and which
positions it visits. The counts are positions and tests, not seconds, so a paced search does not
depend on the machine's speed.
"""

from solver.engine.h2 import (
    H2_HEADER,
    HEADER_CALLS,
    HEADER_DEAD,
    HEADER_FAMILY_DEAD,
    HEADER_NOGOOD_CALLS,
    HEADER_NOGOOD_DEAD,
)
from solver.engine.jit import kernel
from solver.engine.layout import CONTROL_CHECKS_PER_TABLE, CONTROL_TESTS_ON_TRIAL

# the checks of the remembered dead tables each position they proved dead allows
CHECKS_PER_DEAD = 1_000


@kernel
def tests_pay(control, dead_ends):
    """Unpaced, or have the full tests stayed within the trial (``control[CONTROL_TESTS_ON_TRIAL]``)
    of the positions the pairwise tests and the remembered dead tables and families proved dead?"""
    trial, header = control[CONTROL_TESTS_ON_TRIAL], dead_ends[H2_HEADER]
    proved = header[HEADER_DEAD] + header[HEADER_NOGOOD_DEAD] + header[HEADER_FAMILY_DEAD]
    return trial <= 0 or header[HEADER_CALLS] <= trial + proved


@kernel
def checks_pay(control, dead_ends):
    """Unpaced, or have the checks of the remembered dead tables stayed within CHECKS_PER_DEAD for
    each position they proved dead plus ``control[CONTROL_CHECKS_PER_TABLE]`` for each table the
    full test stored?"""
    header = dead_ends[H2_HEADER]
    allowed = (
        CHECKS_PER_DEAD * header[HEADER_NOGOOD_DEAD] + control[CONTROL_CHECKS_PER_TABLE] * header[HEADER_DEAD]
    )
    return control[CONTROL_TESTS_ON_TRIAL] <= 0 or header[HEADER_NOGOOD_CALLS] <= allowed
