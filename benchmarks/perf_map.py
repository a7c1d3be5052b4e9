"""Let Linux ``perf`` name the engine's kernels: solve one deal, then write the address of every
compiled kernel function to ``/tmp/perf-<pid>.map``, where ``perf report`` looks for the names of
code it cannot otherwise name (numba's code is made at run time). Run it under ``perf record``:

    perf record -F 1000 -D 60000 -o perf.data -- python benchmarks/perf_map.py --deal k5000010 \\
        --max-nodes 30000000
    perf report -i perf.data --no-children --sort dso,sym

The kernels must be compiled in this process (numba names the functions of a library it compiled,
not of one it loaded from its cache), so the solve runs with an empty kernel cache of its own:
the first half minute or so is compiling, which ``-D`` (milliseconds) leaves out of the samples.
Inlined kernels are counted in their callers.
"""

import argparse
import atexit
import importlib
import os
import pkgutil
import shutil
import sys
import tempfile

CACHE = tempfile.mkdtemp(prefix="perf-map-")  # an empty kernel cache, removed at exit
os.environ["NUMBA_CACHE_DIR"] = CACHE  # before the engine loads
atexit.register(shutil.rmtree, CACHE, ignore_errors=True)

from common import parse_deals  # noqa: E402 (after the cache folder is set)


def compiled_functions() -> dict[int, str]:
    """Address -> name of every function defined in a compiled kernel's library."""
    import solver.engine as engine

    names = {}
    for info in pkgutil.iter_modules(engine.__path__):
        module = importlib.import_module(f"solver.engine.{info.name}")
        for value in vars(module).values():
            for result in getattr(value, "overloads", {}).values():
                library = result.library
                for function in library._final_module.functions:
                    if not function.is_declaration:
                        names[library.get_pointer_to_function(function.name)] = function.name
    return names


def write_map(names: dict[int, str]) -> str:
    """perf's map file for this process: one line per function, its size up to the next one."""
    path = f"/tmp/perf-{os.getpid()}.map"
    starts = sorted(address for address in names if address)
    with open(path, "w") as out:
        for start, end in zip(starts, starts[1:] + [starts[-1] + 4096]):
            out.write(f"{start:x} {min(end - start, 1 << 20):x} {names[start]}\n")
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deal", required=True, help="a PySolFC deal, or kN for KPat's deal N")
    parser.add_argument("--max-nodes", type=int, default=10_000_000)
    args = parser.parse_args(argv)
    from solver.engine import moves
    from solver.game.numbering import deal_board
    from solver.game.rules import Rules
    from solver.results.limits import Limits
    from solver.search import solve

    numbering = "kpat" if args.deal.startswith("k") else "pysol"
    (deal,) = parse_deals(args.deal.lstrip("k"), numbering)
    result = solve.solve_position(
        deal_board("yukon", deal, numbering),
        Rules("yukon"),
        Limits(max_nodes=args.max_nodes, time_limit=None),
        moves.ALL_REDUCTIONS,
    )
    path = write_map(compiled_functions())
    print(f"deal {args.deal}: {result.status}, {result.nodes:,} positions; map: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
