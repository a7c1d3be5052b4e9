"""The numba core stays a package of pure, documented kernels compiled with the one set of
flags, and its compile cache follows every source file of it."""

import ast
import importlib
import inspect
import pkgutil

import numba.core.registry

import solver.engine
from solver.engine.jit import KERNEL_FLAGS
from solver.version import source_digest


def package_modules(package):
    """Every module of ``package``, in its subpackages too."""
    prefix = package.__name__ + "."
    return [importlib.import_module(info.name) for info in pkgutil.walk_packages(package.__path__, prefix)]


ENGINE_MODULES = package_modules(solver.engine)
FORBIDDEN_IMPORTS = ("click", "sqlite3", "solver.cli", "solver.store", "solver.game.reference", "tqdm")


def engine_kernels():
    """Every numba-dispatched function defined in an engine module, as (module, name, kernel)."""
    for module in ENGINE_MODULES:
        for name, value in vars(module).items():
            if isinstance(value, numba.core.registry.CPUDispatcher) and value.__module__ == module.__name__:
                yield module, name, value


def test_every_function_in_the_kernel_modules_is_a_cached_kernel():
    kernels = 0
    for _module, _name, value in engine_kernels():
        assert value.targetoptions.get("cache", False) or value._cache.__class__.__name__ != "NullCache"
        kernels += 1
    for module in ENGINE_MODULES:
        if module.__name__ == "solver.engine.jit":
            continue
        for name, value in vars(module).items():
            if inspect.isfunction(value) and value.__module__ == module.__name__:
                # plain Python allowed only for set-up helpers that build arrays
                assert name.startswith("make_") or name == "state_size", f"{module.__name__}.{name}"
    assert kernels > 20
    assert KERNEL_FLAGS["cache"] is True


def test_every_kernel_has_a_docstring():
    undocumented = [
        f"{module.__name__}.{name}" for module, name, value in engine_kernels() if not value.py_func.__doc__
    ]
    assert undocumented == []


def test_engine_imports_nothing_from_the_outer_layers():
    """Only the engine itself and ``solver.version`` (a leaf: the release and the source
    digest the kernel cache is keyed by)."""
    for module in ENGINE_MODULES:
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                for imported in names:
                    assert str(imported).startswith(("solver.engine", "solver.version")) or not str(
                        imported
                    ).startswith(("solver", *FORBIDDEN_IMPORTS)), f"{module.__name__} imports {imported}"


def test_module_discovery_walks_subpackages(tmp_path, monkeypatch):
    """A kernel module in an engine subpackage (e.g. one for two decks) is checked too."""
    package = tmp_path / "engine_like"
    (package / "two_decks").mkdir(parents=True)
    for init in (package / "__init__.py", package / "two_decks" / "__init__.py"):
        init.write_text("")
    (package / "two_decks" / "kernels.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = [module.__name__ for module in package_modules(importlib.import_module("engine_like"))]
    assert "engine_like.two_decks.kernels" in found


def test_cache_digest_changes_with_a_file_in_a_subfolder(tmp_path):
    """An edit anywhere under the engine folder must start a fresh compile cache."""
    (tmp_path / "moves.py").write_text("A = 1\n")
    (tmp_path / "two_decks").mkdir()
    nested = tmp_path / "two_decks" / "moves.py"
    nested.write_text("B = 1\n")
    before = source_digest(tmp_path)
    assert source_digest(tmp_path) == before
    nested.write_text("B = 2\n")
    after_edit = source_digest(tmp_path)
    assert after_edit != before
    nested.rename(tmp_path / "two_decks" / "renamed.py")
    assert source_digest(tmp_path) not in (before, after_edit)
