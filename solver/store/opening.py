"""Opening a results store: ``Store``, the store's tables together on one connection.

A store is opened for a run (made when missing, migrated when of release 0.1.0) or read
(``stats``, ``export``); either way a store made for another rule set, a file that is not a
store, a corrupt or hand-edited one is refused with one line before anything is written.
"""

import os
import sqlite3
import uuid
from contextlib import suppress
from pathlib import Path

from solver.errors import YukonError
from solver.game.rules import Rules
from solver.store.claims import CLAIMS_SCHEMA, ClaimsTable
from solver.store.connection import connect, transaction, translated, writable
from solver.store.player_tables import PlayerTables
from solver.store.results import ResultsTable
from solver.store.schema import (
    SCHEMA_VERSION,
    check_meta_matches,
    initialise,
    meta_rules,
    migrate,
    quick_check,
    read_meta,
    result_columns,
)
from solver.store.shape import check_shape

# The files SQLite keeps for a database (the database itself first).
SQLITE_SUFFIXES = ("", "-wal", "-shm", "-journal")


class Store(ResultsTable, ClaimsTable, PlayerTables):
    """An open results store. Use ``open_for_run`` to add results, ``open_existing`` to read
    (a store this process may not write is read as an immutable file)."""

    def __init__(self, path: Path, connection: sqlite3.Connection, meta: dict):
        self.path = path
        self.connection = connection
        self.meta = meta
        self.rules = meta_rules(meta)
        self.numbering = meta["numbering"]
        self.key = (self.rules.variant, int(self.rules.foundation_return), self.numbering)
        self.result_columns = result_columns(connection)

    @classmethod
    def open_for_run(cls, path, rules: Rules, numbering: str) -> "Store":
        """Open (or create) the store a run of ``rules`` under ``numbering`` writes to.

        A store made for another rule set or numbering is refused with YukonError before
        anything is written to it; so are files that are not stores, corrupt files and
        places that cannot be written."""
        path = Path(path)
        if path.is_dir():
            raise YukonError(f"results store {path} is a directory, not a file")
        if path.exists() and not path.is_file():
            raise YukonError(f"results store {path} is not a regular file (a device or a FIFO)")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise YukonError(
                f"cannot create the directory of results store {path}: {error.strerror}"
            ) from None
        if not writable(path):
            raise YukonError(f"cannot write to results store {path}: permission denied (read-only)")
        if not path.exists():
            made_whole(path, rules, numbering)
        fresh = not path.exists() or path.stat().st_size == 0
        connection = connect(path, "rwc")
        try:
            meta = None if fresh else read_meta(connection, path, allow_empty=True)
            if meta is not None:
                check_meta_matches(meta, rules, numbering, path)
                quick_check(connection, path)
                check_shape(connection, path, meta)
            with translated(path, "cannot write to"):
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute("PRAGMA synchronous = NORMAL")
            with transaction(connection, path):
                meta = prepared(connection, meta, rules, numbering, path)
        except BaseException:
            connection.close()
            raise
        return cls(path, connection, meta)

    @classmethod
    def open_existing(cls, path) -> "Store":
        """Open a store that must already exist, read-only (export, stats): a store the user
        may not write (an archived one) is read as an immutable file, and refused when its
        journal still holds results (``check_no_journal``)."""
        path = Path(path)
        if not path.is_file():
            raise YukonError(f"no results store at {path}")
        if not writable(path):
            check_no_journal(path)
        connection = connect(path, "rw" if writable(path) else "ro&immutable=1")
        try:
            meta = read_meta(connection, path, allow_empty=False)
            quick_check(connection, path)
            check_shape(connection, path, meta)
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


def made_whole(path: Path, rules: Rules, numbering: str) -> None:
    """Make a new store beside ``path`` and link it into place once it is whole: a store
    that cannot be made (a full disk) leaves no file behind, and one another run made
    meanwhile is kept as it is. Where the file system has no hard links, the store is made
    in place (``open_for_run`` goes on with a missing file)."""
    partial = path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.new")
    connection = connect(partial, "rwc")
    try:
        with translated(path, "cannot write to"):
            connection.execute("PRAGMA journal_mode = WAL")
        with transaction(connection, path):
            initialise(connection, rules, numbering)
        connection.close()
        with suppress(FileExistsError):
            os.link(partial, path)
    except OSError:
        return  # no hard links here
    finally:
        connection.close()
        for suffix in SQLITE_SUFFIXES:
            with suppress(OSError):
                os.unlink(f"{partial}{suffix}")


def check_no_journal(path: Path) -> None:
    """Refuse a store this process may not write whose write-ahead log holds data (a run
    was killed): read as an immutable file, SQLite would ignore the results in the log."""
    journal = Path(f"{path}-wal")
    if journal.is_file() and journal.stat().st_size > 0:
        raise YukonError(
            f"results store {path} is read-only and its journal {journal} holds results not yet "
            "in the store; read a writable copy of both files"
        )


def prepared(
    connection: sqlite3.Connection, meta: dict | None, rules: Rules, numbering: str, path: Path
) -> dict:
    """Under the write lock: make the store if it is new (another run may have made it
    meanwhile), migrate it to this schema, add the claims table; its meta."""
    if meta is None:
        meta = read_meta(connection, path, allow_empty=True)
        if meta is None:
            meta = initialise(connection, rules, numbering)
        else:
            check_meta_matches(meta, rules, numbering, path)
    if meta["schema"] != SCHEMA_VERSION:
        meta = migrate(connection, meta)
    connection.execute(CLAIMS_SCHEMA)
    return meta
