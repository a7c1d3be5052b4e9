"""Play a deal as a person would, and keep the game as an immutable record."""

from dataclasses import asdict, dataclass

from solver.errors import YukonError
from solver.game.notation import replayed_line
from solver.game.numbering import deal_board
from solver.game.reference import is_won
from solver.game.rules import Rules
from solver.player.policies import make_policy


@dataclass(frozen=True)
class PlayRecord:
    """One game: the deal, who played it and how, and what happened. ``line`` is the
    game's moves in the project notation; a won line has been replayed as a win on the
    reference engine."""

    variant: str
    foundation_return: bool
    numbering: str
    deal: int
    policy: str
    settings: tuple[tuple[str, int], ...]
    seed: int
    won: bool
    moves: int
    line: str

    def as_dict(self) -> dict:
        return asdict(self) | {"settings": dict(self.settings)}


def play_deal(
    deal: int, rules: Rules, policy: str = "greedy", seed: int = 0, numbering: str = "pysol", **settings
) -> PlayRecord:
    """Play deal ``deal`` once with ``policy`` (and its ``settings``) from ``seed``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise YukonError(f"seed {seed!r} is not a non-negative integer")
    player = make_policy(policy, **settings)
    board = deal_board(rules.variant, deal, numbering)
    won, moves = player.play(board, rules, seed)
    line, final = replayed_line(board, moves, rules)
    if won and not is_won(final):
        raise RuntimeError(f"deal {deal}: the {policy} player's winning line is not a win on replay")
    return PlayRecord(
        variant=rules.variant,
        foundation_return=rules.foundation_return,
        numbering=numbering,
        deal=deal,
        policy=policy,
        settings=tuple(sorted(player.settings(rules).items())),
        seed=seed,
        won=won,
        moves=len(moves),
        line=line,
    )
