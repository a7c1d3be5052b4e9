"""A new generation of a rule set's catalogue files, re-tiered by a finer difficulty model
from the deals its generation 1 files already hold (no deal solved again; every line is
replayed by ``entries.entry_problem`` before it is written, as a build does).

Each generation 1 entry keeps its ladder games (``ladder``: the rungs from greedy up) and
gains the games of the floor rungs (``ladder.FLOOR``, played here: they are cheap); a Rasch
fit of all the rule set's entries with free skills (``rasch.fit_rasch``) gives the rungs'
skills, and each entry's difficulty is then its posterior mode with those skills held, as
``verify`` recomputes it. The tiers are the model's own: two thresholds on the difficulty,
halfway between neighbouring scores, chosen so that each tier holds at least MIN_SCORES
distinct scores and, once no score keeps more than SHARE of its tier (``capped``: the first
deals of a score in deal order are kept), the smallest tier is as large as it can be. Entries
are written easiest first (then by deal), joining the schedule on ``since``.

The generation 1 files and their entries are not touched: a generation is new files
(``files.catalogue_name``'s ``-g<N>``), and the daily schedule moves to them from the epoch
that names their generation (``epochs.SCHEDULE``).
"""

from dataclasses import dataclass
from datetime import date

import numpy as np

from solver.catalogue.entries import entry_problem
from solver.catalogue.files import empty_catalogue
from solver.errors import YukonError
from solver.results.result import TIER_NAMES

MIN_SCORES = 20
SHARE = 0.10
GENERATION = 2


@dataclass(frozen=True)
class Scored:
    """A generation 1 entry with its games on the new ladder and its difficulty there."""

    entry: dict
    results: tuple[tuple[int, int], ...]
    difficulty: float
    standard_error: float


def cap_of(counts: list[int], share: float = SHARE) -> int:
    """The most entries of one score a tier with these ``counts`` per score may keep: the
    largest cap c with c <= share x (entries kept with at most c a score)."""
    low, high = 1, max(counts)
    while low < high:
        middle = (low + high + 1) // 2
        if sum(min(count, middle) for count in counts) * share >= middle:
            low = middle
        else:
            high = middle - 1
    return low


def capped_size(counts: list[int]) -> int:
    cap = cap_of(counts)
    return sum(min(count, cap) for count in counts)


def split(counts: list[int], min_scores: int = MIN_SCORES) -> tuple[int, int] | None:
    """Where to cut the scores (ascending, ``counts`` each) into three tiers: indices (i, j)
    of the first normal and first hard score, each tier with at least ``min_scores`` scores,
    maximising the smallest capped tier; None when no cut gives every tier enough scores."""
    best, chosen = -1, None
    for first_normal in range(min_scores, len(counts) - 2 * min_scores + 1):
        easy = capped_size(counts[:first_normal])
        for first_hard in range(first_normal + min_scores, len(counts) - min_scores + 1):
            smallest = min(
                easy, capped_size(counts[first_normal:first_hard]), capped_size(counts[first_hard:])
            )
            if smallest > best:
                best, chosen = smallest, (first_normal, first_hard)
    return chosen


def free_skills(results: list[tuple[tuple[int, int], ...]]) -> list[float]:
    """The rungs' skills (3 places) fitted with every deal's difficulty free."""
    from solver.player.rasch import fit_rasch

    wins = np.array([[won for won, _games in row] for row in results], dtype=float)
    games = np.array([[played for _won, played in row] for row in results], dtype=float)
    return [round(float(skill), 3) for skill in fit_rasch(wins, games).skill]


def tiers_of(scored: list[Scored]) -> tuple[list[float], dict[str, list[Scored]]]:
    """The thresholds and each tier's entries (capped), easiest first; YukonError when the
    scores cannot make three tiers of MIN_SCORES scores each."""
    scores = sorted({item.difficulty for item in scored})
    by_score = {
        score: sorted((i for i in scored if i.difficulty == score), key=lambda i: i.entry["deal"])
        for score in scores
    }
    cut = split([len(by_score[score]) for score in scores])
    if cut is None:
        raise YukonError(f"{len(scores)} distinct scores: too few for three tiers of {MIN_SCORES}")
    thresholds = [round((scores[at - 1] + scores[at]) / 2, 4) for at in cut]
    tiers = {}
    for tier, (low, high) in zip(TIER_NAMES, [(0, cut[0]), cut, (cut[1], len(scores))]):
        cap = cap_of([len(by_score[score]) for score in scores[low:high]])
        tiers[tier] = [item for score in scores[low:high] for item in by_score[score][:cap]]
    return thresholds, tiers


def new_entry(item: Scored, tier: str, since: date) -> dict:
    """The generation 1 entry re-tiered and rescored, joining the schedule on ``since``."""
    from solver.catalogue.rescore import scored_entry
    from solver.player.difficulty import LadderRating

    rating = LadderRating(item.results, item.difficulty, item.standard_error, tier)
    return scored_entry(item.entry | {"tier": tier, "since": since.isoformat()}, rating)


def generation_files(rule_set: tuple[str, bool, str], scored: list[Scored], rungs, since: date) -> list[dict]:
    """The three catalogues of the new generation of ``rule_set`` (variant, foundation
    return, numbering), every entry checked as ``verify`` checks it."""
    from solver.player.difficulty import stated_model

    skills = free_skills([item.results for item in scored])
    thresholds, tiers = tiers_of(rescored_with(scored, skills))
    model = stated_model(rungs, {"skills": skills, "thresholds": thresholds})
    catalogues = []
    for tier, items in tiers.items():
        catalogue = empty_catalogue(rule_set[0], tier, rule_set[1], rule_set[2], model) | {
            "generation": GENERATION
        }
        catalogue["entries"] = [new_entry(item, tier, since) for item in items]
        for number, entry in enumerate(catalogue["entries"], start=1):
            problem = entry_problem(entry, rule_set[0], tier, model)
            if problem:
                where = f"{rule_set[0]} {tier} generation {GENERATION}: entry {number} (deal {entry['deal']})"
                raise YukonError(f"{where}: {problem}")
        catalogues.append(catalogue)
    return catalogues


def rescored_with(scored: list[Scored], skills: list[float]) -> list[Scored]:
    """``scored`` with each difficulty and its error fitted with ``skills`` held."""
    from solver.player.difficulty import fitted

    return [Scored(item.entry, item.results, *fitted(item.results, skills)) for item in scored]
