"""The scaling benchmark (benchmarks/bench_scaling.py) on a tiny made-up table, calibration
and batch file; the memory part's processes are stood in for, so nothing is solved."""

import json
from pathlib import Path

import bench_scaling
import pytest
import shapes

from solver.common.stats import percentile
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE
from study import tables

RUNS = 16
# deal: (status, nodes, ms, greedy failures or None). Yukon tiers: easy <= 8 failures of 16,
# normal <= 15, hard 16. Deal 13 is solved but calibration did not solve it; deal 14 is past
# the calibrated deals.
DEALS = {
    1: (SOLVED, 100, 1.0, 0),
    2: (SOLVED, 200, 2.0, 4),
    3: (SOLVED, 300, 3.0, 8),
    4: (SOLVED, 400, 4.0, 2),
    5: (SOLVED, 500, 5.0, 1),
    6: (SOLVED, 1000, 10.0, 12),
    7: (SOLVED, 3000, 30.0, 16),
    8: (SOLVED, 5000, 50.0, 16),
    9: (UNSOLVABLE, 0, 0.05, None),
    10: (UNSOLVABLE, 800_000, 900.0, None),
    11: (UNSOLVABLE, 2_000_000, 1500.0, None),
    12: (UNKNOWN, 3_000_000, 2000.0, None),
    13: (SOLVED, 900_000, 800.0, None),
    14: (SOLVED, 700_000, 700.0, 0),
}
CALIBRATED = range(1, 14)


@pytest.fixture()
def inputs(tmp_path):
    """The compact yukon table, the yukon calibration and a batch file in ``tmp_path``."""
    rows = [
        (deal, status, 90 if status == SOLVED else 0, nodes, ms)
        for deal, (status, nodes, ms, _) in DEALS.items()
    ]
    source = {
        "rules": {"variant": "yukon", "foundation_return": False},
        "commands": ["yukon solve 1-14 --variant yukon --time-limit 2 --out yukon.db"],
        "time_limits": [2.0],
        "solver_versions": ["0.1.0"],
    }
    tables.write_table(tables.Table("yukon", source, rows), tmp_path / "tables")
    (tmp_path / "player_calibration_yukon.json").write_text(json.dumps({"runs": RUNS}))
    with (tmp_path / "player_calibration_yukon.jsonl").open("w") as lines:
        for deal in CALIBRATED:
            status, _, _, failures = DEALS[deal]
            row = {"deal": deal, "status": status if failures is not None else UNKNOWN}
            lines.write(json.dumps(row | ({"failures": failures} if failures is not None else {})) + "\n")
    batch = {"command": "python benchmarks/bench_batch.py", "date": "2026-01-01", "machine": {}}
    batch["settings"] = {"variant": "yukon", "deals": "1-10", "max_nodes": 1000}
    batch["runs"] = [
        {"jobs": jobs, "deals": 10, "wall_seconds": 2 / jobs, "deals_per_second": 5.0 * jobs}
        | {"speed_up": float(jobs), "scaling_efficiency": 1.0}
        for jobs in (1, 2)
    ]
    (tmp_path / "batch.json").write_text(json.dumps(batch))
    return tmp_path


def run(inputs: Path, part: str, *options) -> dict:
    arguments = ["--tables", inputs / "tables", "--players", inputs, "--batch", inputs / "batch.json"]
    out = inputs / "out" / "scaling.json"
    assert bench_scaling.main([part, "--out", str(out), *map(str, [*arguments, *options])]) == 0
    return json.loads(out.read_text())


def test_difficulty_groups_the_calibrated_deals_by_tier_and_verdict(inputs):
    groups = run(inputs, "difficulty", "--no-plots")["difficulty"]["variants"]["yukon"]["groups"]
    members = {"easy": [1, 2, 3, 4, 5], "normal": [6], "hard": [7, 8], "solved, not rated": [13]}
    members |= {UNSOLVABLE: [9, 10, 11], UNKNOWN: [12]}
    assert list(groups) == list(members)
    for name, deals in members.items():
        seconds = sorted(DEALS[deal][2] / 1000 for deal in deals)
        nodes = sorted(DEALS[deal][1] for deal in deals)
        assert groups[name]["deals"] == len(deals)
        for key, fraction in (("median", 0.5), ("p90", 0.9), ("p99", 0.99)):
            assert groups[name]["seconds"][key] == pytest.approx(percentile(seconds, fraction))
            assert groups[name]["nodes"][key] == pytest.approx(percentile(nodes, fraction))
    assert groups["easy"]["seconds"]["median"] == pytest.approx(0.003)
    assert groups["easy"]["nodes"]["p90"] == pytest.approx(460)
    assert groups[UNSOLVABLE]["nodes"]["max"] == 2_000_000


def test_hard_deals_are_the_busiest_solved_and_unsolvable_in_the_time_window(inputs):
    rows = tables.read_table(inputs / "tables", "yukon").rows
    assert bench_scaling.hard_deals(rows, count=4, low_ms=500, high_ms=3000) == [10, 11, 13, 14]


def fake_yukon(command: list[str]) -> tuple[dict, int, float]:
    """A stand-in for a ``yukon solve`` process: the table payload and RSS grow with --memory."""
    memory = bench_scaling.parse_memory(command[command.index("--memory") + 1])
    record = {"status": SOLVED, "budget": None, "nodes": 1000, "seconds": 0.5}
    record["peak_table_entries"] = memory // 64
    return record, 150 * bench_scaling.MIB + memory // 4, 0.9


def test_every_part_writes_its_plot_and_the_readme_block(inputs, monkeypatch):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed: pip install -e '.[plot]'")
    monkeypatch.setattr(bench_scaling, "run_yukon", fake_yukon)
    readme = inputs / "README.md"
    readme.write_text("before\n<!-- scaling:start -->\nold\n<!-- scaling:end -->\nafter\n")
    figures = run(inputs, "all", "--deals", "1,2", "--memory-sizes", "16M,64M", "--readme", readme)
    drawn = sorted(path.name for path in (inputs / "out").glob("*.png"))
    assert drawn == ["scaling_difficulty.png", "scaling_jobs.png", "scaling_memory.png"]
    assert all(path.read_bytes().startswith(b"\x89PNG") for path in (inputs / "out").glob("*.png"))
    small, large = figures["memory"]["settings"]
    assert small["counts"][SOLVED] == 2 and small["solving_seconds"] == pytest.approx(1.0)
    assert large["table_payload_bytes"] == 4 * small["table_payload_bytes"]
    assert [run["deals_per_second"] for run in figures["jobs"]["runs"]] == [5.0, 10.0]
    text = readme.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert "![scaling_memory](out/scaling_memory.png)" in text and "| 64M | 2 / 0 / 0 |" in text


def test_scaling_json_has_the_declared_shapes(inputs, monkeypatch):
    monkeypatch.setattr(bench_scaling, "run_yukon", fake_yukon)
    figures = run(inputs, "all", "--deals", "1,2", "--memory-sizes", "16M", "--no-plots")
    assert set(figures) == keys_of(shapes.ScalingFigures)
    parts = {
        "difficulty": shapes.DifficultyFigures,
        "memory": shapes.MemoryFigures,
        "jobs": shapes.JobsFigures,
    }
    for name, shape in parts.items():
        assert set(figures[name]) == keys_of(shape), name
    assert set(figures["memory"]["settings"][0]) == keys_of(shapes.MemorySetting)


def keys_of(shape) -> set[str]:
    return shape.__required_keys__ | shape.__optional_keys__
