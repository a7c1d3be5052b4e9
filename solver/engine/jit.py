"""The one place kernel compile flags are set: every kernel uses ``kernel``.

numba's on-disk cache checks only the source file of the kernel it loads, not the files of
the kernels it calls, so an edit to ``moves.py`` would leave a stale ``search_chunk``
behind. Kernels are therefore cached in a folder named after a digest of every engine
source file: any change there starts a fresh cache. The folder is under
``$NUMBA_CACHE_DIR`` when that is set, else under ``$XDG_CACHE_HOME`` (``~/.cache``).
"""

import hashlib
import os
from pathlib import Path

import numba

KERNEL_FLAGS = {"cache": True, "nogil": True, "boundscheck": False}


def engine_digest() -> str:
    digest = hashlib.sha1()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "yukon-solver"
    )
    return Path(base) / f"engine-{engine_digest()}"


numba.config.CACHE_DIR = str(cache_folder())


def kernel(function):
    return numba.njit(**KERNEL_FLAGS)(function)
