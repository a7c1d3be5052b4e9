"""A Rasch (one-parameter item-response) fit of a ladder of players' games: one difficulty
per deal and one skill per player, with P(player j wins deal i) = sigmoid(skill_j -
difficulty_i), on the logit scale (a difficulty one higher divides a player's odds of
winning by e).

Why this model: every ladder player plays deals in the same way (no peeking, many games a
deal), so one number per deal that shifts every player's odds alike is the simplest model
that pools all their games; weak players separate the easy deals, strong ones the hard.

Inputs are two arrays of shape (deals, players): ``wins`` and ``games`` (0 where a player
did not play a deal: its games simply do not count). A deal that no player ever won, or
that every player always won, has no finite maximum-likelihood difficulty, so each
difficulty has a normal prior N(0, PRIOR_SD^2) and each skill a wide one N(0,
SKILL_PRIOR_SD^2): the fit is the posterior mode, found by alternating Newton steps (each
deal's and each player's step is one dimension, so they run as vector operations). A
difficulty's standard error is 1 / sqrt of its Fisher information, prior included, with
the skills held at their estimates (each skill rests on thousands of games, so its own
uncertainty is small beside a deal's).
"""

from dataclasses import dataclass

import numpy as np

PRIOR_SD = 3.0
SKILL_PRIOR_SD = 10.0
MAX_STEP = 1.0  # a Newton step is clipped to this, in logits: the steps stay stable far from the mode
TOLERANCE = 1e-6
MAX_ITERATIONS = 5000


@dataclass(frozen=True)
class RaschFit:
    """``difficulty`` and ``standard_error`` per deal, ``skill`` per player (logits), and
    whether the iterations converged."""

    difficulty: np.ndarray
    standard_error: np.ndarray
    skill: np.ndarray
    converged: bool


def sigmoid(values: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-values))


def win_probability(skill: np.ndarray, difficulty: np.ndarray) -> np.ndarray:
    """P(win) of each player (columns) on each deal (rows)."""
    return sigmoid(skill[None, :] - difficulty[:, None])


def newton_step(gradient: np.ndarray, information: np.ndarray) -> np.ndarray:
    return np.clip(gradient / information, -MAX_STEP, MAX_STEP)


def difficulty_step(wins: np.ndarray, games: np.ndarray, skill: np.ndarray, difficulty: np.ndarray):
    """One Newton step of every deal's difficulty, the skills held."""
    p = win_probability(skill, difficulty)
    gradient = (games * p - wins).sum(axis=1) - difficulty / PRIOR_SD**2
    return newton_step(gradient, (games * p * (1 - p)).sum(axis=1) + 1 / PRIOR_SD**2)


def skill_step(wins: np.ndarray, games: np.ndarray, skill: np.ndarray, difficulty: np.ndarray):
    """One Newton step of every player's skill, the difficulties held."""
    p = win_probability(skill, difficulty)
    gradient = (wins - games * p).sum(axis=0) - skill / SKILL_PRIOR_SD**2
    return newton_step(gradient, (games * p * (1 - p)).sum(axis=0) + 1 / SKILL_PRIOR_SD**2)


def checked(wins, games) -> tuple[np.ndarray, np.ndarray]:
    wins, games = np.asarray(wins, dtype=float), np.asarray(games, dtype=float)
    if wins.shape != games.shape or wins.ndim != 2 or np.any(wins < 0) or np.any(wins > games):
        raise ValueError("wins and games must be arrays of one (deals, players) shape, 0 <= wins <= games")
    return wins, games


def fit_rasch(wins, games, skill=None) -> RaschFit:
    """The posterior-mode difficulties of ``wins`` out of ``games`` (see the module
    docstring), and the skills too unless ``skill`` (one per player) is given and held."""
    wins, games = checked(wins, games)
    free = skill is None
    skill = np.zeros(wins.shape[1]) if free else np.asarray(skill, dtype=float)
    difficulty = np.zeros(wins.shape[0])
    converged = False
    for _ in range(MAX_ITERATIONS):
        step_d = difficulty_step(wins, games, skill, difficulty)
        difficulty = difficulty + step_d
        step_s = skill_step(wins, games, skill, difficulty) if free else np.zeros(0)
        skill = skill + step_s if free else skill
        if max(np.abs(step_d).max(initial=0), np.abs(step_s).max(initial=0)) < TOLERANCE:
            converged = True
            break
    return RaschFit(difficulty, standard_errors(games, skill, difficulty), skill, converged)


def standard_errors(games: np.ndarray, skill: np.ndarray, difficulty: np.ndarray) -> np.ndarray:
    p = win_probability(skill, difficulty)
    information = (games * p * (1 - p)).sum(axis=1) + 1 / PRIOR_SD**2
    return 1 / np.sqrt(information)
