"""The ladder's games of each deal, kept in a file so that a build or a calibration that is
stopped goes on where it stopped, and the three tiers' builds play every deal once.

The file is JSON lines, one deal a line, appended and flushed as each deal is played:
``{"rule_set": "yukon+return", "numbering": "pysol", "deal": 12, "rungs": ["greedy", ...],
"results": [[wins, games], ...]}``. A line whose ``rungs`` are the first rungs of the ladder
(written before a rung was added) is kept too: asked for more rungs, the deal then plays only
the rungs it lacks (the longest line of a deal counts). A line of another rule set or ladder
is ignored, and so is a last line cut short by a kill.
"""

import json
from collections.abc import Iterable
from pathlib import Path

from solver.errors import YukonError
from solver.game.board import Board
from solver.game.rules import Rules
from solver.player.ladder import LADDER, ladder_games

RUNG_NAMES = [rung.name for rung in LADDER]


def is_prefix(names: list) -> bool:
    """Are ``names`` the first rungs of the ladder (at least one)?"""
    return 0 < len(names) <= len(RUNG_NAMES) and list(names) == RUNG_NAMES[: len(names)]


class LadderGames:
    """The ladder results of one rule set and numbering, read from ``path`` and grown there."""

    def __init__(self, path: Path, rules: Rules, numbering: str):
        self.path, self.rules, self.numbering = Path(path), rules, numbering
        self.known: dict[int, tuple[tuple[int, int], ...]] = {}
        if self.path.exists():
            self.read()

    def key(self) -> dict:
        return {"rule_set": self.rules.label(), "numbering": self.numbering}

    def read(self) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise YukonError(f"{self.path}: cannot be read as ladder games ({error})") from None
        for line in lines:
            try:
                row = json.loads(line)
                if {name: row[name] for name in self.key()} == self.key():
                    self.learn(int(row["deal"]), row["rungs"], row["results"])
            except (ValueError, KeyError, TypeError, OverflowError, RecursionError):
                continue  # a line cut short, or not a ladder row (nested too deep, a deal of 1e999)

    def learn(self, deal: int, rungs: list, results) -> bool:
        """Keep ``results`` of the rungs named ``rungs`` on ``deal`` when they are the first
        rungs of the ladder and more than those known; True when kept."""
        results = tuple((int(wins), int(games)) for wins, games in results)
        if not is_prefix(rungs) or len(results) != len(rungs) or any(not 0 <= w <= g for w, g in results):
            return False
        if len(results) <= len(self.known.get(deal, ())):
            return False
        self.known[deal] = results
        return True

    def save(self, deal: int) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        results = self.known[deal]
        row = self.key() | {"rungs": RUNG_NAMES[: len(results)], "deal": deal, "results": results}
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(row) + "\n")

    def take_from(self, entries: Iterable[dict], rungs: list) -> int:
        """Learn (and save) the ``ladder`` games of catalogue ``entries`` of this numbering,
        scored by a model of the rungs named ``rungs``; how many deals were new or longer."""
        taken = 0
        for entry in entries:
            ours = entry.get("numbering", "pysol") == self.numbering and "ladder" in entry
            if ours and self.learn(entry["deal"], rungs, entry["ladder"]):
                self.save(entry["deal"])
                taken += 1
        return taken

    def results(self, deal: int, board: Board, rungs: int = len(LADDER)) -> tuple[tuple[int, int], ...]:
        """The ``(wins, games)`` of the first ``rungs`` rungs on ``deal``: read, or the
        rungs not yet played played (and saved)."""
        known = self.known.get(deal, ())
        if len(known) < rungs:
            self.known[deal] = tuple(ladder_games(board, self.rules, deal, LADDER[:rungs], known))
            self.save(deal)
        return self.known[deal][:rungs]
