"""yukon-solver: exact solver and deal verifier for Yukon-family solitaire.

The public API is ``__all__``, defined in ``solver.api``, offered here: ``solver.deal(12)``,
``solver.solve_deal(12)``, ``solver.Game.deal(12)``, ``solver.hint(board)``, ... (README,
"Python"; docs/game.md). Type checkers see every name with its real signature (the
``TYPE_CHECKING`` import below); at run time the names are loaded on first use, so
``import solver`` stays cheap (about 2 ms against about 60 ms for ``solver.api``), and none
of them loads numba before a solve or a hint needs it.
"""

from importlib import import_module

from solver.version import __version__ as __version__

# True for type checkers only (mypy and pyright read the name): ``typing`` costs more to
# import than the rest of ``import solver``.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from solver.api import (
        NUMBERINGS,
        TIER_NAMES,
        VARIANTS,
        ArgumentError,
        Board,
        Cancel,
        CatalogueHit,
        DailyDeal,
        DailyPick,
        Game,
        Hint,
        IllegalMove,
        Limits,
        LineMove,
        Move,
        Outcome,
        Record,
        Replay,
        Rules,
        Spent,
        Status,
        TierBuild,
        View,
        YukonError,
        build_catalogues,
        catalogue_hits,
        check_deal,
        daily_deal,
        deal,
        deal_range,
        entries_by_difficulty,
        explain_steps,
        export_results,
        hint,
        load_catalogue,
        play_range,
        rate_range,
        read_board,
        replay,
        replay_steps,
        solve_board,
        solve_deal,
        solve_range,
        store_summary,
        summary_text,
        verify_catalogues,
        verify_results,
    )

__all__ = [
    "__version__",
    "ArgumentError",
    "Board",
    "Cancel",
    "CatalogueHit",
    "DailyDeal",
    "DailyPick",
    "Game",
    "Hint",
    "IllegalMove",
    "Limits",
    "LineMove",
    "Move",
    "NUMBERINGS",
    "Outcome",
    "Record",
    "Replay",
    "Rules",
    "Spent",
    "Status",
    "TIER_NAMES",
    "TierBuild",
    "VARIANTS",
    "View",
    "YukonError",
    "build_catalogues",
    "catalogue_hits",
    "check_deal",
    "daily_deal",
    "deal",
    "deal_range",
    "entries_by_difficulty",
    "explain_steps",
    "export_results",
    "hint",
    "load_catalogue",
    "play_range",
    "rate_range",
    "read_board",
    "replay",
    "replay_steps",
    "solve_board",
    "solve_deal",
    "solve_range",
    "store_summary",
    "summary_text",
    "verify_catalogues",
    "verify_results",
]


if not TYPE_CHECKING:  # hidden from type checkers, so that a misspelt name is reported

    def __getattr__(name: str) -> object:
        """A public name, from ``solver.api`` (imported by name: ``from solver import api``
        would ask this function for ``api``)."""
        if name in __all__:
            return getattr(import_module("solver.api"), name)
        raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
