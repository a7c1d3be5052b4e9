"""The policies by name, and what every policy offers.

A policy decides from a View only, and the game so far as a player remembers it
(``decide(view, seed, history) -> Decision``: never a move that undoes the last one or
returns to a position seen; a policy that deals worlds, with ``samples``, also takes
``progress(done, total)``) and plays whole games
from a true Board (``play(board, rules, seed) -> (won, moves)``), looking at the true Board
only to apply its moves, as a person turning the cards would.
"""

from typing import Protocol

from solver.errors import YukonError
from solver.game.board import Board
from solver.game.reference import Move
from solver.game.rules import Rules
from solver.player.decision import Decision
from solver.player.expert import Expert
from solver.player.greedy import Greedy
from solver.player.history import NO_HISTORY, History
from solver.player.sampling import Sampling
from solver.player.view import View

POLICIES = {"expert": Expert, "greedy": Greedy, "sampling": Sampling}
# The policy a hint uses unless told otherwise.
DEFAULT_HINT_POLICY = "expert"


class Policy(Protocol):
    name: str

    def settings(self, rules: Rules | None = None) -> dict: ...

    def decide(self, view: View, seed: int, history: History = NO_HISTORY) -> Decision: ...

    def play(self, board: Board, rules: Rules, seed: int) -> tuple[bool, list[Move]]: ...


def make_policy(name: str, **settings) -> Policy:
    """The policy ``name`` with ``settings`` (e.g. ``samples=16, max_nodes=20000``)."""
    if name not in POLICIES:
        raise YukonError(f"unknown policy {name!r} (choose one of {', '.join(POLICIES)})")
    try:
        return POLICIES[name](**settings)
    except TypeError as error:
        raise YukonError(f"bad settings for policy {name}: {error}") from None
