"""The public API's catalogue calls (offered by ``solver.api``, README "Python"): where the
shipped catalogues, or a folder of them, hold a deal; a checked catalogue; the daily deal."""

from dataclasses import dataclass
from datetime import date, datetime
from os import PathLike
from pathlib import Path
from typing import Any

from solver.catalogue.checks import checked_entry, checked_file, load_checked
from solver.catalogue.entries import difficulty_of
from solver.catalogue.files import read_manifest, rule_set_name, rule_set_of
from solver.catalogue.schedule import DailyPick, daily_in
from solver.common.formats import DAILY, stamped
from solver.errors import ArgumentError, type_name
from solver.game.numbering import check_deal_number, deal_board
from solver.game.ranges import named_deal
from solver.game.rules import Rules, rules_named
from solver.results.result import TIER_NAMES


@dataclass(frozen=True)
class CatalogueHit:
    """Where a catalogue holds a deal: its difficulty ``tier``, the catalogue file ``path``,
    the ``entry`` (board, solution line, length, difficulty; catalogue/README.md) and the
    ``rule_set`` the file is for (``yukon``, ``yukon-return``, ``yukon-kpat``, ...)."""

    tier: str
    path: Path
    entry: dict[str, Any]
    rule_set: str


def catalogue_folder(directory: str | Path | None) -> Path:
    """``directory``, or the catalogues installed with the package."""
    from solver.catalogue.files import shipped_directory

    if directory is not None and not isinstance(directory, (str, PathLike)):
        raise ArgumentError("directory", f" must be a folder's path, not {type_name(directory)}")
    return Path(directory) if directory else shipped_directory()


def catalogue_hits(
    number: int | str,
    variant: Rules | str = "yukon",
    *,
    numbering: str = "pysol",
    directory: str | Path | None = None,
) -> tuple[CatalogueHit, ...]:
    """Every catalogue of ``variant`` (a name or Rules: either way both rule sets of its
    variant, with and without foundation return, and every numbering; shipped or in
    ``directory``, in manifest order, earlier file generations first) that holds deal
    ``number`` of ``numbering`` (as ``deal`` reads it): an entry whose opening is that deal's,
    so an ``ms`` number below 32,000, PySolFC's own deal, is found in a ``pysol`` catalogue;
    empty when none does (then only ``solve_deal`` can tell whether it is solvable). A deal
    the numbering does not have, a folder that holds no catalogue, a file of the variant that
    ``catalogue verify`` would refuse (its checksum, shape or count) or a hit whose line does
    not replay as a win is a YukonError."""
    name = rules_named(variant).variant
    number, numbering = named_deal(number, numbering)
    check_deal_number(name, number, numbering)
    opening = deal_board(name, number, numbering).to_text()
    folder = catalogue_folder(directory)
    hits = []
    for record in read_manifest(folder)["files"]:
        if record.get("variant") != name:
            continue
        path, catalogue = folder / str(record.get("file")), checked_file(folder, record)
        for entry in catalogue["entries"]:
            if entry.get("board") == opening:
                served = checked_entry(path, catalogue, entry)
                hit = CatalogueHit(record["tier"], path, served, rule_set_name(*rule_set_of(record)))
                hits.append((record.get("generation", 1), hit))
    return tuple(hit for _, hit in sorted(hits, key=lambda found: found[0]))


def check_deal(
    number: int | str,
    variant: Rules | str = "yukon",
    *,
    numbering: str = "pysol",
    directory: str | Path | None = None,
) -> CatalogueHit | None:
    """The first of ``catalogue_hits`` (strict rules before foundation return), or None."""
    hits = catalogue_hits(number, variant, numbering=numbering, directory=directory)
    return hits[0] if hits else None


def rule_set(variant: Rules | str, foundation_return: bool) -> Rules:
    """The rule set a catalogue call names: a Rules as it is, a name with ``foundation_return``."""
    return variant if isinstance(variant, Rules) else Rules(rules_named(variant).variant, foundation_return)


def checked_tier(tier: object) -> str:
    """``tier`` if it names a difficulty tier; ArgumentError listing them else."""
    if tier not in TIER_NAMES:
        raise ArgumentError("tier", f" {tier!r} is not a tier (there are: {', '.join(TIER_NAMES)})")
    return str(tier)


def load_catalogue(
    variant: Rules | str = "yukon",
    tier: str = "easy",
    *,
    directory: str | Path | None = None,
    foundation_return: bool = False,
    numbering: str = "pysol",
) -> dict[str, Any]:
    """The catalogue of a rule set (a Rules, or a variant name and ``foundation_return``) and
    tier (shipped, or in ``directory``) whose checksum matches its manifest: ``format``,
    ``variant``, ``tier`` and its ``entries`` (catalogue/README.md). A rule set without one is
    a YukonError naming those there are."""
    rules = rule_set(variant, foundation_return)
    return load_checked(
        catalogue_folder(directory), rules.variant, checked_tier(tier), rules.foundation_return, numbering
    )


def entries_by_difficulty(catalogue: dict[str, Any]) -> list[dict[str, Any]]:
    """A catalogue's entries easiest first: by ``difficulty`` (the ladder's score), else by
    ``score`` (a file without one), entries of one score in file order. Files keep their
    order (the daily schedule reads it), which is not always this one: a rescored file's
    entries are in the order of its first scores."""
    return sorted(catalogue["entries"], key=difficulty_of)


@dataclass(frozen=True)
class DailyDeal:
    """The deal of the day ``day``: the catalogue ``entry`` (deal, numbering, board text,
    solution line, length, difficulty) and ``pick``, where it sits in the schedule (entry
    index, cycle, day of the cycle, pool size). ``to_json()`` is ``yukon daily --json``'s
    object (``solver/schemas/daily.schema.json``)."""

    day: date
    entry: dict[str, Any]
    pick: DailyPick

    def to_json(self) -> dict[str, Any]:
        """The entry with the date, the catalogue file and the entry's index in it, and the
        format keys."""
        where = {"date": self.day.isoformat(), "file": self.pick.file, "entry_index": self.pick.index}
        return stamped(where | self.entry, DAILY)


def day_named(day: date | str | None) -> date:
    """A day given as a ``date`` or ISO text (``"2026-12-24"``); today (local date) for None."""
    if day is None:
        return date.today()
    if isinstance(day, datetime):
        return day.date()
    if isinstance(day, date):
        return day
    if isinstance(day, str):
        try:
            return date.fromisoformat(day.strip())
        except ValueError:
            raise ArgumentError("day", f" {day!r} is not a date written YYYY-MM-DD") from None
    raise ArgumentError("day", f" must be a date or YYYY-MM-DD text, not {type_name(day)}")


def daily_deal(
    variant: Rules | str = "yukon",
    tier: str = "easy",
    day: date | str | None = None,
    *,
    directory: str | Path | None = None,
    foundation_return: bool = False,
    numbering: str = "pysol",
) -> DailyDeal:
    """The deal of ``day`` (a date or ISO text; default: today, local date) for a rule set (a
    Rules, or a variant name and ``foundation_return``) and ``tier``, by the language-neutral
    schedule of catalogue/README.md."""
    chosen, rules = day_named(day), rule_set(variant, foundation_return)
    folder, tier = catalogue_folder(directory), checked_tier(tier)
    entry, pick = daily_in(folder, rules.variant, tier, chosen, rules.foundation_return, numbering)
    return DailyDeal(chosen, entry, pick)
