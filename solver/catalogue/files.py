"""Catalogue files and their manifest: names, reading, writing, checksums.

A directory holds one JSON file per rule set and tier (``yukon-easy.json``,
``milligan-return-hard.json``, ``yukon-kpat-normal.json``) and ``manifest.json`` listing
each file with its rule set, entry count and SHA-256. A file or record without
``foundation_return`` or ``numbering`` (release 0.1.0's) is strict rules, PySolFC numbers.
The schema is in ``catalogue/README.md`` and ``solver/schemas/``.
"""

import hashlib
import json
import os
import signal
import stat
from pathlib import Path

from solver.catalogue.epochs import LEGACY_SCHEDULE, SCHEDULE_MANIFEST_VERSION, read_schedule, schedule_json
from solver.catalogue.shape import shape_problem
from solver.common.atomic import finish_switch, replace_files
from solver.common.interrupts import StopFlag
from solver.errors import YukonError, clipped
from solver.game.numbering import NUMBERINGS
from solver.game.rules import VARIANTS
from solver.results.result import TIER_NAMES
from solver.version import __version__

FORMAT = "yukon-catalogue"
MANIFEST_FORMAT = "yukon-catalogue-manifest"
FORMAT_VERSION = 1
MANIFEST_NAME = "manifest.json"
# The rule set of a file or record that names none (release 0.1.0's).
STRICT, PYSOL = False, "pysol"
# The largest catalogue or manifest file read (a shipped one of 1,000 entries is 1.2 MB).
MAX_FILE_BYTES = 64 << 20


def shipped_directory() -> Path:
    """The shipped catalogues: ``solver/catalogue_data`` in an installed package (the wheel puts
    the top-level folder ``catalogue/`` there), else ``catalogue/`` beside ``solver/`` in a
    checkout (run from source or installed editable)."""
    package = Path(__file__).parent.parent
    installed = package / "catalogue_data"
    return installed if installed.is_dir() else package.parent / "catalogue"


def rule_set_name(variant: str, foundation_return: bool = STRICT, numbering: str = PYSOL) -> str:
    """``yukon``, ``yukon-return``, ``yukon-kpat``, ``yukon-return-kpat``."""
    return (
        variant + ("-return" if foundation_return else "") + ("" if numbering == PYSOL else f"-{numbering}")
    )


def catalogue_name(
    variant: str, tier: str, foundation_return: bool = STRICT, numbering: str = PYSOL, generation: int = 1
) -> str:
    """``yukon-easy.json``; a file of a later generation (``generation``) adds ``-g<N>``."""
    suffix = f"-g{generation}" if generation != 1 else ""
    return f"{rule_set_name(variant, foundation_return, numbering)}-{tier}{suffix}.json"


def rule_set_of(data: dict) -> tuple:
    """(variant, foundation_return, numbering) of a catalogue or manifest record."""
    return data.get("variant"), data.get("foundation_return", STRICT), data.get("numbering", PYSOL)


def name_of(data: dict) -> str:
    """The file name a catalogue or manifest record's variant, tier and rule set give."""
    variant, foundation_return, numbering = rule_set_of(data)
    return catalogue_name(variant, data.get("tier"), foundation_return, numbering, data.get("generation", 1))


def valid_with_foundation_return(foundation_return: bool) -> list[bool]:
    """A line found without foundation return is legal with the option on or off; one
    found with it may return a card."""
    return [True] if foundation_return else [False, True]


def file_bytes(path: Path) -> bytes:
    """The bytes of the regular file ``path`` (at most MAX_FILE_BYTES); YukonError naming it
    when it is missing, unreadable, too large, a symbolic link (a catalogue file lies in its
    folder) or no regular file (a pipe or a device, which would block or never end: it is
    opened without waiting and never read)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    if path.is_symlink():
        raise YukonError(f"{path}: a symbolic link, not a file of the folder")
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise YukonError(f"{path}: no such file") from None
    except OSError as error:
        raise YukonError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise YukonError(f"{path}: not a regular file")
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise YukonError(f"{path}: cannot be read ({error.strerror})") from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_FILE_BYTES:
        raise YukonError(f"{path}: larger than {MAX_FILE_BYTES >> 20} MiB, too large for a catalogue")
    return data


def checksum(path: Path) -> str:
    return hashlib.sha256(file_bytes(path)).hexdigest()


def no_constant(name: str):
    raise ValueError(f"{name} is no JSON number")


def parsed_json(data: bytes, path: Path) -> dict:
    """A JSON object from the bytes of file ``path`` (UTF-8, a byte-order mark dropped as a
    Windows editor writes one); YukonError naming the file when they are not one (NaN and
    Infinity, which JSON does not have, included)."""
    try:
        data = json.loads(data.decode("utf-8-sig"), parse_constant=no_constant)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise YukonError(f"{path}: not valid JSON (truncated or hand-edited?): {error}") from None
    except ValueError as error:  # no_constant's, or a number of more digits than Python reads
        reason = str(error) if "JSON number" in str(error) else "a number too long"
        raise YukonError(f"{path}: not valid JSON ({reason})") from None
    except RecursionError:
        raise YukonError(f"{path}: not valid JSON (nesting too deep)") from None
    if not isinstance(data, dict):
        raise YukonError(f"{path}: not a JSON object")
    return data


def read_json(path: Path) -> dict:
    """A JSON object from ``path``; YukonError naming the file when it is missing or broken."""
    return parsed_json(file_bytes(path), path)


def json_bytes(data: dict) -> bytes:
    return (json.dumps(data, indent=1) + "\n").encode("utf-8")


def read_catalogue(path: Path, data: bytes | None = None) -> dict:
    """A catalogue file (from ``data``, its bytes, when given): its shape is the one
    ``catalogue.schema.json`` gives (its entries still to be replayed by
    ``entries.entry_problem``)."""
    catalogue = parsed_json(file_bytes(path) if data is None else data, path)
    if catalogue.get("format") != FORMAT or not isinstance(catalogue.get("entries"), list):
        raise YukonError(f"{path}: not a {FORMAT} file (no format tag or no entries list)")
    objects_only(path, "entry", catalogue["entries"])
    problem = shape_problem(catalogue, "catalogue")
    if problem:
        raise YukonError(f"{path}: {problem}")
    return catalogue


def objects_only(path: Path, what: str, items: list) -> None:
    """YukonError naming the first of ``items`` (entries, records) that is no JSON object."""
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise YukonError(f"{path}: {what} {number} is not a JSON object")


def empty_catalogue(
    variant: str,
    tier: str,
    foundation_return: bool = STRICT,
    numbering: str = PYSOL,
    model: dict | None = None,
) -> dict:
    """A new catalogue file: its rule set, and the difficulty ``model`` its entries' scores
    come from (``solver.player.difficulty.model_header``) when given."""
    rule_set = {"foundation_return": foundation_return, "numbering": numbering}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "variant": variant,
        "tier": tier,
        **rule_set,
        **({"difficulty_model": model} if model else {}),
        "entries": [],
    }


def read_manifest(directory: Path) -> dict:
    """The manifest, once a write a kill interrupted is completed (``atomic.finish_switch``):
    its shape is the one ``manifest.schema.json`` gives, and its schedule one
    ``epochs.read_schedule`` reads, starting with the first epoch (no date served changes)."""
    path = directory / MANIFEST_NAME
    try:
        finish_switch(directory)
    except OSError as error:
        raise YukonError(
            f"{directory}: a catalogue write was interrupted and cannot be completed ({error.strerror})"
        ) from None
    data = read_json(path)
    if data.get("format") != MANIFEST_FORMAT or not isinstance(data.get("files"), list):
        raise YukonError(f"{path}: not a {MANIFEST_FORMAT} file")
    objects_only(path, "record", data["files"])
    schedule = read_schedule(data, str(path))
    problem = shape_problem(data, "manifest")
    if problem:
        raise YukonError(f"{path}: {problem}")
    if schedule[0] != LEGACY_SCHEDULE[0]:
        raise YukonError(f"{path}: the schedule does not start with {schedule_json(LEGACY_SCHEDULE)[0]}")
    return data


def record_problem(record: dict) -> str | None:
    """Why a manifest record does not name its own file, or None: it must name exactly the
    file of its variant, rule set and tier, in the folder (never a path elsewhere)."""
    variant, foundation_return, numbering = rule_set_of(record)
    tier, name = record.get("tier"), record.get("file")
    if variant not in VARIANTS or tier not in TIER_NAMES:
        return f"names no catalogue: variant {clipped(repr(variant), 40)}, tier {clipped(repr(tier), 40)}"
    generation = record.get("generation", 1)
    if type(generation) is not int or generation < 1:
        return f"names no generation: {clipped(repr(generation), 40)} (a whole number >= 1)"
    if not isinstance(foundation_return, bool) or numbering not in NUMBERINGS:
        shown = clipped(repr(foundation_return), 40), clipped(repr(numbering), 40)
        return f"names no rule set: foundation_return {shown[0]}, numbering {shown[1]}"
    if name != name_of(record):
        return f"names file {clipped(repr(name), 80)}, not {name_of(record)!r} (its {variant} {tier} file)"
    return None


def manifest_or_empty(directory: Path) -> dict:
    """The folder's manifest, or a new one with no file and the current daily schedule."""
    if (directory / MANIFEST_NAME).exists():
        return read_manifest(directory)
    return {
        "format": MANIFEST_FORMAT,
        "format_version": SCHEDULE_MANIFEST_VERSION,
        "files": [],
        "schedule": schedule_json(),
    }


def manifest_record(name: str, catalogue: dict, sha256: str) -> dict:
    """The manifest's line for one catalogue file, as written now (``sha256``: its checksum)."""
    _variant, foundation_return, numbering = rule_set_of(catalogue)
    generation = {"generation": catalogue["generation"]} if "generation" in catalogue else {}
    return {
        "file": name,
        "variant": catalogue["variant"],
        "tier": catalogue["tier"],
        "foundation_return": foundation_return,
        "numbering": numbering,
        "count": len(catalogue["entries"]),
        "valid_with_foundation_return": valid_with_foundation_return(foundation_return),
        "solver_version": __version__,
        "sha256": sha256,
    } | generation


def save_catalogue(directory: Path, catalogue: dict) -> Path:
    """Write a catalogue file and refresh its line (count, checksum) in the manifest: the two
    change together or not at all (``atomic.replace_files``), and a Ctrl-C meanwhile waits
    until both are written."""
    directory.mkdir(parents=True, exist_ok=True)
    name = name_of(catalogue)
    data = json_bytes(catalogue)
    manifest = manifest_or_empty(directory)
    others = [record for record in manifest["files"] if record.get("file") != name]
    record = manifest_record(name, catalogue, hashlib.sha256(data).hexdigest())
    manifest["files"] = sorted([*others, record], key=lambda r: str(r.get("file")))
    with StopFlag((signal.SIGINT,), second_raises=False) as ctrl_c:
        replace_files(directory, {name: data, MANIFEST_NAME: json_bytes(manifest)})
    if ctrl_c.requested:
        raise KeyboardInterrupt
    return directory / name


def manifest_line(manifest: dict, name: str) -> dict | None:
    return next((record for record in manifest["files"] if record.get("file") == name), None)
