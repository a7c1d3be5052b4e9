"""Catalogue files and their manifest: names, reading, writing, checksums.

A directory holds one JSON file per variant and tier (``yukon-easy.json``) and
``manifest.json`` listing each file with its entry count and SHA-256. The schema is in
``catalogue/README.md``.
"""

import hashlib
import json
from pathlib import Path

import solver
from solver.errors import YukonError

FORMAT = "yukon-catalogue"
MANIFEST_FORMAT = "yukon-catalogue-manifest"
FORMAT_VERSION = 1
MANIFEST_NAME = "manifest.json"
# Lines are found without foundation return, so each is legal with the option on or off.
VALID_WITH_FOUNDATION_RETURN = [False, True]


def shipped_directory() -> Path:
    """The catalogues installed with the package (the top-level folder ``catalogue/``)."""
    return Path(solver.__file__).parent / "catalogue_data"


def catalogue_name(variant: str, tier: str) -> str:
    return f"{variant}-{tier}.json"


def checksum(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_json(path: Path) -> dict:
    """A JSON object from ``path``; YukonError naming the file when it is missing or broken."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise YukonError(f"{path}: no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise YukonError(f"{path}: not valid JSON (truncated or hand-edited?): {error}") from None
    if not isinstance(data, dict):
        raise YukonError(f"{path}: not a JSON object")
    return data


def write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def read_catalogue(path: Path) -> dict:
    data = read_json(path)
    if data.get("format") != FORMAT or not isinstance(data.get("entries"), list):
        raise YukonError(f"{path}: not a {FORMAT} file (no format tag or no entries list)")
    return data


def empty_catalogue(variant: str, tier: str) -> dict:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "variant": variant,
        "tier": tier,
        "entries": [],
    }


def read_manifest(directory: Path) -> dict:
    data = read_json(directory / MANIFEST_NAME)
    if data.get("format") != MANIFEST_FORMAT or not isinstance(data.get("files"), list):
        raise YukonError(f"{directory / MANIFEST_NAME}: not a {MANIFEST_FORMAT} file")
    return data


def manifest_or_empty(directory: Path) -> dict:
    if (directory / MANIFEST_NAME).exists():
        return read_manifest(directory)
    return {"format": MANIFEST_FORMAT, "format_version": FORMAT_VERSION, "files": []}


def manifest_record(directory: Path, name: str, catalogue: dict) -> dict:
    """The manifest's line for one catalogue file, as written now."""
    return {
        "file": name,
        "variant": catalogue["variant"],
        "tier": catalogue["tier"],
        "count": len(catalogue["entries"]),
        "valid_with_foundation_return": VALID_WITH_FOUNDATION_RETURN,
        "solver_version": solver.__version__,
        "sha256": checksum(directory / name),
    }


def save_catalogue(directory: Path, catalogue: dict) -> Path:
    """Write a catalogue file and refresh its line (count, checksum) in the manifest."""
    directory.mkdir(parents=True, exist_ok=True)
    name = catalogue_name(catalogue["variant"], catalogue["tier"])
    write_json(directory / name, catalogue)
    manifest = manifest_or_empty(directory)
    others = [record for record in manifest["files"] if record.get("file") != name]
    manifest["files"] = sorted(
        [*others, manifest_record(directory, name, catalogue)], key=lambda r: r["file"]
    )
    write_json(directory / MANIFEST_NAME, manifest)
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
    return read_catalogue(directory / name)
