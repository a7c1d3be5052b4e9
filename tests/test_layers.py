"""The package's layers point down: record, stats and store below runs, runs below the CLI,
and no import cycle among the solver's modules (lazy imports inside functions included)."""

import ast
from pathlib import Path

import solver

ROOT = Path(solver.__file__).parent
# Higher ranks may import lower ones, never the other way round.
RANKS = {
    "solver.cli": 4,
    "solver.runs": 3,
    "solver.store": 2,
    "solver.verify": 2,
    "solver.record": 1,
    "solver.stats": 0,
    "solver.interrupts": 0,
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def solver_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name == "solver" or name.startswith("solver.")}


GRAPH = {module_name(path): solver_imports(path) for path in ROOT.rglob("*.py")}


def rank(module: str) -> int | None:
    for prefix, value in RANKS.items():
        if module == prefix or module.startswith(prefix + "."):
            return value
    return None


def test_no_module_imports_from_a_layer_above_its_own():
    upward = [
        (module, imported)
        for module, imports in GRAPH.items()
        for imported in imports
        if rank(module) is not None and rank(imported) is not None and rank(imported) > rank(module)
    ]
    assert upward == []


def test_no_import_cycles():
    done, on_path = set(), []

    def visit(module):
        if module in on_path:
            raise AssertionError(" -> ".join([*on_path[on_path.index(module) :], module]))
        if module in done or module not in GRAPH:
            return
        on_path.append(module)
        for imported in sorted(GRAPH[module]):
            if imported != "solver" and not module.startswith(imported + "."):
                visit(imported)
        on_path.pop()
        done.add(module)

    for module in sorted(GRAPH):
        visit(module)
