"""A results store's schema: its tables, made, migrated and checked when a store is opened.

Table ``meta`` names the format, the schema version and the rule set and numbering the store
was made for. The columns of ``results`` are the fields of ``solver.results.record.Record``, those
of ``plays`` and ``ratings`` (schema 2) the fields of ``player_rows.Play`` and ``Rating``,
their SQL types read from the fields' types; the ``deal`` column has no type affinity, so
that a large deal number can be text. A store of an older schema opened for a run is
migrated in one transaction (version 1, release 0.1.0: the player's tables are added;
versions 1 to 3: the ``results`` columns added since, ``loss_reason`` in version 3 and
``solver_source`` in version 4, holding NULL; the meta key ``schema`` becomes 4; no row
changes); read-only opening leaves it as it is, and reads a column it lacks as NULL
(``result_columns``).
"""

import sqlite3
import sys
import typing
from dataclasses import fields
from enum import StrEnum
from pathlib import Path

from solver.errors import YukonError, clipped, first_line
from solver.game.numbering import NUMBERINGS
from solver.game.rules import Rules
from solver.results.record import FIELD_NAMES, FIELDS, STATUSES, Record, now_text
from solver.results.result import TIER_NAMES
from solver.store.connection import translated
from solver.store.player_rows import Play, Rating
from solver.store.tables import RULE_SET_COLUMNS
from solver.version import __version__

FORMAT = "yukon-solver results"
SCHEMA_VERSION = "4"
# Versions this release opens: 1 (release 0.1.0, no player tables), 2 (no loss_reason) and
# 3 (release 0.2.0, no solver_source) are migrated on open for a run.
READABLE_SCHEMAS = ("1", "2", "3", SCHEMA_VERSION)
SQL_TYPES = {str: "TEXT", int: "INTEGER", float: "REAL", bool: "INTEGER"}
# What SQLite's typeof() may say of a value of each column type; a large deal as text.
ALLOWED_TYPES = {"TEXT": ("text",), "INTEGER": ("integer",), "REAL": ("real", "integer")}
# The largest finite double: a REAL beyond it is infinite (SQLite stores NaN as NULL).
LARGEST_REAL = sys.float_info.max
# The values a column may hold, per table.
RESULT_CHOICES = {"status": STATUSES}
RATING_CHOICES = {"tier": TIER_NAMES}


def column_definition(item, choices: dict[str, tuple[str, ...]]) -> str:
    """The SQL definition of the column of a row dataclass's field."""
    if item.name == "deal":
        return "deal NOT NULL"  # no type affinity: a large deal number is text
    kinds = typing.get_args(item.type) or (item.type,)
    (kind,) = [one for one in kinds if one is not type(None)]
    kind = str if issubclass(kind, StrEnum) else kind  # stored as its string
    definition = f"{item.name} {SQL_TYPES[kind]}" + ("" if type(None) in kinds else " NOT NULL")
    if item.name in choices:
        quoted = ", ".join(f"'{value}'" for value in choices[item.name])
        definition += f" CHECK ({item.name} IN ({quoted}))"
    return definition


def table_definition(table: str, kind, key: tuple[str, ...], choices=None) -> str:
    """``CREATE TABLE`` for the rows of dataclass ``kind``, keyed by the rule set and ``key``."""
    columns = ",\n    ".join(column_definition(item, choices or {}) for item in fields(kind))
    primary = ", ".join((*RULE_SET_COLUMNS, *key))
    return f"CREATE TABLE {table} (\n    {columns},\n    PRIMARY KEY ({primary})\n);\n"


SCHEMA = f"""
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
{table_definition("results", Record, ("deal",), RESULT_CHOICES)}\
CREATE INDEX results_by_status ON results (variant, foundation_return, numbering, status, deal);
"""
PLAYER_SCHEMA = (
    "\n"
    + table_definition("plays", Play, ("deal", "policy", "settings", "seed", "run"))
    + table_definition("ratings", Rating, ("deal", "runs", "seed"), RATING_CHOICES)
)


def read_meta(connection: sqlite3.Connection, path: Path, allow_empty: bool) -> dict | None:
    """The store's meta table; None for an empty database when allowed."""
    with translated(path, "cannot read"):
        tables = {
            name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if not tables and allow_empty:
            return None
        if not {"meta", "results"} <= tables:
            raise YukonError(f"{path} is an SQLite database but not a yukon-solver results store")
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    if meta.get("format") != FORMAT:
        raise YukonError(f"{path} is an SQLite database but not a yukon-solver results store")
    if meta.get("schema") not in READABLE_SCHEMAS:
        raise YukonError(
            f"results store {path} has schema version {meta.get('schema')}; "
            f"this solver reads versions {', '.join(READABLE_SCHEMAS)}"
        )
    missing = [key for key in ("variant", "foundation_return", "numbering") if key not in meta]
    if missing:
        raise YukonError(f"results store {path} is damaged: its meta table lacks {', '.join(missing)}")
    try:
        meta_rules(meta)
    except YukonError:
        raise YukonError(f"results store {path} is damaged: unknown variant {meta['variant']!r}") from None
    if meta["foundation_return"] not in ("0", "1") or meta["numbering"] not in NUMBERINGS:
        shown = clipped(repr(meta["foundation_return"]), 40), clipped(repr(meta["numbering"]), 40)
        raise YukonError(
            f"results store {path} is damaged: its meta table says foundation_return {shown[0]}, "
            f"numbering {shown[1]}"
        )
    return meta


def meta_rules(meta: dict) -> Rules:
    return Rules(meta["variant"], meta["foundation_return"] == "1")


def check_meta_matches(meta: dict, rules: Rules, numbering: str, path: Path) -> None:
    stored = (meta_rules(meta), meta["numbering"])
    if stored != (rules, numbering):
        raise YukonError(
            f"results store {path} was made for {stored[0].describe()}, {stored[1]} numbering, "
            f"not {rules.describe()}, {numbering} numbering; "
            "use the options it was made with or another --out file"
        )


def quick_check(connection: sqlite3.Connection, path: Path) -> None:
    with translated(path, "cannot read"):
        verdict = connection.execute("PRAGMA quick_check(1)").fetchone()[0]
    if verdict != "ok":
        raise YukonError(f"results store {path} is corrupt: {first_line(verdict)}")


def initialise(connection: sqlite3.Connection, rules: Rules, numbering: str) -> dict:
    """Make the tables of a new store inside the caller's transaction; its meta."""
    run_script(connection, SCHEMA + PLAYER_SCHEMA)
    meta = {
        "format": FORMAT,
        "schema": SCHEMA_VERSION,
        "variant": rules.variant,
        "foundation_return": "1" if rules.foundation_return else "0",
        "numbering": numbering,
        "created_at": now_text(),
        "created_by": f"yukon-solver {__version__}",
    }
    connection.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
    return meta


def migrate(connection: sqlite3.Connection, meta: dict) -> dict:
    """Bring an older store to this schema inside the caller's transaction: add the player's
    tables (schema 1) and the ``results`` columns it lacks, and set the version; no existing
    row changes."""
    if meta["schema"] == "1":
        run_script(connection, PLAYER_SCHEMA)
    present = stored_columns(connection)
    for item in (item for item in FIELDS if item.name not in present):
        connection.execute(f"ALTER TABLE results ADD COLUMN {column_definition(item, RESULT_CHOICES)}")
    connection.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
    return meta | {"schema": SCHEMA_VERSION}


def stored_columns(connection: sqlite3.Connection) -> set[str]:
    """The columns of the store's ``results`` table (read after its meta table was)."""
    return {row[1] for row in connection.execute("PRAGMA table_info(results)")}


def result_columns(connection: sqlite3.Connection) -> str:
    """The SELECT list of a ``results`` row in Record field order: a column an older store
    lacks (an OPTIONAL field added since) reads as NULL."""
    present = stored_columns(connection)
    return ", ".join(name if name in present else f"NULL AS {name}" for name in FIELD_NAMES)


def run_script(connection: sqlite3.Connection, script: str) -> None:
    """Execute ``;``-separated statements inside the caller's transaction."""
    for statement in script.split(";"):
        if statement.strip():
            connection.execute(statement)
