"""The first minute: kernels compile once per machine, say so once on stderr, and only for
commands that search; the cache falls back to a writable place."""

import errno
import gc
import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import platformdirs
import platformdirs.macos
import platformdirs.unix
import pytest
from cold_start_runs import FIRST_SOLVE, yukon

from solver.engine import groups, jit, search
from solver.engine.dead_ends import entry, h2

LEGACY = Path(__file__).parent / "data" / "legacy"
NOTICE = "compiling the solver's first look, once per machine"
PROBE = """
import sys
from solver.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
finally:
    print("numba loaded" if "numba" in sys.modules else "no numba", file=sys.stderr)
"""


@pytest.mark.parametrize(
    "arguments",
    [
        ["deal", "12"],
        ["--help"],
        ["replay", "12", "3>7:TS"],
        ["verify", str(LEGACY / "export-v1.jsonl")],
        ["stats", "STORE"],
        ["export", "STORE", "--format", "jsonl", "-o", "OUT"],
    ],
    ids=lambda arguments: arguments[0],
)
def test_commands_that_do_not_search_never_load_the_compiler(arguments, tmp_path):
    store = tmp_path / "store.db"
    shutil.copy(LEGACY / "store-v1.db", store)
    arguments = [{"STORE": str(store), "OUT": str(tmp_path / "out.jsonl")}.get(a, a) for a in arguments]
    completed = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True, cwd=tmp_path
    )
    assert completed.stderr.strip().splitlines()[-1] == "no numba", completed.stderr


@pytest.fixture
def first_solve(cold_starts) -> tuple[subprocess.CompletedProcess, Path]:
    """``yukon solve 12 --json --time-limit 5`` from an empty kernel cache, and the cache."""
    return cold_starts.first_solve, cold_starts.cache


@pytest.mark.slow
def test_the_first_solves_of_a_machine_compile_once_between_them_and_keep_stdout_clean(cold_starts):
    """A single solve and a batch of two workers started together on an empty cache: one of
    the three processes compiles and says so, once; the others wait and load its kernels."""
    cold, cache, batch = cold_starts.first_solve, cold_starts.cache, cold_starts.batch
    assert cold.returncode == 0, cold.stderr
    assert batch.returncode == 0, batch.stderr
    assert cold.stderr.count(NOTICE) + batch.stderr.count(NOTICE) == 1
    assert json.loads(cold.stdout)["status"] == "solved"
    warm = yukon(FIRST_SOLVE, cache)
    assert NOTICE not in warm.stderr
    assert json.loads(warm.stdout) | {"seconds": 0, "finished_at": ""} == json.loads(cold.stdout) | {
        "seconds": 0,
        "finished_at": "",
    }


def test_cache_falls_back_to_the_next_writable_folder(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    folder, note = jit.choose_cache_folder([blocker / "cache", tmp_path / "fallback"], "digest")
    assert folder == tmp_path / "fallback" / "engine-digest"
    assert folder.is_dir()
    assert str(blocker / "cache") in note


def test_no_writable_folder_means_no_cache_and_one_note(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    folder, note = jit.choose_cache_folder([blocker / "one", blocker / "two"], "digest")
    assert folder is None
    assert "compiling without a cache" in note


# Solves like the command line, then says on stderr where the search kernel came from.
LOADED_FROM_PROBE = """
import sys
from solver.cli import main
from solver.engine.groups import search_chunk_lean as search_chunk
try:
    main(sys.argv[1:])
finally:
    hits, folder = sum(search_chunk.stats.cache_hits.values()), search_chunk.stats.cache_path
    print(f"search kernel: {hits} cache hits in {folder}", file=sys.stderr)
"""


@pytest.mark.slow
def test_an_unwritable_cache_folder_is_reported_once_and_solving_still_works(tmp_path, first_solve):
    """The fallback folder holds a copy of the first solve's compiled cache: the kernels
    load from it (no compile notice, the search kernel a cache hit there), which shows the
    fallback is the cache numba uses; the first solve's test is the compilation itself."""
    _cold, cache = first_solve
    [compiled] = cache.glob("engine-*")
    fallback = tmp_path / f"yukon-solver-{os.getuid()}"
    fallback.mkdir(mode=0o700)
    shutil.copytree(compiled, fallback / compiled.name)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    environment = {
        "NUMBA_CACHE_DIR": str(blocker / "cache"),
        "TMPDIR": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
    }
    completed = subprocess.run(
        [sys.executable, "-c", LOADED_FROM_PROBE, "solve", "12"],
        env=environment,
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr.count("is not writable") == 1
    assert "Traceback" not in completed.stderr and NOTICE not in completed.stderr
    hits, folder = re.fullmatch(
        r"search kernel: (\d+) cache hits in (.+)", completed.stderr.splitlines()[-1]
    ).groups()
    assert int(hits) >= 1 and Path(folder).is_relative_to(fallback / compiled.name)


# ---- issue 27: a cache another user planted, or a broken one, is never used -----------------------


def test_the_fallback_cache_is_made_private(tmp_path):
    fallback = tmp_path / "shared" / "yukon-solver-1"
    (tmp_path / "a-file").write_text("")
    folder, _note = jit.choose_cache_folder([tmp_path / "a-file" / "x", fallback], "digest", [fallback])
    assert folder == fallback / "engine-digest"
    assert fallback.stat().st_mode & 0o777 == 0o700


def planted_by_another_user(folder, monkeypatch):
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(jit.os, "getuid", lambda: folder.stat().st_uid + 1)


def planted_open_to_all(folder, monkeypatch):
    folder.mkdir()
    folder.chmod(0o777)


def planted_as_a_link(folder, monkeypatch):
    (folder.parent / "elsewhere").mkdir(mode=0o700)
    folder.symlink_to(folder.parent / "elsewhere")


@pytest.mark.parametrize("plant", [planted_by_another_user, planted_open_to_all, planted_as_a_link])
def test_a_fallback_cache_folder_someone_else_could_have_planted_is_not_used(tmp_path, monkeypatch, plant):
    fallback = tmp_path / "yukon-solver-1"
    plant(fallback, monkeypatch)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    folder, note = jit.choose_cache_folder([blocker / "cache", fallback], "digest", [fallback])
    assert folder is None
    assert "compiling without a cache" in note
    assert not (fallback / "engine-digest").exists()


def test_a_planted_fallback_folder_is_refused_when_the_solver_starts(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    planted = tmp_path / f"yukon-solver-{os.getuid()}"
    planted.mkdir()
    planted.chmod(0o777)
    environment = {
        "NUMBA_CACHE_DIR": str(blocker / "cache"),
        "TMPDIR": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            "from solver.engine import jit; print(jit.CACHE.folder, jit.KERNEL_FLAGS['cache'])",
        ],
        env=environment,
        capture_output=True,
        text=True,
    )
    assert completed.stdout.split() == ["None", "False"], completed.stderr
    assert list(planted.iterdir()) == []


@pytest.fixture
def cache(tmp_path):
    """A kernel cache with one kernel (an index and its compiled code) in the folder of each of the
    engine's source folders (the engine's own, ``dead_ends``), as a complete compilation of the
    search group leaves it."""
    cache = jit.KernelCache(tmp_path)
    for number, folder in enumerate(cache.location_folders()):
        folder.mkdir()
        (folder / f"module{number}.kernel-1.py311.nbi").write_bytes(numba_index({"signature": "entry"}))
        (folder / f"module{number}.kernel-1.py311.1.nbc").write_bytes(b"compiled " * 100)
    cache.mark_complete("search")
    return cache


def test_the_cache_covers_the_folder_of_every_engine_kernel():
    """numba keeps each source folder's kernels in a cache subfolder of its own: the ones the
    completeness mark covers are those of the engine folder and of its subpackages."""
    folders = jit.CACHE.location_folders()
    assert len(folders) == len(set(folders)) >= 2
    for dispatcher in (search.search_chunk, groups.search_chunk_light, entry.position_dead, h2.h2_dead):
        assert Path(dispatcher._cache.cache_path) in folders, dispatcher


def numba_index(entries: dict) -> bytes:
    """An index file as numba writes it: its version, then its stamp and entries."""
    return pickle.dumps("0.68.1") + pickle.dumps(((0.0, 100), entries))


def test_an_intact_cache_is_complete_for_the_groups_it_was_marked_for(cache):
    assert cache.is_complete("search")
    assert not cache.is_complete("pairwise tests")


@pytest.mark.parametrize("suffix", [".nbi", ".nbc"])
@pytest.mark.parametrize("source_folder", [0, 1], ids=["engine", "subpackage"])
def test_a_truncated_cache_file_is_removed_and_compiled_afresh(cache, suffix, source_folder):
    """In the cache folder of any of the engine's source folders: every cache file goes."""
    folder = cache.location_folders()[source_folder]
    [file] = [path for path in jit.engine_cache_files([folder]) if path.suffix == suffix]
    file.write_bytes(file.read_bytes()[:10])
    assert not cache.is_complete("search")
    cache.forget_broken()
    assert jit.engine_cache_files(cache.location_folders()) == [] and not cache.mark_path().exists()


def test_an_index_that_gained_an_entry_keeps_the_cache_complete(cache):
    """numba rewrites an index with an entry more when a kernel is compiled for other arguments
    (a player's kernel calling a search kernel, a test calling one from Python)."""
    [index, _] = [path for path in jit.engine_cache_files(cache.location_folders()) if path.suffix == ".nbi"]
    index.write_bytes(numba_index({"signature": "entry", "another signature": "another entry"}))
    assert cache.is_complete("search")


def test_an_intact_cache_is_kept_when_another_group_compiles(cache):
    cache.forget_broken()
    assert jit.engine_cache_files(cache.location_folders()) and cache.is_complete("search")


@pytest.mark.parametrize("mark", ["", "[]", "{}", '{"groups": ["search"], "files": {}}', '{"files": [1]}'])
def test_a_cache_holding_only_its_mark_is_not_complete(cache, mark):
    for path in jit.engine_cache_files(cache.location_folders()):
        path.unlink()
    cache.mark_path().write_text(mark)
    assert not cache.is_complete("search")


def test_a_complete_cache_of_another_install_location_is_not_this_ones(cache):
    """numba keeps each source folder's kernels apart: a checkout beside an installed copy
    compiles its own, and must say so."""
    elsewhere = jit.KernelCache(cache.folder, engine_folder=cache.folder / "elsewhere" / "engine")
    assert not elsewhere.is_complete("search")


PAIRS_SECONDS = 30


class Calls:
    """What ``jit.KernelCache.kernels_ready`` said and whether it ran the exercise, from a thread."""

    def __init__(self):
        self.said, self.exercised, self.waiting = [], threading.Event(), threading.Event()

    def say(self, line):
        self.said.append(line)
        if line.startswith("waiting"):
            self.waiting.set()

    def ready(self, cache, group):
        thread = threading.Thread(target=cache.kernels_ready, args=(group, self.exercised.set, self.say))
        thread.start()
        return thread


def test_a_complete_cache_loads_without_waiting_for_the_lock(cache):
    held = jit.os_file_lock()(cache.folder / "compile.lock")
    held.acquire()
    try:
        calls = Calls()
        calls.ready(cache, jit.KernelGroup("search", 1, ())).join(timeout=60)
        assert calls.exercised.is_set() and calls.said == []
    finally:
        held.release()


def test_a_process_that_must_compile_waits_saying_for_what_then_says_it_compiles(cache):
    held = jit.os_file_lock()(cache.folder / "compile.lock")
    held.acquire()
    calls = Calls()
    thread = calls.ready(cache, jit.KernelGroup("pairwise tests", PAIRS_SECONDS, ()))
    try:
        assert calls.waiting.wait(timeout=60)
        assert not calls.exercised.is_set()
    finally:
        held.release()
    thread.join(timeout=60)
    assert calls.exercised.is_set()
    assert calls.said == [
        f"waiting for another process that compiles the solver into {cache.folder}",
        f"compiling the solver's pairwise tests, once per machine: about {PAIRS_SECONDS} s",
    ]
    assert cache.is_complete("pairwise tests") and cache.is_complete("search")


def test_a_group_is_marked_complete_only_when_every_kernel_of_it_is_cached(cache):
    class NeverCompiled:
        signatures = []

    cache.kernels_ready(
        jit.KernelGroup("loss reasons", 4, (NeverCompiled(),)), lambda: None, lambda line: None
    )
    assert not cache.is_complete("loss reasons")


def test_a_folder_named_like_the_lock_does_not_stop_the_solver(cache):
    (cache.folder / "compile.lock").mkdir()
    with cache.compile_lock():
        entered = True
    assert entered


def no_space(*args):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class FullDiskFile:
    """A temporary file on a full disk: it is made, but no byte can be written to it."""

    def __init__(self, dir):
        self.folder = dir

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False

    def write(self, data):
        no_space()


def test_a_cache_folder_on_a_full_disk_is_passed_over(tmp_path, monkeypatch):
    monkeypatch.setattr(jit.tempfile, "TemporaryFile", FullDiskFile)
    folder, note = jit.choose_cache_folder([tmp_path / "full"], "digest")
    assert folder is None and "compiling without a cache" in note


def test_a_full_disk_while_saving_kernels_stops_caching_with_one_warning(cache, capsys):
    saved = []
    save = cache.guarded(no_space)
    save("signature", "data")
    save("signature", "data")
    cache.guarded(lambda *args: saved.append(args))("signature", "data")
    cache.mark_complete("search")
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == 1 and "No space left on device" in warnings[0]
    assert saved == []


# ---- the cache and its lock on macOS and Windows --------------------------------------------------


@pytest.mark.parametrize(
    ("platform_dirs", "environment", "expected"),
    [
        (platformdirs.unix.Unix, {"XDG_CACHE_HOME": "/xdg"}, Path("/xdg")),
        (platformdirs.unix.Unix, {}, Path("/home/me/.cache")),
        (platformdirs.macos.MacOS, {}, Path("/home/me/Library/Caches")),
    ],
)
def test_the_cache_goes_to_the_platforms_user_cache_folder(monkeypatch, platform_dirs, environment, expected):
    """platformdirs' folder of the platform (Windows': ``%LOCALAPPDATA%\\yukon-solver\\Cache``,
    read from the Windows API, which only Windows has)."""
    monkeypatch.setattr(platformdirs, "PlatformDirs", platform_dirs)
    monkeypatch.setattr(os.path, "expanduser", lambda path: path.replace("~", "/home/me", 1))
    for name in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert jit.preferred_cache_root() == expected / "yukon-solver"
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/numba")
    assert jit.preferred_cache_root() == Path("/numba")


def test_without_a_home_folder_the_cache_goes_to_the_fallback(monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.unix.Unix)
    monkeypatch.setattr(os.path, "expanduser", lambda path: path)  # "~" stays: no home known
    assert jit.preferred_cache_root() == jit.fallback_cache_root()


def test_without_user_ids_the_fallback_is_named_for_the_user(tmp_path, monkeypatch):
    monkeypatch.delattr(jit.os, "getuid")
    monkeypatch.setattr(jit.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(jit.getpass, "getuser", lambda: "me")
    assert jit.fallback_cache_root() == tmp_path / "yukon-solver-me"
    assert jit.private_folder(tmp_path / "yukon-solver-me")


class TakingOneHundredSeconds:
    """A kernel cache whose every group is said to take 100 s to make ready, taking none."""

    note = None

    def kernels_ready(self, group, exercise, say) -> float:
        return 100.0


def test_the_seconds_a_group_takes_to_compile_are_not_the_solves():
    """A group compiled mid-solve (the pairwise tests of a deal not won at once) leaves its
    compile out of the solve's time: its budget starts over where it stopped."""
    from solver.engine.groups import PAIRS
    from solver.results.limits import Limits
    from solver.search import readiness
    from solver.search.budget import Budget

    budget = Budget(Limits(time_limit=5))
    before = budget.time_left()
    ready = readiness.KernelsReady(TakingOneHundredSeconds())
    readiness.kernels_ready(PAIRS, budget, ready)  # none taken here
    assert 99 < budget.time_left() - before <= 100


@pytest.mark.parametrize("group", [groups.LEAN, groups.SEARCH], ids=lambda group: group.name)
def test_the_search_groups_are_made_ready_under_no_time_limit(monkeypatch, group):
    """A loaded machine's compile must not run the exercise out of time (before, its solve had
    the default 60 s, and a cut one marked the cache complete without the search kernel)."""
    from solver.search import readiness, searching

    limits = []
    monkeypatch.setattr(searching.Search, "run", lambda searched, budget, *cap: limits.append(budget.limits))
    readiness.exercise(group)
    assert limits and all(given.time_limit is None for given in limits)


# How long the stand-in compile below lasts unless the test lets it end: only a failing run waits it out.
STAND_IN_COMPILE_SECONDS = 60


def test_ctrl_c_stops_the_wait_for_a_compile_at_once():
    """Ctrl-C while kernels are made ready in their own thread (``readiness.apart``) raises
    KeyboardInterrupt in the waiting thread without waiting for the compile to end (before, the
    thread pool's exit waited for it); the compile, a daemon thread, is left running."""
    from solver.search import readiness

    started, release, ended = threading.Event(), threading.Event(), threading.Event()

    def compile_until_released():
        started.set()
        release.wait(STAND_IN_COMPILE_SECONDS)
        ended.set()

    def ctrl_c_once_started():
        started.wait()
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=ctrl_c_once_started, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            readiness.apart(compile_until_released)
        assert not ended.is_set()
    finally:
        signal.signal(signal.SIGINT, previous)
        release.set()


def test_a_failed_compile_apart_raises_its_error_in_the_caller():
    from solver.search import readiness

    def failing():
        raise ValueError("no kernel")

    with pytest.raises(ValueError, match="no kernel"):
        readiness.apart(failing)


class SeeingTheCollector:
    """A kernel cache that records whether Python's garbage collector runs while a group is made
    ready (without making it)."""

    note = None

    def __init__(self):
        self.collector_on = []

    def kernels_ready(self, group, exercise, say) -> float:
        self.collector_on.append(gc.isenabled())
        return 0.0


@pytest.mark.parametrize("on_before", [True, False])
def test_kernels_are_made_ready_with_the_collector_paused_then_as_it_was(on_before):
    from solver.engine.groups import LOSS
    from solver.search import readiness

    cache = SeeingTheCollector()
    was_on = gc.isenabled()
    (gc.enable if on_before else gc.disable)()
    try:
        readiness.kernels_ready(LOSS, ready=readiness.KernelsReady(cache))
        assert cache.collector_on == [False] and gc.isenabled() == on_before
    finally:
        (gc.enable if was_on else gc.disable)()


# A command run while a stand-in compile (a thread of ``readiness.apart`` that never ends) is still
# running, as after a Ctrl-C during a first compile.
LEFT_COMPILING = """
import sys, threading
from solver.search import readiness
from solver.cli import main
started = threading.Event()
readiness.Apart(lambda: (started.set(), threading.Event().wait()), ()).start()
started.wait()
sys.argv = ["yukon", *sys.argv[1:]]
main()
"""


def test_a_command_left_compiling_leaves_at_once_with_its_output_and_status(tmp_path):
    """The command line leaves without the exit that would tear LLVM down under a compile a Ctrl-C
    stopped waiting for (a library program waits for it instead: ``readiness.wait_for_kernels``);
    before, such a process would wait here for the stand-in compile, which never ends."""
    completed = subprocess.run(
        [sys.executable, "-c", LEFT_COMPILING, "deal", "12"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=STAND_IN_COMPILE_SECONDS,
    )
    assert completed.returncode == 0, completed.stderr
    assert (
        completed.stdout
        == subprocess.run(
            [sys.executable, "-c", "from solver.cli import main; main()", "deal", "12"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        ).stdout
    )
    assert completed.stdout.strip()
