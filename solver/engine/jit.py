"""The one place kernel compile flags are set: every kernel uses ``kernel``.

numba's on-disk cache checks only the source file of the kernel it loads, not the files of
the kernels it calls, so an edit to ``moves.py`` would leave a stale ``search_chunk``
behind. Kernels are therefore cached in a folder named after a digest of every engine
source file, subpackages included: any change there starts a fresh cache. The folder is under
``$NUMBA_CACHE_DIR`` when that is set, else under ``$XDG_CACHE_HOME`` (``~/.cache``); where
that cannot be written, under the system's temporary folder, and failing that kernels are
compiled without a cache (``CACHE_NOTE`` then says so, for the caller to print).
"""

import fcntl
import hashlib
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numba
from numba.core import types

KERNEL_FLAGS = {"cache": True, "nogil": True, "boundscheck": False}
ENGINE_FOLDER = Path(__file__).parent


def source_digest(folder: Path) -> str:
    """A digest of every ``.py`` file under ``folder``, in subfolders too: names and contents."""
    digest = hashlib.sha1()
    for source in sorted(folder.rglob("*.py")):
        digest.update(source.relative_to(folder).as_posix().encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def preferred_cache_root() -> Path:
    """``$NUMBA_CACHE_DIR``, else ``$XDG_CACHE_HOME/yukon-solver`` (``~/.cache/yukon-solver``)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "yukon-solver"


def fallback_cache_root() -> Path:
    """A per-user folder in the system's temporary folder."""
    return Path(tempfile.gettempdir()) / f"yukon-solver-{os.getuid()}"


def writable_folder(folder: Path) -> bool:
    """Whether ``folder`` exists or can be made, and a file can be written in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def choose_cache_folder(roots, digest: str) -> tuple[Path | None, str | None]:
    """The first of ``roots`` where this engine version's cache folder can be written, and
    a one-line note when that is not the first root (``None`` folder: no cache at all).
    Never the installed package's own folder, where numba would otherwise fall back."""
    for number, root in enumerate(roots):
        folder = root / f"engine-{digest}"
        if writable_folder(folder):
            note = None if number == 0 else f"cache folder {roots[0]} is not writable; using {root}"
            return folder, note
    return None, f"no writable cache folder ({', '.join(map(str, roots))}); compiling without a cache"


CACHE_FOLDER, CACHE_NOTE = choose_cache_folder(
    [preferred_cache_root(), fallback_cache_root()], source_digest(ENGINE_FOLDER)
)
if CACHE_FOLDER is None:
    KERNEL_FLAGS["cache"] = False
else:
    numba.config.CACHE_DIR = str(CACHE_FOLDER)
COMPLETE_MARK = "complete"


def cache_is_complete() -> bool:
    """Whether every kernel of this engine version was compiled into the cache before."""
    return CACHE_FOLDER is not None and (CACHE_FOLDER / COMPLETE_MARK).exists()


def mark_cache_complete() -> None:
    if CACHE_FOLDER is not None:
        (CACHE_FOLDER / COMPLETE_MARK).touch()


@contextmanager
def compile_lock():
    """Held while a process compiles or loads the kernels: other processes of this machine
    (batch workers, Dask workers) wait, then load what the first one compiled, so the
    kernels compile once per machine, not once per process."""
    if CACHE_FOLDER is None:
        yield
        return
    with open(CACHE_FOLDER / "compile.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def kernel(function):
    """``function`` compiled by numba with the engine's flags, once per argument layout.

    Called from another kernel, numba would compile a kernel anew for every distinct set
    of argument types it meets: a constant argument (``Literal[int](0)``), an int8 card
    where elsewhere an int64 is passed, each gave another full compilation (a third of the
    first run's compile time). Calls from kernels are therefore typed with ``widened``
    argument types; the caller converts its values, which loses nothing (every widening is
    value-preserving)."""
    dispatcher = numba.njit(**KERNEL_FLAGS)(function)
    call_template = dispatcher.get_call_template

    def widened_call_template(args, kws):
        return call_template(tuple(map(widened, args)), {name: widened(kind) for name, kind in kws.items()})

    dispatcher.get_call_template = widened_call_template
    return dispatcher


def widened(kind: types.Type) -> types.Type:
    """The type a kernel is compiled for when called with an argument of type ``kind``:
    constants lose their literal value, signed integers narrower than 64 bits widen to
    int64; everything else (arrays, uint64 keys, omitted defaults) stays."""
    kind = types.unliteral(kind)
    if isinstance(kind, types.Integer) and kind.signed and kind.bitwidth < 64:
        return types.int64
    return kind
