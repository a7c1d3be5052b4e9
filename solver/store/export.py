"""``yukon export``: a store's results as a results file, one JSON object per line."""

import json
import os
import sys
import tempfile
from contextlib import suppress
from pathlib import Path

from solver.errors import YukonError
from solver.store.opening import Store


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
