"""A results store's SQLite connection: opening it, the one write transaction, and sqlite3
errors (and text that is not UTF-8) as one-line YukonErrors naming the store."""

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from urllib.parse import quote

from solver.errors import YukonError, error_line

BUSY_TIMEOUT_SECONDS = 60.0


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


@contextmanager
def transaction(connection: sqlite3.Connection, path: Path) -> Iterator[None]:
    """One write transaction: the write lock taken at once (BEGIN IMMEDIATE), committed when
    the block ends, rolled back when it raises anything (Ctrl-C included)."""
    with translated(path, "cannot write to"):
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
            connection.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
            raise


def describe(error: sqlite3.Error) -> str:
    text = error_line(error)
    if "not a database" in text or "malformed" in text or "decode to UTF-8" in text:
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
    """The absolute path as a URI path, its bytes percent-encoded (a name or working
    directory that is not UTF-8 included)."""
    return quote(os.fsencode(os.path.abspath(path)))
