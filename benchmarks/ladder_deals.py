"""Which deals ``bench_ladder.py`` plays and fits: a rule set's solved deals from a results
store or from the win-rate study's compact table, and the entries of its shipped catalogue
files (whose ``ladder`` games seed the ladder file, so their first rungs are not played again).
"""

from pathlib import Path

from solver.catalogue.candidates import solved_records
from solver.catalogue.files import catalogue_name, read_catalogue
from solver.catalogue.ladder_games import LadderGames
from solver.game.rules import Rules
from solver.results.result import SOLVED, TIER_NAMES
from study.tables import RESULTS, read_table


def solved_deals(store: Path | None, study: str | None) -> list[int]:
    """The solved deals, in deal order, of a results store or of the study's table ``study``."""
    if store is not None:
        return [record.deal for record in solved_records(store, None)]
    if study is not None:
        return [row[0] for row in read_table(RESULTS, study).rows if row[1] == SOLVED]
    return []


def catalogue_files(directory: Path, rules: Rules, numbering: str) -> dict[str, dict]:
    """The rule set's catalogue files in ``directory``, by file name (a tier without one: none)."""
    names = [catalogue_name(rules.variant, tier, rules.foundation_return, numbering) for tier in TIER_NAMES]
    return {name: read_catalogue(directory / name) for name in names if (directory / name).exists()}


def rung_names(catalogue: dict) -> list[str]:
    """The rungs a file's entries' ``ladder`` games are of (none without a difficulty model)."""
    return [rung["name"] for rung in catalogue.get("difficulty_model", {}).get("rungs", [])]


def seeded(games: LadderGames, catalogues: dict[str, dict]) -> int:
    """Learn every catalogue entry's ladder games; how many deals that added or lengthened."""
    return sum(
        games.take_from(catalogue["entries"], rung_names(catalogue)) for catalogue in catalogues.values()
    )


def entry_deals(catalogues: dict[str, dict]) -> list[int]:
    return sorted({entry["deal"] for catalogue in catalogues.values() for entry in catalogue["entries"]})
