"""The numba core stays a package of pure kernels compiled with the one set of flags."""

import ast
import inspect
import pkgutil

import numba.core.registry

import solver.engine
from solver.engine.jit import KERNEL_FLAGS

ENGINE_MODULES = [
    __import__(f"solver.engine.{info.name}", fromlist=["_"])
    for info in pkgutil.iter_modules(solver.engine.__path__)
]
FORBIDDEN_IMPORTS = ("click", "sqlite3", "solver.cli", "solver.store", "solver.reference", "tqdm")


def test_every_function_in_the_kernel_modules_is_a_cached_kernel():
    kernels = 0
    for module in ENGINE_MODULES:
        if module.__name__ == "solver.engine.jit":
            continue
        for name, value in vars(module).items():
            if isinstance(value, numba.core.registry.CPUDispatcher) and value.__module__ == module.__name__:
                assert (
                    value.targetoptions.get("cache", False) or value._cache.__class__.__name__ != "NullCache"
                )
                kernels += 1
            elif inspect.isfunction(value) and value.__module__ == module.__name__:
                # plain Python allowed only for set-up helpers that build arrays
                assert name.startswith("make_") or name == "state_size", f"{module.__name__}.{name}"
    assert kernels > 20
    assert KERNEL_FLAGS["cache"] is True


def test_engine_imports_nothing_from_the_outer_layers():
    for module in ENGINE_MODULES:
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                for imported in names:
                    assert not str(imported).startswith(FORBIDDEN_IMPORTS), (
                        f"{module.__name__} imports {imported}"
                    )
