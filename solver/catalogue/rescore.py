"""Rescoring a shipped catalogue file with a refined difficulty model: each entry's
``difficulty``, ``difficulty_se`` and ``ladder`` are rewritten from its ladder games, and the
file states the new ``difficulty_model``; nothing else changes. Entries keep their place and
their tier (the daily schedule reads only the order, ``since`` and the deal numbers), so a
rescoring that would move any entry to another tier is refused whole.
"""

from collections.abc import Callable
from pathlib import Path

from solver.catalogue.entries import LADDER_FIELDS
from solver.catalogue.files import read_catalogue, save_catalogue
from solver.errors import YukonError


def scored_entry(entry: dict, rating) -> dict:
    """``entry`` with the ladder keys of ``rating`` (a ``LadderRating``), placed after ``tier``."""
    scores = {
        "difficulty": rating.difficulty,
        "difficulty_se": rating.standard_error,
        "ladder": [list(pair) for pair in rating.results],
    }
    kept = [(key, value) for key, value in entry.items() if key not in LADDER_FIELDS]
    at = next(index for index, (key, _value) in enumerate(kept) if key == "tier") + 1
    return dict(kept[:at]) | scores | dict(kept[at:])


def rescored(catalogue: dict, model: dict, games_of: Callable[[dict], tuple]) -> dict:
    """``catalogue`` scored by ``model`` (a ``difficulty_model``), ``games_of(entry)`` giving
    each entry's ladder games; YukonError naming the first entry whose tier would change."""
    from solver.player.difficulty import ladder_rating  # here: reading a catalogue loads no numba

    entries = []
    for number, entry in enumerate(catalogue["entries"], start=1):
        rating = ladder_rating(games_of(entry), model, entry.get("score"))
        if rating.tier != entry["tier"]:
            raise YukonError(
                f"{catalogue['variant']} {catalogue['tier']}: entry {number} (deal {entry['deal']}) "
                f"would move to {rating.tier} (difficulty {rating.difficulty}); nothing rescored"
            )
        entries.append(scored_entry(entry, rating))
    header = {key: value for key, value in catalogue.items() if key not in ("difficulty_model", "entries")}
    return header | {"difficulty_model": model, "entries": entries}


def rescore_file(path: Path, model: dict, games_of: Callable[[dict], tuple]) -> int:
    """Rescore the catalogue at ``path`` (``rescored``) and save it with its manifest line;
    the number of entries whose difficulty changed."""
    catalogue = read_catalogue(path)
    new = rescored(catalogue, model, games_of)
    save_catalogue(path.parent, new)
    return sum(
        old.get("difficulty") != entry["difficulty"]
        for old, entry in zip(catalogue["entries"], new["entries"])
    )
