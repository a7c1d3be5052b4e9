"""Why a deal is lost, in words a person can check on the table.

The dead-end test HOPELESS (``engine.dead_ends.prune``, whose docstring argues it) asks of every card
in the columns whether, at some time from now on, it can be *exposed*, *leave* the card it
lies on, and go *home*, deriving those events to a fixpoint; a card never derived home
proves the position lost. ``Derivation`` is that fixpoint in plain Python, on a Board,
with the same rules (the twin rule included, the case split on the twins left out), and
``loss_reason`` tells the chain of events that never happen behind a card that never goes
home: "7C never goes home: it is never exposed. 7C is never exposed: 8C lies on it and
never leaves. 8C never leaves: it builds only on 9H and 9D, which are never exposed ...".
Every step names only what lies on the table now, so a reader can check it; the steps may
form a circle (A waits for B, B for A), which is itself the proof: none of them can be
the first to happen.

A reason is given only when the kernel's own test flags the position: ``prune.hopeless``
(then the chain above), or the pairwise test ``engine.dead_ends.h2`` (whose argument runs over pairs
of facts and has no such chain: the reason names the cards whose *home* fact its kernel
table finds unreachable, or two cards whose home facts it finds never reachable together), or
HOPELESS's case split on twins (named, not told). Otherwise the reason names what proved the
loss (``result.Proof``, carried in the solver's Result): the search of the whole game tree, and how
many positions it had, or the test on the position that ended the search before it was done.
"""

import threading
from dataclasses import dataclass, field
from functools import lru_cache

from solver.engine.dead_ends import arrays, h2, prune
from solver.errors import counted
from solver.game.board import Board
from solver.game.cards import KING, card_rank, card_suit, card_text, is_red, make_card
from solver.game.rules import Rules
from solver.results.result import Proof
from solver.search.packing import pack

# Steps told at most; a longer chain ends by saying how many steps were left out.
MAX_STEPS = 24
MAX_NAMED = 8  # other cards that never go home, named before the rest are counted
Place = tuple[int, int]  # (column, index from the bottom)
# This thread's pairwise tables (made once: they hold 0.8 MB), rebuilt for every position.
THREAD_TABLES = threading.local()


@dataclass
class Derivation:
    """HOPELESS's fixpoint on ``board``: the places whose events are derived, and whether
    some column can ever be empty (see ``engine.dead_ends.prune``)."""

    board: Board
    rules: Rules
    exposed: set = field(default_factory=set)
    leaves: set = field(default_factory=set)
    home: set = field(default_factory=set)
    ever_home: set = field(default_factory=set)
    column_empties: bool = False
    # what the derivation reads, made once: the places of each card, the cards each card
    # builds on (parents) and that build on it (children), the twins on face-down cards, the
    # cards that can be exposed some time (in the stock, exposed in a column)
    place_of: dict = field(default_factory=dict)
    parents_of: dict = field(default_factory=dict)
    children_of: dict = field(default_factory=dict)
    twins: dict = field(default_factory=dict)
    exposable: set = field(default_factory=set)

    def __post_init__(self):
        board = self.board
        self.parents_of, self.children_of = building_tables(self.rules.same_suit_building)
        for place in self.places():
            self.place_of.setdefault(self.card(place), []).append(place)
            self.twins[place] = self.twin_on(place)
        for slot, height in enumerate(board.foundations):
            self.ever_home.update(make_card(rank, slot % 4) for rank in range(1, height + 1))
        self.ever_home.update(board.stock)  # stock cards are free (see ``engine.dead_ends.prune``)
        self.exposable.update(board.stock)
        self.column_empties = any(not cards for cards in board.columns)
        for column, cards in enumerate(board.columns):
            if cards:
                self.expose((column, len(cards) - 1))
        pending = list(self.places())
        while pending:
            pending += self.derive_at(pending.pop())

    def expose(self, place: Place) -> None:
        self.exposed.add(place)
        self.exposable.add(self.card(place))

    def card(self, place: Place) -> int:
        return self.board.columns[place[0]][place[1]]

    def places(self):
        for column, cards in enumerate(self.board.columns):
            for index in range(len(cards)):
                yield column, index

    def face_down(self, place: Place) -> bool:
        return place[1] < self.board.face_down_counts[place[0]]

    def derive_at(self, place: Place) -> list[Place]:
        """Derive the events at ``place`` that the events derived so far allow; the places
        whose events may follow from them (a work list, as in ``prune.hopeless``)."""
        column, index = place
        card, woken = self.card(place), []
        if place not in self.exposed and (column, index + 1) in self.leaves:
            self.expose(place)
            woken += self.children_places(card)  # they may land on it now
        if place not in self.home and place in self.exposed and self.predecessor_home(card):
            self.home.add(place)
            if index > 0:  # a twin beneath may wait for it
                woken.append((column, index - 1))
            if card not in self.ever_home:
                self.ever_home.add(card)
                woken += self.place_of.get(card + 1, []) if card_rank(card) < KING else []
                woken += self.children_places(card) if self.rules.foundation_return else []
        if (
            place not in self.leaves
            and (place in self.exposed or not self.face_down(place))
            and self.moves_off(place, card)
        ):
            self.leaves.add(place)
            if index > 0:
                woken.append((column, index - 1))
            elif not self.column_empties:
                self.column_empties = True
                woken += [spot for suit in range(4) for spot in self.place_of.get(make_card(KING, suit), [])]
        return woken

    def children_places(self, card: int) -> list[Place]:
        return [spot for child in self.children_of[card] for spot in self.place_of.get(child, [])]

    def predecessor_home(self, card: int) -> bool:
        return card_rank(card) == 1 or card - 1 in self.ever_home

    def moves_off(self, place: Place, card: int) -> bool:
        """Can ``card``, at ``place`` (exposed or face up), leave the card beneath it?"""
        if place in self.home or (card_rank(card) == KING and self.column_empties):
            return True
        twin = self.twins[place]
        if twin is not None:
            return twin in self.home or len(self.exposable_parents(card)) >= 2
        return any(self.parent_exposable(parent) for parent in self.parents(card))

    def parents(self, card: int) -> list[int]:
        """The cards ``card`` builds on."""
        return self.parents_of[card]

    def exposable_parents(self, card: int) -> list[int]:
        """The parents of ``card`` that can be exposed some time (in the stock, exposed in a
        column or, with foundation return, ever home)."""
        return [parent for parent in self.parents(card) if self.parent_exposable(parent)]

    def parent_exposable(self, parent: int) -> bool:
        return parent in self.exposable or (self.rules.foundation_return and parent in self.ever_home)

    def places_of(self, card: int) -> list[Place]:
        return self.place_of.get(card, [])

    def twin_on(self, place: Place) -> Place | None:
        """The place of the twin lying directly on a face-down card (one deck, alternating
        colours, not Kings: see "Twins" in ``engine.dead_ends.prune``), else None."""
        column, index = place
        cards = self.board.columns[column]
        if self.rules.same_suit_building or self.rules.decks != 1 or not self.face_down(place):
            return None
        card = cards[index]
        twin = make_card(card_rank(card), 3 - card_suit(card))
        if card_rank(card) == KING or index + 1 >= len(cards) or cards[index + 1] != twin:
            return None
        return column, index + 1

    def never_home(self) -> list[Place]:
        """The places of the cards never derived home, in card order."""
        return sorted((place for place in self.places() if place not in self.home), key=self.card)


@lru_cache(maxsize=2)
def building_tables(same_suit: bool) -> tuple[dict, dict]:
    """For every card, the cards it builds on (its parents) and the cards that build on it."""
    parents_of = {card: cards_built_on(card, same_suit) for card in range(52)}
    children_of = {card: [] for card in range(52)}
    for child, parents in parents_of.items():
        for parent in parents:
            children_of[parent].append(child)
    return parents_of, children_of


def cards_built_on(card: int, same_suit: bool) -> list[int]:
    if card_rank(card) == KING:
        return []
    above = [make_card(card_rank(card) + 1, suit) for suit in range(4)]
    if same_suit:
        return [parent for parent in above if card_suit(parent) == card_suit(card)]
    return [parent for parent in above if is_red(parent) != is_red(card)]


class Teller:
    """Tells the events behind a card that never goes home, each once, as steps."""

    def __init__(self, derivation: Derivation):
        self.derivation = derivation
        self.lowest_lost = {}  # suit -> the place of its lowest card never home
        for place in reversed(derivation.never_home()):
            self.lowest_lost[card_suit(derivation.card(place))] = place
        self.steps: list[str] = []
        self.untold = 0

    def tell(self, first: tuple) -> None:
        """The steps of event ``first`` ("home", "exposed" or "leaves" at a place, or
        ("empty",)) and of the events it waits for, nearest first, each once; past
        MAX_STEPS the events left are only counted (``untold``)."""
        queue, seen = [first], {first}
        for event in queue:
            if len(self.steps) >= MAX_STEPS:
                self.untold = len(queue) - len(self.steps)
                return
            step, waits_for = getattr(self, f"step_{event[0]}")(*event[1:])
            self.steps.append(step)
            for reason in waits_for:
                if reason not in seen:
                    seen.add(reason)
                    queue.append(reason)

    def name(self, place: Place) -> str:
        return card_text(self.derivation.card(place))

    def step_home(self, place: Place):
        card = self.derivation.card(place)
        if place not in self.derivation.exposed:
            return f"{card_text(card)} never goes home: it is never exposed.", [("exposed", place)]
        lowest = self.lowest_lost[card_suit(card)]
        return (
            f"{card_text(card)} never goes home: {self.name(lowest)}, below it in its suit, never does.",
            [("home", lowest)],
        )

    def step_exposed(self, place: Place):
        column, index = place
        on_it = (column, index + 1)
        return f"{self.name(place)} is never exposed: {self.name(on_it)} lies on it and never leaves.", [
            ("leaves", on_it)
        ]

    def step_leaves(self, place: Place):
        derivation, card = self.derivation, self.derivation.card(place)
        if place not in derivation.exposed and derivation.face_down(place):
            return f"{card_text(card)} never leaves: it is face down and never exposed.", [("exposed", place)]
        ways, waits_for = [], []
        ways.append("it never goes home")
        waits_for.append(("home", place))
        twin = derivation.twin_on(place)
        blocked = [parent for parent in derivation.parents(card) if not derivation.parent_exposable(parent)]
        if derivation.parents(card):
            ways.append(self.parents_clause(card, blocked, twin))
            waits_for += [("exposed", spot) for parent in blocked for spot in self.column_places(parent)]
        if twin is not None:
            waits_for.append(("home", twin))
        if card_rank(card) == KING:
            ways.append("no column is ever empty")
            waits_for.append(("empty",))
        return f"{card_text(card)} never leaves: " + "; ".join(ways) + ".", waits_for

    def parents_clause(self, card: int, blocked: list[int], twin: Place | None) -> str:
        names = " and ".join(card_text(parent) for parent in self.derivation.parents(card))
        where = ", ".join(f"{card_text(parent)} {self.where(parent)}" for parent in blocked)
        if twin is None:
            return f"it builds only on {names}: {where}"
        return (
            f"its twin {self.name(twin)} lies on it, so it needs both {names} exposed, or "
            f"{self.name(twin)} gone home: {where}"
        )

    def where(self, parent: int) -> str:
        if parent in self.derivation.ever_home and not self.column_places(parent):
            return "is on its foundation"
        return "is never exposed"

    def column_places(self, card: int) -> list[Place]:
        return [place for place in self.derivation.places_of(card) if place not in self.derivation.exposed]

    def step_empty(self):
        bottoms = [(column, 0) for column, cards in enumerate(self.derivation.board.columns) if cards]
        names = ", ".join(self.name(place) for place in bottoms)
        return f"No column is ever empty: none of its bottom cards ({names}) ever leaves.", [
            ("leaves", place) for place in bottoms
        ]


def hopeless_reason(board: Board, rules: Rules) -> str | None:
    """The chain behind a card that never goes home, when HOPELESS's derivation has one."""
    derivation = Derivation(board, rules)
    lost = derivation.never_home()
    if not lost:
        return None
    first = next(place for place in lost if derivation.predecessor_home(derivation.card(place)))
    teller = Teller(derivation)
    teller.tell(("home", first))
    head = f"{card_text(derivation.card(first))} can never go home, so the game cannot be won"
    head += f" ({others_lost(derivation, lost, first)})." if len(lost) > 1 else "."
    if teller.untold:
        tail = f"({counted(teller.untold, 'more step')} of the same kind left out.)"
    else:
        tail = "None of these events can ever happen first: each waits for another of them."
    return " ".join([head, *teller.steps, tail])


def others_lost(derivation: Derivation, lost: list[Place], first: Place) -> str:
    """ "nor can 8C, 9C", or "nor can 8C, 9C, ... and 40 more cards"."""
    also = [card_text(derivation.card(place)) for place in lost if place != first]
    if len(also) <= MAX_NAMED:
        return "nor can " + ", ".join(also)
    return f"nor can {', '.join(also[:MAX_NAMED])} and {len(also) - MAX_NAMED} more cards"


def kernel_flags(board: Board, rules: Rules) -> tuple[bool, list[int], tuple[int, int] | None]:
    """Does the kernel's HOPELESS test flag ``board``; which cards' home facts does the kernel's
    pairwise table find unreachable (none where the test does not run); and, where it flags the
    board with every home fact reachable alone, two cards that it finds never home together?"""
    packed = pack(board, rules)
    hopeless = bool(prune.hopeless(packed.state, packed.params))
    tables = getattr(THREAD_TABLES, "tables", None)
    if tables is None:
        tables = THREAD_TABLES.tables = arrays.make_tables()
    h2.build_tables(packed.state, packed.params, tables)
    if not tables.header[arrays.HEADER_FACTS] or not h2.h2_dead(packed.state, packed.params, tables):
        return hopeless, [], None
    home_rows = [int(row) for row in tables.pairs.reach[:52, 0]]  # home(c) is fact c, in word 0
    unreachable = [card for card in range(52) if not home_rows[card] >> card & 1]
    if unreachable:
        return hopeless, unreachable, None
    apart = next(
        (card, other)
        for card in range(52)
        for other in range(card + 1, 52)
        if not home_rows[card] >> other & 1
    )
    return hopeless, [], apart


def twin_split_flags(board: Board, rules: Rules) -> bool:
    """Does the kernel's case split on twins (``prune.twins_hopeless``) flag ``board``?"""
    packed = pack(board, rules)
    return bool(prune.twins_hopeless(packed.state, packed.params))


def pairwise_reason(finding: str) -> str:
    """The reason for a position the pairwise test flags, given what it finds about home facts."""
    return (
        f"The pairwise dead-end test shows that {finding}, so the game cannot be won; its argument "
        "runs over pairs of facts (which cards can lie where at the same time), so no single chain "
        "of cards shows it."
    )


def loss_reason(board: Board, rules: Rules, nodes: int, proof: Proof) -> str:
    """Why ``board``, proved lost by ``proof`` after a search of ``nodes`` positions, is lost:
    a chain a person can check when the dead-end tests flag it as it stands, else the test
    that proved it, or the search's size when the search itself did."""
    hopeless, unreachable, apart = kernel_flags(board, rules)
    if hopeless:
        told = hopeless_reason(board, rules)
        if told is not None:
            return told
    if unreachable:
        return pairwise_reason(", ".join(card_text(card) for card in unreachable) + " can never go home")
    if apart:
        return pairwise_reason(
            " and ".join(card_text(card) for card in apart) + " can each go home but never both"
        )
    if twin_split_flags(board, rules):
        return (
            "The dead-end test shows it by a case split on twins (two cards of one rank and colour, "
            "which build on the same two cards): whichever of a pair leaves first, some card can "
            'never go home (solver/engine/dead_ends/prune.py, "Twins").'
        )
    return PROOF_SENTENCES[proof].format(nodes=nodes)


# What proved a loss that no test flags as the position stands alone, by ``Proof``.
PROOF_SENTENCES = {
    Proof.SEARCH: (
        "The whole game tree was searched: {nodes:,} positions, none of them a win "
        "(the search left out only moves and positions that cannot matter to a win)."
    ),
    Proof.ROOT_PAIRS: (
        "The pairwise dead-end test (which cards can lie where at the same time, two facts at a time), "
        "run on the position when the search had found no win, proves it lost ({nodes:,} positions "
        "were searched in all, not the whole game tree); no single chain of cards shows it."
    ),
    Proof.ROOT_TRIPLES: (
        "The dead-end test over triples of facts (which cards can lie where at the same time), run "
        "on the position when the search had found no win, proves it lost ({nodes:,} positions were "
        "searched in all, not the whole game tree); no single chain of cards shows it."
    ),
}
