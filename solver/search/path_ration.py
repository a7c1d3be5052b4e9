"""How often a solve tests positions of its path over triples (``solve.Search.test_path_over_triples``).

A test over triples (``engine.h3``) of a hard deal's mid-game position costs 35-60 ms, the search
of some 50,000-100,000 positions. Where the tests find dead positions they can spare millions
(KPat 3000105: lost in 8.0 M positions with them, still unknown at 40 M without), and their first
find comes early (KPat 3000105 and 500023: the 8th and the 7th test); where they find none they
are pure cost (KPat 4000172: 30 tests, 1.1 s of its 10.4; PySolFC 9288: 412 tests, 14 s of 138).
So the ration: at most one test per PATH_TRIPLES_SPACING positions of the solve plus
PATH_TRIPLES_CREDIT for each test that proved a position dead; and while none has, after
PATH_TRIPLES_TRIAL tests the gap before each further test doubles (tests at 15, 17, 21, 29, 45, 77
M positions of the solve, ...). A first find after the trial lets the ration catch up with the
plain one, one test a chunk of the search (``solve.CHUNK_ENDS_EVERY`` positions), so never more
tests than before the backoff, if bunched. The spacing and the credit
were tuned on KPat 3000105, 1000051 and PySolFC 1296, 5724 (docs/hard-tail.md, "Remembered
families of triples"), the trial on the first finds of KPat 3000105 and 500023 (docs/hard-tail.md,
"The path's tests over triples backed off").

Why no verdict changes: every test is sound on any position (``engine.h3``, ``triple_nogoods``);
the ration only chooses which positions get one. It counts tests and positions, not seconds, so
the positions a solve searches do not depend on the machine's speed.
"""

PATH_TRIPLES_SPACING = 1_000_000
PATH_TRIPLES_CREDIT = 10
PATH_TRIPLES_TRIAL = 16


def path_test_due(tests: int, dead: int, nodes: int) -> bool:
    """May the solve, having searched ``nodes`` positions and tested its path ``tests`` times
    (``dead`` of them proving a position dead), test once more?"""
    if dead == 0 and tests >= PATH_TRIPLES_TRIAL:
        beyond = tests - PATH_TRIPLES_TRIAL + 1  # the gaps after the trial's last: 2, 4, 8, ... spacings
        return nodes >= PATH_TRIPLES_SPACING * (PATH_TRIPLES_TRIAL - 3 + 2 ** (beyond + 1))
    return tests < 1 + nodes // PATH_TRIPLES_SPACING + PATH_TRIPLES_CREDIT * dead
