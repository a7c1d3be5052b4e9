"""Packaging: the catalogues ship inside the solver package (solver/catalogue_data), nothing
is installed under the top-level name ``catalogue`` (a PyPI package owns it), and the daily
deal works from a fresh non-editable install run in another folder."""

import json
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE_PACKAGES = next(Path(sys.prefix).glob("lib/python3*/site-packages"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(folder)],
        check=True,
        capture_output=True,
    )
    return next(folder.glob("yukon_solver-*.whl"))


def test_the_wheel_ships_the_catalogues_inside_solver_and_no_top_level_catalogue(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(path.name for path in (ROOT / "catalogue").glob("*.json"))
    assert "manifest.json" in shipped and len(shipped) >= 4
    assert {f"solver/catalogue_data/{name}" for name in shipped} <= set(names)
    assert "solver/catalogue_data/viewer/index.html" in names
    assert {name.split("/")[0] for name in names} == {"solver", wheel.name.split("-")[0] + "-0.1.0.dist-info"}


def test_yukon_daily_from_a_fresh_install_in_another_folder(wheel, tmp_path):
    """A fresh venv gets the wheel alone; its dependencies come from this venv's
    site-packages through a .pth file (no editable hook is read from there)."""
    fresh = tmp_path / "venv"
    venv.create(fresh, with_pip=False)
    fresh_site = next(fresh.glob("lib/python3*/site-packages"))
    zipfile.ZipFile(wheel).extractall(fresh_site)
    (fresh_site / "dependencies.pth").write_text(str(SITE_PACKAGES) + "\n")
    script = (
        "import solver, json; from solver.cli import main; from solver.catalogue.commands import daily;"
        "main.add_command(daily); print(json.dumps(solver.__file__)); main()"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(
        [str(fresh / "bin" / "python"), "-c", script, "daily", "--date", "2026-12-01", "--json"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    location, served = done.stdout.splitlines()
    assert json.loads(location).startswith(str(fresh_site))
    assert json.loads(served)["date"] == "2026-12-01" and json.loads(served)["variant"] == "yukon"
    imports = subprocess.run([str(fresh / "bin" / "python"), "-c", "import catalogue"], cwd=elsewhere)
    assert imports.returncode != 0
