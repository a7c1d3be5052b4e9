"""The remembered dead families of triples (engine/dead_ends/triple_nogoods.py) and the path tests that
store them: the kernel's check is the plain reading of a stored family, every position it flags
is flagged by the full test over triples, the positions a stored dead position leads to are
flagged, and search verdicts with the path tests and their families are those of the search with
no dead-end test."""

import random
from collections import Counter
from dataclasses import replace
from functools import partial

import engine_helpers
import numpy as np
from engine_helpers import NO_SHRINK, SETTINGS, checked_solve, verdict_positions
from exhaustive import SOLVED, UNSOLVABLE
from hypothesis import event, given, settings
from strategies import dealt_board, playout
from test_h2 import one_deck, tables_for
from test_h3 import triples_dead

from solver.engine import moves
from solver.engine.dead_ends import arrays, h2, triple_nogoods
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import UNKNOWN
from solver.search.config import DEFAULT, SearchConfig
from solver.search.dead_ends import dead_end_counters
from solver.search.packing import pack

# No dead-end test at all (small lost positions are otherwise mostly decided on the root)
WITHOUT_TESTS = moves.ALL_REDUCTIONS & ~(
    moves.EVERY_PAIR_TEST | moves.EVERY_TRIPLE_TEST | moves.HOPELESS | moves.TWIN_SPLIT
)
WALKS, WALK_LENGTH = 6, 80


def family_flags(tables, board, rules) -> bool:
    packed = pack(board, rules)
    held = h2.position_facts(packed.state, packed.params, tables) and triple_nogoods.held_by_family(tables)
    return bool(held)


def held_in_python(tables) -> bool:
    """Does the first remembered family hold every set of at most three facts of the position
    whose facts ``tables.position`` holds? (Read straight from the ring slot, every row {p, q},
    p <= q: the rows ``h3`` writes.)"""
    header = tables.header
    count, words = int(header[arrays.HEADER_FACTS]), int(header[arrays.HEADER_WORDS])
    slot = tables.remembered_triples.order[0]
    family = tables.remembered_triples.families[slot][: count * count * words].reshape(count, count, words)
    mask = tables.position[:words]
    facts = np.flatnonzero(np.unpackbits(mask.view(np.uint8), bitorder="little")[:count])
    rows = family[np.ix_(facts, facts)]
    upper = facts[:, None] <= facts[None, :]
    return bool(np.all((rows & mask == mask).all(axis=2)[upper]))


def first_dead(tables, walk, rules) -> int | None:
    """The index of the first position of ``walk`` the test over triples flags (a position a
    flagged one leads to is flagged too, so bisection finds it), or None."""
    if not triples_dead(tables, walk[-1], rules):
        return None
    alive, dead = -1, len(walk) - 1
    while dead - alive > 1:
        middle = (alive + dead) // 2
        if triples_dead(tables, walk[middle], rules):
            dead = middle
        else:
            alive = middle
    return dead


@one_deck
def test_a_remembered_family_flags_only_dead_positions(rules):
    """Random walks from numbered deals: the family of the first dead position of one walk (the
    walk whose first dead position comes latest) is remembered; then on every position of every
    walk of that deal the kernel's check equals the plain reading of the stored family, every
    position it flags the full test flags, and every later position of the dead walk is flagged;
    some positions are flagged and some are not."""
    rng = random.Random(len(rules.label()) + 11)
    seen = Counter()
    for _ in range(40):
        if seen["families"] >= 3 and seen[False] > 0:
            break
        root = dealt_board(rules, rng.randint(1, 31999))
        tables = tables_for(root, rules)
        walks = [list(playout(root, rules, rng, WALK_LENGTH, rng.choice((0.2, 0.6)))) for _ in range(WALKS)]
        found = [(walk, first_dead(tables, walk, rules)) for walk in walks]
        found = sorted(
            ((index, walk) for walk, index in found if index is not None), key=lambda pair: -pair[0]
        )
        if not found:
            continue
        index, dead_walk = found[0]  # the latest first dead position: others lie before it
        assert triples_dead(tables, dead_walk[index], rules)
        triple_nogoods.remember_family(tables)
        seen["families"] += 1
        for board in dead_walk[index:]:
            assert family_flags(tables, board, rules), board.to_text()
        for walk in walks:
            for board in walk:
                flagged = family_flags(tables, board, rules)
                assert flagged == held_in_python(tables), board.to_text()
                if flagged and seen["checked dead"] < 60:
                    assert triples_dead(tables, board, rules), board.to_text()
                    seen["checked dead"] += 1
                seen[flagged] += 1
    assert seen["families"] >= 3 and seen[True] > 0 and seen[False] > 0, seen


def test_the_family_check_equals_a_plain_reading_around_a_dead_end():
    """The family check reads only the rows of the facts that the last position it held lacks
    (``triple_nogoods``, "The check"). The positions a search meets around a dead end (short
    random walks branching off the walk before its first dead position, and that position),
    checked one after another as a search would (each twice: a position the family does not hold
    must not become the last one), are flagged exactly where the plain reading of
    the stored family holds every set of their facts; among them are positions whose every fact
    is in the family alone but not every set (the rows decide those). (Yukon: the Russian deals
    these walks start from are mostly lost at the root, with nothing alive around the dead end.)"""
    rules = Rules("yukon")
    rng = random.Random(5)
    seen = Counter()
    for _ in range(60):
        if seen[True] >= 20 and seen["facts held, sets not"] >= 5:
            break
        root = dealt_board(rules, rng.randint(1, 31999))
        tables = tables_for(root, rules)
        walk = list(playout(root, rules, rng, WALK_LENGTH, 0.3))
        index = first_dead(tables, walk, rules)
        if not index:
            continue
        assert triples_dead(tables, walk[index], rules)
        triple_nogoods.remember_family(tables)
        around = [board for before in walk[:index] for board in playout(before, rules, rng, 6)]
        for board in [board for board in [*around, walk[index], *around[::-1]] for _ in range(2)]:
            flagged, held = family_flags(tables, board, rules), held_in_python(tables)
            assert flagged == held, board.to_text()
            seen[flagged] += 1
            seen["facts held, sets not"] += not held and facts_held(tables)
    assert seen[True] > 0 and seen["facts held, sets not"] > 0, seen


def facts_held(tables) -> bool:
    """Is every fact of the position ``tables.position`` holds a single fact of the first
    remembered family?"""
    words = int(tables.header[arrays.HEADER_WORDS])
    slot = tables.remembered_triples.order[0]
    mask, facts = tables.position[:words], tables.remembered_triples.facts[slot][:words]
    return bool(np.all(mask & ~facts == 0))


def path_tests_everywhere(chunk: int = 1) -> SearchConfig:
    """The root tested at once (so the path tests may start), every position of the path with a
    position below it tested, unrationed, the searches run ``chunk`` positions a chunk."""
    return replace(
        DEFAULT,
        root_pairs_after=0,
        root_triples_after=0,
        path_triples_after=1,
        path_triples_spacing=1,
        path_triples_trial=1 << 62,
        first_chunk=chunk,
        smallest_chunk=chunk,
        largest_chunk=chunk,
    )


@one_deck
def test_search_verdicts_are_the_same_with_path_tests_and_families(rules):
    """The solve with the test over triples on every position of the path with a position below
    it, unrationed, and with the families of the dead ones remembered (the root itself not tested,
    so the path's tests and the families decide), against the search with no dead-end test
    (neither HOPELESS nor the pairwise tests nor triples), on small positions of every one-deck
    rule set; the families prove some positions dead."""
    # ``check`` reads word for word as before the search took a config: Hypothesis derives its
    # examples from that source, and these are the ones whose families prove positions dead in
    # every rule set (other examples may find none in one).
    checked_solve = partial(engine_helpers.checked_solve, config=path_tests_everywhere())
    limits = Limits(max_nodes=3_000, time_limit=None)  # every position tested: keep them few
    seen = Counter()

    @settings(max_examples=40, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules))
    def check(board):
        without = checked_solve(board, rules, WITHOUT_TESTS, limits)
        with_paths = checked_solve(board, rules, WITHOUT_TESTS | moves.PATH_TRIPLES, limits)
        if UNKNOWN in (without.status, with_paths.status):
            event("node limit")
            return
        assert with_paths.status == without.status, board.to_text()
        seen[without.status] += 1
        counters = dead_end_counters()
        seen["path dead"] += counters["path_triples_dead"]
        seen["family dead"] += counters["family_dead"]

    check()
    assert seen[SOLVED] > 0 and seen[UNSOLVABLE] > 0, seen
    assert seen["path dead"] > 0 and seen["family dead"] > 0, seen


def test_path_tests_and_families_cut_a_lost_deal():
    """PySolFC 395 (lost; its root alive over triples): with the root tested after 2,000
    positions and the path's positions with 2,000 below them tested, some are proved dead, their
    families prove later positions dead, and the verdict is the same in fewer positions than
    with the root test alone."""
    board, rules, limits = deal_board("yukon", 395, "pysol"), Rules("yukon"), Limits(max_nodes=3_000_000)
    root_config = replace(DEFAULT, root_triples_after=2_000)
    root_only = checked_solve(board, rules, moves.ALL_REDUCTIONS & ~moves.PATH_TRIPLES, limits, root_config)
    assert dead_end_counters()["path_triples"] == 0
    path_config = replace(root_config, path_triples_after=2_000, path_triples_spacing=20_000)
    on_path = checked_solve(board, rules, moves.ALL_REDUCTIONS, limits, path_config)
    assert root_only.status == on_path.status == UNSOLVABLE
    counters = dead_end_counters()
    assert counters["path_triples_dead"] > 0 and counters["family_dead"] > 0, counters
    assert on_path.nodes < root_only.nodes, (on_path.nodes, root_only.nodes)


def test_the_path_is_tested_with_foundation_return():
    """With foundation return too the path is tested and the families kept: PySolFC 395 with
    return, every position of the path allowed a test, runs some, and is lost as without them."""
    config = path_tests_everywhere(chunk=1_000)
    board, rules, limits = deal_board("yukon", 395, "pysol"), Rules("yukon", foundation_return=True), Limits()
    root_only = checked_solve(board, rules, moves.ALL_REDUCTIONS & ~moves.PATH_TRIPLES, limits, config)
    assert dead_end_counters()["path_triples"] == 0
    on_path = checked_solve(board, rules, moves.ALL_REDUCTIONS, limits, config)
    counters = dead_end_counters()
    assert counters["root_triples"] == 1 and counters["path_triples"] > 0, counters
    assert on_path.status == root_only.status == UNSOLVABLE
