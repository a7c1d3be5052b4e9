"""The one place kernel compile flags are set: every kernel uses ``kernel``.

numba's on-disk cache checks only the source file of the kernel it loads, not the files of
the kernels it calls, so an edit to ``moves.py`` would leave a stale ``search_chunk``
behind. Kernels are therefore cached in a folder named after a digest of every engine
source file, subpackages included: any change there starts a fresh cache. The folder is under
``$NUMBA_CACHE_DIR`` when that is set, else under ``$XDG_CACHE_HOME`` (``~/.cache``).
"""

import hashlib
import os
from pathlib import Path

import numba

KERNEL_FLAGS = {"cache": True, "nogil": True, "boundscheck": False}
ENGINE_FOLDER = Path(__file__).parent


def source_digest(folder: Path) -> str:
    """A digest of every ``.py`` file under ``folder``, in subfolders too: names and contents."""
    digest = hashlib.sha1()
    for source in sorted(folder.rglob("*.py")):
        digest.update(source.relative_to(folder).as_posix().encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    """Where this version of the engine's compiled kernels are cached."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "yukon-solver"
    )
    return Path(base) / f"engine-{source_digest(ENGINE_FOLDER)}"


numba.config.CACHE_DIR = str(cache_folder())


def kernel(function):
    """``function`` compiled by numba with the engine's flags."""
    return numba.njit(**KERNEL_FLAGS)(function)
