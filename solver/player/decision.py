"""A policy's decision: the move, how sure it is, and a reason a person can read."""

from dataclasses import dataclass
from typing import Any

from solver.common.stats import wilson_interval
from solver.game.explain import move_sentence
from solver.game.reference import Move
from solver.player.view import View

# The most worlds a decision may deal (``--samples``): about a minute of a hint at the
# default node budget; more would run on for minutes with nothing to show for it.
MAX_SAMPLES = 1000
NO_LEGAL_MOVE = "no legal move remains"
ONLY_REPEATS = "every legal move undoes the last move or returns to a position already seen"
ONLY_REPEATS_WORTH_PLAYING = (
    "every move worth playing undoes the last move or returns to a position already seen"
)


@dataclass(frozen=True)
class Confidence:
    """Of ``samples`` sampled worlds (deals of the unseen cards) after a move, ``won`` were
    won by the solver within its budget and ``proved_lost`` proved lost; the rest are
    undecided. Two decisions drawn from the same samples are not independent, and the move
    was picked for its wins, so the interval is the binomial one of these samples only:
    how well it matches the truth is measured by ``benchmarks/bench_confidence.py``.
    ``exact``: nothing is hidden, so the one world is the position itself (no sample)."""

    won: int
    samples: int
    proved_lost: int
    exact: bool = False

    @property
    def fraction(self) -> float:
        return self.won / self.samples

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the share of worlds won."""
        return wilson_interval(self.won, self.samples)

    @property
    def all_proved_lost(self) -> bool:
        return self.proved_lost == self.samples

    def text(self) -> str:
        """e.g. ``14 of 16 samples won (95% interval 64%-97%)``."""
        if self.exact:
            verdict = "won" if self.won else "proved lost" if self.proved_lost else "not decided"
            return f"nothing is hidden: {verdict} by the solver within its budget"
        low, high = self.interval
        words = f"{self.won} of {self.samples} samples won (95% interval {low:.0%}-{high:.0%})"
        if self.all_proved_lost:
            words += "; the solver proved every sampled world lost"
        return words

    def as_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "won": self.won,
            "samples": self.samples,
            "proved_lost": self.proved_lost,
            "exact": self.exact,
            "fraction": self.fraction,
            "low": low,
            "high": high,
        }


@dataclass(frozen=True)
class Decision:
    """``move`` is None when the policy plays none (no legal move, none worth playing, or
    every one returns to a position already seen, or ``gone``: every sampled world is proved
    lost). ``confidence`` counts the sampled worlds won after the move (None for a policy
    that does not estimate it)."""

    move: Move | None
    confidence: Confidence | None
    reason: str
    gone: bool = False


def reason_for(view: View, move: Move) -> str:
    """What the move does, in words, from what the view shows (a card it turns is unknown)."""
    return move_sentence(view.face_up, view.face_down_counts, view.stock_size, move)
