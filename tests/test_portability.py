"""Every desktop: no command needs a module that only POSIX systems have. The commands run
in fresh processes (their workers too) where a ``sitecustomize`` makes every POSIX-only
module of the standard library unimportable, as on Windows; the POSIX-only functions of
``os`` and ``signal`` that the package names are each used behind a guard."""

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import filelock
import pytest

import solver
from solver.engine import jit

LEGACY = Path(__file__).parent / "data" / "legacy"
PACKAGE = Path(solver.__file__).parent
POSIX_ONLY_MODULES = (
    "fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "syslog", "crypt", "nis", "spwd",
    "readline", "curses", "_curses", "posix_ipc",
)  # fmt: skip
BLOCKER = f"""
import sys

BLOCKED = {POSIX_ONLY_MODULES!r}


class PosixOnlyModules:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"No module named {{name!r}} (as on Windows)", name=name)
        return None


sys.meta_path.insert(0, PosixOnlyModules())
for name in BLOCKED:
    sys.modules.pop(name, None)
"""
# Names of os and signal that Windows lacks, and the one function of the package allowed to
# use each, behind the guard named.
GUARDED_POSIX_NAMES = {
    ("os", "getuid"): {"solver/engine/jit.py:user_id"},  # hasattr(os, "getuid")
    ("os", "sched_getaffinity"): {"solver/runs/loop.py:default_jobs"},  # except AttributeError
    ("signal", "SIGKILL"): {"solver/runs/pool.py:die_with_parent"},  # Linux prctl, suppress(Exception)
    ("signal", "SIGHUP"): {"solver/common/interrupts.py:<module>"},  # hasattr(signal, "SIGHUP")
}
POSIX_ONLY_NAMES = {
    "os": {"getuid", "geteuid", "getgid", "getegid", "fork", "forkpty", "sched_getaffinity", "killpg"}
    | {"getpgid", "setsid", "nice", "getloadavg", "wait3", "wait4", "mkfifo", "mknod", "chown", "lchown"},
    "signal": {"SIGKILL", "SIGALRM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGPIPE"}
    | {"SIGCONT", "SIGSTOP", "SIGTSTP", "alarm", "setitimer", "getitimer", "pause", "siginterrupt"}
    | {"pthread_kill", "pthread_sigmask", "sigwait"},
}


@pytest.fixture
def without_posix(tmp_path) -> dict:
    """The environment of a process without the POSIX-only modules."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER)
    return os.environ | {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    }


def python(code: str, environment: dict, *arguments) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code, *map(str, arguments)], env=environment, capture_output=True, text=True
    )


def yukon(environment: dict, *arguments) -> subprocess.CompletedProcess:
    return python("from solver.cli import main; main()", environment, *arguments)


def test_the_posix_only_modules_are_gone_in_that_process(without_posix):
    probe = (
        "import importlib, sys\nfor name in sys.argv[1:]:\n    try:\n        importlib.import_module(name)\n"
    )
    probe += "    except ImportError:\n        print(name)\n"
    completed = python(probe, without_posix, *POSIX_ONLY_MODULES)
    assert completed.stdout.split() == list(POSIX_ONLY_MODULES), completed.stderr


def test_a_solve_runs_without_them(without_posix):
    completed = yukon(without_posix, "solve", "12", "--json")
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["status"] == "solved"
    assert "Traceback" not in completed.stderr and "warning" not in completed.stderr.lower()


def test_a_batch_and_its_workers_run_without_them(without_posix, tmp_path):
    store = tmp_path / "batch.db"
    completed = yukon(without_posix, "solve", "1-3", "--variant", "russian", "--jobs", "2", "--out", store)
    assert completed.returncode == 0, completed.stderr
    assert "Deals:        3 (deals 1..3): " in completed.stdout, completed.stdout
    assert "Traceback" not in completed.stderr


@pytest.mark.parametrize(
    "arguments",
    [
        ["hint", "12", "--policy", "greedy", "--json"],
        ["deal", "12", "--format", "json"],
        ["verify", str(LEGACY / "export-v1.jsonl")],
        ["stats", "STORE"],
        ["daily", "--date", "2026-12-24"],
        ["check", "2"],
    ],
    ids=lambda arguments: arguments[0],
)
def test_the_other_commands_run_without_them(without_posix, tmp_path, arguments):
    store = tmp_path / "store-v1.db"
    shutil.copyfile(LEGACY / "store-v1.db", store)
    completed = yukon(
        without_posix, *[str(store) if argument == "STORE" else argument for argument in arguments]
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout and "Traceback" not in completed.stderr


def test_without_an_os_lock_the_kernels_compile_without_one(without_posix, tmp_path):
    """filelock's only lock without fcntl off Windows is a lock file that a killed compile
    would leave held for good: there is no lock instead, and no warning."""
    code = (
        "from solver.engine import jit\nprint(jit.os_file_lock())\n"
        "with jit.CACHE.compile_lock():\n    print('held')"
    )
    completed = python(code, without_posix | {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert completed.stdout.split() == ["None", "held"], completed.stderr
    assert completed.stderr == ""


def test_the_compile_lock_keeps_another_holder_out(tmp_path):
    other = jit.os_file_lock()(tmp_path / "compile.lock", timeout=0.05)
    with jit.KernelCache(tmp_path).compile_lock(), pytest.raises(filelock.Timeout):
        other.acquire()
    other.acquire()
    other.release()


class PosixOnlyUses(ast.NodeVisitor):
    """Where a module names a POSIX-only attribute of os or signal: (module, attribute) to
    the set of ``file:function`` using it (``<module>`` outside any function)."""

    def __init__(self, where: str, found: dict):
        self.where, self.found, self.functions = where, found, ["<module>"]

    def visit_FunctionDef(self, node):
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.attr in POSIX_ONLY_NAMES.get(node.value.id, ()):
            self.found.setdefault((node.value.id, node.attr), set()).add(f"{self.where}:{self.functions[-1]}")
        self.generic_visit(node)


def test_every_posix_only_name_of_os_and_signal_is_used_behind_a_guard():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE.parent).as_posix()
        PosixOnlyUses(where, found).visit(ast.parse(path.read_text(encoding="utf-8")))
    assert found == GUARDED_POSIX_NAMES
