"""Packaging: the catalogues ship inside the solver package (solver/catalogue_data), nothing
is installed under the top-level name ``catalogue`` (a PyPI package owns it), and the daily
deal works from a fresh non-editable install run in another folder."""

import json
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest
from shared import made_once

from solver.version import __version__

ROOT = Path(__file__).resolve().parents[1]
SITE_PACKAGES = next(Path(sys.prefix).glob("lib/python3*/site-packages"))


def build_wheel(folder: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(folder)],
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built once in a test run (pip builds in the source folder: two pytest-xdist
    workers building at once would share its build folder)."""
    return next(made_once(tmp_path_factory, "wheel", build_wheel).glob("yukon_solver-*.whl"))


@pytest.mark.slow
def test_the_wheel_ships_the_catalogues_inside_solver_and_no_top_level_catalogue(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(path.name for path in (ROOT / "catalogue").glob("*.json"))
    assert "manifest.json" in shipped and len(shipped) >= 4
    assert {f"solver/catalogue_data/{name}" for name in shipped} <= set(names)
    assert "solver/catalogue_data/viewer/index.html" in names
    assert {name.split("/")[0] for name in names} == {
        "solver",
        wheel.name.split("-")[0] + f"-{__version__}.dist-info",
    }


@pytest.mark.slow
def test_yukon_daily_from_a_fresh_install_in_another_folder(wheel, tmp_path):
    """A fresh venv gets the wheel alone, installed by pip (so its ``bin/yukon`` script);
    its dependencies come from this venv's site-packages through a .pth file (no editable
    hook is read from there)."""
    fresh = tmp_path / "venv"
    venv.create(fresh, with_pip=False)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(fresh / "bin" / "python"), "install", "-q"]
        + ["--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    fresh_site = next(fresh.glob("lib/python3*/site-packages"))
    (fresh_site / "dependencies.pth").write_text(str(SITE_PACKAGES) + "\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        [str(fresh / "bin" / "yukon"), "daily", "--date", "2026-12-01", "--json"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    served = json.loads(done.stdout)
    assert served["date"] == "2026-12-01" and served["variant"] == "yukon"
    where = subprocess.run(
        [str(fresh / "bin" / "python"), "-c", "import solver; print(solver.__file__)"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(fresh_site))
    imports = subprocess.run([str(fresh / "bin" / "python"), "-c", "import catalogue"], cwd=elsewhere)
    assert imports.returncode != 0


def test_every_package_folder_is_listed_and_no_symlink_carries_the_data():
    """pyproject lists the packages by hand (the catalogue data is mapped from the top-level
    folder): a new folder of solver/ left out of the list would be missing from the wheel."""
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    )
    folders = {
        ".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "solver").rglob("__init__.py")
    }
    assert folders <= listed
    assert listed - folders == {"solver.catalogue_data", "solver.catalogue_data.viewer"}
    assert not any(path.is_symlink() for path in (ROOT / "solver").rglob("*"))


def test_a_checkout_reads_the_top_level_catalogue_folder():
    from solver.catalogue.files import shipped_directory

    assert (shipped_directory() / "manifest.json").is_file()
