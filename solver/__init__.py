"""yukon-solver: exact solver and deal verifier for Yukon-family solitaire.

The public API is ``__all__``, defined in ``solver.api``, offered here: ``solver.deal(12)``,
``solver.solve_deal(12)``, ``solver.hint(board)``, ... (README, "Python"). The names are
loaded on first use, so ``import solver`` stays cheap; none of them loads numba before a
solve or a hint needs it.
"""

from importlib import import_module

from solver.version import __version__

__all__ = [
    "__version__",
    "NUMBERINGS",
    "TIER_NAMES",
    "VARIANTS",
    "Board",
    "CatalogueHit",
    "DailyDeal",
    "DailyPick",
    "IllegalMove",
    "Limits",
    "LineMove",
    "Outcome",
    "Record",
    "Replay",
    "Rules",
    "YukonError",
    "catalogue_hits",
    "check_deal",
    "daily_deal",
    "deal",
    "entries_by_difficulty",
    "hint",
    "load_catalogue",
    "read_board",
    "replay",
    "replay_steps",
    "solve_board",
    "solve_deal",
    "verify_results",
]


def __getattr__(name: str):
    """A public name, from ``solver.api`` (imported by name: ``from solver import api``
    would ask this function for ``api``)."""
    if name in __all__:
        return getattr(import_module("solver.api"), name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
