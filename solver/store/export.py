"""``yukon export``: a store's results as a results file, one JSON object per line."""

import errno
import json
import os
import sys
import tempfile
import time
from contextlib import suppress
from pathlib import Path

from solver.common.atomic import current_umask
from solver.errors import YukonError
from solver.store.opening import SQLITE_SUFFIXES, Store

# How every SQLite database file begins.
SQLITE_HEADER = b"SQLite format 3\x00"
# How long an export waits for a program to open a FIFO target for reading, and how often it looks.
READER_WAIT_SECONDS = 10.0
READER_POLL_SECONDS = 0.05
# The files SQLite keeps beside a store.


def export_jsonl(store_path, out_file, reader_wait: float = READER_WAIT_SECONDS) -> int:
    """Write every row of the store as one JSON object per line, in deal order; return the
    number of records. ``out_file`` is a path, ``"-"`` for stdout, or an open text file. A
    path to a regular file (through any symlink) or to nothing is written to a temporary
    file first and renamed, so an interrupted export leaves no half file; another kind of
    file (a FIFO, a device) is written directly, a FIFO once a program opens it for reading
    (refused when none has within ``reader_wait`` seconds). The store itself, its journal
    files and any other SQLite database are refused.

    Each object is a ``Record`` as JSON: its format keys (``yukon-record``), then every
    field in field order, those that ``yukon verify`` replays first."""
    store = Store.open_existing(store_path)
    try:
        if out_file == "-" or hasattr(out_file, "write"):
            stream = sys.stdout if out_file == "-" else out_file
            return write_to_stream(store, stream)
        target = Path(os.path.realpath(out_file))
        check_target(target, Path(store_path), out_file)
        if target.exists() and not target.is_file():
            return write_directly(store, target, out_file, reader_wait)
        return write_replacing(store, target, out_file)
    finally:
        store.close()


def check_target(target: Path, store_path: Path, shown) -> None:
    """Refuse an export target (``target``: its real path) that is a directory, the store or
    one of its journal files, or an SQLite database."""
    if target.is_dir():
        raise YukonError(f"export target {shown} is a directory")
    store = os.path.realpath(store_path)
    if str(target) in {store + suffix for suffix in SQLITE_SUFFIXES} or same_file(target, store_path):
        raise YukonError(f"export target {shown} is the results store {store_path} or one of its files")
    if target.is_file() and starts_with(target, SQLITE_HEADER):
        raise YukonError(f"export target {shown} is an SQLite database; choose another file")


def same_file(first: Path, second: Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def starts_with(path: Path, header: bytes) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(len(header)) == header
    except OSError:
        return False


def write_directly(store: Store, target: Path, shown, reader_wait: float) -> int:
    """Write into a file that is not a regular one (a FIFO, a device), as it is."""
    descriptor = opened_for_writing(target, shown, reader_wait)
    try:
        os.set_blocking(descriptor, True)
        with open(descriptor, "w", encoding="utf-8") as handle:
            return write_records(store, handle)
    except OSError as error:
        raise YukonError(f"cannot write export file {shown}: {error.strerror}") from None


def opened_for_writing(target: Path, shown, reader_wait: float) -> int:
    """A descriptor writing to ``target``, opened without blocking: a FIFO no program reads
    is tried again every READER_POLL_SECONDS for ``reader_wait`` seconds, then refused (a
    blocking open would wait for ever)."""
    deadline = time.monotonic() + reader_wait
    while True:
        try:
            return os.open(target, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError as error:
            if error.errno != errno.ENXIO:
                raise YukonError(f"cannot write export file {shown}: {error.strerror}") from None
        if time.monotonic() >= deadline:
            raise YukonError(
                f"export target {shown} is a FIFO no program opened for reading in {reader_wait:g} s"
            )
        time.sleep(READER_POLL_SECONDS)


def write_to_stream(store: Store, stream) -> int:
    """Write to an open stream (standard output), flushed: a write that fails (a full disk)
    is a YukonError, never a silent loss; a closed pipe is left to the caller."""
    try:
        count = write_records(store, stream)
        stream.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        where = "standard output" if stream is sys.stdout else getattr(stream, "name", "the output")
        raise YukonError(f"cannot write the export to {where}: {error.strerror or error}") from None
    return count


def write_replacing(store: Store, target: Path, shown) -> int:
    """Write a temporary file beside ``target``, then rename it over ``target``."""
    try:
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - renamed into place below
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
        )
    except OSError as error:
        raise YukonError(f"cannot write export file {shown}: {error.strerror}") from None
    try:
        with handle:
            count = write_records(store, handle)
        os.chmod(handle.name, 0o666 & ~current_umask())
        os.replace(handle.name, target)
    except BaseException as error:
        with suppress(OSError):
            os.unlink(handle.name)
        if isinstance(error, OSError):
            raise YukonError(f"cannot write export file {shown}: {error.strerror}") from None
        raise
    return count


def write_records(store: Store, stream) -> int:
    count = 0
    for record in store.records():
        stream.write(json.dumps(record.to_json(), allow_nan=False) + "\n")
        count += 1
    return count
