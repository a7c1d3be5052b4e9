"""The results store: one SQLite file (WAL) per batch run, made for one rule set and numbering.

Table ``results`` holds one row per (variant, foundation_return, numbering, deal); every
result is written in its own transaction with INSERT OR REPLACE on that key, so a run killed
at any moment keeps every committed result and never leaves a partial or duplicate row.
Table ``meta`` names the rule set and numbering the store was made for; opening it for a
different rule set is refused before anything is written.

SQLite integers stop at 2**63 - 1 while PySolFC numbers deals up to 10**20, so a deal number
is stored as an INTEGER when it fits and otherwise as 21-digit zero-padded TEXT (the column
has no type affinity). SQLite sorts every INTEGER before every TEXT, so ``ORDER BY deal`` is
numeric order either way.
"""

import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import solver
from solver.errors import YukonError
from solver.result import SOLVED, UNKNOWN, UNSOLVABLE
from solver.rules import Rules

FORMAT = "yukon-solver results"
SCHEMA_VERSION = "1"
STATUSES = (SOLVED, UNSOLVABLE, UNKNOWN)
DECIDED = (SOLVED, UNSOLVABLE)
LARGEST_INTEGER = 2**63 - 1
DEAL_DIGITS = 21
BUSY_TIMEOUT_SECONDS = 60.0
# Deals per query when walking a range against the store.
RANGE_BLOCK = 10_000

COLUMNS = (
    "variant",
    "foundation_return",
    "numbering",
    "deal",
    "status",
    "solution",
    "solution_length",
    "proven_minimal",
    "nodes",
    "seconds",
    "peak_table_entries",
    "budget",
    "reason",
    "time_limit",
    "max_nodes",
    "solver_version",
    "board",
    "finished_at",
)

SCHEMA = f"""
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE results (
    variant TEXT NOT NULL,
    foundation_return INTEGER NOT NULL,
    numbering TEXT NOT NULL,
    deal NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('{SOLVED}', '{UNSOLVABLE}', '{UNKNOWN}')),
    solution TEXT NOT NULL,
    solution_length INTEGER NOT NULL,
    proven_minimal INTEGER NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    peak_table_entries INTEGER,
    budget TEXT,
    reason TEXT,
    time_limit REAL,
    max_nodes INTEGER,
    solver_version TEXT NOT NULL,
    board TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    PRIMARY KEY (variant, foundation_return, numbering, deal)
);
CREATE INDEX results_by_status ON results (variant, foundation_return, numbering, status, deal);
"""

RULE_KEY = "variant = ? AND foundation_return = ? AND numbering = ?"


def encode_deal(deal: int):
    return deal if deal <= LARGEST_INTEGER else str(deal).zfill(DEAL_DIGITS)


def decode_deal(value) -> int:
    return int(value)


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """An open results store. Use ``open_for_run`` to add results, ``open_existing`` to read."""

    def __init__(self, path: Path, connection: sqlite3.Connection, meta: dict):
        self.path = path
        self.connection = connection
        self.meta = meta
        self.rules = Rules(meta["variant"], meta["foundation_return"] == "1")
        self.numbering = meta["numbering"]
        self.key = (self.rules.variant, int(self.rules.foundation_return), self.numbering)

    # ---- opening -------------------------------------------------------------------------

    @classmethod
    def open_for_run(cls, path, rules: Rules, numbering: str) -> "Store":
        """Open (or create) the store a run of ``rules`` under ``numbering`` writes to.

        A store made for another rule set or numbering is refused with YukonError before
        anything is written to it; so are files that are not stores, corrupt files and
        places that cannot be written."""
        path = Path(path)
        if path.is_dir():
            raise YukonError(f"results store {path} is a directory, not a file")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise YukonError(
                f"cannot create the directory of results store {path}: {error.strerror}"
            ) from None
        fresh = not path.exists() or path.stat().st_size == 0
        connection = connect(path, create=True)
        try:
            meta = None if fresh else read_meta(connection, path, allow_empty=True)
            if meta is not None:
                check_meta_matches(meta, rules, numbering, path)
                quick_check(connection, path)
            with translated(path, "cannot write to"):
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute("PRAGMA synchronous = NORMAL")
                connection.execute("BEGIN IMMEDIATE")
                if meta is None:
                    # Under the write lock: another run may have made it meanwhile.
                    meta = read_meta(connection, path, allow_empty=True)
                    if meta is None:
                        meta = initialise(connection, rules, numbering)
                    else:
                        check_meta_matches(meta, rules, numbering, path)
                connection.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                connection.rollback()
            connection.close()
            raise
        return cls(path, connection, meta)

    @classmethod
    def open_existing(cls, path) -> "Store":
        """Open a store that must already exist, for reading (export, stats)."""
        path = Path(path)
        if not path.is_file():
            raise YukonError(f"no results store at {path}")
        connection = connect(path, create=False)
        try:
            meta = read_meta(connection, path, allow_empty=False)
            quick_check(connection, path)
        except BaseException:
            connection.close()
            raise
        return cls(path, connection, meta)

    def close(self) -> None:
        with suppress(sqlite3.Error):
            self.connection.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    # ---- writing -------------------------------------------------------------------------

    def write(self, row: dict) -> None:
        """Store one result in its own transaction (replacing an earlier row of the deal)."""
        self.write_many([row])

    def write_many(self, rows: list[dict]) -> None:
        if not rows:
            return
        values = [self.row_values(row) for row in rows]
        placeholders = ", ".join("?" * len(COLUMNS))
        with translated(self.path, "cannot write to"):
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                self.connection.executemany(
                    f"INSERT OR REPLACE INTO results ({', '.join(COLUMNS)}) VALUES ({placeholders})", values
                )
                self.connection.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.Error):
                    self.connection.execute("ROLLBACK")
                raise

    def row_values(self, row: dict) -> tuple:
        if (row["variant"], int(row["foundation_return"]), row["numbering"]) != self.key:
            raise ValueError(f"row of deal {row['deal']} is not of this store's rule set")
        if row["status"] not in STATUSES:
            raise ValueError(f"row of deal {row['deal']} has status {row['status']!r}")
        values = dict(row)
        values["deal"] = encode_deal(row["deal"])
        values["foundation_return"] = int(row["foundation_return"])
        values["proven_minimal"] = int(bool(row.get("proven_minimal", False)))
        values.setdefault("finished_at", now_text())
        for optional in ("peak_table_entries", "budget", "reason", "time_limit", "max_nodes"):
            values.setdefault(optional, None)
        return tuple(values[column] for column in COLUMNS)

    # ---- reading -------------------------------------------------------------------------

    def statuses_in(self, first: int, last: int) -> dict[int, str]:
        """Status of every stored deal of this rule set in first..last."""
        with translated(self.path, "cannot read"):
            rows = self.connection.execute(
                f"SELECT deal, status FROM results WHERE {RULE_KEY} AND deal BETWEEN ? AND ?",
                (*self.key, encode_deal(first), encode_deal(last)),
            ).fetchall()
        return {decode_deal(deal): status for deal, status in rows}

    def count_in(self, first: int, last: int, statuses) -> int:
        marks = ", ".join("?" * len(statuses))
        with translated(self.path, "cannot read"):
            (count,) = self.connection.execute(
                f"SELECT COUNT(*) FROM results WHERE {RULE_KEY} AND status IN ({marks}) "
                "AND deal BETWEEN ? AND ?",
                (*self.key, *statuses, encode_deal(first), encode_deal(last)),
            ).fetchone()
        return count

    def pending(self, deals, skip_statuses) -> Iterator[int]:
        """The deals of a DealRange (ascending) whose stored status is not in skip_statuses."""
        for first, last in deals.intervals:
            start = first
            while start <= last:
                end = min(last, start + RANGE_BLOCK - 1)
                stored = self.statuses_in(start, end)
                for deal in range(start, end + 1):
                    if stored.get(deal) not in skip_statuses:
                        yield deal
                start = end + 1

    def count_pending(self, deals, skip_statuses) -> int:
        skipped = sum(self.count_in(first, last, tuple(skip_statuses)) for first, last in deals.intervals)
        return deals.count - skipped

    def rows(self) -> Iterator[dict]:
        """Every stored row, ordered by rule set then deal number."""
        with translated(self.path, "cannot read"):
            cursor = self.connection.execute(
                f"SELECT {', '.join(COLUMNS)} FROM results "
                "ORDER BY variant, foundation_return, numbering, deal"
            )
            for values in cursor:
                row = dict(zip(COLUMNS, values))
                row["deal"] = decode_deal(row["deal"])
                row["foundation_return"] = bool(row["foundation_return"])
                row["proven_minimal"] = bool(row["proven_minimal"])
                yield row

    def query(self, sql: str, parameters=()) -> list[tuple]:
        with translated(self.path, "cannot read"):
            return self.connection.execute(sql, parameters).fetchall()


# ---- helpers ------------------------------------------------------------------------------


class translated:
    """Turn sqlite3 errors into a one-line YukonError naming the store."""

    def __init__(self, path: Path, doing: str):
        self.path, self.doing = path, doing

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is not None and issubclass(kind, sqlite3.Error):
            raise YukonError(f"{self.doing} results store {self.path}: {describe(error)}") from None
        return False


def describe(error: sqlite3.Error) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    if "not a database" in text or "malformed" in text:
        return f"{text} (the file is corrupt or not a results store)"
    return text


def connect(path: Path, create: bool) -> sqlite3.Connection:
    mode = "rwc" if create else "rw"
    try:
        connection = sqlite3.connect(
            f"file:{path_uri(path)}?mode={mode}",
            uri=True,
            timeout=BUSY_TIMEOUT_SECONDS,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.Error as error:
        raise YukonError(f"cannot open results store {path}: {describe(error)}") from None
    return connection


def path_uri(path: Path) -> str:
    return quote(os.path.abspath(path))


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
    if meta.get("schema") != SCHEMA_VERSION:
        raise YukonError(
            f"results store {path} has schema version {meta.get('schema')}; "
            f"this solver reads version {SCHEMA_VERSION}"
        )
    missing = [key for key in ("variant", "foundation_return", "numbering") if key not in meta]
    if missing:
        raise YukonError(f"results store {path} is damaged: its meta table lacks {', '.join(missing)}")
    try:
        Rules(meta["variant"], meta["foundation_return"] == "1")
    except YukonError:
        raise YukonError(f"results store {path} is damaged: unknown variant {meta['variant']!r}") from None
    return meta


def describe_rules(variant: str, foundation_return: bool, numbering: str) -> str:
    text = variant + (" with foundation return" if foundation_return else "")
    return f"{text}, {numbering} numbering"


def check_meta_matches(meta: dict, rules: Rules, numbering: str, path: Path) -> None:
    stored = (meta["variant"], meta["foundation_return"] == "1", meta["numbering"])
    wanted = (rules.variant, rules.foundation_return, numbering)
    if stored != wanted:
        raise YukonError(
            f"results store {path} was made for {describe_rules(*stored)}, not {describe_rules(*wanted)}; "
            "use the options it was made with or another --out file"
        )


def quick_check(connection: sqlite3.Connection, path: Path) -> None:
    with translated(path, "cannot read"):
        verdict = connection.execute("PRAGMA quick_check(1)").fetchone()[0]
    if verdict != "ok":
        raise YukonError(f"results store {path} is corrupt: {verdict.splitlines()[0]}")


def initialise(connection: sqlite3.Connection, rules: Rules, numbering: str) -> dict:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            connection.execute(statement)
    meta = {
        "format": FORMAT,
        "schema": SCHEMA_VERSION,
        "variant": rules.variant,
        "foundation_return": "1" if rules.foundation_return else "0",
        "numbering": numbering,
        "created_at": now_text(),
        "created_by": f"yukon-solver {solver.__version__}",
    }
    connection.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
    return meta


# ---- export -------------------------------------------------------------------------------

EXPORT_FIELDS = ("variant", "foundation_return", "numbering", "deal", "board", "status", "solution")


def export_jsonl(store_path, out_file) -> int:
    """Write every row of the store as one JSON object per line, in deal order; return the
    number of rows. ``out_file`` is a path (written to a temporary file first and renamed,
    so an interrupted export leaves no half file), ``"-"`` for stdout, or an open text file.

    Each object starts with ``variant, foundation_return, numbering, deal, board, status,
    solution`` (what ``yukon verify`` replays) and carries every other stored field."""
    store = Store.open_existing(store_path)
    try:
        if out_file == "-" or hasattr(out_file, "write"):
            stream = sys.stdout if out_file == "-" else out_file
            return write_rows(store, stream)
        target = Path(out_file)
        if target.is_dir():
            raise YukonError(f"export target {target} is a directory")
        try:
            handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - renamed into place below
                "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
            )
        except OSError as error:
            raise YukonError(f"cannot write export file {target}: {error.strerror}") from None
        try:
            with handle:
                count = write_rows(store, handle)
            os.replace(handle.name, target)
        except BaseException:
            with suppress(OSError):
                os.unlink(handle.name)
            raise
        return count
    finally:
        store.close()


def write_rows(store: Store, stream) -> int:
    count = 0
    for row in store.rows():
        ordered = {field: row[field] for field in EXPORT_FIELDS}
        ordered.update((key, value) for key, value in row.items() if key not in ordered)
        stream.write(json.dumps(ordered) + "\n")
        count += 1
    return count
