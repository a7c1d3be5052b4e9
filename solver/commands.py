"""Every ``yukon solve ...`` command line the project prints or runs: built from its settings
(``solve_arguments``: the study's commands and plans, the benchmarks' processes), or the
words the user typed (``typed_command``: a batch's resume message)."""

import shlex

from solver.game.rules import Rules


def solve_arguments(
    deals,
    rules: Rules | None = None,
    *,
    numbering: str = "pysol",
    as_json: bool = False,
    memory: str | None = None,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    retry_unknown: bool = False,
    jobs: int | None = None,
    out: str | None = None,
    dask: str | None = None,
    chunk_size: int | None = None,
) -> list[str]:
    """The words of ``yukon solve DEALS`` with these settings, always in this order; a setting
    left at its default (None, False, pysol numbering, no ``rules``) is left out. ``deals``
    is given as is, so it may be a shell expression such as ``$(cat deals.txt)``."""
    words = ["yukon", "solve", str(deals), *["--json"] * as_json]
    if rules is not None:
        words += ["--variant", rules.variant, *["--foundation-return"] * rules.foundation_return]
    words += ["--numbering", numbering] * (numbering != "pysol")
    limit = None if time_limit is None else f"{time_limit:g}"
    words += valued_options({"--memory": memory, "--max-nodes": max_nodes, "--time-limit": limit})
    words += ["--retry-unknown"] * retry_unknown
    return words + valued_options({"--jobs": jobs, "--out": out, "--dask": dask, "--chunk-size": chunk_size})


def valued_options(values: dict) -> list[str]:
    """``--flag value`` for each flag whose value is not None, in the dict's order."""
    return [word for flag, value in values.items() if value is not None for word in (flag, str(value))]


def solve_command(deals, rules: Rules | None = None, **settings) -> str:
    """``solve_arguments`` as one line (unquoted: the words hold no spaces but a deals
    expression meant for the shell)."""
    return " ".join(solve_arguments(deals, rules, **settings))


def typed_command(arguments: list[str]) -> str:
    """The ``yukon`` command line of ``arguments`` (the words after ``yukon``), quoted for a
    shell: what to run again to resume it."""
    return shlex.join(["yukon", *arguments])
