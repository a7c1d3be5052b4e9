"""Catalogue files and their manifest: names, reading, writing, checksums.

A directory holds one JSON file per variant and tier (``yukon-easy.json``) and
``manifest.json`` listing each file with its entry count and SHA-256. The schema is in
``catalogue/README.md``.
"""

import hashlib
import json
import os
import signal
import stat
from pathlib import Path

from solver.atomic import replace_file
from solver.catalogue.epochs import SCHEDULE_MANIFEST_VERSION, schedule_json
from solver.errors import YukonError, clipped
from solver.interrupts import StopFlag
from solver.result import TIER_NAMES
from solver.rules import VARIANTS
from solver.version import __version__

FORMAT = "yukon-catalogue"
MANIFEST_FORMAT = "yukon-catalogue-manifest"
FORMAT_VERSION = 1
MANIFEST_NAME = "manifest.json"
# Lines are found without foundation return, so each is legal with the option on or off.
VALID_WITH_FOUNDATION_RETURN = [False, True]
# The largest catalogue or manifest file read (a shipped one of 1,000 entries is 1.2 MB).
MAX_FILE_BYTES = 64 << 20


def shipped_directory() -> Path:
    """The catalogues installed with the package (the top-level folder ``catalogue/``)."""
    return Path(__file__).parent.parent / "catalogue_data"


def catalogue_name(variant: str, tier: str) -> str:
    return f"{variant}-{tier}.json"


def file_bytes(path: Path) -> bytes:
    """The bytes of the regular file ``path`` (at most MAX_FILE_BYTES); YukonError naming it
    when it is missing, unreadable, too large or no regular file (a pipe or a device, which
    would block or never end: it is opened without waiting and never read)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise YukonError(f"{path}: no such file") from None
    except OSError as error:
        raise YukonError(f"{path}: cannot be read ({error.strerror})") from None
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise YukonError(f"{path}: not a regular file")
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise YukonError(f"{path}: larger than {MAX_FILE_BYTES >> 20} MiB, too large for a catalogue")
    return data


def checksum(path: Path) -> str:
    return hashlib.sha256(file_bytes(path)).hexdigest()


def read_json(path: Path) -> dict:
    """A JSON object from ``path``; YukonError naming the file when it is missing or broken."""
    data = file_bytes(path)
    try:
        data = json.loads(data.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise YukonError(f"{path}: not valid JSON (truncated or hand-edited?): {error}") from None
    except (ValueError, RecursionError):
        raise YukonError(f"{path}: not valid JSON (a number too long or nesting too deep)") from None
    if not isinstance(data, dict):
        raise YukonError(f"{path}: not a JSON object")
    return data


def json_bytes(data: dict) -> bytes:
    return (json.dumps(data, indent=1) + "\n").encode("utf-8")


def read_catalogue(path: Path) -> dict:
    """A catalogue file: its format tag and a list of entries, each a JSON object (still to
    be judged by ``entries.entry_problem``)."""
    data = read_json(path)
    if data.get("format") != FORMAT or not isinstance(data.get("entries"), list):
        raise YukonError(f"{path}: not a {FORMAT} file (no format tag or no entries list)")
    objects_only(path, "entry", data["entries"])
    return data


def objects_only(path: Path, what: str, items: list) -> None:
    """YukonError naming the first of ``items`` (entries, records) that is no JSON object."""
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise YukonError(f"{path}: {what} {number} is not a JSON object")


def empty_catalogue(variant: str, tier: str) -> dict:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "variant": variant,
        "tier": tier,
        "entries": [],
    }


def read_manifest(directory: Path) -> dict:
    """The manifest: its format tag and a list of records, each a JSON object."""
    path = directory / MANIFEST_NAME
    data = read_json(path)
    if data.get("format") != MANIFEST_FORMAT or not isinstance(data.get("files"), list):
        raise YukonError(f"{path}: not a {MANIFEST_FORMAT} file")
    objects_only(path, "record", data["files"])
    return data


def record_problem(record: dict) -> str | None:
    """Why a manifest record does not name its own file, or None: it must name exactly the
    file of its variant and tier, in the folder (never a path elsewhere)."""
    variant, tier, name = record.get("variant"), record.get("tier"), record.get("file")
    if variant not in VARIANTS or tier not in TIER_NAMES:
        return f"names no catalogue: variant {clipped(repr(variant), 40)}, tier {clipped(repr(tier), 40)}"
    if name != catalogue_name(variant, tier):
        expected = catalogue_name(variant, tier)
        return f"names file {clipped(repr(name), 80)}, not {expected!r} (its {variant} {tier} file)"
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
    return {
        "file": name,
        "variant": catalogue["variant"],
        "tier": catalogue["tier"],
        "count": len(catalogue["entries"]),
        "valid_with_foundation_return": VALID_WITH_FOUNDATION_RETURN,
        "solver_version": __version__,
        "sha256": sha256,
    }


def save_catalogue(directory: Path, catalogue: dict) -> Path:
    """Write a catalogue file and refresh its line (count, checksum) in the manifest, each
    file whole; a Ctrl-C meanwhile waits until both are written."""
    directory.mkdir(parents=True, exist_ok=True)
    name = catalogue_name(catalogue["variant"], catalogue["tier"])
    data = json_bytes(catalogue)
    manifest = manifest_or_empty(directory)
    others = [record for record in manifest["files"] if record.get("file") != name]
    record = manifest_record(name, catalogue, hashlib.sha256(data).hexdigest())
    manifest["files"] = sorted([*others, record], key=lambda r: str(r.get("file")))
    with StopFlag((signal.SIGINT,), second_raises=False) as ctrl_c:  # the two files change together
        replace_file(directory / name, data)
        replace_file(directory / MANIFEST_NAME, json_bytes(manifest))
    if ctrl_c.requested:
        raise KeyboardInterrupt
    return directory / name


def manifest_line(manifest: dict, name: str) -> dict | None:
    return next((record for record in manifest["files"] if record.get("file") == name), None)


def load_checked(directory: Path, variant: str, tier: str) -> dict:
    """A catalogue whose checksum matches its manifest line: what ``daily`` may serve.
    Anything else is a YukonError in one line."""
    name = catalogue_name(variant, tier)
    manifest = read_manifest(directory)
    record = manifest_line(manifest, name)
    if record is None:
        raise YukonError(f"{directory}: no {variant} {tier} catalogue in {MANIFEST_NAME}")
    if not (directory / name).exists():
        raise YukonError(f"{directory / name}: listed in {MANIFEST_NAME} but missing")
    if checksum(directory / name) != record.get("sha256"):
        raise YukonError(f"{directory / name}: checksum does not match {MANIFEST_NAME}; refusing to serve it")
    catalogue = read_catalogue(directory / name)
    if (catalogue.get("variant"), catalogue.get("tier")) != (variant, tier):
        raise YukonError(f"{directory / name}: does not hold the {variant} {tier} catalogue")
    return catalogue
