"""The ladder's games of each deal, kept in a file so that a build or a calibration that is
stopped goes on where it stopped, and the three tiers' builds play every deal once.

The file is JSON lines, one deal a line, appended and flushed as each deal is played:
``{"rule_set": "yukon+return", "numbering": "pysol", "deal": 12, "rungs": ["greedy", ...],
"results": [[wins, games], ...]}``. A line of another rule set or ladder is ignored, and so is
a last line cut short by a kill.
"""

import json
from pathlib import Path

from solver.board import Board
from solver.errors import YukonError
from solver.player.ladder import LADDER, ladder_games
from solver.rules import Rules

RUNG_NAMES = [rung.name for rung in LADDER]


class LadderGames:
    """The ladder results of one rule set and numbering, read from ``path`` and grown there."""

    def __init__(self, path: Path, rules: Rules, numbering: str):
        self.path, self.rules, self.numbering = Path(path), rules, numbering
        self.known: dict[int, tuple[tuple[int, int], ...]] = {}
        if self.path.exists():
            self.read()

    def key(self) -> dict:
        return {"rule_set": self.rules.label(), "numbering": self.numbering, "rungs": RUNG_NAMES}

    def read(self) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise YukonError(f"{self.path}: cannot be read as ladder games ({error})") from None
        for line in lines:
            try:
                row = json.loads(line)
                if {name: row[name] for name in self.key()} == self.key():
                    self.known[int(row["deal"])] = tuple((int(w), int(g)) for w, g in row["results"])
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short, or not a ladder row

    def results(self, deal: int, board: Board) -> tuple[tuple[int, int], ...]:
        """The ladder's ``(wins, games)`` per rung on ``deal``: read, or played and saved."""
        if deal not in self.known:
            results = tuple(ladder_games(board, self.rules, deal))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as file:
                file.write(json.dumps(self.key() | {"deal": deal, "results": results}) + "\n")
            self.known[deal] = results
        return self.known[deal]
