"""The one place kernel compile flags are set: every kernel uses ``kernel`` (or
``allocating_kernel``).

Reference counting: numba counts the references to every array a kernel holds (an atomic
increment and decrement of the array's memory record each time an array, or a tuple of them,
is passed to a kernel, taken from a tuple or sliced), and on the search's hot path that
counting was more than half of all the work: ``perf`` on KPat 3000105 put 60% of the solve's
samples on the two atomic instructions of ``NRT_incref``/``NRT_decref`` (the dead-end tables
alone were a tuple of 20 arrays, passed to several kernels per position). The counting is
only needed to free arrays a kernel makes, so ``kernel`` compiles without it (numba's
``_nrt`` flag off): such a kernel may read, write and slice the arrays it is given, but
cannot make an array (numba refuses to compile ``np.zeros`` there) and must not return one of
its array arguments (its caller, if it counts, would let go of a reference it was never
given). The few kernels that make arrays (``allocating_kernel``: the table builders, HOPELESS's
reading of the table, the line shortener, the greedy player) keep the counting; they free what
they make themselves and return no array to a kernel that does not count.
``tests/test_jit.py`` checks both rules on the source and that a solve leaves no array behind.
The search is the same, position for position; on KPat 3000105 it takes 10.8 s instead of 19.7.

numba's on-disk cache checks only the source file of the kernel it loads, not the files of
the kernels it calls, so an edit to ``moves.py`` would leave a stale ``search_chunk``
behind. Kernels are therefore cached in a folder named after a digest of every engine
source file, subpackages included: any change there starts a fresh cache. The folder is under
``$NUMBA_CACHE_DIR`` when that is set, else in the platform's cache folder for this user
(``platformdirs``: ``$XDG_CACHE_HOME/yukon-solver`` or ``~/.cache/yukon-solver`` on Linux,
``~/Library/Caches/yukon-solver`` on macOS, ``%LOCALAPPDATA%\\yukon-solver\\Cache`` on Windows);
where that cannot be written, under the system's temporary folder, and failing that kernels
are compiled without a cache (``CACHE.note`` then says so, for the caller to print). Nothing
here needs a POSIX-only module: the compile lock is ``filelock``'s (flock, or msvcrt on Windows).
"""

import errno
import functools
import gc
import getpass
import hashlib
import io
import json
import os
import pickle
import stat
import sys
import tempfile
import time
import types as python_types
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numba
import platformdirs
from numba.core import types
from numba.core.caching import CacheImpl, UserProvidedCacheLocator, _CacheLocator

from solver.version import source_digest

# ``_nrt`` off: no reference counting (see the module docstring); no C-callable wrapper (numba's
# ``cfunc`` address of a kernel, which nothing here takes: it was 5% of the first compile)
KERNEL_FLAGS = {"cache": True, "nogil": True, "boundscheck": False, "_nrt": False, "no_cfunc_wrapper": True}
ENGINE_FOLDER = Path(__file__).parent
# Every folder a fallback cache goes through, in a place other users can write (the system's
# temporary folder), must be this user's own and closed to others: numba unpickles what it finds.
PRIVATE_MODE = 0o700


@functools.cache
def os_file_lock():
    """The class of the OS's lock on an open file (flock on POSIX, msvcrt on Windows), which the OS
    lets go of when the process ends however it ends; None where there is none (no fcntl off
    Windows): filelock would then offer a lock file whose mere presence holds it, which a compile
    killed midway would leave held for good, so the kernels compile without a lock instead.
    filelock is imported here, by a process that compiles: loading it costs a tenth of a second."""
    with warnings.catch_warnings():  # its warning when no OS lock exists
        warnings.simplefilter("ignore")
        import filelock
    if sys.platform == "win32":
        return filelock.WindowsFileLock
    return filelock.UnixFileLock if filelock.has_fcntl else None


def preferred_cache_root() -> Path:
    """``$NUMBA_CACHE_DIR``, else the platform's cache folder of ``yukon-solver`` for this user
    (the fallback when platformdirs finds no home folder for this user)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    try:
        return Path(platformdirs.user_cache_dir("yukon-solver", appauthor=False))
    except RuntimeError:
        return fallback_cache_root()


def user_id() -> int | None:
    """This user's id (None where there are none: Windows)."""
    return os.getuid() if hasattr(os, "getuid") else None


def fallback_cache_root() -> Path:
    """A per-user folder in the system's temporary folder."""
    user = user_id()
    return Path(tempfile.gettempdir()) / f"yukon-solver-{getpass.getuser() if user is None else user}"


def private_folder(folder: Path) -> bool:
    """Whether ``folder`` exists or can be made (mode 0700) as a real folder (not a link)
    owned by this user that no other user may write: only then may a cache live there."""
    try:
        folder.mkdir(mode=PRIVATE_MODE, parents=True, exist_ok=True)
        status = os.lstat(folder)
    except OSError:
        return False
    if user_id() is None:  # Windows: the temporary folder is the user's own, no modes to read
        return stat.S_ISDIR(status.st_mode)
    others_may_write = status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return stat.S_ISDIR(status.st_mode) and status.st_uid == user_id() and not others_may_write


def writable_folder(folder: Path) -> bool:
    """Whether ``folder`` exists or can be made, and a byte can be written in it (a full
    disk makes the file but not the byte)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder) as probe:
            probe.write(b"\0")
            probe.flush()
            return True
    except OSError:
        return False


def choose_cache_folder(roots, digest: str, shared_roots=()) -> tuple[Path | None, str | None]:
    """The first of ``roots`` where this engine version's cache folder can be written (a root
    in ``shared_roots`` only when ``private_folder``), and a one-line note when that is not
    the first root (``None`` folder: no cache at all). Never the installed package's own
    folder, where numba would otherwise fall back."""
    for number, root in enumerate(roots):
        folder = root / f"engine-{digest}"
        if (root not in shared_roots or private_folder(root)) and writable_folder(folder):
            note = None if number == 0 else f"cache folder {roots[0]} is not writable; using {root}"
            return folder, note
    places = ", ".join(map(str, roots))
    return None, f"no writable cache folder of this user ({places}); compiling without a cache"


class CheckedOnceLocator(UserProvidedCacheLocator):
    """numba's locator of a cache under ``numba.config.CACHE_DIR`` that tries a write in a
    kernel's cache folder once per process, not once per kernel (a file made and removed for
    each of some 140 kernels was a third of a warm start's time)."""

    checked: set = set()

    def ensure_cache_path(self):
        if self._cache_path not in self.checked:
            super().ensure_cache_path()
            self.checked.add(self._cache_path)


@dataclass(frozen=True)
class KernelGroup:
    """Kernels compiled together, when a solve first needs them: ``name`` says what they do,
    ``seconds`` about how long they take to compile (``benchmarks/bench_cold_start.py``),
    ``kernels`` the ones a solve calls from Python."""

    name: str
    seconds: int
    kernels: tuple


# The mark of the kernel groups compiled completely into this install location's cache folders
# (``KernelCache.location_folders``): the groups' names and the SHA-256 of every engine cache file there.
COMPLETE_MARK = "complete"
# The engine's folders that hold kernel sources, relative to it: its own first (the mark is named
# after it), then its subpackages'. numba keeps each source folder's kernels in a cache subfolder.
SOURCE_FOLDERS = [
    Path("."),
    *sorted({path.parent.relative_to(ENGINE_FOLDER) for path in ENGINE_FOLDER.rglob("*.py")} - {Path(".")}),
]


def engine_cache_files(folders: list[Path]) -> list[Path]:
    """The cache files in ``folders`` (a ``KernelCache``'s ``location_folders``)."""
    return sorted(path for folder in folders for path in folder.glob("*") if path.is_file())


def file_digests(folders: list[Path]) -> dict[str, str]:
    """``file_digest`` of every cache file in ``folders``, by its folder's and its own name."""
    return {f"{path.parent.name}/{path.name}": file_digest(path) for path in engine_cache_files(folders)}


def file_digest(path: Path) -> str:
    """A compiled kernel's SHA-256 (numba writes each once); for an index, which numba rewrites
    with an entry more whenever a kernel is compiled for other arguments (here or by a kernel
    outside the groups), whether it reads as one."""
    data = path.read_bytes()
    if path.suffix != ".nbi":
        return hashlib.sha256(data).hexdigest()
    stream = io.BytesIO(data)
    try:
        pickle.load(stream)  # numba's index: its version, then its stamp and entries
        pickle.loads(stream.read())
    except Exception:  # whatever a broken pickle raises
        return "an unreadable index"
    return "an index"


class KernelCache:
    """The kernels' on-disk cache: its ``folder`` (None: compiling without a cache), the ``note``
    saying why it is not the preferred one, the ``engine_folder`` whose install location names the
    subfolders numba keeps the engine's kernels in, and whether kernels are still ``saving``: the
    first write that fails (a full disk) stops every later one, with one warning line on stderr,
    and the kernels are then compiled without a cache. ``CACHE`` is the process's one; a test makes
    its own over a folder of its own."""

    def __init__(self, folder: Path | None, note: str | None = None, engine_folder: Path = ENGINE_FOLDER):
        self.folder, self.note, self.engine_folder = folder, note, engine_folder
        self.saving = True

    def location_folders(self) -> list[Path]:
        """The subfolders of the cache where numba keeps the engine's kernels of this install
        location, one for each of the engine's source folders (``SOURCE_FOLDERS``: numba names
        each after its source folder's path, so each location has its own); the engine folder's
        own first; none without a cache."""
        if self.folder is None:
            return []
        sources = (self.engine_folder / source / "jit.py" for source in SOURCE_FOLDERS)
        return [self.folder / _CacheLocator.get_suitable_cache_subpath(str(source)) for source in sources]

    def mark_path(self) -> Path:
        """The mark of this install location, named after its engine folder's cache subfolder."""
        return self.folder / f"{self.location_folders()[0].name}.{COMPLETE_MARK}"

    def read_mark(self) -> dict:
        """The mark's groups and files (empty when there is none, or it is unreadable)."""
        try:
            mark = json.loads(self.mark_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        valid = isinstance(mark, dict) and isinstance(mark.get("groups"), list)
        return mark if valid and isinstance(mark.get("files"), dict) and mark["files"] else {}

    def is_complete(self, group: str) -> bool:
        """Whether the kernels of ``group`` were compiled completely into this location's cache
        folders and every file the mark names is still as written (another process compiling another
        group meanwhile changes some: this then answers no until it is done)."""
        if self.folder is None:
            return False
        mark = self.read_mark()
        if group not in mark.get("groups", ()):
            return False
        try:
            return mark["files"].items() <= file_digests(self.location_folders()).items()
        except OSError:
            return False

    def forget_broken(self) -> None:
        """Under the compile lock, before compiling: when the mark names a file that is no
        longer as written (truncated, edited), remove every cache file of this location and the
        mark, so that numba compiles afresh instead of unpickling a broken file."""
        mark = self.read_mark()
        folders = self.location_folders()
        try:
            intact = mark.get("files", {}).items() <= file_digests(folders).items()
        except OSError:
            intact = False
        if intact:
            return
        for path in engine_cache_files(folders):
            path.unlink(missing_ok=True)
        self.mark_path().unlink(missing_ok=True)

    def mark_complete(self, group: str) -> None:
        """Record ``group`` as compiled, with the digests of every cache file now there (under the
        compile lock, after the group's kernels were all compiled: see ``kernels_ready``)."""
        if self.folder is None or not self.saving:
            return
        groups = set(self.read_mark().get("groups", ())) | {group}
        try:
            mark = {"groups": sorted(groups), "files": file_digests(self.location_folders())}
            self.mark_path().write_text(json.dumps(mark), encoding="utf-8")
        except OSError as error:
            self.stop(error)

    def stop(self, error: OSError) -> None:
        """No more cache writes, after ``error`` (said once, on stderr)."""
        if self.saving:
            reason = error.strerror or os.strerror(error.errno or errno.EIO)
            print(
                f"warning: cannot write the kernel cache in {self.folder} ({reason}); "
                "compiling without a cache",
                file=sys.stderr,
                flush=True,
            )
        self.saving = False

    def guarded(self, save):
        """``save`` (a numba cache's ``save_overload``) that never fails: a failed write stops caching."""

        def save_unless_stopped(signature, data):
            if not self.saving:
                return
            try:
                save(signature, data)
            except OSError as error:
                self.stop(error)

        return save_unless_stopped

    def acquired_lock(self, say=None):
        """The compile lock of the cache folder, once this process holds it (waiting for it as
        long as another holds it, after telling ``say`` what it waits for); None without a cache,
        without an OS lock, or when the lock file cannot be opened (a folder took its name): then
        there is no lock, and since numba writes each cache file whole, processes compiling side
        by side only repeat work."""
        lock_class = os_file_lock()
        if self.folder is None or lock_class is None:
            return None
        lock = lock_class(self.folder / "compile.lock")
        try:
            try:
                lock.acquire(timeout=0)
            except TimeoutError:  # filelock's Timeout
                if say is not None:
                    say(f"waiting for another process that compiles the solver into {self.folder}")
                lock.acquire()
        except OSError:
            return None
        return lock

    @contextmanager
    def compile_lock(self, say=None):
        """Held while a process compiles kernels: other processes of this machine (batch workers,
        Dask workers) that find the cache incomplete wait, then load what the first one compiled,
        so the kernels compile once per machine, not once per process. A process that finds the
        cache complete loads without it."""
        lock = self.acquired_lock(say)
        try:
            yield
        finally:
            if lock is not None:
                lock.release()

    def kernels_ready(self, group: KernelGroup, exercise, say) -> float:
        """Make the kernels of ``group`` ready in this process: ``exercise()`` calls each of its
        kernels (and whatever they call) on a small position. From a cache that holds the group
        complete they load without any lock; otherwise this process takes the compile lock and,
        unless the process it waited for compiled them meanwhile, compiles them, telling ``say``
        first (every time: whatever the install location or cache), and marks the group complete
        once every one of ``kernels`` is in the cache. Returns the seconds it took, which no
        solve's budget counts (a compile's ends with a collection of Python's garbage: the next
        one would walk the compile's objects all, some 0.1-0.3 s)."""
        started = time.perf_counter()
        if self.is_complete(group.name):
            exercise()
            return time.perf_counter() - started
        with self.compile_lock(say):
            compiling = not self.is_complete(group.name)
            if compiling:
                if self.folder is not None:
                    self.forget_broken()
                say(f"compiling the solver's {group.name}, once per machine: about {group.seconds} s")
            exercise()
            if compiling and all(cached(dispatcher) for dispatcher in group.kernels):
                self.mark_complete(group.name)
        if compiling:
            gc.collect()  # the compile's many objects, walked now rather than by the solve's first collection
        return time.perf_counter() - started


CACHE = KernelCache(
    *choose_cache_folder(
        [preferred_cache_root(), fallback_cache_root()], source_digest(ENGINE_FOLDER), [fallback_cache_root()]
    )
)
if CACHE.folder is None:
    KERNEL_FLAGS["cache"] = False
else:
    numba.config.CACHE_DIR = str(CACHE.folder)
    CacheImpl._locator_classes.insert(0, CheckedOnceLocator)


def cached(dispatcher) -> bool:
    """Whether ``dispatcher`` was compiled (or loaded) and its index file is in the cache."""
    return bool(dispatcher.signatures) and Path(dispatcher._cache._cache_file._index_path).is_file()


def kernel(function):
    """``function`` compiled by numba with the engine's flags, once per argument layout.

    Called from another kernel, numba would compile a kernel anew for every distinct set
    of argument types it meets: a constant argument (``Literal[int](0)``), an int8 card
    where elsewhere an int64 is passed, each gave another full compilation (a third of the
    first run's compile time). Calls from kernels are therefore typed with ``widened``
    argument types; the caller converts its values, which loses nothing (every widening is
    value-preserving). Compiled without reference counting: it makes no array and returns none
    of its array arguments (see the module docstring)."""
    return compiled(function, KERNEL_FLAGS)


def allocating_kernel(function):
    """``kernel`` for a function that makes arrays: compiled with numba's reference counting,
    which frees them (see the module docstring)."""
    return compiled(function, KERNEL_FLAGS | {"_nrt": True})


def compiled(function, flags: dict):
    """``function`` compiled by numba with ``flags``, cached under the engine's digest and
    typed with ``widened`` argument types when called from another kernel."""
    dispatcher = numba.njit(**flags)(function)
    dispatcher._cache.save_overload = CACHE.guarded(dispatcher._cache.save_overload)
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


def variant(dispatcher, name: str, **constants):
    """Another kernel compiled from ``dispatcher``'s source, named ``name``, in which the module
    globals ``constants`` name hold other values: numba reads a global as a constant and leaves
    out the branches a constant condition never takes, so a variant with a test switched off
    compiles without the kernels that test calls (and computes what the original does wherever
    that test would not have run)."""
    function = dispatcher.py_func
    namespace = function.__globals__ | constants
    copy = python_types.FunctionType(function.__code__, namespace, name, function.__defaults__)
    copy.__qualname__, copy.__doc__ = name, function.__doc__
    return compiled(copy, KERNEL_FLAGS | {"_nrt": dispatcher.targetoptions["_nrt"]})
