"""The public API's catalogue calls (offered by ``solver.api``, README "Python"): where the
shipped catalogues, or a folder of them, hold a deal; a checked catalogue; the daily deal."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.catalogue.checks import checked_entry, checked_file, load_checked
from solver.catalogue.entries import difficulty_of
from solver.catalogue.files import read_manifest, rule_set_name, rule_set_of
from solver.catalogue.schedule import DailyPick, daily_in
from solver.common.formats import DAILY, stamped
from solver.errors import ArgumentError, type_name
from solver.game.numbering import check_deal_number, deal_board
from solver.game.ranges import named_deal
from solver.game.rules import Rules, rules_named
from solver.results.limits import Limits
from solver.results.result import TIER_NAMES

if TYPE_CHECKING:  # the build loads the solver and the player: imported when a build starts
    from solver.catalogue.build import BuildReport
    from solver.catalogue.candidates import Shortener
    from solver.catalogue.verify import VerifyReport as CatalogueReport
    from solver.game.ranges import DealRange


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


@dataclass(frozen=True)
class TierBuild:
    """What ``build_catalogues`` did to one tier: the ``rule_set`` (``yukon-return``), the
    ``tier``, the results ``store`` its deals came from and the ``report`` (a
    ``BuildReport``: the file, entries kept and added, refusals, solution lengths)."""

    rule_set: str
    tier: str
    store: Path
    report: "BuildReport"


def build_catalogues(
    rules: Rules,
    directory: str | Path,
    *,
    numbering: str = "pysol",
    tiers: Sequence[str] = TIER_NAMES[:1],
    count: int = 1000,
    store: str | Path | None = None,
    ladder: str | Path | None = None,
    deals: "DealRange | None" = None,
    since: date | None = None,
    limits: Limits,
    jobs: int | None = None,
    minimal_seconds: float = 1.0,
    on_tier: Callable[[TierBuild], object] | None = None,
) -> "Shortener":
    """Grow the catalogues of ``rules`` and ``tiers`` in ``directory`` to ``count`` entries
    each, keeping what is there (``yukon catalogue build``): from the solved deals of the
    results ``store`` of that rule set (default ``runs/RULESET.db``; ``deals``: only these,
    those it has not decided solved first within ``limits`` on ``jobs`` processes), scored
    by the difficulty ladder where it is calibrated (its games read and grown in ``ladder``,
    default ``runs/RULESET.ladder.jsonl``), else rated by the greedy player; each line
    shortened by ``minimal_seconds`` of IDA*. New entries join the schedule on ``since``.
    ``on_tier`` is called as each tier is written; the Shortener returned counts the lines
    it shortened."""
    from solver.catalogue.build import Shelf, build_catalogue
    from solver.catalogue.candidates import (
        Shortener,
        check_store,
        solve_missing,
        solved_records,
        tier_candidates,
    )
    from solver.catalogue.ladder_games import LadderGames
    from solver.player.difficulty import LADDER_CALIBRATION, model_header

    name = rule_set_name(rules.variant, rules.foundation_return, numbering)
    store = Path(store or f"runs/{name}.db")
    if deals is not None:
        solve_missing(store, rules, numbering, deals, limits.time_limit, jobs)
    check_store(store, rules, numbering)
    calibrated = rules.label() in LADDER_CALIBRATION
    games = LadderGames(Path(ladder or f"runs/{name}.ladder.jsonl"), rules, numbering) if calibrated else None
    model = model_header(rules.label()) if calibrated else None
    folder, shortener, today = catalogue_folder(directory), Shortener(minimal_seconds), date.today()
    wanted = dict.fromkeys(tiers, count)
    candidates = tier_candidates(solved_records(store, deals), rules, numbering, wanted, shortener, games)
    for tier in tiers:
        shelf = Shelf(rules.variant, tier, rules.foundation_return, numbering, model)
        report = build_catalogue(candidates, folder, shelf, count, today, since)
        if on_tier is not None:
            on_tier(TierBuild(name, tier, store, report))
    return shortener


def verify_catalogues(directory: str | Path | None = None) -> "CatalogueReport":
    """Replay every line of every catalogue in ``directory`` (default: the shipped ones) and
    check each board is the deal it names, the checksums and counts (``yukon catalogue
    verify``): a report of ``files``, ``entries`` and ``problems`` (one line each)."""
    from solver.catalogue.verify import verify_directory

    return verify_directory(catalogue_folder(directory))
