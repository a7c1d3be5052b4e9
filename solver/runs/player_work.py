"""What workers do for the player's runs (``play``), and the rows its answers become.

``play_games`` plays a series' games of one deal, ``count_failures`` counts the greedy
player's failures on one deal; a fault on a deal becomes that deal's ``failed_deal`` answer
(``work.Work``), reported and not stored, so the deal is retried by the next run. Before
games are stored, ``check_line`` replays each on the reference engine.
"""

import json
from dataclasses import asdict, dataclass

from solver.game.notation import final_position
from solver.game.numbering import deal_board
from solver.game.reference import is_won
from solver.game.rules import Rules
from solver.player import difficulty
from solver.player.difficulty import greedy_failures, run_seeds
from solver.player.play import PlayRecord, play_deal
from solver.results.record import now_text
from solver.store.player_rows import Play, Rating
from solver.version import __version__


@dataclass(frozen=True)
class PlaySeries:
    """What ``yukon play`` plays: ``policy`` with its full ``settings``, ``runs`` games a
    deal with seeds drawn from ``seed``."""

    policy: str
    settings: tuple[tuple[str, int], ...]
    runs: int
    seed: int

    @property
    def settings_text(self) -> str:
        """The settings as the store keys them: sorted JSON."""
        return json.dumps(dict(self.settings), sort_keys=True)


@dataclass(frozen=True)
class RatingSeries:
    """What ``yukon rate`` counts: the greedy player's failures in ``runs`` games from ``seed``."""

    runs: int
    seed: int


@dataclass(frozen=True)
class DealWork:
    """A worker's answer for one deal: its games or its failure count, or the error."""

    deal: int
    games: tuple[PlayRecord, ...] = ()
    failures: int | None = None
    error: str | None = None


def play_games(deal: int, rules: Rules, numbering: str, series: PlaySeries) -> DealWork:
    """The series' games of one deal."""
    settings = dict(series.settings)
    games = tuple(
        play_deal(deal, rules, series.policy, game_seed, numbering, **settings)
        for game_seed in run_seeds(series.seed, series.runs)
    )
    return DealWork(deal, games=games)


def count_failures(deal: int, rules: Rules, numbering: str, series: RatingSeries) -> DealWork:
    """The greedy player's failures on one deal."""
    board = deal_board(rules.variant, deal, numbering)
    return DealWork(deal, failures=greedy_failures(board, rules, series.runs, series.seed))


def failed_deal(
    deal: int, rules: Rules, numbering: str, series, reason: str, seconds: float = 0.0
) -> DealWork:
    """The answer of a deal whose games or count failed: its error, not stored."""
    return DealWork(deal, error=reason)


def play_row(game: PlayRecord, series: PlaySeries, run: int) -> Play:
    """A game as the store's ``plays`` row."""
    return Play(
        variant=game.variant,
        foundation_return=game.foundation_return,
        numbering=game.numbering,
        deal=game.deal,
        policy=series.policy,
        settings=series.settings_text,
        seed=series.seed,
        run=run,
        game_seed=game.seed,
        won=game.won,
        moves=game.moves,
        line=game.line,
        solver_version=__version__,
        finished_at=now_text(),
    )


def rating_row(deal: int, rating: difficulty.Rating, rules: Rules, numbering: str) -> Rating:
    """A rating as the store's ``ratings`` row."""
    return Rating(
        variant=rules.variant,
        foundation_return=rules.foundation_return,
        numbering=numbering,
        deal=deal,
        **asdict(rating),
        solver_version=__version__,
        rated_at=now_text(),
    )


def check_line(game: PlayRecord, rules: Rules) -> None:
    """Replay a game on the reference engine: every move legal, won exactly when it says so."""
    final = final_position(deal_board(rules.variant, game.deal, game.numbering), game.line.split(), rules)
    if is_won(final) != game.won:
        raise RuntimeError(f"deal {game.deal}: the {game.policy} game's line does not replay as recorded")
