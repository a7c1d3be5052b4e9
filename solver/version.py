"""The release, written once: ``yukon --version``, the package metadata (pyproject.toml) and
every record, store and catalogue file that names the solver version read it from here; and
the digest of the source a verdict depends on, which every record carries beside the version,
so that records made by different code under one version number can be told apart."""

import hashlib
from functools import cache
from pathlib import Path

__version__ = "0.3.3"
PACKAGE = Path(__file__).parent
# The folders whose code decides a verdict: the rules layer, the search driver, the kernels.
VERDICT_SOURCES = ("game", "search", "engine")


def source_digest(folder: Path) -> str:
    """A digest of every ``.py`` file under ``folder``, in subfolders too: names and contents."""
    digest = hashlib.sha1()
    for source in sorted(folder.rglob("*.py")):
        digest.update(source.relative_to(folder).as_posix().encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


@cache
def verdict_source() -> str:
    """The digest of the code of VERDICT_SOURCES (16 hex digits): a record's ``solver_source``."""
    digest = hashlib.sha1()
    for name in VERDICT_SOURCES:
        digest.update(name.encode() + b"\0" + source_digest(PACKAGE / name).encode())
    return digest.hexdigest()[:16]
