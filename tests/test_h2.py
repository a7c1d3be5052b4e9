"""The pairwise dead-end test (engine/dead_ends/h2.py) and the remembered dead tables
(engine/dead_ends/nogoods.py):
the kernel's pair table equals a plain-Python one of the same encoding, a flagged position is
lost by exhaustive search, no position on a winning line is flagged, and search verdicts are
the same with and without them."""

import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import h2_reference
import pytest
from engine_helpers import NO_SHRINK, SETTINGS, checked_solve, verdict_positions
from exhaustive import SOLVED, UNSOLVABLE, TooBig, exhaustive_search
from hypothesis import event, given, settings
from hypothesis import strategies as st
from pinned import pinned_deals
from strategies import dealt_board, playout

from solver.engine import moves
from solver.engine.dead_ends import arrays, h2, nogoods
from solver.game.board import Board, read_board
from solver.game.notation import replay_tokens
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import UNKNOWN
from solver.search.config import DEFAULT
from solver.search.dead_ends import dead_end_counters
from solver.search.packing import pack

ONE_DECK = [
    Rules(variant, foundation_return)
    for variant in ("yukon", "russian")
    for foundation_return in (False, True)
]
one_deck = pytest.mark.parametrize("rules", ONE_DECK, ids=[rules.label() for rules in ONE_DECK])
CATALOGUE = Path(__file__).parent.parent / "catalogue"
WITHOUT_PAIRS = moves.ALL_REDUCTIONS & ~(moves.EVERY_PAIR_TEST | moves.EVERY_TRIPLE_TEST)


def tables_for(root: Board, rules: Rules):
    tables = arrays.make_tables()
    packed = pack(root, rules)
    h2.build_tables(packed.state, packed.params, tables)
    return tables


def kernel_dead(tables, board: Board, rules: Rules) -> bool:
    packed = pack(board, rules)
    return bool(h2.h2_dead(packed.state, packed.params, tables))


def fact_names(tables, columns: int) -> dict[int, tuple]:
    """The kernel's fact numbers, named as in ``h2_reference``."""
    facts = tables.encoding.facts

    def below_name(below):
        return below if below < arrays.BASE else ("base", below - arrays.BASE)

    names = {}
    for below in range(arrays.BASE + columns):
        for card in range(52):
            if facts[card, below] != arrays.NO_FACT:
                names[int(facts[card, below])] = ("on", card, below_name(below))
        names[int(facts[arrays.FACT_CLEAR, below])] = ("clear", below_name(below))
    for card in range(52):
        for row, kind in (
            (arrays.FACT_UP, "up"),
            (arrays.FACT_HOME, "home"),
            (arrays.FACT_NOTHOME, "nothome"),
        ):
            if facts[row, card] != arrays.NO_FACT:
                names[int(facts[row, card])] = (kind, card)
    return names


def kernel_pairs(tables, columns: int) -> set[frozenset]:
    names = fact_names(tables, columns)
    reach = tables.pairs.reach
    count = int(tables.header[arrays.HEADER_FACTS])
    return {
        frozenset((names[p], names[q]))
        for p in range(count)
        for q in range(count)
        if (int(reach[p, q >> 6]) >> (q & 63)) & 1
    }


def playout_positions(rules: Rules, seed: int, count: int):
    """(root, position) pairs from random playouts of numbered deals."""
    rng = random.Random(seed)
    for _ in range(count):
        root = dealt_board(rules, rng.randint(1, 31999))
        positions = list(playout(root, rules, rng, rng.randint(0, 60), rng.choice((0.2, 0.6))))
        yield root, positions[-1]


def line_positions(rules: Rules, seed: int, count: int):
    """(root, position) pairs: a random point on random catalogue lines of the variant (a strict
    line is legal with foundation return too)."""
    rng = random.Random(seed)
    entries = json.loads((CATALOGUE / f"{rules.variant}-normal.json").read_text())["entries"]
    for entry in rng.sample(entries, count):
        root = read_board(entry["board"], rules)
        tokens = entry["solution"].split()
        steps = list(replay_tokens(root, tokens[: rng.randint(0, len(tokens) - 1)], rules))
        yield root, steps[-1][2] if steps else root


@one_deck
def test_the_kernel_pair_table_is_the_plain_python_one(rules):
    """On random positions (random playouts, points on winning lines) the kernel and
    ``h2_reference`` agree on the verdict, and on a dead position (where the kernel's fixpoint
    runs to the end) on every pair."""
    seen = Counter()
    seed = len(rules.label())
    for root, board in [*playout_positions(rules, seed, 8), *line_positions(rules, seed, 4)]:
        tables = tables_for(root, rules)
        dead = kernel_dead(tables, board, rules)
        expected = h2_reference.pair_table(root, board, rules)
        assert dead == h2_reference.lacks_home_pair(expected), board.to_text()
        seen[dead] += 1
        if dead:
            assert kernel_pairs(tables, rules.column_count) == expected, board.to_text()
    assert seen[True] > 0 and seen[False] > 0, seen


def test_two_home_facts_never_reached_together_flag_a_deal():
    """h^2's goal test asks for every pair of home facts, not only each one alone: at the opening
    of PySolFC 706 every card's home is reachable, but two never together. The kernel flags it,
    its table is the plain-Python one, and the search without the pairwise tests proves it lost."""
    rules, board = Rules("yukon"), deal_board("yukon", 706, "pysol")
    tables = tables_for(board, rules)
    expected = h2_reference.pair_table(board, board, rules)
    assert kernel_dead(tables, board, rules) and kernel_pairs(tables, rules.column_count) == expected
    assert all(frozenset([("home", card)]) in expected for card in range(52))
    assert h2_reference.lacks_home_pair(expected)
    without = checked_solve(board, rules, WITHOUT_PAIRS, Limits(max_nodes=2_000_000, time_limit=None))
    assert without.status == UNSOLVABLE


def check_flagged_positions_are_lost(rules: Rules, is_dead, examples: int) -> None:
    """Small positions (some lost by construction): whatever ``is_dead(tables, board, rules)``
    flags, exhaustive search proves lost; and it flags some and leaves some alive."""
    seen = Counter()

    @settings(max_examples=examples, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules))
    def check(board):
        if not is_dead(tables_for(board, rules), board, rules):
            seen["alive"] += 1
            return
        try:
            verdict = exhaustive_search(board, rules, 5_000)[0]
        except TooBig:
            event("too big")
            return
        assert verdict == UNSOLVABLE, board.to_text()
        seen["dead"] += 1

    check()
    assert seen["dead"] > 0 and seen["alive"] > 0, seen


@one_deck
def test_a_flagged_position_is_lost(rules):
    """Small positions (some lost by construction): whatever the test flags, exhaustive
    search proves lost; and the test flags some."""
    check_flagged_positions_are_lost(rules, kernel_dead, 300)


def catalogue_lines(every: int):
    """(rules, root, tokens) of every ``every``-th verified one-deck catalogue line (Milligan is
    never judged: ``test_milligan_is_never_judged``). Generation 1's files only: the files of
    generation 2 re-tier the same lines
    (``test_generation.test_a_generation_2_entry_is_a_generation_1_entry_rescored``)."""
    for path in sorted(CATALOGUE.glob("*-*.json")):
        if path.name.startswith("milligan") or path.stem.endswith("-g2"):
            continue
        for entry in json.loads(path.read_text())["entries"][::every]:
            rules = Rules(entry["variant"], entry["foundation_return"])
            yield rules, read_board(entry["board"], rules), entry["solution"].split()


def pinned_lines():
    """(rules, root, tokens) of the solver's line for every pinned solved one-deck deal."""
    for pinned in pinned_deals():
        if pinned.verdict == SOLVED and pinned.variant != "milligan":
            result = checked_solve(pinned.board(), pinned.rules(), limits=Limits(max_nodes=pinned.max_nodes))
            yield pinned.rules(), pinned.board(), result.solution.split()


def test_no_position_on_a_winning_line_is_flagged():
    """Every position on every 20th one-deck catalogue line and on every pinned line (all
    catalogue lines: ``benchmarks/bench_h2.py lines``)."""
    checked = 0
    for rules, root, tokens in [*catalogue_lines(20), *pinned_lines()]:
        tables = tables_for(root, rules)
        positions = [root] + [after for _token, _move, after in replay_tokens(root, tokens, rules)]
        for board in positions:
            assert not kernel_dead(tables, board, rules), f"{rules.label()} line position\n{board.to_text()}"
            checked += 1
    assert checked > 40_000


def test_milligan_is_never_judged():
    """Two decks and a stock are not encoded: the tables stay empty, every test says alive."""
    rules = Rules("milligan")
    board = deal_board("milligan", 1, "pysol")
    tables = tables_for(board, rules)
    assert tables.header[arrays.HEADER_FACTS] == 0
    assert not kernel_dead(tables, board, rules)


def ring_holds(packed, tables) -> bool:
    """Does a remembered dead table hold every pair of the packed position's facts?"""
    return bool(h2.position_facts(packed.state, packed.params, tables) and nogoods.held_by_ring(tables))


def test_a_remembered_dead_table_covers_what_follows_the_dead_position():
    """PySolFC deal 355 is dead at the root; the positions after any of its moves are covered by
    its remembered table (they are reached from it), and a fresh deal's tables forget it."""
    rules = Rules("yukon")
    root = deal_board("yukon", 355, "pysol")
    tables = tables_for(root, rules)
    assert kernel_dead(tables, root, rules)
    nogoods.remember_dead(tables, False)
    followers = list(playout(root, rules, random.Random(3), 12))[1:]
    for board in followers:
        packed = pack(board, rules)
        assert ring_holds(packed, tables)
    alive = deal_board("yukon", 1, "pysol")
    packed = pack(alive, rules)
    h2.build_tables(packed.state, packed.params, tables)
    assert not ring_holds(packed, tables)


def test_an_uncovered_position_is_not_called_dead():
    """A remembered table of one dead position does not cover a winnable one of the same deal."""
    rules = Rules("yukon")
    root = deal_board("yukon", 1, "pysol")
    tables = tables_for(root, rules)
    rng = random.Random(11)
    games = (playout(root, rules, rng, 80, 0.2) for _ in range(100))
    dead = next(board for game in games for board in game if kernel_dead(tables, board, rules))
    kernel_dead(tables, dead, rules)  # its table, complete, is in ``reach`` again
    nogoods.remember_dead(tables, False)
    packed = pack(root, rules)
    assert not ring_holds(packed, tables)


def remember_empty_tables(tables, count):
    """Store ``count`` tables that cover no position (an empty pair set)."""
    tables.pairs.reach[:] = 0
    for _ in range(count):
        nogoods.remember_dead(tables, False)


@pytest.mark.parametrize("used", [True, False])
def test_the_ring_keeps_the_tables_that_prove_positions_dead(used):
    """PySolFC 355's dead root table, stored first, is at the back of a full ring; when it proves
    a position dead it moves to the front and outlives the next table stored, which otherwise
    takes its slot."""
    rules = Rules("yukon")
    root = deal_board("yukon", 355, "pysol")
    tables = tables_for(root, rules)
    assert kernel_dead(tables, root, rules)
    nogoods.remember_dead(tables, False)
    remember_empty_tables(tables, arrays.RING_SIZE - 1)
    follower = pack(list(playout(root, rules, random.Random(3), 12))[-1], rules)
    if used:
        assert ring_holds(follower, tables)
    remember_empty_tables(tables, 1)
    assert ring_holds(follower, tables) == used


def wide_start(tables, columns: int) -> set:
    """The facts the last widened table was closed from, named as in ``h2_reference``."""
    names = fact_names(tables, columns)
    start = tables.remembered_pairs.wide_start
    count = int(tables.header[arrays.HEADER_FACTS])
    return {names[fact] for fact in range(count) if (int(start[fact >> 6]) >> (fact & 63)) & 1}


@one_deck
def test_a_widened_table_is_the_plain_python_table_of_its_start(rules):
    """A dead position's table widened (``nogoods.widen``) is the plain-Python table closed from
    the wider start, which holds the position's facts and, on some positions, more; it still
    lacks a pair of home facts."""
    seen = Counter()
    for root, board in playout_positions(rules, len(rules.label()) + 7, 40):
        tables = tables_for(root, rules)
        if not kernel_dead(tables, board, rules):
            continue
        nogoods.widen(tables)
        start = wide_start(tables, rules.column_count)
        own = h2_reference.position_facts(board, rules)
        assert own <= start
        expected = h2_reference.pair_table(root, board, rules, start)
        assert kernel_pairs(tables, rules.column_count) == expected, board.to_text()
        assert h2_reference.lacks_home_pair(expected)
        seen["wider" if start > own else "same"] += 1
        if sum(seen.values()) == 3:
            break
    assert seen["wider"] > 0, seen


def remembered(root: Board, dead: Board, rules: Rules, wide: bool):
    """Tables of ``root``'s deal holding ``dead``'s table (widened or not) in their ring."""
    tables = tables_for(root, rules)
    assert kernel_dead(tables, dead, rules)
    nogoods.remember_dead(tables, wide)
    return tables


def covers(tables, board: Board, rules: Rules) -> bool:
    packed = pack(board, rules)
    return bool(ring_holds(packed, tables))


def cousins(root: Board, rules: Rules, rng: random.Random):
    """A random playout from ``root`` up to its first dead position (None if it meets none) and
    short random playouts from each position before it: the positions a search meets around a
    dead end."""
    tables = tables_for(root, rules)
    path = []
    for board in playout(root, rules, rng, 40, 0.3):
        if kernel_dead(tables, board, rules):
            return board, [
                board for before in path for _ in range(2) for board in playout(before, rules, rng, 8)
            ]
        path.append(board)
    return None, []


def dead_ends_met(rules: Rules, rng: random.Random, tries: int):
    """(root, dead position, the positions around it: ``cousins``) for each of ``tries`` random
    deals whose playout meets a dead position."""
    for _ in range(tries):
        root = dealt_board(rules, rng.randint(1, 31999))
        dead, around = cousins(root, rules, rng)
        if dead is not None:
            yield root, dead, around


def test_a_position_a_widened_table_covers_is_lost():
    """Small Yukon positions, strict and with return: the table of a dead position met on a
    random playout, widened, holds every pair its own table holds; every position of short
    playouts branching off before it that the widened table covers and its own does not, and
    some that both cover, are lost by exhaustive search. (Which positions the playouts meet
    varies with Hypothesis's examples, so covered positions are asked of both rule sets together;
    in small Russian positions these playouts meet none, and there the widened tables are
    checked by the plain-Python table and the search verdicts. That widening covers more is
    ``test_widened_dead_tables_spare_positions``.)"""
    seen = Counter()
    for rules in ONE_DECK[:2]:
        widened_tables(rules, seen)
    assert seen[ONE_DECK[0], "wider"] > 0 and seen[ONE_DECK[1], "wider"] > 0, seen
    assert seen["covered"] + seen["only widened"] > 0, seen


def widened_tables(rules: Rules, seen: Counter):
    """The examples of ``test_a_position_a_widened_table_covers_is_lost`` for one rule set."""

    @settings(max_examples=150, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules), st.randoms(use_true_random=False))
    def check(root, rng):
        dead, around = cousins(root, rules, rng)
        if dead is None:
            event("no dead position")
            return
        narrow, wide = remembered(root, dead, rules, False), remembered(root, dead, rules, True)
        seen[rules, "wider"] += int(wide.header[arrays.HEADER_WIDEN_KEPT] > 0)
        both = 0
        for board in around:
            covered, widely = covers(narrow, board, rules), covers(wide, board, rules)
            assert widely or not covered, board.to_text()
            if not widely or (covered and both == 2):
                continue
            both += covered
            try:
                verdict = exhaustive_search(board, rules, 5_000)[0]
            except TooBig:
                event("too big")
                continue
            assert verdict == UNSOLVABLE, f"covered by the table of\n{dead.to_text()}\n{board.to_text()}"
            seen["covered" if covered else "only widened"] += 1

    check()


def test_no_widened_table_covers_a_position_of_a_winning_line():
    """From the root of every 500th one-deck catalogue line, random playouts meet dead positions;
    their tables, widened, cover no position of the winning line."""
    rng = random.Random(5)
    checked = 0
    for rules, root, tokens in catalogue_lines(500):
        tables = tables_for(root, rules)
        games = (playout(root, rules, rng, 60, 0.3) for _ in range(30))
        dead = [board for game in games for board in game if kernel_dead(tables, board, rules)][:3]
        for board in dead:
            kernel_dead(tables, board, rules)  # its full table, in ``reach`` again
            nogoods.remember_dead(tables, True)
        line = [root] + [after for _token, _move, after in replay_tokens(root, tokens, rules)]
        for board in line:
            assert not covers(tables, board, rules), f"{rules.label()} line position\n{board.to_text()}"
        checked += len(dead) * len(line)
    assert checked > 1_000, checked


SWITCHES = {
    "root": moves.H2,
    "search": moves.H2 | moves.H2_SEARCH,
    "search+nogoods": moves.H2 | moves.H2_SEARCH | moves.NOGOODS,
    "search+wide nogoods": moves.H2 | moves.H2_SEARCH | moves.NOGOODS | moves.WIDE_NOGOODS,
    "costly": moves.H2 | moves.H2_SEARCH,
}


@one_deck
@pytest.mark.parametrize("switch", SWITCHES)
def test_search_verdicts_are_the_same_with_and_without_pairs(rules, switch):
    """The full search with the pairwise tests from the first position on (the solve lets them
    run before any probe) against the search without them, on small positions of every
    one-deck rule set: the test on every new position, or ("costly") on every position of
    the path once a single position was searched below it, which takes the path back to it
    and, when it is dead, leaves its subtree. Unpaced, so every test due runs
    (``engine.dead_ends.pacing``)."""
    config = replace(DEFAULT, root_pairs_after=0, tests_on_trial=0, checks_per_table=0)
    if switch == "costly":
        config = replace(config, pairs_spacing=10**9, costly_after=1)
    else:
        config = replace(config, pairs_spacing=0)  # the test on every position
    seen = same_verdicts(rules, WITHOUT_PAIRS, WITHOUT_PAIRS | SWITCHES[switch], 60, config=config)
    assert seen[SOLVED, 0] > 0 and seen[UNSOLVABLE, 0] > 0, seen


def same_verdicts(
    rules: Rules, without: int, options: int, examples: int, note=lambda: 0, config=DEFAULT
) -> Counter:
    """On small positions of ``rules``, the solve with ``options`` gives the verdict it gives
    with ``without`` (100,000 positions each; positions either leaves unknown are skipped), both
    searches tuned by ``config``. Returns the count of each (verdict, ``note()`` after the solve
    with ``options``)."""
    limits = Limits(max_nodes=100_000, time_limit=None)
    seen = Counter()

    @settings(max_examples=examples, phases=NO_SHRINK, **SETTINGS)
    @given(verdict_positions(rules))
    def check(board):
        baseline = checked_solve(board, rules, without, limits, config)
        result = checked_solve(board, rules, options, limits, config)
        if UNKNOWN in (baseline.status, result.status):
            event("node limit")
            return
        assert result.status == baseline.status, board.to_text()
        seen[baseline.status, note()] += 1

    check()
    return seen


def test_the_tests_run_only_once_a_deal_is_not_easy():
    """An easy deal (won within ``root_pairs_after`` positions) never runs the pairwise test; a hard
    one does, with every switch on, and PySolFC deal 355 is proved lost by its root."""
    tested = {}
    for deal in (1, 395, 355):
        checked_solve(
            deal_board("yukon", deal, "pysol"),
            Rules("yukon"),
            moves.ALL_REDUCTIONS,
            Limits(max_nodes=300_000),
        )
        tested[deal] = dead_end_counters()["tests"]
    assert tested[1] == 0 and tested[395] > 1
    result = checked_solve(
        deal_board("yukon", 355, "pysol"), Rules("yukon"), moves.ALL_REDUCTIONS, Limits(max_nodes=300_000)
    )
    assert result.status == UNSOLVABLE and result.nodes <= 2 * DEFAULT.root_pairs_after


@pytest.mark.parametrize(
    "deal, setting, value, saving",
    [(395, "pairs_spacing", 300, 1), (2148, "costly_after", 3_000, 2)],
    ids=["children of costly positions", "costly positions of the path"],
)
def test_inside_the_search_the_tests_spare_positions(deal, setting, value, saving):
    """With both in-search triggers off (a spacing beyond the search, no test of costly
    positions) the full test runs on the searches' roots only; with one of them on it runs inside
    the search too, which then proves the same verdict in fewer positions: PySolFC 395 (lost,
    0.4 M positions) with the later children of costly positions tested, PySolFC 2148 (lost,
    1.1 M) with the costly positions of the path tested, in under half the positions. Unpaced
    (``engine.dead_ends.pacing``), so what is measured is the trigger alone."""
    board, rules = deal_board("yukon", deal, "pysol"), Rules("yukon")
    limits = Limits(max_nodes=3_000_000, time_limit=None)
    unpaced = replace(DEFAULT, tests_on_trial=0, checks_per_table=0)
    roots_only_config = replace(unpaced, pairs_spacing=10**9, costly_after=0)
    roots_only = checked_solve(board, rules, moves.ALL_REDUCTIONS, limits, roots_only_config)
    root_tests = dead_end_counters()["tests"]
    inside_config = replace(roots_only_config, **{setting: value})
    inside = checked_solve(board, rules, moves.ALL_REDUCTIONS, limits, inside_config)
    assert roots_only.status == inside.status == UNSOLVABLE
    assert root_tests <= 8 < dead_end_counters()["tests"]
    assert inside.nodes * saving < roots_only.nodes, (inside.nodes, roots_only.nodes)


def test_widened_dead_tables_spare_positions():
    """PySolFC 192 (lost): with the remembered dead tables widened (``nogoods.widen``) the search
    proves it lost in under a fifth of the positions it needs with the tables as the test leaves
    them (75 k against 1.1 M when this was written). The test over triples, which proves 192's
    root lost, is off in both."""
    board, rules = deal_board("yukon", 192, "pysol"), Rules("yukon")
    limits = Limits(max_nodes=3_000_000, time_limit=None)
    without_triples = moves.ALL_REDUCTIONS & ~moves.EVERY_TRIPLE_TEST
    narrow = checked_solve(board, rules, without_triples & ~moves.WIDE_NOGOODS, limits)
    assert dead_end_counters()["widen_tries"] == 0
    wide = checked_solve(board, rules, without_triples, limits)
    assert dead_end_counters()["widen_kept"] > 0
    assert narrow.status == wide.status == UNSOLVABLE
    assert wide.nodes * 5 < narrow.nodes, (wide.nodes, narrow.nodes)


def plainly_covered(tables, board: Board, rules: Rules) -> bool:
    """Is every pair of the position's facts in the table stored first in the ring (read
    plainly: each fact's row holds every fact)?"""
    packed = pack(board, rules)
    assert h2.position_facts(packed.state, packed.params, tables)
    count = int(tables.header[arrays.HEADER_FACTS])
    mask = tables.position
    facts = [fact for fact in range(count) if (int(mask[fact >> 6]) >> (fact & 63)) & 1]
    table = tables.remembered_pairs.tables[int(tables.remembered_pairs.order[0])]
    return all((int(table[p, q >> 6]) >> (q & 63)) & 1 for p in facts for q in facts)


@one_deck
def test_the_ring_check_equals_a_plain_reading_of_the_table(rules):
    """The ring's check reads only the rows of the facts that the last position its table held
    lacks (``nogoods``, "The check"). On the positions a search meets around a dead end, checked
    one after another as a search would (each twice: a position the table does not hold must not
    become the last one), it says dead exactly where a plain reading of the
    stored (widened) table finds every pair of the position's facts."""
    seen = Counter()
    for root, dead, around in dead_ends_met(rules, random.Random(len(rules.label())), 40):
        tables = remembered(root, dead, rules, True)
        for board in [board for board in [*around, dead, *around[::-1]] for _ in range(2)]:
            expected = plainly_covered(tables, board, rules)
            assert covers(tables, board, rules) == expected, board.to_text()
            seen[expected] += 1
        if seen[True] >= 20 and seen[False] >= 20:
            break
    assert seen[True] > 0 and seen[False] > 0, seen
