"""Pinned deals: numbered deals with the verdict the solver must keep and why, one JSON file
per variant in ``tests/data/pinned/`` (a list of entries ``{numbering, deal,
foundation_return, verdict, max_nodes, why}``; ``max_nodes`` is the node budget the verdict
must be reached within)."""

import json
from dataclasses import dataclass
from pathlib import Path

from solver.game.board import Board
from solver.game.numbering import deal_board
from solver.game.rules import Rules

PINNED_FOLDER = Path(__file__).parent / "data" / "pinned"


@dataclass(frozen=True)
class PinnedDeal:
    variant: str
    numbering: str
    deal: int
    foundation_return: bool
    verdict: str
    max_nodes: int
    why: str

    @property
    def name(self) -> str:
        return f"{self.rules().label()}-{self.numbering}-{self.deal}"

    def board(self) -> Board:
        return deal_board(self.variant, self.deal, self.numbering)

    def rules(self) -> Rules:
        return Rules(self.variant, foundation_return=self.foundation_return)


def pinned_deals() -> list[PinnedDeal]:
    """Every pinned deal of every variant."""
    return [
        PinnedDeal(variant=path.stem, **entry)
        for path in sorted(PINNED_FOLDER.glob("*.json"))
        for entry in json.loads(path.read_text())
    ]


def pinned_deal(variant: str, numbering: str, deal: int, foundation_return: bool = False) -> PinnedDeal:
    """The pinned entry for one deal under one rule set."""
    (entry,) = [
        pinned
        for pinned in pinned_deals()
        if (pinned.variant, pinned.numbering, pinned.deal, pinned.foundation_return)
        == (variant, numbering, deal, foundation_return)
    ]
    return entry
