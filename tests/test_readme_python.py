"""The README's Python example runs as it is, in a fresh process (the API a new user copies)."""

import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "README.md"


def python_example() -> str:
    """The first ```python block of the README's "Python" section."""
    section = README.read_text(encoding="utf-8").split("\n## Python\n", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.slow
def test_the_readme_python_example_runs(tmp_path):
    script = tmp_path / "example.py"
    script.write_text(python_example(), encoding="utf-8")
    completed = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert "solved" in completed.stdout and "refused: illegal move 1" in completed.stdout
