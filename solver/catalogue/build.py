"""Writing a catalogue from rated candidates: checked, deduplicated, append-only."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from solver.catalogue.entries import RatedDeal, entry_key, entry_problem, make_entry
from solver.catalogue.files import catalogue_name, empty_catalogue, read_catalogue, save_catalogue
from solver.catalogue.schedule import EPOCH
from solver.errors import YukonError
from solver.result import TIER_NAMES


@dataclass
class BuildReport:
    """What a build did: the file written, entries added and kept, candidates refused
    (with why) and the solution length of every entry now in the file."""

    path: Path
    added: int = 0
    kept: int = 0
    refused: list[str] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)


def build_catalogue(
    candidates: Iterable[RatedDeal],
    directory: Path,
    variant: str,
    tier: str,
    count: int,
    today: date,
    since: date | None = None,
) -> BuildReport:
    """Grow the ``variant``/``tier`` catalogue in ``directory`` to ``count`` entries from
    ``candidates`` of that variant and tier (others are passed over), then write it and its
    manifest line. Entries already there stay as they are, in place; each new one is checked
    by ``entry_problem`` (a line that does not win on the reference engine is refused).

    New entries join the daily schedule on ``since``: by default the epoch for a new
    catalogue and the day after ``today`` for an extension, which must join after today
    so that no date already served changes."""
    if tier not in TIER_NAMES:
        raise YukonError(f"unknown tier {tier!r} (choose one of {', '.join(TIER_NAMES)})")
    path = directory / catalogue_name(variant, tier)
    catalogue = read_catalogue(path) if path.exists() else empty_catalogue(variant, tier)
    entries = catalogue["entries"]
    since = since or (date.fromordinal(today.toordinal() + 1) if entries else EPOCH)
    if entries and since <= today:
        raise YukonError(f"an extension of {path} must join the schedule after today ({today}), not {since}")
    report = BuildReport(path, kept=len(entries))
    present = {entry_key(entry) for entry in entries}
    pending = iter(candidates)
    while len(entries) < count and (rated := next(pending, None)) is not None:
        if (rated.variant, rated.tier) != (variant, tier) or rated.key in present:
            continue
        entry = make_entry(rated, since)
        problem = entry_problem(entry, variant, tier)
        if problem:
            report.refused.append(f"{rated.numbering} deal {rated.deal}: {problem}")
            continue
        entries.append(entry)
        present.add(rated.key)
        report.added += 1
    if not entries:
        raise YukonError(f"no {variant} {tier} deal among the candidates; {path} not written")
    report.lengths = [entry["length"] for entry in entries]
    save_catalogue(directory, catalogue)
    return report
