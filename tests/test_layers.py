"""The package's layers point down: the numba engine at the bottom, then the rules layer
(``solver.game``: rules, cards, boards, the reference engine, notation, numbering), records
(``solver.results``) and the search driver (``solver.search``), the store and the player, runs,
the catalogue, the public API (``solver.api``), the CLI on top; at most MAX_TOP_MODULES modules
directly in ``solver/``; numba only in the engine;
no import cycle among the solver's modules (lazy imports inside functions included); and no
module over MAX_MODULE_LINES lines."""

import ast
from pathlib import Path

import solver

ROOT = Path(solver.__file__).parent
MAX_MODULE_LINES = 500  # a longer module holds more than one job: split it along a seam
MAX_TOP_MODULES = 10  # more modules directly in solver/ and its layers no longer show
# Higher ranks may import lower ones, never the other way round.
RANKS = {
    "solver.cli": 7,
    "solver.api": 6,
    "solver.catalogue": 5,
    "solver.runs": 4,
    "solver.player": 3,
    "solver.store": 3,
    "solver.results.verify": 3,
    "solver.search": 2,
    "solver.results": 2,
    "solver.commands": 2,
    "solver.game": 1,
    "solver.common": 0,
    "solver.version": 0,
    "solver.engine": 0,
}
# Modules every layer uses: errors, and the words of a verdict.
EVERY_LAYER = {"solver.errors", "solver.results.result"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module the file imports (absolute imports), inside functions too."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


IMPORTS = {module_name(path): imports(path) for path in ROOT.rglob("*.py")}
GRAPH = {module: {name for name in names if within(name, "solver")} for module, names in IMPORTS.items()}


def rank(module: str) -> int | None:
    if module in EVERY_LAYER:
        return None
    for prefix, value in RANKS.items():
        if within(module, prefix):
            return value
    return None


def test_every_module_has_a_layer():
    """Besides the package itself and the modules every layer uses (errors, results)."""
    unranked = {module for module in GRAPH if rank(module) is None}
    assert unranked == {"solver", *EVERY_LAYER}


def test_numba_is_imported_only_in_the_engine():
    """Kernels live in ``solver/engine/`` only (compiled with its flags and cache)."""
    outside = [
        module
        for module, names in IMPORTS.items()
        if any(within(name, "numba") for name in names) and not within(module, "solver.engine")
    ]
    assert outside == []


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


def test_no_module_is_over_the_line_limit():
    lengths = {module_name(path): len(path.read_text().splitlines()) for path in ROOT.rglob("*.py")}
    assert {module: lines for module, lines in lengths.items() if lines > MAX_MODULE_LINES} == {}


def test_the_layers_show_in_the_folders():
    """Each layer is a folder; only a few modules every layer shares stay in ``solver/``."""
    top = sorted(path.name for path in ROOT.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top
