"""The sampling policy: deal the unseen cards at random K times, solve each world with the
exact solver under a small node budget, and play, among the first moves of the winning
lines found (the CANDIDATES most frequent), the one after which most worlds are still won
(ties by votes, then the greedy order). Its confidence in a move is the fraction of the K worlds
still won after it.

Worlds are kept from one decision to the next: after a move, a world whose own position
shows what the real one now shows is still a uniform draw among the worlds consistent
with everything seen, so it stays, with the rest of its winning line when the line began
with the move played; a world the move disproved (a turned card differs) is dealt afresh.
Between turns the player therefore re-solves nothing, which makes a whole game cheap. Once
nothing is hidden there is one world: the position itself.

When no world is won any more, the greedy player finishes the game (cheaply: solving
worlds that all look lost would cost the whole node budget each time).

Its known weakness is strategy fusion: a move that wins in every world may still need, later,
knowledge the player will not have (which world it is in). ``plan_plies`` > 0 measures how
much that matters: a move's score then counts only the worlds that share the most common
plan after it, the next ``plan_plies`` moves of their winning lines cut after the first move
that shows a hidden card (from then on the player knows more, and may rightly play
differently per world). The figures are in ``benchmarks/results/player_fusion_*.json``.
"""

import random
from collections import Counter
from dataclasses import dataclass

from solver.common.interrupts import passing_ctrl_c_on
from solver.errors import YukonError
from solver.game import reference
from solver.game.board import Board
from solver.game.reference import Move
from solver.game.rules import Rules
from solver.player.decision import MAX_SAMPLES, NO_LEGAL_MOVE, ONLY_REPEATS, Confidence, Decision, reason_for
from solver.player.greedy import GAME_MOVES, Greedy, check_positive, ranked_moves
from solver.player.history import NO_HISTORY, History
from solver.player.view import View, sample_world, view_of
from solver.results.result import SOLVED, UNSOLVABLE
from solver.search.solve import Estimate, estimate_position

CANDIDATES = 3
LOOKS_LOST = "the position looks lost from what is visible (no sampled deal of the unseen cards was won)"
PROVED_LOST = "every sampled deal of the unseen cards is proved lost"
GONE = "the game looks lost: every sampled deal of the unseen cards is proved lost from here"
GONE_EXACT = "the game is lost: nothing is hidden and the solver proved the position lost"


@dataclass(frozen=True)
class World:
    """One dealing of the unseen cards, and a winning line from it (None: none found;
    ``proved_lost`` when the solver proved it lost)."""

    board: Board
    line: tuple[Move, ...] | None
    proved_lost: bool = False


@dataclass(frozen=True)
class Sampling:
    """``samples`` worlds per decision, each solved with at most ``max_nodes`` nodes."""

    samples: int = 16
    max_nodes: int = 10_000
    max_moves: int = GAME_MOVES
    plan_plies: int = 0
    name: str = "sampling"

    def __post_init__(self):
        check_positive(self.name, samples=self.samples, max_nodes=self.max_nodes, max_moves=self.max_moves)
        check_samples(self.name, self.samples)
        if self.plan_plies:
            check_positive(self.name, plan_plies=self.plan_plies)

    def settings(self, rules: Rules | None = None) -> dict:
        """The settings, the same for every rule set (``plan_plies`` only when used, so stores keep
        the default's key)."""
        plan = {"plan_plies": self.plan_plies} if self.plan_plies else {}
        return {"samples": self.samples, "max_nodes": self.max_nodes, "max_moves": self.max_moves} | plan

    def solved(self, board: Board, rules: Rules) -> World:
        return solved_world(board, rules, self.max_nodes)

    def fresh_worlds(self, view: View, rng: random.Random, count: int, progress=None) -> list[World]:
        """``count`` worlds of ``view`` (one when nothing is hidden), each solved;
        ``progress(done, count)`` after each."""
        if view.hidden_count == 0:
            count = min(count, 1)
        worlds = []
        for _ in range(count):
            worlds.append(self.solved(sample_world(view, rng), view.rules))
            if progress is not None:
                progress(len(worlds), count)
        return worlds

    def decide(self, view: View, seed: int, history: History = NO_HISTORY, progress=None) -> Decision:
        """The move for a view, with its confidence, from worlds drawn with ``seed``; never
        one that ``history`` says undoes the last move or returns to a position seen. When
        every world is proved lost, no move: the game is gone."""
        worlds = self.fresh_worlds(view, random.Random(seed), self.samples, progress)
        if all(world.proved_lost for world in worlds):
            lost = Confidence(0, len(worlds), len(worlds), view.hidden_count == 0)
            return Decision(None, lost, gone_reason(lost.exact), gone=True)
        move, after = self.evaluate(view, worlds, history)
        if move is None:
            legal = reference.legal_moves(worlds[0].board, view.rules)
            return Decision(None, None, ONLY_REPEATS if legal else NO_LEGAL_MOVE)
        confidence = confidence_of(after, view)
        return Decision(move, confidence, reason_with(confidence, reason_for(view, move)))

    def evaluate(
        self, view: View, worlds: list[World], history: History = NO_HISTORY
    ) -> tuple[Move | None, list[World]]:
        """The move won after in the most worlds, among the first moves of the worlds'
        winning lines (at most CANDIDATES of them, most often first), ties by votes then
        the greedy order; with no winning line, the greedy order's first legal move. Moves
        that ``history`` says revisit are left out. Returns it with the worlds after it."""
        legal = history.fresh(view, reference.legal_moves(worlds[0].board, view.rules))
        if not legal:
            return None, []
        votes = Counter(world.line[0] for world in worlds if world.line)
        greedy_order = {move: at for at, (_score, move) in enumerate(ranked_moves(view))}
        order = sorted(legal, key=lambda move: (-votes[move], greedy_order.get(move, len(greedy_order))))
        candidates = [move for move in order if votes[move]][:CANDIDATES] or order[:1]
        best, best_after, best_wins = None, [], -1
        for move in candidates:
            after = [self.advanced(world, move, view.rules) for world in worlds]
            wins = self.score(after, view.rules)
            if wins > best_wins:
                best, best_after, best_wins = move, after, wins
        return best, best_after

    def score(self, after: list[World], rules: Rules) -> int:
        """Worlds won after a move; with ``plan_plies``, only those sharing the commonest plan."""
        won = [world for world in after if world.line is not None]
        if not self.plan_plies or not won:
            return len(won)
        return max(Counter(self.plan(world, rules) for world in won).values())

    def plan(self, world: World, rules: Rules) -> tuple[Move, ...]:
        """The next ``plan_plies`` moves of a won world's line, cut after the first that
        shows a hidden card."""
        board, moves = world.board, []
        for move in world.line[: self.plan_plies]:
            moves.append(move)
            after = reference.apply_move(board, move, rules)
            if view_of(after, rules).hidden_count < view_of(board, rules).hidden_count:
                break
            board = after
        return tuple(moves)

    def advanced(self, world: World, move: Move, rules: Rules) -> World:
        """The world after ``move``, with a winning line from there (or None)."""
        board = reference.apply_move(world.board, move, rules)
        if world.line and world.line[0] == move:
            return World(board, world.line[1:])
        return self.solved(board, rules)

    def play(self, board: Board, rules: Rules, seed: int, observe=None) -> tuple[bool, list[Move]]:
        """A whole game from ``board``: (won, its moves, each played on the reference engine).
        When no world is won any more, the greedy player (same seed) finishes the game.
        ``observe(board, move, confidence)``, when given, sees each of sampling's own moves
        before it is played (benchmarks log confidence against the truth with it)."""
        rng = random.Random(seed)
        worlds = self.fresh_worlds(view_of(board, rules), rng, self.samples)
        moves: list[Move] = []
        history = History()
        while len(moves) < self.max_moves and not reference.is_won(board):
            if not any(world.line for world in worlds):
                won, rest = Greedy(max_moves=self.max_moves - len(moves)).play(board, rules, seed)
                return won, moves + rest
            view = view_of(board, rules)
            move, after = self.evaluate(view, worlds, history)
            if move is None:
                break
            if observe is not None:
                observe(board, move, confidence_of(after, view))
            history = history.after(view, move)
            board = reference.apply_move(board, move, rules)
            moves.append(move)
            worlds = self.kept_worlds(after, view_of(board, rules), rng)
        return reference.is_won(board), moves

    def kept_worlds(self, after: list[World], view: View, rng: random.Random) -> list[World]:
        """The worlds after a move: those the new view disproves are dealt afresh."""
        kept = [
            world if view_of(world.board, view.rules) == view else self.fresh_worlds(view, rng, 1)[0]
            for world in after
        ]
        return kept[:1] if view.hidden_count == 0 else kept


def check_samples(policy: str, samples: int, name: str = "samples") -> None:
    """YukonError when ``samples`` exceeds MAX_SAMPLES."""
    if samples > MAX_SAMPLES:
        raise YukonError(f"{policy} setting {name} must be at most {MAX_SAMPLES:,}, not {samples:,}")


def estimated_within(board: Board, rules: Rules, max_nodes: int, with_line: bool = True) -> Estimate:
    """``board`` estimated by the exact solver's search within ``max_nodes`` positions
    (``solve.estimate_position``: a sampled world needs the search's answer, not a verdict)."""
    with passing_ctrl_c_on():  # Ctrl-C stops the player, not just this world's search
        return estimate_position(board, rules, max_nodes, with_line)


def gone_reason(exact: bool) -> str:
    """Why no move is given once every world is proved lost (``exact``: the one world is the
    position itself)."""
    return GONE_EXACT if exact else GONE


def solved_world(board: Board, rules: Rules, max_nodes: int) -> World:
    """``board`` solved by the exact solver within ``max_nodes``: its winning line, or None."""
    estimate = estimated_within(board, rules, max_nodes)
    if estimate.status != SOLVED:
        return World(board, None, estimate.status == UNSOLVABLE)
    return World(board, estimate.line)


def confidence_of(after: list[World], view: View) -> Confidence:
    """How many of the worlds after a move from ``view`` are won, and how many proved lost
    (with nothing hidden, the one world is the position itself)."""
    won = sum(world.line is not None for world in after)
    return Confidence(won, len(after), sum(world.proved_lost for world in after), view.hidden_count == 0)


def reason_with(confidence: Confidence, reason: str) -> str:
    """The move's reason, led by a warning when no sampled world is won after it."""
    if confidence.all_proved_lost:
        return f"{PROVED_LOST}; {reason}"
    return reason if confidence.won else f"{LOOKS_LOST}; {reason}"
