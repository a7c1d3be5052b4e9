"""docs/game.md's "build a game" example runs as it is, in a fresh process (the game API a
new user copies), and plays its deal to the end."""

import subprocess
import sys
from pathlib import Path

GAME_DOC = Path(__file__).parent.parent / "docs" / "game.md"


def game_example() -> str:
    """The first ```python block of docs/game.md."""
    return GAME_DOC.read_text(encoding="utf-8").split("```python\n", 1)[1].split("```", 1)[0]


def test_the_build_a_game_example_plays_a_game(tmp_path):
    script = tmp_path / "game.py"
    script.write_text(game_example(), encoding="utf-8")
    completed = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert any(line.startswith(("won after", "lost after", "stopped after")) for line in lines), lines
    assert "refused: illegal move 1>F:KS: only a column's exposed card goes to a foundation, not KS" in lines
    assert lines[-1] == "to_foundation 2 AC True"
