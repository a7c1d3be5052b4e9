"""The package's metadata: `yukon --version` is the installed version, the license is MIT
with its file, and the Python versions the README promises are those pyproject.toml requires.
(What the wheel ships is in tests/test_catalogue_packaging.py.)"""

import re
import tomllib
from importlib import metadata
from pathlib import Path

from click.testing import CliRunner

import solver
from solver.cli import main

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
URL = "https://github.com/yukon-solver/yukon-solver"


def test_yukon_version_is_the_installed_metadata_version():
    result = CliRunner().invoke(main, ["--version"], prog_name="yukon")
    assert result.exit_code == 0
    assert result.stdout == f"yukon, version {metadata.version('yukon-solver')}\n"
    assert metadata.version("yukon-solver") == solver.__version__


def test_the_license_is_mit_with_its_file():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the yukon-solver authors" in text
    assert (PROJECT["license"], PROJECT["license-files"]) == ("MIT", ["LICENSE"])
    installed = metadata.metadata("yukon-solver")
    assert installed["License-Expression"] == "MIT"
    assert installed.get_all("License-File") == ["LICENSE"]


def test_urls_classifiers_and_keywords():
    assert set(PROJECT["urls"].values()) >= {URL, f"{URL}/issues"}
    assert "Operating System :: OS Independent" in PROJECT["classifiers"]
    assert "yukon" in PROJECT["keywords"]


def test_the_readme_promises_the_python_versions_pyproject_requires():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    oldest = re.search(r"on Python (3\.\d+) or newer \(`requires-python = \"(>=3\.\d+)\"`\)", readme)
    assert oldest and PROJECT["requires-python"] == oldest[2] == f">={oldest[1]}"
    listed = [
        item.rsplit(" ", 1)[1] for item in PROJECT["classifiers"] if re.search(r"Python :: 3\.\d+$", item)
    ]
    assert listed[0] == oldest[1]
