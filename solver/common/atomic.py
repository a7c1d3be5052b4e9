"""Writing files whole or not at all: every file the project writes goes through
``replace_file`` or, for files of one folder that change together (a catalogue file and its
manifest), ``replace_files`` (``yukon export``'s own writer aside: it streams records and
follows the umask for special targets).

A file is first written under a new hidden name beside its target (made exclusively, so a
symlink planted there is never written through) and flushed to disk. ``replace_files``
then commits by renaming a journal naming every pair into place, renames each file over its
target and removes the journal: a process killed after the commit leaves the journal, and
``finish_switch`` (run by every reader of such a folder) completes the renames; one killed
before it leaves only hidden files, and the folder as it was.
"""

import json
import os
import stat
import tempfile
from contextlib import suppress
from pathlib import Path

# The journal of a switch in progress, in the folder it changes, and the most of it read.
JOURNAL_NAME = ".switch.journal"
MAX_JOURNAL_BYTES = 1 << 16


def written_beside(path: Path, data: bytes) -> Path:
    """``data`` in a new hidden file beside ``path``, flushed to disk; its path."""
    descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(name, 0o666 & ~current_umask())
    except BaseException:
        with suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def current_umask() -> int:
    """The process's umask (read by setting it, then setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def as_bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def replace_file(path: Path, data: bytes | str) -> None:
    """Write ``data`` (text is UTF-8) to ``path`` whole or not at all: into a hidden file
    beside it, then renamed over it, so a reader never sees half a file."""
    path = Path(path)
    partial = written_beside(path, as_bytes(data))
    try:
        partial.replace(path)
    except BaseException:
        with suppress(OSError):
            partial.unlink()
        raise


def sync_folder(directory: Path) -> None:
    """Flush a folder's entries (its renames) to disk, where the system allows it."""
    with suppress(OSError):
        descriptor = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def replace_files(directory: Path, files: dict[str, bytes | str]) -> None:
    """Write the ``files`` (name in ``directory``: content) so that they change together:
    after a kill at any point, a reader calling ``finish_switch`` sees all the new files or
    all the old ones."""
    directory = Path(directory)
    partials = {}
    try:
        for name, data in files.items():
            partials[name] = written_beside(directory / name, as_bytes(data)).name
        replace_file(directory / JOURNAL_NAME, json.dumps(partials))  # the commit
    except BaseException:
        for partial in partials.values():
            with suppress(OSError):
                (directory / partial).unlink()
        raise
    sync_folder(directory)
    switch(directory, partials)


def journal_bytes(journal: Path) -> bytes:
    """The journal's bytes; b"" for one that is no regular file (a FIFO planted there would
    block every reader): never one of ours."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(journal, flags)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return b""
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            return handle.read(MAX_JOURNAL_BYTES)
    finally:
        os.close(descriptor)


def finish_switch(directory: Path) -> None:
    """Complete a committed switch in ``directory`` (its journal present): rename every file
    the journal names that is still beside its target, then drop the journal. Nothing to do
    (the usual case) when there is no journal; an OSError when the folder cannot be written."""
    try:
        partials = json.loads(journal_bytes(Path(directory) / JOURNAL_NAME))
    except FileNotFoundError:
        return
    except ValueError:  # not JSON: a journal is renamed into place whole, so never one of ours
        partials = {}
    switch(Path(directory), partials if isinstance(partials, dict) else {})


def switch(directory: Path, partials: dict) -> None:
    """Rename each hidden file of a committed journal (``partials``: target name -> hidden
    file name) that is still beside its target over it, then drop the journal."""
    for name, partial in partials.items():
        if not (Path(name).name == name and str(partial).startswith(f".{name}.")):
            continue  # only a hidden file beside its own target, in this folder
        with suppress(FileNotFoundError):  # renamed already (by the writer, or another reader)
            (directory / Path(str(partial)).name).replace(directory / name)
    sync_folder(directory)
    with suppress(FileNotFoundError):
        (directory / JOURNAL_NAME).unlink()
