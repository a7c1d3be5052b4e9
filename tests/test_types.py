"""Types that check through ``import solver``: mypy and pyright see the real signatures (a
wrong call is reported, a right one is not), and pyright's type completeness of the public
API (the names of ``solver.__all__`` and the members of its classes) is at least 95%.
Skipped, saying so, where mypy or pyright is not installed (``pip install .[test]`` brings
both; pyright fetches its node package on first use)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from shared import one_at_a_time

import solver

ROOT = Path(solver.__file__).parent.parent
# Four wrong calls a type checker must catch, each on its own line (1-based numbers below).
WRONG = """import solver

board: int = solver.deal(12)
solver.Game.deal(12).push(3)
solver.solve_deal(12, numbering=5)
solver.solve_dael(12)
"""
WRONG_LINES = {3, 4, 5, 6}
RIGHT = """import solver

game = solver.Game.deal("#12", "russian", numbering="pysol")
moves: list[solver.Move] = game.legal_moves()
done: solver.LineMove = game.push(moves[0])
won: bool = game.is_won() or game.is_lost()
hint: solver.Hint = solver.hint(game.board, "russian", policy="greedy")
"""
PUBLIC_TYPE_COMPLETENESS = 0.95


def tool(name: str) -> str:
    """The path of a checker installed beside this Python, or skip naming what is missing."""
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install '.[test]')")
    return found


def reported_lines(output: str, name: str) -> set[int]:
    """The line numbers of file ``name`` a checker reports errors on."""
    return {
        int(line.split(f"{name}:", 1)[1].split(":", 1)[0])
        for line in output.splitlines()
        if f"{name}:" in line and "error" in line
    }


@pytest.fixture
def checkers(tmp_path_factory):
    """Held while a checker runs: one at a time in a test run (pyright installs its node package
    on first use, which two pytest-xdist workers must not do at once)."""
    with one_at_a_time(tmp_path_factory, "type-checkers"):
        yield


@pytest.mark.slow
@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_a_type_checker_sees_the_real_signatures_through_import_solver(checker, tmp_path, checkers):
    (tmp_path / "wrong.py").write_text(WRONG, encoding="utf-8")
    (tmp_path / "right.py").write_text(RIGHT, encoding="utf-8")
    options = ["--follow-imports=silent", "--no-error-summary"] if checker == "mypy" else []
    completed = subprocess.run(
        [tool(checker), *options, "wrong.py", "right.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    output = completed.stdout + completed.stderr
    assert reported_lines(output, "wrong.py") == WRONG_LINES, output
    assert reported_lines(output, "right.py") == set(), output


def public_type_completeness(report: dict) -> tuple[int, int, list[str]]:
    """Of the symbols pyright reports, those ``import solver`` offers (``solver.NAME``) and the
    members of the public classes: (known, all, the names not known)."""
    symbols = report["typeCompleteness"]["symbols"]
    classes = tuple(
        f"{value.__module__}.{value.__qualname__}."
        for value in (getattr(solver, name) for name in solver.__all__)
        if isinstance(value, type)
    )
    public = [
        symbol for symbol in symbols if symbol["name"].count(".") == 1 or symbol["name"].startswith(classes)
    ]
    unknown = [symbol["name"] for symbol in public if not symbol["isTypeKnown"]]
    return len(public) - len(unknown), len(public), unknown


@pytest.mark.slow
def test_the_public_api_is_typed(tmp_path, checkers):
    completed = subprocess.run(
        [tool("pyright"), "--verifytypes", "solver", "--ignoreexternal", "--outputjson"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    known, total, unknown = public_type_completeness(json.loads(completed.stdout))
    assert total > 200, total  # every public class's members were found
    assert known / total >= PUBLIC_TYPE_COMPLETENESS, unknown
