"""The results store: one SQLite file (WAL) per batch run, made for one rule set and numbering.

Table ``results`` holds one row per (variant, foundation_return, numbering, deal); every
result is written in its own transaction, settled against the deal's stored row
(``record.settle``: a decided verdict is never replaced by unknown, solved against
unsolvable is a contradiction reported and never resolved, an unknown keeps the largest
budget tried), so a run killed at any moment keeps every committed result and never leaves
a partial or duplicate row. Table ``claims`` (added at open when missing; older releases
ignore it) holds the deals runs are solving now, so concurrent runs share a range.
Table ``meta`` names the rule set and numbering the store was made for; opening it for a
different rule set is refused before anything is written.

Schema version 2 adds the player's tables (see "plays and ratings" below): ``plays``, one
row per game a policy played, and ``ratings``, one row per difficulty rating. A version 1
store opened for a run is migrated in one transaction (the tables are added, the meta key
``schema`` becomes 2, no row changes); read-only opening leaves it as it is and reads no
plays or ratings from it.

The columns of ``results`` are the fields of ``solver.record.Record``, their SQL types read
from the fields' types, and rows are converted by the record (see there why a large deal
number is stored as text: the ``deal`` column has no type affinity). This module is the only
place with SQL.
"""

import json
import os
import sqlite3
import sys
import tempfile
import time
import typing
from collections.abc import Iterable, Iterator
from contextlib import suppress
from pathlib import Path
from urllib.parse import quote

import solver
from solver.errors import YukonError, error_line, first_line
from solver.record import (
    FIELD_NAMES,
    FIELDS,
    LARGEST_INTEGER,
    STATUSES,
    Contradiction,
    Record,
    decode_deal,
    encode_deal,
    finite_or_none,
    now_text,
    settle,
)
from solver.result import SOLVED, UNKNOWN
from solver.rules import Rules

FORMAT = "yukon-solver results"
SCHEMA_VERSION = "2"
# Versions this release opens: 1 (release 0.1.0, no player tables) is migrated on open for a run.
READABLE_SCHEMAS = ("1", SCHEMA_VERSION)
BUSY_TIMEOUT_SECONDS = 60.0
# Deals per query when walking a range against the store.
RANGE_BLOCK = 10_000

COLUMNS = FIELD_NAMES
SQL_TYPES = {str: "TEXT", int: "INTEGER", float: "REAL", bool: "INTEGER"}
# What SQLite's typeof() may say of a value of each column type; a large deal as text.
ALLOWED_TYPES = {"TEXT": ("text",), "INTEGER": ("integer",), "REAL": ("real", "integer")}
DEAL_TEXT = "[0-9]" * 21


def column_definition(item) -> str:
    """The SQL definition of the column of a Record field."""
    if item.name == "deal":
        return "deal NOT NULL"  # no type affinity: a large deal number is text
    kinds = typing.get_args(item.type) or (item.type,)
    (kind,) = [one for one in kinds if one is not type(None)]
    definition = f"{item.name} {SQL_TYPES[kind]}" + ("" if type(None) in kinds else " NOT NULL")
    if item.name == "status":
        quoted = ", ".join(f"'{status}'" for status in STATUSES)
        definition += f" CHECK (status IN ({quoted}))"
    return definition


COLUMN_DEFINITIONS = ",\n    ".join(column_definition(item) for item in FIELDS)
SCHEMA = f"""
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE results (
    {COLUMN_DEFINITIONS},
    PRIMARY KEY (variant, foundation_return, numbering, deal)
);
CREATE INDEX results_by_status ON results (variant, foundation_return, numbering, status, deal);
"""

# Claims: a run claims each deal before solving it, so that concurrent runs on one store
# share the work; a claim lasts this long unless renewed, so a killed run's claims soon lapse.
CLAIMS_SCHEMA = """
CREATE TABLE IF NOT EXISTS claims (
    variant TEXT NOT NULL,
    foundation_return INTEGER NOT NULL,
    numbering TEXT NOT NULL,
    deal NOT NULL,
    owner TEXT NOT NULL,
    expires REAL NOT NULL,
    PRIMARY KEY (variant, foundation_return, numbering, deal)
)
"""
CLAIM_SECONDS = 10.0
CLAIMED, DONE, BUSY = "claimed", "done", "busy"

RULE_KEY = "variant = ? AND foundation_return = ? AND numbering = ?"

# ---- plays and ratings (schema 2) -----------------------------------------------------------
# ``plays``: one game of ``policy`` (``settings``: its settings as sorted JSON) on ``deal``,
# run ``run`` of a series drawn from ``seed`` (the game's own seed is ``game_seed``); a won
# ``line`` was replayed as a win on the reference engine before it was stored.
# ``ratings``: the greedy reference player's ``failures`` over ``runs`` runs drawn from
# ``seed``, the ``tier`` (NULL: not proved solvable) and the verdict it was rated beside.
PLAY_COLUMNS = (
    "variant", "foundation_return", "numbering", "deal", "policy", "settings", "seed", "run",
    "game_seed", "won", "moves", "line", "solver_version", "finished_at",
)  # fmt: skip
RATING_COLUMNS = (
    "variant", "foundation_return", "numbering", "deal", "runs", "seed", "failures", "tier",
    "status", "thoughtful_length", "solver_nodes", "solver_version", "rated_at",
)  # fmt: skip
PLAYER_SCHEMA = """
CREATE TABLE plays (
    variant TEXT NOT NULL,
    foundation_return INTEGER NOT NULL,
    numbering TEXT NOT NULL,
    deal NOT NULL,
    policy TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    run INTEGER NOT NULL,
    game_seed INTEGER NOT NULL,
    won INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    line TEXT NOT NULL,
    solver_version TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    PRIMARY KEY (variant, foundation_return, numbering, deal, policy, settings, seed, run)
);
CREATE TABLE ratings (
    variant TEXT NOT NULL,
    foundation_return INTEGER NOT NULL,
    numbering TEXT NOT NULL,
    deal NOT NULL,
    runs INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    tier TEXT CHECK (tier IN ('easy', 'normal', 'hard')),
    status TEXT NOT NULL,
    thoughtful_length INTEGER,
    solver_nodes INTEGER NOT NULL,
    solver_version TEXT NOT NULL,
    rated_at TEXT NOT NULL,
    PRIMARY KEY (variant, foundation_return, numbering, deal, runs, seed)
);
"""


class Store:
    """An open results store. Use ``open_for_run`` to add results, ``open_existing`` to read
    (a store this process may not write is read as an immutable file)."""

    def __init__(self, path: Path, connection: sqlite3.Connection, meta: dict):
        self.path = path
        self.connection = connection
        self.meta = meta
        self.rules = meta_rules(meta)
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
        if not writable(path):
            raise YukonError(f"cannot write to results store {path}: permission denied (read-only)")
        connection = connect(path, "rwc")
        try:
            meta = None if fresh else read_meta(connection, path, allow_empty=True)
            if meta is not None:
                check_meta_matches(meta, rules, numbering, path)
                quick_check(connection, path)
                check_values(connection, path)
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
                if meta["schema"] != SCHEMA_VERSION:
                    meta = migrate(connection, meta)
                connection.execute(CLAIMS_SCHEMA)
                connection.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                connection.rollback()
            connection.close()
            raise
        return cls(path, connection, meta)

    @classmethod
    def open_existing(cls, path) -> "Store":
        """Open a store that must already exist, read-only (export, stats): a store the user
        may not write (an archived one) is read as an immutable file."""
        path = Path(path)
        if not path.is_file():
            raise YukonError(f"no results store at {path}")
        connection = connect(path, "rw" if writable(path) else "ro&immutable=1")
        try:
            meta = read_meta(connection, path, allow_empty=False)
            quick_check(connection, path)
            check_values(connection, path)
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

    def write(self, record: Record) -> str | None:
        """Store one record in its own transaction (see ``write_many``)."""
        contradictions = self.write_many([record])
        return contradictions[0] if contradictions else None

    def write_many(self, records: Iterable[Record]) -> list[str]:
        """Store records in one transaction, each settled against the deal's stored row
        (``record.settle``: a decided verdict is never replaced by unknown, an unknown keeps
        the largest budget), releasing any claim on the deal. Returns one message per
        contradiction (solved against unsolvable), whose stored row is kept unchanged."""
        records = [self.checked(record) for record in records]
        contradictions = []
        placeholders = ", ".join("?" * len(COLUMNS))
        with translated(self.path, "cannot write to"):
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                for record in records:
                    try:
                        kept = settle(self.stored(record.deal), record)
                    except Contradiction as error:
                        contradictions.append(str(error))
                        kept = None
                    if kept is not None:
                        self.connection.execute(
                            f"INSERT OR REPLACE INTO results ({', '.join(COLUMNS)}) VALUES ({placeholders})",
                            kept.to_row(),
                        )
                    self.connection.execute(
                        f"DELETE FROM claims WHERE {RULE_KEY} AND deal = ?",
                        (*self.key, encode_deal(record.deal)),
                    )
                self.connection.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.Error):
                    self.connection.execute("ROLLBACK")
                raise
        return contradictions

    def stored(self, deal: int) -> Record | None:
        """The stored record of ``deal`` under this store's rule set, if any."""
        row = self.connection.execute(
            f"SELECT {', '.join(COLUMNS)} FROM results WHERE {RULE_KEY} AND deal = ?",
            (*self.key, encode_deal(deal)),
        ).fetchone()
        return None if row is None else Record.from_row(row)

    def checked(self, record: Record) -> Record:
        """``record``, when it is of this store's rule set and every value fits a column."""
        if (record.variant, int(record.foundation_return), record.numbering) != self.key:
            raise ValueError(f"record of deal {record.deal} is not of this store's rule set")
        for name, value in zip(COLUMNS, record.to_row(), strict=True):
            if isinstance(value, int) and not -LARGEST_INTEGER - 1 <= value <= LARGEST_INTEGER:
                raise YukonError(
                    f"{name} {value} of deal {record.deal} is too large for results store {self.path}"
                )
        return record

    # ---- claims ---------------------------------------------------------------------------

    def claim(self, deal: int, owner: str, skip_statuses) -> str:
        """Try to claim ``deal`` for run ``owner`` for CLAIM_SECONDS: ``CLAIMED``; ``DONE``
        when its stored status is in ``skip_statuses``; ``BUSY`` while another run's claim
        on it has not expired."""
        key = (*self.key, encode_deal(deal))
        now = time.time()
        with translated(self.path, "cannot write to"):
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                row = self.connection.execute(
                    f"SELECT status FROM results WHERE {RULE_KEY} AND deal = ?", key
                ).fetchone()
                holder = self.connection.execute(
                    f"SELECT owner FROM claims WHERE {RULE_KEY} AND deal = ? AND expires > ?", (*key, now)
                ).fetchone()
                if row is not None and row[0] in skip_statuses:
                    outcome = DONE
                elif holder is not None and holder[0] != owner:
                    outcome = BUSY
                else:
                    self.connection.execute(
                        "INSERT OR REPLACE INTO claims "
                        "(variant, foundation_return, numbering, deal, owner, expires) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (*key, owner, now + CLAIM_SECONDS),
                    )
                    outcome = CLAIMED
                self.connection.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.Error):
                    self.connection.execute("ROLLBACK")
                raise
        return outcome

    def renew_claims(self, owner: str) -> None:
        """Extend every claim of run ``owner`` by CLAIM_SECONDS from now."""
        with translated(self.path, "cannot write to"):
            self.connection.execute(
                "UPDATE claims SET expires = ? WHERE owner = ?", (time.time() + CLAIM_SECONDS, owner)
            )

    def release_claims(self, owner: str) -> None:
        """Drop every claim of run ``owner`` (a run that ends, or stops)."""
        with translated(self.path, "cannot write to"):
            self.connection.execute("DELETE FROM claims WHERE owner = ?", (owner,))

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

    def records(self) -> Iterator[Record]:
        """Every stored record, ordered by rule set then deal number."""
        with translated(self.path, "cannot read"):
            cursor = self.connection.execute(
                f"SELECT {', '.join(COLUMNS)} FROM results "
                "ORDER BY variant, foundation_return, numbering, deal"
            )
            for values in cursor:
                yield Record.from_row(values)

    def summary_figures(self) -> dict:
        """What ``yukon stats`` counts: records by status, unknowns by cause (error, or the
        budget that ran out), sorted seconds and solved line lengths, total nodes, the
        first and last deal, and the distinct limits and solver versions."""
        return {
            "counts": dict(self.fetch("SELECT status, COUNT(*) FROM results GROUP BY status")),
            "unknown_causes": dict(
                self.fetch(
                    "SELECT CASE WHEN reason IS NOT NULL THEN 'error' ELSE COALESCE(budget, 'other') END, "
                    "COUNT(*) FROM results WHERE status = ? GROUP BY 1",
                    (UNKNOWN,),
                )
            ),
            "seconds": self.column("SELECT seconds FROM results ORDER BY seconds"),
            "solution_lengths": self.column(
                "SELECT solution_length FROM results WHERE status = ? ORDER BY solution_length", (SOLVED,)
            ),
            "nodes": self.fetch("SELECT COALESCE(SUM(nodes), 0) FROM results")[0][0],
            "deal_span": tuple(map(decode_deal, self.fetch("SELECT MIN(deal), MAX(deal) FROM results")[0])),
            "time_limits": sorted(
                {finite_or_none(limit) for limit in self.column("SELECT DISTINCT time_limit FROM results")},
                key=lambda limit: (limit is not None, limit or 0),
            ),
            "max_nodes": self.column("SELECT DISTINCT max_nodes FROM results ORDER BY 1"),
            "solver_versions": self.column("SELECT DISTINCT solver_version FROM results ORDER BY 1"),
        }

    def fetch(self, sql: str, parameters=()) -> list[tuple]:
        with translated(self.path, "cannot read"):
            return self.connection.execute(sql, parameters).fetchall()

    def column(self, sql: str, parameters=()) -> list:
        return [value for (value,) in self.fetch(sql, parameters)]

    # ---- plays and ratings (schema 2) ----------------------------------------------------

    def has_player_tables(self) -> bool:
        """False for a schema 1 store opened read-only (it has no plays or ratings)."""
        return bool(self.fetch("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'plays'"))

    def write_plays(self, plays: list[dict]) -> None:
        """Store games (dicts keyed by PLAY_COLUMNS after the rule set) in one transaction;
        a game already stored under the same key is replaced by its identical replay."""
        self.write_rows("plays", PLAY_COLUMNS, plays)

    def write_rating(self, rating: dict) -> None:
        """Store one rating (a dict keyed by RATING_COLUMNS after the rule set) in its own
        transaction, replacing an earlier rating of the deal with the same runs and seed."""
        self.write_rows("ratings", RATING_COLUMNS, [rating])

    def write_rows(self, table: str, columns: tuple[str, ...], rows: list[dict]) -> None:
        values = [(*self.key, encode_deal(row["deal"]), *(row[name] for name in columns[4:])) for row in rows]
        placeholders = ", ".join("?" * len(columns))
        with translated(self.path, "cannot write to"):
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                self.connection.executemany(
                    f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({placeholders})", values
                )
                self.connection.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.Error):
                    self.connection.execute("ROLLBACK")
                raise

    def pending_plays(self, deals, policy: str, settings: str, seed: int, runs: int) -> list[int]:
        """The deals of a DealRange lacking one of runs 0..runs-1 of this series."""
        pending = []
        for first, last in blocks(deals):
            stored = dict(
                self.fetch(
                    f"SELECT deal, COUNT(*) FROM plays WHERE {RULE_KEY} AND policy = ? AND settings = ? "
                    "AND seed = ? AND run < ? AND deal BETWEEN ? AND ? GROUP BY deal",
                    (*self.key, policy, settings, seed, runs, encode_deal(first), encode_deal(last)),
                )
            )
            pending += [deal for deal in range(first, last + 1) if stored.get(encode_deal(deal), 0) < runs]
        return pending

    def pending_ratings(self, deals, runs: int, seed: int) -> list[tuple[int, str, int, int]]:
        """(deal, status, solution_length, nodes) of every stored result in a DealRange with
        no rating of this runs and seed, or one made beside another verdict."""
        pending = []
        for first, last in blocks(deals):
            pending += [
                (decode_deal(deal), *figures)
                for deal, *figures in self.fetch(
                    "SELECT r.deal, r.status, r.solution_length, r.nodes FROM results r "
                    "LEFT JOIN ratings g ON g.variant = r.variant AND g.foundation_return = "
                    "r.foundation_return AND g.numbering = r.numbering AND g.deal = r.deal "
                    "AND g.runs = ? AND g.seed = ? "
                    "WHERE r.variant = ? AND r.foundation_return = ? AND r.numbering = ? "
                    "AND r.deal BETWEEN ? AND ? AND (g.deal IS NULL OR g.status != r.status) ORDER BY r.deal",
                    (runs, seed, *self.key, encode_deal(first), encode_deal(last)),
                )
            ]
        return pending

    def plays(self) -> list[dict]:
        """Every stored game, by deal, policy, settings, seed and run."""
        if not self.has_player_tables():
            return []
        rows = self.fetch(
            f"SELECT {', '.join(PLAY_COLUMNS)} FROM plays ORDER BY deal, policy, settings, seed, run"
        )
        return [dict(zip(PLAY_COLUMNS, row)) | {"deal": decode_deal(row[3])} for row in rows]

    def ratings(self) -> list[dict]:
        """Every stored rating, by deal, runs and seed."""
        if not self.has_player_tables():
            return []
        rows = self.fetch(f"SELECT {', '.join(RATING_COLUMNS)} FROM ratings ORDER BY deal, runs, seed")
        return [dict(zip(RATING_COLUMNS, row)) | {"deal": decode_deal(row[3])} for row in rows]

    def policy_figures(self) -> list[dict]:
        """Per policy and settings: games and wins, on all deals, on deals the store holds as
        solved (and how many of those deals were won at least once), and on deals it holds
        as unsolvable (a win there would contradict the verdict)."""
        if not self.has_player_tables():
            return []
        names = (
            "policy", "settings", "games", "wins", "deals", "solvable_games", "solvable_wins",
            "solvable_deals", "solvable_deals_won", "unsolvable_wins",
        )  # fmt: skip
        rows = self.fetch(
            "SELECT p.policy, p.settings, COUNT(*), SUM(p.won), COUNT(DISTINCT p.deal), "
            "SUM(r.status = 'solved'), SUM(p.won AND r.status = 'solved'), "
            "COUNT(DISTINCT CASE WHEN r.status = 'solved' THEN p.deal END), "
            "COUNT(DISTINCT CASE WHEN r.status = 'solved' AND p.won THEN p.deal END), "
            "SUM(p.won AND r.status = 'unsolvable') "
            "FROM plays p LEFT JOIN results r ON r.variant = p.variant AND r.foundation_return = "
            "p.foundation_return AND r.numbering = p.numbering AND r.deal = p.deal "
            f"WHERE p.{RULE_KEY.replace(' AND ', ' AND p.')} GROUP BY p.policy, p.settings ORDER BY 1, 2",
            self.key,
        )
        return [dict(zip(names, (*row[:2], *(value or 0 for value in row[2:])))) for row in rows]

    def tier_figures(self) -> list[dict]:
        """Per (runs, seed) of the ratings: deals by tier (None: not proved solvable)."""
        if not self.has_player_tables():
            return []
        rows = self.fetch(
            f"SELECT runs, seed, tier, COUNT(*) FROM ratings WHERE {RULE_KEY} "
            "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            self.key,
        )
        series: dict[tuple[int, int], dict] = {}
        for runs, seed, tier, count in rows:
            series.setdefault((runs, seed), {})[tier] = count
        return [{"runs": runs, "seed": seed, "tiers": tiers} for (runs, seed), tiers in series.items()]


# ---- helpers ------------------------------------------------------------------------------


class translated:
    """Turn sqlite3 errors (and text that is not UTF-8) into a one-line YukonError naming
    the store."""

    def __init__(self, path: Path, doing: str):
        self.path, self.doing = path, doing

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is not None and issubclass(kind, sqlite3.Error):
            raise YukonError(f"{self.doing} results store {self.path}: {describe(error)}") from None
        if kind is not None and issubclass(kind, UnicodeDecodeError):
            raise YukonError(
                f"results store {self.path} is damaged: it holds text that is not UTF-8"
            ) from None
        return False


def describe(error: sqlite3.Error) -> str:
    text = error_line(error)
    if "not a database" in text or "malformed" in text:
        return f"{text} (the file is corrupt or not a results store)"
    return text


def writable(path: Path) -> bool:
    """Whether this process may write the store (and, for its journal, its directory)."""
    directory = path.parent if str(path.parent) else Path(".")
    return os.access(directory, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))


def connect(path: Path, mode: str) -> sqlite3.Connection:
    """A connection in URI ``mode`` (``rwc``, ``ro``, ``ro&immutable=1``)."""
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


def check_values(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a hand-edited store whose values do not fit their columns (a text deal
    number, a blob solution), naming the first such row and column."""
    for item in FIELDS:
        definition = column_definition(item)
        if item.name == "deal":
            condition = (
                f"NOT (typeof(deal) = 'integer' OR (typeof(deal) = 'text' AND deal GLOB '{DEAL_TEXT}'))"
            )
        else:
            kinds = ALLOWED_TYPES[definition.split()[1]] + (() if "NOT NULL" in definition else ("null",))
            condition = f"typeof({item.name}) NOT IN ({', '.join(repr(kind) for kind in kinds)})"
        with translated(path, "cannot read"):
            row = connection.execute(
                f"SELECT quote(deal), typeof({item.name}) FROM results WHERE {condition} LIMIT 1"
            ).fetchone()
        if row is not None:
            raise YukonError(
                f"results store {path} is damaged: the row of deal {row[0][:40]} holds "
                f"a {row[1]} value in column {item.name}"
            )


def initialise(connection: sqlite3.Connection, rules: Rules, numbering: str) -> dict:
    run_script(connection, SCHEMA + PLAYER_SCHEMA)
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


def migrate(connection: sqlite3.Connection, meta: dict) -> dict:
    """Bring a schema 1 store to schema 2 inside the caller's transaction: add the player's
    tables and set the version; no existing row changes."""
    run_script(connection, PLAYER_SCHEMA)
    connection.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
    return meta | {"schema": SCHEMA_VERSION}


def blocks(deals) -> Iterator[tuple[int, int]]:
    """The intervals of a DealRange cut into RANGE_BLOCK-deal pieces."""
    for first, last in deals.intervals:
        for start in range(first, last + 1, RANGE_BLOCK):
            yield start, min(last, start + RANGE_BLOCK - 1)


def run_script(connection: sqlite3.Connection, script: str) -> None:
    """Execute ``;``-separated statements inside the caller's transaction."""
    for statement in script.split(";"):
        if statement.strip():
            connection.execute(statement)


# ---- export -------------------------------------------------------------------------------


def export_jsonl(store_path, out_file) -> int:
    """Write every row of the store as one JSON object per line, in deal order; return the
    number of records. ``out_file`` is a path (written to a temporary file first and renamed,
    so an interrupted export leaves no half file), ``"-"`` for stdout, or an open text file.

    Each object is a ``Record`` as JSON: every field in field order, those that
    ``yukon verify`` replays first."""
    store = Store.open_existing(store_path)
    try:
        if out_file == "-" or hasattr(out_file, "write"):
            stream = sys.stdout if out_file == "-" else out_file
            return write_records(store, stream)
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
                count = write_records(store, handle)
            os.chmod(handle.name, 0o666 & ~current_umask())
            os.replace(handle.name, target)
        except BaseException as error:
            with suppress(OSError):
                os.unlink(handle.name)
            if isinstance(error, OSError):
                raise YukonError(f"cannot write export file {target}: {error.strerror}") from None
            raise
        return count
    finally:
        store.close()


def current_umask() -> int:
    """The process's umask (read by setting it, then setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_records(store: Store, stream) -> int:
    count = 0
    for record in store.records():
        stream.write(json.dumps(record.to_json(), allow_nan=False) + "\n")
        count += 1
    return count
