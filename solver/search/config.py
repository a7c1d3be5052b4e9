"""The search's tuning, in one frozen ``SearchConfig`` passed down from ``solve_position``.

Every constant that shapes which positions a solve searches, and at what cost, lives here with
today's values (``DEFAULT``): the sizes of the search's buffers and table, the chunks between
two looks at the clock, the probes before the full search, when the solve lets the dead-end tests
run at the root, how often it tests positions of its path over triples, and
where the tests inside the search run and how they are paced (``kernel_tuning``: the kernels get
those as numbers in their control block, ``engine.layout``). A test or a benchmark that wants
other values makes its own: ``dataclasses.replace(DEFAULT, tests_on_trial=0)``.

Why no setting can make a verdict wrong: each one only chooses where and how often sound tests
run, or how a search is cut into chunks; none of them is trusted to prove anything (a solved
line is replayed on the reference engine, an unsolvable verdict needs an exhausted, untruncated
search). Under a budget of positions or seconds, what is left unknown can differ.

The ration of the path's tests over triples (``PathRation``, asked by ``solver.search.dead_ends``
between two chunks of the search): a test over triples (``engine.dead_ends.h3``) of a hard deal's mid-game
position costs 35-60 ms, the search of some 50,000-100,000 positions. Where the tests find dead
positions they can spare millions (KPat 3000105: lost in 8.0 M positions with them, still unknown at
40 M without), and their first find comes early (KPat 3000105 and 500023: the 8th and the 7th test);
where they find none they are pure cost (KPat 4000172: 30 tests, 1.1 s of its 10.4; PySolFC 9288:
412 tests, 14 s of 138). So the ration (the numbers are the solve's ``SearchConfig``'s
``path_triples_spacing``, ``_credit`` and ``_trial``): at most one test per spacing positions of the
solve plus the credit for each test that proved a position dead; and while none has, after the
trial's tests the gap before each further test doubles (tests at 15, 17, 21, 29, 45, 77 M positions
of the solve, ...). A first find after the trial lets the ration catch up with the plain one, one
test a chunk of the search (``SearchConfig.chunk_ends_every`` positions), so never more tests than
before the backoff, if bunched. The spacing and the credit were tuned on KPat 3000105, 1000051 and
PySolFC 1296, 5724 (docs/hard-tail.md, "Remembered families of triples"), the trial on the first
finds of KPat 3000105 and 500023 (docs/hard-tail.md, "The path's tests over triples backed off").
"""

from dataclasses import dataclass
from typing import NamedTuple

from solver.engine import moves
from solver.engine.layout import KernelTuning


class PathRation(NamedTuple):
    """The ration of the path's tests over triples (``SearchConfig.path_ration``): one test per
    ``spacing`` positions of the solve, ``credit`` more for each that proved a position dead,
    the gaps doubling after ``trial`` tests while none has."""

    spacing: int
    credit: int
    trial: int

    def due(self, tests: int, dead: int, nodes: int) -> bool:
        """May the solve, having searched ``nodes`` positions and tested its path ``tests``
        times (``dead`` of them proving a position dead), test once more?"""
        if dead == 0 and tests >= self.trial:
            beyond = tests - self.trial + 1  # the gaps after the trial's last: 2, 4, 8, ... spacings
            return nodes >= self.spacing * (self.trial - 3 + 2 ** (beyond + 1))
        return tests < 1 + nodes // self.spacing + self.credit * dead


# Probes run before the full search: (branch limit, nodes, guesses added to the options). The
# fourth (the best 4 moves) was added for the hard wins: tuned on the 20 slowest-solved strict
# deals of the study (PySolFC 5596, 3517, 5298, ...: 22.4 M positions in all before, 13.7 M
# with it) and confirmed on the next 20 and on 14 with foundation return (docs/performance.md);
# it finds PySolFC 173, unknown after 30 M positions without it, in 0.37 M.
PROBES = (
    (1, 100_000, moves.KEEP_BUILDS),
    (2, 2_000_000, moves.KEEP_BUILDS),
    (3, 4_000_000, moves.KEEP_BUILDS),
    (4, 4_000_000, moves.KEEP_BUILDS),
    (3, 8_000_000, 0),
)
# Places of the stock deal in the move order (``Search``'s ``deal_score``) that each probe tries in
# turn where there is a stock, sharing its nodes; the full search takes the first. On PySolFC
# Milligan deals 1-1,000 at 10 s, each of the first three alone left 1-3 deals unknown and
# held up a few more for seconds, and no deal was hard for all three; the fourth (the deal
# before emptying a column) wins deal 4069, which the three left unknown after 60 s.
DEAL_SCORES = (9, 45, 20, 60)


@dataclass(frozen=True)
class SearchConfig:
    """The search's tuning (see the module's docstring); each field's comment says what it holds."""

    # The longest path a search follows, and the moves its positions may hold in all: a
    # depth-first search of a large space wanders far (Russian deals with foundation return went
    # past 4,096 moves deep within a second), and the path's move lists share one buffer.
    max_depth: int = 1 << 18
    buffered_moves: int = 1 << 21
    first_table_slots: int = 1 << 16  # the transposition table's slots at a search's start
    rehash_seconds_per_slot: float = 6e-8  # measured 41 ns a slot doubling to 1-4 M slots, plus a margin

    # Chunks of the search between two looks at the clock: the first of first_chunk positions,
    # later ones aimed at chunk_seconds (within smallest_chunk..largest_chunk positions). Chunks
    # also end on multiples of chunk_ends_every positions (about 20 ms of search), so the path is
    # tested over triples between chunks (``dead_ends.test_path_over_triples``) at the same positions
    # whatever the machine's speed: the positions a solve searches do not depend on timing.
    chunk_seconds: float = 0.02
    first_chunk: int = 20_000
    smallest_chunk: int = 1_000
    largest_chunk: int = 5_000_000
    chunk_ends_every: int = 16_384

    # Positions a solve's first look may search in all (``solve.first_look``: the probes of
    # ``probe_plan`` by the lean kernels, which need no dead-end test compiled; at most half of
    # first_table_slots): it wins most easy deals (PySolFC 12 in 147 positions). 0: no look.
    first_look_nodes: int = 2_000
    probes: tuple[tuple[int, int, int], ...] = PROBES  # see PROBES
    deal_scores: tuple[int, ...] = DEAL_SCORES  # see DEAL_SCORES

    # Positions the solve searches without a verdict before the pairwise tests run (``root_pairs_dead``).
    root_pairs_after: int = 2_000
    # Positions the solve searches without a verdict before the test over triples runs on the root
    # (``engine.dead_ends.h3``): about 0.36 s of search, some three times a call on a root (median 0.13 s), so
    # a deal it does not decide pays about a third more (docs/hard-tail.md, "Triples at the root").
    root_triples_after: int = 300_000
    # With the root alive, positions of the path with path_triples_after positions below them get
    # the test over triples too (``dead_ends.test_path_over_triples``), as often as the ration
    # allows: one test per path_triples_spacing positions of the solve, path_triples_credit more
    # for each that proved a position dead, the gaps doubling after path_triples_trial tests
    # while none has (``engine.dead_ends.pacing``'s docstring: how they were tuned).
    path_triples_after: int = 100_000
    path_triples_spacing: int = 1_000_000
    path_triples_credit: int = 10
    path_triples_trial: int = 16

    # Positions searched below a position before its later children get the full pairwise test
    # (``engine.dead_ends.pacing.pairs_due``): tuned on PySolFC 395, 1015, 1251, 2368 among 300, 2000 and
    # 10,000, confirmed on 324, 1300 and KPat 20002, 5000064, 5000096 (docs/performance.md).
    pairs_spacing: int = 10_000
    # Positions searched below a position on the path before it gets the full pairwise test itself
    # (``engine.dead_ends.entry.test_costly``): tuned on PySolFC 395, 1015, 1251, 2368 and KPat 40092, 40178,
    # 700128, 2000173, 2000179 among 1,000 and 3,000 (docs/performance.md). 0: never. Those tests
    # are rationed: one per costly_after positions plus costly_credit for each that found a dead one.
    costly_after: int = 3_000
    costly_credit: int = 20
    # Paced tests (``engine.dead_ends.pacing``; 0 leaves the tests, or the checks, unpaced): the search's full
    # pairwise tests run while fewer than tests_on_trial plus the positions the tests proved dead,
    # and each dead table stored allows checks_per_table checks of the remembered tables (each
    # position they proved dead, checks_per_dead). Chosen from the hard list, where the tests prove
    # 7-650 positions dead each and 2-64% of the checks find a dead table, against KPat 4000172,
    # 7000007 and PySolFC 9288, where they prove 0-0.3 and 0-0.04%: a trial of 2,000 tests costs
    # well under a second. Of the hard list only 4000172's gates closed (21% less time, 1,522 more
    # positions); of fifteen KPat ranges of 200 deals at 10 s, one deal searched other positions
    # (700194, won in 13 more) (docs/hard-tail.md, "Paced tests").
    tests_on_trial: int = 2_000
    checks_per_table: int = 100_000
    checks_per_dead: int = 1_000
    # The search's case split on twins runs while fewer than splits_on_trial plus splits_per_dead
    # for each position only it proved dead (0: unpaced); after that one test in split_sample.
    splits_on_trial: int = 10_000
    splits_per_dead: int = 50
    split_sample: int = 16

    def kernel_tuning(self) -> KernelTuning:
        """The numbers the search kernels read from their control block (``engine.layout``)."""
        return KernelTuning(**{name: getattr(self, name) for name in KernelTuning._fields})

    def path_ration(self) -> PathRation:
        """The ration of the solve's tests of its path over triples."""
        return PathRation(self.path_triples_spacing, self.path_triples_credit, self.path_triples_trial)


DEFAULT = SearchConfig()
