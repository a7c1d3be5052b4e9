"""The ladder: non-peeking players of several strengths, and how many games each plays a deal.

Each rung plays a deal ``games`` times, with seeds drawn from the deal and the rung's name
(``deal_seeds``): games of one deal differ in their tie-breaks, and no two deals share a
seed series, so a deal settled by one early tie-break wins about half its games instead of
exactly the share the same 16 seeds give every such deal. A stronger rung plays only the
deals every weaker rung won at most GATE of the time (where they tell least); since that
choice depends only on games already seen, the fit (``rasch``) stays unbiased.

**Generation 2** (``LADDER_2``, the files of generation 2) puts two rungs below greedy, the
greedy player with a share of its moves drawn at random among those worth playing
(``Greedy.random_moves``): they spread the deals greedy always wins (Russian "easy"). They
are ``floor`` rungs: played on every deal, and gating no rung (the gate reads only the rungs
from greedy up, so a deal's games of those are exactly generation 1's). Its top rung is the
policy ``expert`` (``make_policy("expert")``), by name: a calibration of as many rungs as
it has skills uses it once it is calibrated with five.

The ladder only grows at its strong end: a rule set calibrated on its first rungs
(``ladder_calibration``: one skill a rung) is scored by those, and the games of the first
rungs, once played, are never played again when a rung is added (``ladder_games``' ``known``).
Results are ``(wins, games)`` per rung, in ladder order.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass

from solver.game.board import Board
from solver.game.rules import Rules
from solver.player.greedy import Greedy
from solver.player.policies import make_policy

# A stronger rung plays a deal only when each weaker rung won at most this share of its games.
GATE = 0.25


@dataclass(frozen=True)
class Rung:
    """A ladder player: ``policy`` with ``settings``, ``games`` games a deal; a ``floor`` rung
    (below greedy) plays every deal and gates no rung."""

    name: str
    policy: str
    settings: tuple[tuple[str, int], ...]
    games: int
    floor: bool = False

    def wins(self, board: Board, rules: Rules, deal: int) -> int:
        """Games won of this rung's ``games`` on ``deal`` (whose opening is ``board``)."""
        seeds = deal_seeds(self.name, deal, self.games)
        if self.policy == "greedy":
            return sum(Greedy(**dict(self.settings)).wins(board, rules, seeds))
        player = make_policy(self.policy, **dict(self.settings))
        return sum(player.play(board, rules, seed)[0] for seed in seeds)


LADDER = (
    Rung("greedy", "greedy", (), 32),
    Rung("sampling-2x500", "sampling", (("max_nodes", 500), ("samples", 2)), 1),
    # Chosen for splitting the deals the first two never win: on 20 such Yukon deals it won 5
    # of 20 games at 0.47 CPU s a game (``benchmarks/bench_ladder.py rungs``).
    Rung("sampling-4x1000", "sampling", (("max_nodes", 1000), ("samples", 4)), 1),
)
# Random moves worth playing, and greedy with half its moves so, at a few ms a game: on the
# Yukon generation 2 easy tier they win 31.0% and 55.5% of their games where greedy wins 75.2%
# (``benchmarks/results/generation2_yukon.json``, ``benchmarks/bench_generation.py``).
FLOOR = (
    Rung("random", "greedy", (("random_moves", 1000),), 64, floor=True),
    Rung("greedy-random-500", "greedy", (("random_moves", 500),), 32, floor=True),
)
# The top rung: helper policy ``expert`` (one game, behind the gate), used once calibrated.
LADDER_2 = (*FLOOR, *LADDER, Rung("expert", "expert", (), 1))


def deal_seeds(name: str, deal: int, games: int) -> list[int]:
    """The seeds of a rung's games on one deal: drawn from the rung's name and the deal."""
    rng = random.Random(f"ladder/{name}/{deal}")
    return [rng.getrandbits(63) for _ in range(games)]


def plays(rung_index: int, results: Sequence[tuple[int, int]], ladder: Sequence[Rung] = LADDER) -> bool:
    """Does the rung ``rung_index`` of ``ladder`` play a deal, given the weaker rungs'
    ``(wins, games)``? A floor rung always; another when each weaker rung but the floor ones
    won at most GATE of its games."""
    if ladder[rung_index].floor:
        return True
    weaker = zip(ladder[:rung_index], results[:rung_index])
    return all(games and wins <= GATE * games for rung, (wins, games) in weaker if not rung.floor)


def ladder_games(
    board: Board, rules: Rules, deal: int, ladder: Sequence[Rung] = LADDER, known: Sequence = ()
) -> list[tuple[int, int]]:
    """``(wins, games)`` of each rung on ``deal`` (``(0, 0)`` where a rung does not play it);
    ``known`` holds the results of the first rungs, already played: only the others play."""
    results: list[tuple[int, int]] = [tuple(pair) for pair in known]
    for index, rung in enumerate(ladder[len(results) :], start=len(results)):
        played = plays(index, results, ladder)
        results.append((rung.wins(board, rules, deal), rung.games) if played else (0, 0))
    return results
