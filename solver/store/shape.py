"""A results store's shape, checked when it is opened, before anything is read or written:
its schema is one this release makes or migrates from, and every row fits it.

The schema: no trigger or view (a hand-added ``DELETE`` trigger would wipe rows behind the
run's back), no table this release does not make, and each table's columns (name, type,
NOT NULL, key) those of a store made now (``schema``), a store of an older schema lacking
only the columns and tables its migration adds. The rows: every value of its column's type
and choices, every deal a number of the store's numbering (a large one as zero-padded text,
never a small one spelt as text: that would be a second row of one deal), every row of the
store's own rule set, and the player's settings a JSON object.
"""

import sqlite3
from dataclasses import fields
from functools import cache
from pathlib import Path

from solver.errors import YukonError, clipped
from solver.game.numbering import MAX_DEAL
from solver.results.record import DEAL_DIGITS, FIELDS, LARGEST_INTEGER
from solver.results.result import Spent
from solver.store.claims import CLAIMS_SCHEMA
from solver.store.connection import translated
from solver.store.player_rows import Play, Rating
from solver.store.schema import (
    ALLOWED_TYPES,
    LARGEST_REAL,
    PLAYER_SCHEMA,
    RATING_CHOICES,
    RESULT_CHOICES,
    SCHEMA,
    SCHEMA_VERSION,
    column_definition,
    run_script,
)
from solver.store.tables import RULE_KEY

# Each table's fields and the values its text columns may hold.
TABLE_FIELDS = {
    "results": (FIELDS, RESULT_CHOICES),
    "plays": (fields(Play), {}),
    "ratings": (fields(Rating), RATING_CHOICES),
}
# Tables a store of each schema version holds (``claims`` is added when a run opens it).
REQUIRED_TABLES = {"1": ("meta", "results"), "2": ("meta", "results", "plays", "ratings")}
# The objects of sqlite_master a store's schema names (SQLite's own, such as the indexes of
# primary keys, are SQLite's business).
OURS = "name NOT LIKE 'sqlite%'"
# Conditions of a row that does not fit, beyond its columns' types (a budget is one of Spent's
# words, which a Record reads it as; no CHECK says so, as stores of every version lack one).
ROW_MISFITS = {
    "plays": {"settings": "NOT (json_valid(settings) AND json_type(settings) = 'object')"},
    "results": {"budget": f"budget NOT IN ({', '.join(repr(str(word)) for word in Spent)})"},
}


@cache
def made_store() -> tuple[frozenset, dict[str, dict[str, tuple]]]:
    """What a store made now holds: its (type, name) objects (tables, indexes), and per
    table each column's (type, NOT NULL, key position)."""
    connection = sqlite3.connect(":memory:")
    run_script(connection, SCHEMA + PLAYER_SCHEMA + CLAIMS_SCHEMA)
    objects = frozenset(connection.execute(f"SELECT type, name FROM sqlite_master WHERE {OURS}").fetchall())
    made = {name: table_columns(connection, name) for kind, name in objects if kind == "table"}
    connection.close()
    return objects, made


def made_columns() -> dict[str, dict[str, tuple]]:
    return made_store()[1]


def table_columns(connection: sqlite3.Connection, table: str) -> dict[str, tuple]:
    rows = connection.execute(f"PRAGMA table_info({table})").fetchall()
    return {name: (kind.upper(), notnull, key) for _cid, name, kind, notnull, _default, key in rows}


def check_shape(connection: sqlite3.Connection, path: Path, meta: dict) -> None:
    """Refuse a store whose schema or rows this release did not write (module docstring)."""
    with translated(path, "cannot read"):
        check_schema(connection, path, meta["schema"])
        check_rows(connection, path, meta)


def check_schema(connection: sqlite3.Connection, path: Path, version: str) -> None:
    made_objects, made = made_store()
    tables = set()
    for kind, name in connection.execute(f"SELECT type, name FROM sqlite_master WHERE {OURS}").fetchall():
        if (kind, name) not in made_objects:
            raise YukonError(
                f"results store {path} is damaged: it holds the {kind} {clipped(repr(name), 60)}, one "
                "this solver does not make (hand-edited?)"
            )
        tables.update([name] if kind == "table" else [])
    required = REQUIRED_TABLES.get(version, tuple(made.keys() - {"claims"}))
    missing = [name for name in required if name not in tables]
    if missing:
        raise YukonError(f"results store {path} is damaged: it lacks the table {', '.join(missing)}")
    for table in tables:
        check_columns(connection, path, table, version)


def check_columns(connection: sqlite3.Connection, path: Path, table: str, version: str) -> None:
    """A table's columns: each as a store made now has it; one missing only where the
    migration of an older schema adds it (a column that may hold NULL, of ``results``)."""
    present, made = table_columns(connection, table), made_columns()[table]
    for name, shape in present.items():
        if made.get(name) != shape:
            raise YukonError(
                f"results store {path} is damaged: column {table}.{clipped(name, 60)} is not one this "
                "solver makes (hand-edited?)"
            )
    for name, (_kind, notnull, _key) in made.items():
        added_by_migration = table == "results" and version != SCHEMA_VERSION and not notnull
        if name not in present and not added_by_migration:
            raise YukonError(f"results store {path} is damaged: table {table} lacks its column {name}")


def check_rows(connection: sqlite3.Connection, path: Path, meta: dict) -> None:
    """The first row of any table that does not fit its columns, of another rule set, or of
    a deal the store's numbering does not have, named."""
    key = (meta["variant"], int(meta["foundation_return"]), meta["numbering"])
    present = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table, (items, choices) in TABLE_FIELDS.items():
        if table not in present:
            continue
        columns = table_columns(connection, table)
        row = connection.execute(
            f"SELECT quote(deal) FROM {table} WHERE NOT ({RULE_KEY}) LIMIT 1", key
        ).fetchone()
        if row is not None:
            raise YukonError(
                f"results store {path} is damaged: table {table} holds a row (deal {row[0][:40]}) of "
                "another rule set than the store's"
            )
        conditions = {
            item.name: misfit(item, choices, meta["numbering"], table)
            for item in items
            if item.name in columns
        }
        which = " ".join(f"WHEN {condition} THEN '{name}'" for name, condition in conditions.items())
        row = connection.execute(
            f"SELECT rowid, quote(deal), CASE {which} END FROM {table} "
            f"WHERE {' OR '.join(f'({condition})' for condition in conditions.values())} LIMIT 1"
        ).fetchone()
        if row is not None:
            rowid, deal, column = row
            (value,) = connection.execute(
                f"SELECT quote({column}) FROM {table} WHERE rowid = ?", (rowid,)
            ).fetchone()
            raise YukonError(
                f"results store {path} is damaged: the {table} row of deal {deal[:40]} holds "
                f"{clipped(value, 40)} in column {column}"
            )


def deal_misfit(numbering: str) -> str:
    """A deal that is no number of ``numbering``: below 1, beyond its last deal, a large one
    not as zero-padded text, or a small one as text."""
    last = MAX_DEAL.get(numbering, 0)
    as_integer = f"typeof(deal) = 'integer' AND deal BETWEEN 1 AND {min(last, LARGEST_INTEGER)}"
    if last <= LARGEST_INTEGER:
        return f"NOT ({as_integer})"
    padded = (str(LARGEST_INTEGER).zfill(DEAL_DIGITS), str(last).zfill(DEAL_DIGITS))
    as_text = f"typeof(deal) = 'text' AND deal GLOB '{'[0-9]' * DEAL_DIGITS}' AND deal > '{padded[0]}'"
    return f"NOT (({as_integer}) OR ({as_text} AND deal <= '{padded[1]}'))"


def misfit(item, choices: dict, numbering: str, table: str) -> str:
    """The SQL condition of a row whose value of field ``item`` does not fit."""
    if item.name == "deal":
        return deal_misfit(numbering)
    definition = column_definition(item, choices)
    sql_type = definition.split()[1]
    kinds = ALLOWED_TYPES[sql_type] + (() if "NOT NULL" in definition else ("null",))
    condition = f"typeof({item.name}) NOT IN ({', '.join(repr(kind) for kind in kinds)})"
    if sql_type == "REAL":
        condition += f" OR (typeof({item.name}) = 'real' AND abs({item.name}) > {LARGEST_REAL!r})"
    if item.name in choices:
        allowed = ", ".join(f"'{value}'" for value in choices[item.name])
        condition += f" OR {item.name} NOT IN ({allowed})"
    if item.name == "foundation_return" or item.type is bool:
        condition += f" OR {item.name} NOT IN (0, 1)"
    extra = ROW_MISFITS.get(table, {}).get(item.name)
    return f"{condition} OR {extra}" if extra else condition
