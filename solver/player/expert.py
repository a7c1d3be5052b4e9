"""The expert policy: determinization that compares plans up to the next card turned.

Determinization (the sampling policy) deals the unseen cards at random K times, solves
each world with the exact solver and plays the move after which most worlds are still won.
Its known flaw is strategy fusion: each world's line may use knowledge the player will
only have later, so a move can look won in every world and still need, later, a guess.

What the expert uses instead is that, until a hidden card is shown, a player learns
nothing: every move before the next one that turns a card (or deals the stock) is played
blind, and is the same in every world. So the choice a person really makes is a *plan*: a
sequence of moves that ends with the first move that shows a hidden card. The expert

1. deals ``first_worlds`` worlds of the unseen cards (``View``: it never sees a hidden
   card) and solves each with at most ``max_nodes`` nodes; the first plan of each winning
   line is a candidate (plans that reach the same position and turn the same card are
   one candidate, whatever the order of their moves).
   With ``every_move`` every fresh legal move has a candidate plan too: the
   move alone when it turns a card, else the move followed by the first plan of a winning
   line from after it in the first of those worlds that has one (none when no world wins
   after it). The sampled lines' first plans alone miss the saving plan: each world's
   solver proposes its own first winning line, so 8 worlds often vote for one plan only.
   ``"doubt"`` makes them only once the most voted plan is not won in every world dealt.
   Its default (None) is the rule set's, from ``EVERY_MOVE_BY_VARIANT``: ``"doubt"`` for
   Milligan, where the worlds mostly agree and plans for every move always cost 13 times the
   CPU, on elsewhere;
2. plays the ``candidates`` most voted plans (and those of every move) in *every* world
   and solves the position
   just after the card is turned (at most ``plan_nodes`` nodes): a plan's score counts the
   worlds still won there. That removes fusion over the blind segment: a plan is credited
   only with what it achieves when it must be played without knowing the world. (The
   position after the turn is still judged by a solver that sees the world: one level of
   hindsight, re-decided at the next turn with what has been learned.) Every plan ends by
   turning a card, so turning cards is valued for what it reveals: a plan is judged after
   its card is seen;
3. adds worlds ``first_worlds`` at a time, up to ``samples``, while the leading plan's lead
   over the second is not clear: a paired comparison over the worlds, clear when the lead
   in worlds won is at least ``lead_z`` times the square root of the worlds where the two
   differ (a sign test), or when they differ in none; a plan clearly behind the leader so
   (by the same test) is dropped, and not played in the worlds added after;
4. a world the solver left undecided (its node budget ran out) is neither won nor lost: it
   counts ``unknown_weight`` of a win in a plan's score (the confidence reports won,
   proved lost and undecided worlds apart).

With nothing hidden the position is exact: one world, solved with ``exact_nodes``, and its
line is followed. When every sampled world is proved lost from the position itself, more are
dealt, up to ``gone_samples``, while all stay lost; then the decision says the game looks
lost (gone: no move; with nothing hidden, it is lost). When no world is won but some are undecided,
it falls back to the greedy player's move and says the position looks lost.

Measured (one game a deal, seed 0; ``benchmarks/bench_player.py expert``, the figures in
``benchmarks/results/expert_*.json``): tuned on strict Yukon PySolFC 1-60, where it won 34
games, the sampling player (16 worlds of 10,000 nodes, seed 0) 33 of the same deals;
``turn_now`` (every move that turns a card at once as a candidate too) won 21 of the first
35 deals where the plain expert won 23, so it is off. Twice the worlds (16 first, up to 48)
and 6 candidates won 38 of the 60 (5 deals only it won, 1 only the default) at 2.8 times the
CPU (3.0 s a game): not a clear gain, and its hints would miss the latency target. Confirmed
on deals never used: strict 50001-50300, 157 of 300 (thoughtful 268); with foundation return
90001-90300, 152 of 300 (thoughtful 266 of 299 decided); README.md has the table. So
comparing plans, not moves, does not by itself lift the player much: the position after the
card is turned is still judged by a solver that sees the world, which gives information no
value.

What the sampled lines propose was the larger limit: at the 15 decisions where it turned a
winnable strict deal (PySolFC 1-40) into a lost one, nearly every legal move kept the deal
winnable, but in 8 of them no candidate plan did. With ``every_move`` it won 50 of strict
50001-50080 where it had won 41 (tuning), then, confirmed, 54 of 60001-60100 against 45, 61
of 50101-50200 against 52 and, with foundation return, 57 of 90001-90100 against 52, at
about 2.5 times the CPU (3.1-3.9 s a game); ``docs/players.md`` has the commands.

``play`` follows a chosen plan to its end (nothing is learned on the way, so deciding again
would only draw other worlds), then decides again; a plan move that ``History`` refuses
(undoing the last move, or back to a position seen) ends the plan early.
"""

import math
import random
from collections import Counter
from dataclasses import dataclass
from types import MappingProxyType

from solver.errors import YukonError
from solver.game import reference
from solver.game.board import Board
from solver.game.reference import Move
from solver.game.rules import Rules
from solver.player.decision import NO_LEGAL_MOVE, ONLY_REPEATS, Confidence, Decision, reason_for
from solver.player.greedy import GAME_MOVES, Greedy, check_positive, ranked_moves
from solver.player.history import NO_HISTORY, History
from solver.player.sampling import (
    World,
    check_samples,
    estimated_within,
    gone_reason,
    reason_with,
    solved_world,
)
from solver.player.view import View, sample_world, view_of
from solver.results.result import SOLVED, UNSOLVABLE

WON, LOST, UNDECIDED = "won", "lost", "undecided"
# ``every_move`` when left None, by variant (True for a variant not named). Milligan without
# it won 100 of 1-100 and 97 of 101-200 at 2.1-2.2 CPU s a game; with it, 30 of 1-30 and the
# 3 lost deals of 101-200, at 27 s a game; in doubt (its default), 300 of 1-300 at 2.5 s.
DOUBT = "doubt"
EVERY_MOVE_BY_VARIANT = MappingProxyType({"milligan": DOUBT})


@dataclass(frozen=True)
class Plan:
    """Moves up to and including the first that shows a hidden card (the whole line when
    none does); ``key``: the position before that move as seen, and the move."""

    moves: tuple[Move, ...]
    key: tuple


@dataclass(frozen=True)
class Choice:
    """A plan and how many worlds are won after it; ``plan`` is None when the game is gone
    (``gone``) or no fresh move remains; ``fallback`` when no world was won (the plan is
    then the greedy player's one move)."""

    plan: Plan | None
    confidence: Confidence | None
    reason: str
    gone: bool = False
    fallback: bool = False


@dataclass(frozen=True)
class Expert:
    """Tuning of the expert policy (the module's docstring argues the method)."""

    samples: int = 24
    first_worlds: int = 8
    gone_samples: int = 64
    candidates: int = 3
    max_nodes: int = 10_000
    plan_nodes: int = 10_000
    exact_nodes: int = 1_000_000
    lead_z: float = 2.0
    unknown_weight: float = 0.5
    turn_now: bool = False
    every_move: bool | str | None = None
    max_moves: int = GAME_MOVES
    name: str = "expert"

    def __post_init__(self):
        check_positive(
            self.name,
            samples=self.samples,
            first_worlds=self.first_worlds,
            gone_samples=self.gone_samples,
            candidates=self.candidates,
            max_nodes=self.max_nodes,
            plan_nodes=self.plan_nodes,
            exact_nodes=self.exact_nodes,
            max_moves=self.max_moves,
        )
        check_samples(self.name, self.samples)
        check_samples(self.name, self.gone_samples, "gone_samples")
        if not isinstance(self.turn_now, bool):
            raise YukonError(f"{self.name} setting turn_now must be true or false, not {self.turn_now!r}")
        if not (self.every_move in (None, DOUBT) or isinstance(self.every_move, bool)):
            value = self.every_move
            raise YukonError(
                f"{self.name} setting every_move must be true, false, {DOUBT!r} or null (the rule set's),"
                f" not {value!r}"
            )
        if not (isinstance(self.lead_z, int | float) and 0 <= self.lead_z <= 10):
            raise YukonError(f"{self.name} setting lead_z must be a number from 0 to 10, not {self.lead_z!r}")
        if not (isinstance(self.unknown_weight, int | float) and 0 <= self.unknown_weight <= 1):
            weight = self.unknown_weight
            raise YukonError(
                f"{self.name} setting unknown_weight must be a number from 0 to 1, not {weight!r}"
            )

    def settings(self, rules: Rules | None = None) -> dict:
        """The settings; for ``rules``, ``every_move`` as that rule set plays it (a store keys a
        series on what was played, not on a default a later release may change)."""
        return {
            "samples": self.samples,
            "first_worlds": self.first_worlds,
            "gone_samples": self.gone_samples,
            "candidates": self.candidates,
            "max_nodes": self.max_nodes,
            "plan_nodes": self.plan_nodes,
            "exact_nodes": self.exact_nodes,
            "lead_z": self.lead_z,
            "unknown_weight": self.unknown_weight,
            "turn_now": self.turn_now,
            "every_move": self.every_move if rules is None else self.every_move_for(rules),
            "max_moves": self.max_moves,
        }

    def every_move_for(self, rules: Rules) -> bool | str:
        """``every_move`` as set, or the rule set's default when None."""
        if self.every_move is None:
            return EVERY_MOVE_BY_VARIANT.get(rules.variant, True)
        return self.every_move

    def decide(self, view: View, seed: int, history: History = NO_HISTORY, progress=None) -> Decision:
        """The first move of the best plan for ``view``, from worlds drawn with ``seed``."""
        choice = self.choose(view, seed, history, progress)
        if choice.plan is None:
            return Decision(None, choice.confidence, choice.reason, choice.gone)
        return Decision(choice.plan.moves[0], choice.confidence, choice.reason)

    def choose(self, view: View, seed: int, history: History = NO_HISTORY, progress=None) -> Choice:
        """The plan to play from ``view`` (see the module's docstring)."""
        return self.plan_search(view, seed, history, progress).run()

    def plan_search(
        self, view: View, seed: int, history: History = NO_HISTORY, progress=None
    ) -> "PlanSearch":
        """The decision's search over plans, worlds drawn with ``seed``, not yet run."""
        return PlanSearch(self, view, history, random.Random(seed), progress)

    def play(self, board: Board, rules: Rules, seed: int, observe=None) -> tuple[bool, list[Move]]:
        """A whole game from ``board``: (won, its moves, each played on the reference engine).
        A game the expert finds gone ends there, lost; one where no world is won any more is
        finished by the greedy player (same seed), as the sampling policy does.
        ``observe(board, move, confidence)`` sees each of the expert's own moves."""
        rng = random.Random(seed)
        moves: list[Move] = []
        history, plan, confidence = History(), (), None
        while len(moves) < self.max_moves and not reference.is_won(board):
            view = view_of(board, rules)
            if not plan or not history.fresh(view, [plan[0]]):
                choice = self.choose(view, rng.getrandbits(63), history)
                if choice.plan is None:
                    break
                if choice.fallback:
                    won, rest = Greedy(max_moves=self.max_moves - len(moves)).play(board, rules, seed)
                    return won, moves + rest
                plan, confidence = choice.plan.moves, choice.confidence
            move, plan = plan[0], plan[1:]
            if observe is not None:
                observe(board, move, confidence)
            history = history.after(view, move)
            board = reference.apply_move(board, move, rules)
            moves.append(move)
        return reference.is_won(board), moves


class PlanSearch:
    """One decision's worlds, candidate plans and their outcomes, grown adaptively."""

    def __init__(self, expert: Expert, view: View, history: History, rng: random.Random, progress):
        self.expert, self.view, self.history, self.rng, self.progress = expert, view, history, rng, progress
        self.rules = view.rules
        self.every_move = expert.every_move_for(view.rules)
        self.worlds: list[World] = []
        self.own_plans: list[Plan | None] = []
        self.plans: dict[tuple, Plan] = {}
        self.votes: Counter = Counter()
        self.outcomes: dict[tuple[tuple, int], str] = {}
        self.fresh_first: dict[Move, bool] = {}
        self.every_plans: list[tuple] | None = None
        self.beaten: set[tuple] = set()

    @property
    def exact(self) -> bool:
        return self.view.hidden_count == 0

    def run(self) -> Choice:
        target = min(self.cap(), self.expert.first_worlds)
        while True:
            self.deal(target)
            ranked = self.ranked()
            self.beaten |= {key for key in ranked[2:] if self.leads(ranked[0], key)}
            if ranked and (self.clear(ranked) or len(self.worlds) >= self.cap()):
                return self.chosen(ranked[0])
            if len(self.worlds) >= self.cap():
                return self.no_plan()
            target = min(self.cap(), target + self.expert.first_worlds)

    def cap(self) -> int:
        return 1 if self.exact else self.expert.samples

    def deal(self, target: int) -> None:
        """Deal and solve worlds until there are ``target``."""
        nodes = self.expert.exact_nodes if self.exact else self.expert.max_nodes
        while len(self.worlds) < target:
            world = solved_world(sample_world(self.view, self.rng), self.rules, nodes)
            self.worlds.append(world)
            plan = None if world.line is None else plan_of(world.board, world.line, self.rules)
            self.own_plans.append(plan)
            if plan is not None:
                self.plans.setdefault(plan.key, plan)
                self.votes[plan.key] += 1
            if self.progress is not None:
                self.progress(len(self.worlds), max(target, self.cap()))

    def ranked(self) -> list[tuple]:
        """The candidate plans' keys, best first: by score, then the sooner a card is
        turned (the fewer moves played blind), then votes, then greedy order. Candidates:
        the ``candidates`` most voted plans, and with ``turn_now`` every move that turns a
        card at once (when any world is won at all)."""
        keys = [key for key, _votes in self.votes.most_common() if self.first_is_fresh(self.plans[key])]
        keys = [key for key in keys[: self.expert.candidates] if key not in self.beaten]
        if self.expert.turn_now and self.votes:
            keys += [key for key in self.turning_now() if key not in keys]
        if self.every_move and self.votes and (self.every_move is True or self.in_doubt(keys)):
            keys += [key for key in self.move_plans() if key not in keys and key not in self.beaten]
        greedy = {move: at for at, (_score, move) in enumerate(ranked_moves(self.view))}
        return sorted(
            keys,
            key=lambda key: (
                -self.score(key),
                len(self.plans[key].moves),
                -self.votes[key],
                greedy.get(self.plans[key].moves[0], len(greedy)),
            ),
        )

    def in_doubt(self, voted: list[tuple]) -> bool:
        """Are every move's plans made, or the most voted fresh plan not won in every world?"""
        if self.every_plans is not None or not voted:
            return True
        return any(self.outcome(voted[0], index) != WON for index in range(len(self.worlds)))

    def turning_now(self) -> list[tuple]:
        """The keys of the one-move plans that turn a card now (fresh ones only)."""
        world = self.worlds[0].board
        keys = []
        for move in reference.legal_moves(world, self.rules):
            plan = plan_of(world, (move,), self.rules)
            if plan.key[1] is not None and self.first_is_fresh(plan):
                self.plans.setdefault(plan.key, plan)
                keys.append(plan.key)
        return keys

    def move_plans(self) -> list[tuple]:
        """The keys of one plan for every fresh legal move: the move, then (when it turns
        no card) the first plan of a winning line from after it in the first world that has
        one (of the first ``first_worlds``). Made once a decision."""
        if self.every_plans is None:
            self.every_plans = []
            legal = reference.legal_moves(self.worlds[0].board, self.rules)
            for move in self.history.fresh(self.view, legal):
                plan = self.plan_from(move)
                if plan is not None:
                    self.plans.setdefault(plan.key, plan)
                    self.every_plans.append(plan.key)
        return self.every_plans

    def plan_from(self, move: Move) -> Plan | None:
        for world in self.worlds[: self.expert.first_worlds]:
            first = plan_of(world.board, (move,), self.rules)
            if first.key[1] is not None:
                return first
            after = reference.apply_move(world.board, move, self.rules)
            line = solved_world(after, self.rules, self.expert.max_nodes).line
            if line is not None:
                rest = plan_of(after, line, self.rules)
                return Plan((move, *rest.moves), rest.key)
        return None

    def first_is_fresh(self, plan: Plan) -> bool:
        first = plan.moves[0]
        if first not in self.fresh_first:
            self.fresh_first[first] = bool(self.history.fresh(self.view, [first]))
        return self.fresh_first[first]

    def outcome(self, key: tuple, index: int) -> str:
        """Is world ``index`` won after playing plan ``key`` (solved once, then kept)?"""
        if (key, index) not in self.outcomes:
            own = self.own_plans[index]
            if own is not None and own.key == key:
                self.outcomes[key, index] = WON
            else:
                self.outcomes[key, index] = self.solved_after(self.plans[key], self.worlds[index].board)
        return self.outcomes[key, index]

    def solved_after(self, plan: Plan, board: Board) -> str:
        board = reference.replay(board, list(plan.moves), self.rules)
        status = estimated_within(board, self.rules, self.expert.plan_nodes, with_line=False).status
        return WON if status == SOLVED else LOST if status == UNSOLVABLE else UNDECIDED

    def counts(self, key: tuple) -> Counter:
        return Counter(self.outcome(key, index) for index in range(len(self.worlds)))

    def score(self, key: tuple) -> float:
        counts = self.counts(key)
        return counts[WON] + self.expert.unknown_weight * counts[UNDECIDED]

    def clear(self, ranked: list[tuple]) -> bool:
        """Is the leading plan's lead over the second clear (a sign test over the worlds)?"""
        if len(ranked) < 2:
            return True
        best, second = ranked[0], ranked[1]
        return self.differ(best, second) == 0 or self.leads(best, second)

    def differ(self, best: tuple, other: tuple) -> int:
        """In how many worlds the two plans' outcomes differ."""
        worlds = range(len(self.worlds))
        return sum(self.outcome(best, index) != self.outcome(other, index) for index in worlds)

    def leads(self, best: tuple, other: tuple) -> bool:
        """Is ``best``'s lead over ``other`` clear (a sign test over the worlds)?"""
        lead = self.score(best) - self.score(other)
        return lead > 0 and lead >= self.expert.lead_z * math.sqrt(self.differ(best, other))

    def confidence(self, key: tuple | None) -> Confidence:
        if key is None:
            won, lost = 0, sum(world.proved_lost for world in self.worlds)
        else:
            counts = self.counts(key)
            won, lost = counts[WON], counts[LOST]
        return Confidence(won, len(self.worlds), lost, self.exact)

    def chosen(self, key: tuple) -> Choice:
        plan = self.plans[key]
        confidence = self.confidence(key)
        reason = reason_for(self.view, plan.moves[0])
        if len(plan.moves) > 1:
            reason += f"; the first of {len(plan.moves)} moves up to the next card turned"
        return Choice(plan, confidence, reason_with(confidence, reason))

    def no_plan(self) -> Choice:
        """No fresh winning plan: the game is gone, or every move repeats, or the greedy
        player's move is the fallback. Before saying the game is gone, worlds are dealt up
        to ``gone_samples`` while every one is proved lost (a rule set where most dealings
        are lost, Russian, would otherwise give up on winnable deals)."""
        if not self.exact and all(world.proved_lost for world in self.worlds):
            while len(self.worlds) < self.expert.gone_samples and not self.votes:
                self.deal(len(self.worlds) + 1)
            ranked = self.ranked()
            if ranked:
                return self.chosen(ranked[0])
        confidence = self.confidence(None)
        if confidence.all_proved_lost:
            return Choice(None, confidence, gone_reason(self.exact), gone=True)
        legal = reference.legal_moves(self.worlds[0].board, self.rules)
        fresh = self.history.fresh(self.view, [move for _score, move in ranked_moves(self.view)])
        fresh = [move for move in fresh if move in legal]
        if not fresh:
            return Choice(None, None, ONLY_REPEATS if legal else NO_LEGAL_MOVE)
        plan = Plan((fresh[0],), ())
        return Choice(
            plan, confidence, reason_with(confidence, reason_for(self.view, fresh[0])), fallback=True
        )


def hidden_of(board: Board) -> int:
    return sum(board.face_down_counts) + len(board.stock)


def plan_of(board: Board, line: tuple[Move, ...], rules: Rules) -> Plan:
    """The first plan of a winning line: its moves up to the first that shows a hidden card."""
    hidden = hidden_of(board)
    for at, move in enumerate(line):
        after = reference.apply_move(board, move, rules)
        if hidden_of(after) < hidden:
            return Plan(line[: at + 1], (view_of(board, rules), move))
        board = after
    return Plan(line, (view_of(board, rules), None))
