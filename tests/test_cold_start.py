"""The first minute: kernels compile once per machine, say so once on stderr, and only for
commands that search; the cache falls back to a writable place."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solver.engine import jit

LEGACY = Path(__file__).parent / "data" / "legacy"
NOTICE = "compiling the solver, once per machine"
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


def yukon(arguments, cache_dir, cwd=None) -> subprocess.CompletedProcess:
    """The command line in a fresh process whose kernel cache is ``cache_dir``."""
    environment = {"NUMBA_CACHE_DIR": str(cache_dir), "PATH": "/usr/bin:/bin", "HOME": str(cache_dir)}
    return subprocess.run(
        [sys.executable, "-c", "from solver.cli import main; main()", *arguments],
        env=environment,
        capture_output=True,
        text=True,
        cwd=cwd,
    )


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


def test_first_solve_says_once_that_it_compiles_and_keeps_stdout_clean(tmp_path):
    cold = yukon(["solve", "12", "--json"], tmp_path / "cache")
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.count(NOTICE) == 1
    assert json.loads(cold.stdout)["status"] == "solved"
    warm = yukon(["solve", "12", "--json"], tmp_path / "cache")
    assert NOTICE not in warm.stderr
    assert json.loads(warm.stdout) | {"seconds": 0, "finished_at": ""} == json.loads(cold.stdout) | {
        "seconds": 0,
        "finished_at": "",
    }


def test_a_batch_compiles_once_for_all_its_workers(tmp_path):
    run = yukon(["solve", "1-4", "--jobs", "2", "--out", str(tmp_path / "b.db")], tmp_path / "cache")
    assert run.returncode == 0, run.stderr
    assert run.stderr.count(NOTICE) == 1


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


def test_an_unwritable_cache_folder_is_reported_once_and_solving_still_works(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    environment = {
        "NUMBA_CACHE_DIR": str(blocker / "cache"),
        "TMPDIR": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
    }
    completed = subprocess.run(
        [sys.executable, "-c", "from solver.cli import main; main()", "solve", "1", "--variant", "russian"],
        env=environment,
        capture_output=True,
        text=True,
    )
    assert completed.returncode in (0, 1), completed.stderr
    assert completed.stderr.count("is not writable") == 1
    assert "Traceback" not in completed.stderr
    assert list(tmp_path.glob("yukon-solver-*/engine-*/**/*.nbi"))
