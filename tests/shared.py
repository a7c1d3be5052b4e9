"""What the tests of one run share, however many pytest-xdist workers run them (each worker has
its own session, and so its own session and module fixtures): a folder made once for all of
them, and a lock that lets one worker at a time run a tool whose first use installs itself."""

import os
import shutil
from pathlib import Path

import filelock

# Written in a ``made_once`` folder once it is complete.
MADE = "made"


def shared_folder(tmp_path_factory) -> Path:
    """The temporary folder of this test run that every worker sees (a worker's own is in it)."""
    own = tmp_path_factory.getbasetemp()
    return own.parent if os.environ.get("PYTEST_XDIST_WORKER") else own


def one_at_a_time(tmp_path_factory, name: str) -> filelock.FileLock:
    """A lock named ``name`` that one worker of this test run holds at a time."""
    return filelock.FileLock(shared_folder(tmp_path_factory) / f"{name}.lock")


def made_once(tmp_path_factory, name: str, make) -> Path:
    """The folder ``name`` that ``make(folder)`` filled, once in a test run: the first worker to
    ask makes it, under a lock, and a worker that asks meanwhile waits for it."""
    folder = shared_folder(tmp_path_factory) / name
    with one_at_a_time(tmp_path_factory, name):
        if not (folder / MADE).exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (folder / MADE).touch()
    return folder
