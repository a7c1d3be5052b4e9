"""The one judge of a catalogue file as it is read, by every reader: ``daily``, ``check``
(``api.catalogue_hits``), ``catalogue build`` (the file it extends) and ``catalogue verify``.

A file is used only when its manifest record names it (``files.record_problem``), it is a
regular file of the folder (no symbolic link), its bytes match the record's SHA-256, its
header has the schema's shape (``files.read_catalogue``) and is the record's rule set and
tier, its entry count is the record's, it has entries and no deal twice. An entry is used
only once it fits the schema and is replayed (``entries.entry_problem``): ``verify`` and
``build`` judge every entry and recompute its difficulty by the file's model, ``daily`` and
``check`` the entries they serve (board and line: what says the deal is solvable).
"""

import hashlib
from pathlib import Path

from solver.catalogue.entries import entry_key, entry_problem
from solver.catalogue.files import (
    MANIFEST_NAME,
    file_bytes,
    manifest_line,
    name_of,
    read_catalogue,
    read_manifest,
    record_problem,
    rule_set_name,
    rule_set_of,
)
from solver.catalogue.shape import entry_shape_problem, record_shape_problem
from solver.errors import YukonError, clipped


def file_problems(directory: Path, record: dict, replay: bool) -> tuple[dict | None, list[str]]:
    """The catalogue file a manifest ``record`` names (None when it cannot be read) and every
    problem of it, each one line naming the file (and the entry); with ``replay``, every
    entry is replayed too."""
    path = directory / str(record.get("file"))
    if not path.exists() and not path.is_symlink():
        return None, [f"{path}: listed in {MANIFEST_NAME} but missing"]
    try:
        data = file_bytes(path)
    except YukonError as error:
        return None, [str(error)]
    matches = hashlib.sha256(data).hexdigest() == record.get("sha256")
    problems = [] if matches else [f"{path}: checksum does not match {MANIFEST_NAME}"]
    try:
        catalogue = read_catalogue(path, data)
    except YukonError as error:
        return None, [*problems, str(error)]
    problems += header_problems(path, catalogue, record)
    problems += entries_problems(path, catalogue, replay)
    return catalogue, problems


def header_problems(path: Path, catalogue: dict, record: dict) -> list[str]:
    """The file's rule set, tier and count against its manifest record; a file of no entries."""
    problems = []
    if name_of(catalogue) != record.get("file") or rule_set_of(catalogue) != rule_set_of(record):
        problems.append(
            f"{path}: holds {rule_set_name(*rule_set_of(catalogue))} {catalogue.get('tier')}, "
            f"{MANIFEST_NAME} says {rule_set_name(*rule_set_of(record))} {record.get('tier')}"
        )
    if len(catalogue["entries"]) != record.get("count"):
        problems.append(
            f"{path}: {len(catalogue['entries'])} entries, {MANIFEST_NAME} says {record.get('count')}"
        )
    if not catalogue["entries"]:
        problems.append(f"{path}: holds no entries")
    return problems


def entries_problems(path: Path, catalogue: dict, replay: bool) -> list[str]:
    """Deals that come twice, and (with ``replay``) every entry ``entry_refusal`` refuses;
    without, the entries are judged as they are served (``checked_entry``): the schema of
    9,000 entries, read by ``check``, would cost half a second of CPU."""
    problems, seen = [], {}
    for number, entry in enumerate(catalogue["entries"], start=1):
        problem = entry_refusal(catalogue, entry) if replay else None
        if problem is None and entry_key(entry) in seen:
            problem = f"duplicate of entry {seen[entry_key(entry)]}"
        if problem:
            problems.append(f"{entry_place(path, number, entry)}: {problem}")
        else:
            seen[entry_key(entry)] = number
    return problems


def entry_place(path: Path, number: int, entry: dict) -> str:
    return f"{path}: entry {number} (deal {clipped(repr(entry.get('deal')), 40)})"


def entry_refusal(catalogue: dict, entry: dict, scored: bool = True) -> str | None:
    """Why ``entry`` of ``catalogue`` is not one it may hold, replayed, or None; with
    ``scored``, its difficulty recomputed by the file's model too (that loads the player,
    and numba: what is served is checked without it)."""
    variant, tier = str(catalogue.get("variant")), str(catalogue.get("tier"))
    model = catalogue.get("difficulty_model") if scored else None
    problem = entry_problem(entry, variant, tier, model)
    problem = problem or entry_shape_problem(entry)
    if problem is None and rule_set_of(entry) != rule_set_of(catalogue):
        problem = f"entry is of the {rule_set_name(*rule_set_of(entry))} rule set, not its file's"
    return problem


def checked_entry(path: Path, catalogue: dict, entry: dict) -> dict:
    """``entry`` of the catalogue at ``path``, replayed; YukonError when it may not be served."""
    problem = entry_refusal(catalogue, entry, scored=False)
    if problem:
        number = catalogue["entries"].index(entry) + 1
        raise YukonError(f"{entry_place(path, number, entry)}: {problem}; refusing to serve it")
    return entry


def record_refusal(record: dict) -> str | None:
    """Why a manifest record may not be used: it names another file (``files.record_problem``)
    or does not fit the schema."""
    shape = record_shape_problem(record)
    return record_problem(record) or (f"does not fit the schema: {shape}" if shape else None)


def checked_file(directory: Path, record: dict, replay: bool = False) -> dict:
    """The catalogue file of a manifest ``record``, with no problem (``file_problems``);
    YukonError naming the first one."""
    problem = record_refusal(record)
    if problem:
        raise YukonError(f"{directory / MANIFEST_NAME}: a record {problem}")
    catalogue, problems = file_problems(directory, record, replay)
    if problems:
        raise YukonError(f"{problems[0]}; refusing to serve it")
    return catalogue


def load_checked(
    directory: Path,
    variant: str,
    tier: str,
    foundation_return: bool = False,
    numbering: str = "pysol",
    generation: int = 1,
) -> dict:
    """The catalogue of a rule set, tier (and file ``generation``, where the manifest has
    generations) that ``checked_file`` passes: what ``daily`` may serve from. Anything else is
    a YukonError in one line (a rule set without one names those there are)."""
    shelf = {"variant": variant, "tier": tier, "foundation_return": foundation_return, "numbering": numbering}
    name = name_of(shelf | ({"generation": generation} if generation != 1 else {}))
    manifest = read_manifest(directory)
    record = manifest_line(manifest, name)
    if record is None:
        shipped = sorted(
            {rule_set_name(*rule_set_of(line)) for line in manifest["files"] if line.get("tier") == tier}
        )
        raise YukonError(
            f"{directory}: no {rule_set_name(variant, foundation_return, numbering)} {tier} catalogue in "
            f"{MANIFEST_NAME} (there are: {', '.join(shipped) or 'none'})"
        )
    return checked_file(directory, record)
