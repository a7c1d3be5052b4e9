"""Kernels compiled without reference counting (``solver.engine.jit``): the two rules they must
keep, read off the source, and a solve that leaves no array behind."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).parent.parent / "solver" / "engine"
MAKERS = {"zeros", "empty", "full", "ones", "empty_like", "zeros_like", "arange", "array", "copy"}


def kernels(decorator: str) -> list[tuple[str, ast.FunctionDef]]:
    """(file name, function) of every function of the engine decorated with ``decorator``."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Name) and d.id == decorator for d in node.decorator_list
            ):
                found.append((path.name, node))
    return found


def made_arrays(function: ast.FunctionDef) -> list[str]:
    """The calls in ``function`` that make an array (``np.zeros(...)``, ``x.copy()``)."""
    return [
        ast.unparse(node)
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MAKERS
    ]


def returned_arguments(function: ast.FunctionDef) -> list[str]:
    """The array arguments (those it indexes or takes the shape of) ``function`` returns as
    they are, alone or in a tuple."""
    arguments = {
        node.value.id
        for node in ast.walk(function)
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.value, ast.Name)
    } & {a.arg for a in function.args.args}
    returned = []
    for node in ast.walk(function):
        if isinstance(node, ast.Return) and node.value is not None:
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            returned += [v.id for v in values if isinstance(v, ast.Name) and v.id in arguments]
    return returned


def test_the_engine_has_kernels_of_both_kinds():
    assert len(kernels("kernel")) > 100
    assert {function.name for _, function in kernels("allocating_kernel")} >= {"read_table", "build_tables"}


@pytest.mark.parametrize("name_and_function", kernels("kernel"), ids=lambda pair: f"{pair[0]}:{pair[1].name}")
def test_a_kernel_without_counting_makes_no_array_and_returns_no_argument(name_and_function):
    _, function = name_and_function
    assert not made_arrays(function), "makes arrays: use allocating_kernel"
    assert not returned_arguments(function), "returns an array argument to a caller that may count references"


def test_an_allocating_kernel_is_found_by_the_source_rules():
    """The two rules' readers find what they look for (so the test above can fail)."""
    source = "def f(state, n):\n    a = np.zeros(n)\n    state[0] = n\n    return state, n, a\n"
    function = ast.parse(source).body[0]
    assert made_arrays(function) == ["np.zeros(n)"]
    assert returned_arguments(function) == ["state"]


LEAK_PROBE = """
import json
from numba.core.runtime import rtsys
from solver.search import readiness, solve
from solver.engine import moves
from solver.game.numbering import deal_board
from solver.results.limits import Limits
from solver.game.rules import Rules

readiness.warm_up()
before = rtsys.get_allocation_stats()
verdicts = []
for variant, deal in (("yukon", 1), ("yukon", 988), ("yukon", 454), ("russian", 3)):
    result = solve.solve_position(
        deal_board(variant, deal, "pysol"), Rules(variant), Limits(max_nodes=2_000_000), moves.ALL_REDUCTIONS
    )
    verdicts.append(result.status)
after = rtsys.get_allocation_stats()
counts = {"allocated": after.alloc - before.alloc, "freed": after.free - before.free}
counts |= {"records": after.mi_alloc - before.mi_alloc, "records_freed": after.mi_free - before.mi_free}
print(json.dumps({"verdicts": verdicts} | counts))
"""


@pytest.mark.slow
def test_a_solve_frees_every_array_its_kernels_make():
    """Solves that go through every kind of kernel (a win shortened and replayed, HOPELESS with
    the twin split, the pairwise tests and remembered tables, the root test over triples,
    Russian) free as many arrays as their kernels made: a kernel that counts no references
    never holds or drops one it should not."""
    env = os.environ | {"NUMBA_NRT_STATS": "1"}
    completed = subprocess.run(
        [sys.executable, "-c", LEAK_PROBE], capture_output=True, text=True, env=env, timeout=600, check=True
    )
    stats = json.loads(completed.stdout.strip().splitlines()[-1])
    assert stats["verdicts"] == ["solved", "unsolvable", "unsolvable", "unsolvable"], stats
    assert stats["allocated"] > 0, stats  # HOPELESS's reading of the table makes arrays
    assert stats["allocated"] == stats["freed"] and stats["records"] == stats["records_freed"], stats
