"""Replaying a catalogue directory: the check behind ``yukon catalogue verify``.

Every record of the manifest must name its own rule set's and tier's file in the folder,
once (``files.record_problem``: never a path elsewhere); every file it lists must exist,
match its checksum and count, and hold only valid, distinct entries
(``entries.entry_problem``) of the file's rule set, scored by the file's difficulty model
when it states one; a JSON file the manifest does not list is a problem too.
Each problem is one line naming the file, the entry and the reason.
"""

from dataclasses import dataclass, field
from pathlib import Path

from solver.catalogue.entries import entry_key, entry_problem
from solver.catalogue.files import (
    MANIFEST_NAME,
    checksum,
    name_of,
    read_catalogue,
    read_manifest,
    record_problem,
    rule_set_name,
    rule_set_of,
)
from solver.errors import YukonError, clipped


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
    listed = set()
    for number, record in enumerate(manifest["files"], start=1):
        report.files += 1
        problem = record_problem(record)
        if problem is None and record["file"] in listed:
            problem = f"lists {record['file']} a second time"
        if problem is not None:
            report.problems.append(f"{directory / MANIFEST_NAME}: record {number} {problem}")
            continue
        listed.add(record["file"])
        report.problems += file_problems(directory / record["file"], record, report)
    for path in sorted(directory.glob("*.json")):
        if path.name != MANIFEST_NAME and path.name not in listed:
            report.problems.append(f"{path}: not listed in {MANIFEST_NAME}")
    return report


def file_problems(path: Path, record: dict, report: VerifyReport) -> list[str]:
    if not path.exists():
        return [f"{path}: listed in {MANIFEST_NAME} but missing"]
    try:
        matches = checksum(path) == record.get("sha256")
    except YukonError as error:
        return [str(error)]
    problems = [] if matches else [f"{path}: checksum does not match {MANIFEST_NAME}"]
    try:
        catalogue = read_catalogue(path)
    except YukonError as error:
        return [*problems, str(error)]
    variant, tier = catalogue.get("variant"), catalogue.get("tier")
    if name_of(catalogue) != record.get("file") or rule_set_of(catalogue) != rule_set_of(record):
        problems.append(
            f"{path}: holds {rule_set_name(*rule_set_of(catalogue))} {tier}, {MANIFEST_NAME} says "
            f"{rule_set_name(*rule_set_of(record))} {record.get('tier')}"
        )
    if len(catalogue["entries"]) != record.get("count"):
        problems.append(
            f"{path}: {len(catalogue['entries'])} entries, {MANIFEST_NAME} says {record.get('count')}"
        )
    seen = {}
    for number, entry in enumerate(catalogue["entries"], start=1):
        report.entries += 1
        where = f"{path}: entry {number} (deal {clipped(repr(entry.get('deal')), 40)})"
        problem = entry_problem(entry, str(variant), str(tier), catalogue.get("difficulty_model"))
        if problem is None and rule_set_of(entry) != rule_set_of(catalogue):
            problem = f"entry is of the {rule_set_name(*rule_set_of(entry))} rule set, not its file's"
        if problem is None and entry_key(entry) in seen:
            problem = f"duplicate of entry {seen[entry_key(entry)]}"
        if problem:
            problems.append(f"{where}: {problem}")
        else:
            seen[entry_key(entry)] = number
    return problems
