"""Replaying a catalogue directory: the check behind ``yukon catalogue verify``.

The manifest must have its schema's shape and a schedule (``files.read_manifest``); every
record must name its own rule set's and tier's file in the folder, once
(``files.record_problem``: never a path elsewhere); every file it lists must pass
``checks.file_problems`` with every entry replayed, the check every reader of a catalogue
makes; a deal in two files of one rule set (and generation) is a problem, and so is a JSON
file the manifest does not list.
Each problem is one line naming the file, the entry and the reason.
"""

from dataclasses import dataclass, field
from pathlib import Path

from solver.catalogue.checks import file_problems, record_refusal
from solver.catalogue.entries import entry_key
from solver.catalogue.files import MANIFEST_NAME, read_manifest, rule_set_of
from solver.errors import YukonError


@dataclass
class VerifyReport:
    files: int = 0
    entries: int = 0
    problems: list[str] = field(default_factory=list)


def verify_directory(directory: Path) -> VerifyReport:
    report = VerifyReport()
    try:
        manifest = read_manifest(directory)
    except YukonError as error:
        report.problems.append(str(error))
        return report
    listed, placed = set(), {}
    for number, record in enumerate(manifest["files"], start=1):
        report.files += 1
        problem = record_refusal(record)
        if problem is None and record["file"] in listed:
            problem = f"lists {record['file']} a second time"
        if problem is not None:
            report.problems.append(f"{directory / MANIFEST_NAME}: record {number} {problem}")
            continue
        listed.add(record["file"])
        catalogue, problems = file_problems(directory, record, replay=True)
        report.entries += len(catalogue["entries"]) if catalogue else 0
        report.problems += problems + tier_clashes(directory / record["file"], record, catalogue, placed)
    for path in sorted(directory.glob("*.json")):
        if path.name != MANIFEST_NAME and path.name not in listed:
            report.problems.append(f"{path}: not listed in {MANIFEST_NAME}")
    return report


def tier_clashes(path: Path, record: dict, catalogue: dict | None, placed: dict) -> list[str]:
    """A deal a file shares with another file of its rule set and generation (``placed``:
    the files read so far, by rule set, generation and deal): a deal has one tier."""
    problems = []
    shelf = (*rule_set_of(record), record.get("generation", 1))
    for number, entry in enumerate(catalogue["entries"] if catalogue else (), start=1):
        other = placed.setdefault((*shelf, entry_key(entry)), path.name)
        if other != path.name:
            problems.append(f"{path}: entry {number} (deal {entry.get('deal')!r}): also in {other}")
    return problems
