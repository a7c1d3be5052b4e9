"""A plain-Python version of ``engine.dead_ends.h2``'s encoding and fixpoint, for the kernel to be
checked against: facts are named tuples, actions are listed from a reference Board, and the
pair table is computed by naive rounds over every action until nothing changes.

Facts: ("on", card, below) with below a card or ("base", column); ("clear", below);
("up", card); ("home", card); ("nothome", card) with foundation return.
"""

from solver.game.board import Board
from solver.game.cards import KING, card_rank
from solver.game.reference import builds_on
from solver.game.rules import Rules


def targets(card: int, rules: Rules, columns: int) -> list:
    if card_rank(card) == KING:
        return [("base", column) for column in range(columns)]
    return [other for other in range(52) if builds_on(card, other, rules)]


def root_belows(root: Board) -> dict:
    belows = {}
    for column, cards in enumerate(root.columns):
        below = ("base", column)
        for card in cards:
            belows[card] = below
            below = card
    return belows


def actions(root: Board, rules: Rules) -> list[tuple[frozenset, frozenset, frozenset]]:
    """(pre, add, delete) of every action of the deal whose root is ``root``."""
    columns = len(root.columns)
    at_root = root_belows(root)
    listed = []
    for card in range(52):
        places = targets(card, rules, columns)
        belows = set(places) | ({at_root[card]} if card in at_root else set())
        for below in belows:
            on = ("on", card, below)
            uncovered = {("clear", below)} | ({("up", below)} if isinstance(below, int) else set())
            for target in places:
                if target != below:
                    listed.append(
                        (
                            {on, ("up", card), ("clear", target)},
                            {("on", card, target)} | uncovered,
                            {on, ("clear", target)},
                        )
                    )
            pre = {on, ("clear", card), ("up", card)}
            if card_rank(card) > 1:
                pre.add(("home", card - 1))
            delete = {on, ("clear", card)}
            if rules.foundation_return:
                pre.add(("nothome", card))
                delete.add(("nothome", card))
            listed.append((pre, {("home", card)} | uncovered, delete))
        if rules.foundation_return:
            for target in places:
                pre = {("home", card), ("clear", target)}
                if card_rank(card) < KING:
                    pre.add(("nothome", card + 1))
                added = {("on", card, target), ("clear", card), ("up", card), ("nothome", card)}
                listed.append((pre, added, {("home", card), ("clear", target)}))
    return [(frozenset(pre), frozenset(add), frozenset(delete)) for pre, add, delete in listed]


def position_facts(board: Board, rules: Rules) -> set:
    facts = set()
    for column, (cards, face_down) in enumerate(zip(board.columns, board.face_down_counts)):
        below = ("base", column)
        for index, card in enumerate(cards):
            facts.add(("on", card, below))
            if index >= face_down:
                facts.add(("up", card))
            below = card
        facts.add(("clear", below))
    for suit, height in enumerate(board.foundations):
        for rank in range(1, 14):
            card = suit * 13 + rank - 1
            if rank <= height:
                facts.add(("home", card))
            elif rules.foundation_return:
                facts.add(("nothome", card))
    return facts


def pair_table(root: Board, board: Board, rules: Rules, start_facts: set | None = None) -> set[frozenset]:
    """Every fact pair (a one-fact set for a single fact) h^2 calls reachable from ``board``
    (or from ``start_facts``: any set of facts, all true together at the start), in the
    encoding of the deal whose root is ``root``: rounds over every action until none adds a
    pair. Rows are Python-int bitsets over the facts' numbers (row p has bit q when {p, q} is
    reachable)."""
    listed = actions(root, rules)
    if start_facts is None:
        start_facts = position_facts(board, rules)
    names = sorted({fact for action in listed for part in action for fact in part} | start_facts, key=repr)
    number = {fact: index for index, fact in enumerate(names)}

    def bits(facts) -> int:
        return sum(1 << number[fact] for fact in facts)

    start = bits(start_facts)
    rows = [start if start >> index & 1 else 0 for index in range(len(names))]
    coded = [
        ([number[p] for p in pre], bits(pre), [number[p] for p in add], bits(add), bits(delete))
        for pre, add, delete in listed
    ]
    changed = True
    while changed:
        changed = False
        for pre, pre_bits, add, add_bits, delete_bits in coded:
            if any(rows[p] & pre_bits != pre_bits for p in pre):
                continue
            common = -1
            for p in pre:
                common &= rows[p]
            compatible = (common & ~delete_bits & ~add_bits) | add_bits
            for p in add:
                new = compatible & ~rows[p]
                if new:
                    changed = True
                    rows[p] |= new
                    for q in range(len(names)):
                        if new >> q & 1:
                            rows[q] |= 1 << p
    return {
        frozenset((names[p], names[q]))
        for p in range(len(names))
        for q in range(len(names))
        if rows[p] >> q & 1
    }


def lacks_home_pair(reached: set[frozenset]) -> bool:
    """Does a pair table lack a pair of home facts (one card's home alone included)? A won
    position holds every card home at once."""
    return any(
        frozenset([("home", card), ("home", other)]) not in reached
        for card in range(52)
        for other in range(card, 52)
    )


def triple_family(root: Board, board: Board, rules: Rules) -> set[frozenset]:
    """Every set of one to three facts h^3 calls reachable from ``board``, by its definition:
    rounds over every action whose preconditions' small subsets (one to three facts) are all in
    the family, adding each set X of at most three facts that meets the action's added facts,
    misses its deleted ones, and whose other facts Y form with the preconditions only small
    subsets already in the family. ``within[p, q]`` is a Python-int bitset over r, bit r when
    {p, q, r} is in the family (every order; p = q for pairs, p = q = r for one fact)."""
    listed = actions(root, rules)
    start_facts = position_facts(board, rules)
    names = sorted({fact for action in listed for part in action for fact in part} | start_facts, key=repr)
    number = {fact: index for index, fact in enumerate(names)}
    start = [number[fact] for fact in start_facts]
    within = {}
    for x in start:
        for y in start:
            within[x, y] = sum(1 << z for z in start)

    def row(x, y) -> int:
        return within.get((x, y), 0)

    def add(facts) -> bool:
        if row(facts[0], facts[1]) >> facts[2] & 1:
            return False
        bits = sum(1 << z for z in set(facts))  # a repeated fact counted once
        for x in facts:
            for y in facts:
                within[x, y] = row(x, y) | bits
        return True

    changed = True
    while changed:
        changed = False
        for pre, added, deleted in listed:
            pre, added = [number[f] for f in pre], [number[f] for f in added]
            pre_bits = sum(1 << p for p in pre)
            if any(row(x, y) & pre_bits != pre_bits for x in pre for y in pre):
                continue
            outside = ~sum(1 << number[f] for f in deleted) & ~sum(1 << a for a in added)
            for x in pre:
                for y in pre:
                    outside &= row(x, y)  # every {x, y, q}, {x, q} (x = y) in the family
            partners = [q for q in range(len(names)) if outside >> q & 1 and row(q, q) >> q & 1]
            for a in added:
                for b in added:
                    for c in added:
                        changed |= add((a, b, c))
                    for q in partners:
                        changed |= add((a, b, q))
                for q in partners:
                    with_q = outside & row(q, q)  # r: {q, r} and every {q, r, x} in the family
                    for x in pre:
                        with_q &= row(q, x)
                    for r in partners:
                        if with_q >> r & 1:
                            changed |= add((a, q, r))
    return {
        frozenset((names[p], names[q], names[r]))
        for (p, q), bits in within.items()
        for r in range(len(names))
        if bits >> r & 1
    }
