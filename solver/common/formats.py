"""The format name and version every JSON document of the project carries.

A document names what it is in two keys, first in the object: ``format`` (a name such as
``yukon-record``) and ``format_version`` (an integer, raised only when a change would break
a reader: a key removed, renamed or given another meaning; new keys keep the version). The
catalogue files and their manifest have carried the same two keys since release 0.1.0
(``solver/catalogue/files.py``). Each format has a JSON Schema in ``solver/schemas/``,
shipped with the package.

Release 0.1.0 wrote its results records, exports and command outputs without the two keys:
a reader accepts a document without them as version 1 of the format it expects, and refuses
one that names another format or a newer version.
"""

import re
from dataclasses import dataclass

from solver.errors import YukonError, clipped

FORMAT_KEY = "format"
VERSION_KEY = "format_version"


@dataclass(frozen=True)
class Format:
    """A JSON document format: its name and current version."""

    name: str
    version: int

    @property
    def schema_name(self) -> str:
        """The file of its JSON Schema in ``solver/schemas/``."""
        return f"{self.name.removeprefix('yukon-')}.schema.json"


# A results record: ``yukon solve --json`` of one deal, every line of ``yukon export``.
RECORD = Format("yukon-record", 1)
# ``yukon hint --json``.
HINT = Format("yukon-hint", 1)
# ``yukon daily --json``.
DAILY = Format("yukon-daily", 1)
# A store's summary: ``yukon stats --json``, ``yukon solve DEALS --out DB --json``.
STATS = Format("yukon-stats", 1)
# ``yukon verify --json``.
VERIFY_REPORT = Format("yukon-verify-report", 1)
# ``yukon deal --format json`` (a board file in JSON form needs neither key).
BOARD = Format("yukon-board", 1)

# The formats of the commands' JSON, each with its schema (the study's and the benchmarks' own formats are
# declared in study/shapes.py and benchmarks/shapes.py).
FORMATS = (RECORD, HINT, DAILY, STATS, VERIFY_REPORT, BOARD)


def stamped(document: dict, kind: Format) -> dict:
    """``document`` with ``kind``'s name and version as its first two keys."""
    return {FORMAT_KEY: kind.name, VERSION_KEY: kind.version} | document


def unstamped(document: dict) -> dict:
    """``document`` without the format keys (what release 0.1.0 wrote)."""
    return {key: value for key, value in document.items() if key not in (FORMAT_KEY, VERSION_KEY)}


def check_format(document: dict, kind: Format, where: str) -> None:
    """Refuse (YukonError naming ``where``) a document that names a format other than
    ``kind`` or a version newer than this release reads; one without the keys is version 1."""
    name, version = document.get(FORMAT_KEY, kind.name), document.get(VERSION_KEY, 1)
    if name != kind.name:
        raise YukonError(f"{where}: a {clipped(repr(name), 60)} document, not a {kind.name} one")
    if type(version) is not int or not 1 <= version <= kind.version:
        raise YukonError(
            f"{where}: {kind.name} version {clipped(repr(version), 30)}; "
            f"this release reads versions 1 to {kind.version}"
        )


# The largest integer a JavaScript number holds exactly (Number.MAX_SAFE_INTEGER): a deal number
# above it (PySolFC numbers reach 10**20) is written in JSON as a decimal string, so that a
# JavaScript reader keeps it exact; at or below it, as an integer (what every earlier release
# wrote). Readers take either form (an earlier release wrote large ones as integers too).
MAX_EXACT_JSON_INTEGER = 2**53 - 1
DEAL_DIGITS = re.compile(r"[1-9][0-9]{0,29}", re.ASCII)


def json_deal(number: int | None) -> int | str | None:
    """A deal number as JSON writes it: an integer up to 2**53 - 1, a decimal string above."""
    return str(number) if number is not None and number > MAX_EXACT_JSON_INTEGER else number


def deal_of_json(value: object) -> object:
    """A deal number read from JSON: a string of digits (``json_deal``) as its integer; any
    other value as it is, for the reader's own checks."""
    return int(value) if isinstance(value, str) and DEAL_DIGITS.fullmatch(value) else value
