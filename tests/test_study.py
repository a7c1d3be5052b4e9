"""The win-rate study (the package study/, `python -m study`) on small made-up stores."""

import gzip
import json
from pathlib import Path

import pytest
from stores import fake_record

from solver.common.formats import unstamped
from solver.common.stats import rate_entry
from solver.game.rules import Rules
from solver.results.result import SOLVED, UNKNOWN, UNSOLVABLE
from solver.store import Store
from study import cli, shapes
from study import figures as study_figures

YUKON_RETURN = Rules("yukon", foundation_return=True)
# Deals 1-10 strict; 12 is stored past the gap at 11.
STRICT = {
    **dict.fromkeys(range(1, 7), SOLVED),
    7: UNSOLVABLE,
    8: UNSOLVABLE,
    9: UNKNOWN,
    10: SOLVED,
    12: SOLVED,
}
# The same deals with foundation return: 7 turns solvable, 10 contradicts the strict win.
WITH_RETURN = {**STRICT, 7: SOLVED, 10: UNSOLVABLE}
del WITH_RETURN[12]


def make_store(path: Path, rules: Rules, statuses: dict) -> Path:
    with Store.open_for_run(path, rules, "pysol") as store:
        store.write_many(
            fake_record(
                deal,
                status,
                seconds=deal / 100,
                nodes=10 * deal,
                solution=" ".join(["1a"] * (80 + deal)) if status == SOLVED else "",
                rules=rules,
            )
            for deal, status in statuses.items()
        )
    return path


@pytest.fixture()
def stores(tmp_path):
    directory = tmp_path / "stores"
    directory.mkdir()
    make_store(directory / "yukon.db", Rules("yukon"), STRICT)
    make_store(directory / "yukon-return.db", YUKON_RETURN, WITH_RETURN)
    return directory


def run(*arguments) -> int:
    return cli.main([*map(str, arguments), "--no-plots", "--players", "/nonexistent"])


def figures_of(directory: Path) -> dict:
    return json.loads((directory / "study.json").read_text())


def test_figures_cover_deals_one_to_n_from_the_stores(stores, tmp_path):
    out = tmp_path / "out"
    assert run("--stores", stores, "--out", out) == 0
    strict = figures_of(out)["rule_sets"][0]
    assert strict["name"] == "yukon"
    assert strict["deals"] == {"first": 1, "last": 10, "count": 10}
    assert strict["stored_past_range"] == 1
    assert strict["counts"] == {SOLVED: 7, UNSOLVABLE: 2, UNKNOWN: 1}
    rate = strict["win_rate"]
    assert rate["decided"] == rate_entry(7, 9)
    assert rate["unknown_as_lost"] == rate_entry(7, 10)
    assert rate["bounds"] == {"low": rate_entry(7, 10)["low"], "high": rate_entry(8, 10)["high"]}
    assert strict["solution_length"]["min"] == 81 and strict["solution_length"]["max"] == 90
    assert strict["nodes"] == 10 * sum(range(1, 11))
    assert strict["source"]["commands"] == ["yukon solve 1-12 --variant yukon --time-limit 10 --out yukon.db"]


def test_study_json_and_the_sources_have_the_declared_shapes(stores, tmp_path):
    out = tmp_path / "out"
    assert run("--stores", stores, "--out", out) == 0
    figures = figures_of(out)
    assert set(figures) == set(shapes.StudyFigures.__required_keys__)
    for rule_set in figures["rule_sets"]:
        assert set(rule_set) == set(shapes.RuleSetFigures.__required_keys__)
        source = json.loads((out / f"{rule_set['name']}.source.json").read_text())
        assert list(source)[:2] == ["format", "format_version"] and source["format"] == "yukon-study-source"
        assert unstamped(source) == rule_set["source"]
        assert (
            set(shapes.TableSource.__required_keys__)
            <= set(source)
            <= shapes.TableSource.__annotations__.keys()
        )
    plan = figures["extension"]["yukon"]
    assert set(plan) == set(shapes.ExtensionPlan.__required_keys__)
    assert set(plan["retry_unknown"]) == set(shapes.RetryPlan.__required_keys__)
    assert set(figures["foundation_return"][0]) == set(shapes.ReturnFigures.__required_keys__)


def test_foundation_return_gains_and_contradictions(stores, tmp_path):
    out = tmp_path / "out"
    assert run("--stores", stores, "--out", out) == 0
    (comparison,) = figures_of(out)["foundation_return"]
    assert comparison["deals"]["count"] == 10
    assert comparison["unsolvable_turned_solvable"]["deals"] == 1
    assert comparison["unsolvable_turned_solvable"]["of_strict_unsolvable"] == rate_entry(1, 2)
    assert comparison["crossing"][SOLVED][UNSOLVABLE] == 1
    assert comparison["consistency"]["strict_solved_return_unsolvable"] == [10]
    assert comparison["consistency"]["consistent"] is False


def test_compact_tables_alone_give_the_same_figures(stores, tmp_path, capsys):
    out = tmp_path / "out"
    assert run("--stores", stores, "--out", out) == 0
    from_stores = capsys.readouterr().out
    written = {path.name: path.read_bytes() for path in out.iterdir()}
    assert run("--out", out) == 0
    assert capsys.readouterr().out == from_stores
    assert {path.name: path.read_bytes() for path in out.iterdir()} == written
    lines = gzip.decompress(written["yukon.verdicts.csv.gz"]).decode().splitlines()
    assert lines[0] == "deal,status,length,nodes,ms"
    assert lines[1] == "1,solved,81,10,10" and lines[-1] == "12,solved,92,120,120"


def test_report_names_the_commands_and_the_plan(stores, tmp_path, capsys):
    assert run("--stores", stores, "--out", tmp_path / "out") == 0
    text = capsys.readouterr().out
    assert "`yukon solve 1-12 --variant yukon --time-limit 10 --out yukon.db` (solver 0.1.0" in text
    assert "1 more deals stored past the range" in text
    assert "--foundation-return --time-limit 10 --jobs 2 --out yukon-return.db" in text
    assert "--dask tcp://scheduler:8786" in text
    assert "yukon solve 1-10 --variant yukon --time-limit 60 --retry-unknown --jobs 2 --out yukon.db" in text
    assert "| yukon | 10 | 1 | 50.00% (9.45% – 90.55%) | 10.00% | 10 | 0 |" in text


def test_deals_for_a_tenth_of_a_percent():
    assert study_figures.deals_for_half_width(0.5, 0.001) == 960_365
    assert study_figures.deals_for_half_width(0.9, 0.001) == 345_732


def test_readme_block_is_replaced_between_the_markers(stores, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(
        "# Title\n\n<!-- winnability:start -->\nold figures\n<!-- winnability:end -->\n\nTail\n"
    )
    assert run("--stores", stores, "--out", tmp_path / "out", "--readme", readme) == 0
    text = readme.read_text()
    assert text.startswith("# Title\n\n<!-- winnability:start -->\nGenerated by")
    assert text.endswith("<!-- winnability:end -->\n\nTail\n")
    assert "old figures" not in text and "| yukon | 10 |" in text


def test_readme_without_markers_is_refused(stores, tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("# Title\n")
    assert run("--stores", stores, "--out", tmp_path / "out", "--readme", readme) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"error: --readme {readme} needs one line <!-- winnability:start -->")
    assert readme.read_text() == "# Title\n"


def test_a_store_of_another_rule_set_is_refused(tmp_path, capsys):
    directory = tmp_path / "stores"
    make_store(directory / "russian.db", Rules("yukon"), {1: SOLVED})
    assert run("--stores", directory, "--out", tmp_path / "out") == 2
    assert (
        capsys.readouterr().err
        == f"error: results store {directory / 'russian.db'} holds yukon, not russian\n"
    )


def test_nothing_to_read_is_an_error(tmp_path, capsys):
    assert run("--out", tmp_path / "empty") == 2
    assert capsys.readouterr().err.startswith("error: no study tables found in")


def test_player_figures_are_read_when_present(tmp_path):
    (tmp_path / "player_calibration_yukon.json").write_text(
        json.dumps({"variant": "yukon", "split": {"easy": 0.5, "normal": 0.25, "hard": 0.25}, "solvable": 8})
    )
    (tmp_path / "player_compare_yukon.json").write_text(
        json.dumps(
            {
                "variant": "yukon",
                "deals": 4,
                "settings": {"samples": 2},
                "sampling_win_rate": 0.5,
                "greedy_win_rate": 0.25,
            }
        )
    )
    (tmp_path / "player_other.json").write_text("not json")
    players = study_figures.player_figures(tmp_path)
    assert players["yukon"]["tiers"]["split"]["easy"] == 0.5
    assert players["yukon"]["sampling"]["wins"] == 2 and players["yukon"]["sampling"]["deals"] == 4
    assert players["yukon"]["greedy"]["wins"] == 2 and players["yukon"]["greedy"]["deals"] == 8


def test_the_runs_summaries_win_over_compare_runs(tmp_path):
    """``bench_player.py stores`` summaries (many games) take precedence over a compare run,
    whichever file is read first; sampling's rate on solvable deals comes with them."""
    (tmp_path / "player_compare_yukon.json").write_text(
        json.dumps({"variant": "yukon", "deals": 4, "sampling_win_rate": 0.5, "greedy_win_rate": 0.25})
    )
    policies = [
        {"policy": "greedy", "win_rate": rate_entry(30, 100), "on_solvable": rate_entry(30, 90)},
        {"policy": "sampling", "win_rate": rate_entry(6, 10), "on_solvable": rate_entry(6, 9)},
    ]
    for name in ("player_a_runs.json", "player_runs.json"):
        (tmp_path / name).write_text(json.dumps({"variants": {"yukon": {"policies": policies}}}))
        players = study_figures.player_figures(tmp_path)["yukon"]
        assert players["greedy"]["deals"] == 100 and players["sampling"]["wins"] == 6
        assert players["sampling_on_solvable"]["deals"] == 9
        (tmp_path / name).unlink()


def test_plots_are_drawn(stores, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    assert cli.main(["--stores", str(stores), "--out", str(out), "--players", str(tmp_path / "none")]) == 0
    drawn = sorted(path.name for path in out.glob("*.png"))
    assert drawn == ["solution_lengths.png", "solve_times.png", "win_rates.png"]
    assert all(path.read_bytes().startswith(b"\x89PNG") for path in out.glob("*.png"))


def test_a_retry_store_replaces_unknowns_only(stores, tmp_path, capsys):
    """``<name>-retry.db`` (deals solved again) settles the unknowns; the command that made
    it is printed with the list of deals it retried, written beside the table."""
    out = tmp_path / "out"
    assert run("--stores", stores, "--out", out) == 0
    assert run("--out", out, "--unknown", "yukon") == 0
    assert capsys.readouterr().out.strip().endswith("9")
    make_store(stores / "yukon-retry.db", Rules("yukon"), {9: SOLVED, 8: UNSOLVABLE})
    assert run("--stores", stores, "--out", out) == 0
    text = capsys.readouterr().out
    strict = figures_of(out)["rule_sets"][0]
    assert strict["counts"] == {SOLVED: 8, UNSOLVABLE: 2, UNKNOWN: 0}
    assert (out / "yukon.retried.txt").read_text() == "8-9\n"
    assert "then its unknowns again: `yukon solve $(cat study/results/yukon.retried.txt)" in text
    assert run("--out", out, "--unknown", "yukon") == 2
    assert "has no unknown deals" in capsys.readouterr().err


def test_a_second_retry_keeps_the_first(stores, tmp_path, capsys):
    """A table retried before, retried again from a new store: the first retry's deals and
    command are kept (``earlier_retries``, its own deals file) beside the second's, and
    merging the same store once more changes nothing."""
    out = tmp_path / "out"
    make_store(stores / "yukon-retry.db", Rules("yukon"), {8: UNSOLVABLE, 9: UNKNOWN})
    assert run("--stores", stores, "--out", out) == 0
    later = tmp_path / "later"
    later.mkdir()
    make_store(later / "yukon-retry.db", Rules("yukon"), {9: SOLVED})
    for _ in range(2):
        capsys.readouterr()
        assert run("--stores", later, "--out", out) == 0
    text = capsys.readouterr().out
    assert figures_of(out)["rule_sets"][0]["counts"] == {SOLVED: 8, UNSOLVABLE: 2, UNKNOWN: 0}
    assert (out / "yukon.retried.txt").read_text() == "8-9\n"
    assert (out / "yukon.retried-2.txt").read_text() == "9\n"
    assert len(json.loads((out / "yukon.source.json").read_text())["earlier_retries"]) == 1
    assert text.count("yukon.retried.txt") == 1 and text.count("yukon.retried-2.txt") == 1


def test_a_retry_that_contradicts_a_verdict_is_refused(stores, tmp_path, capsys):
    make_store(stores / "yukon-retry.db", Rules("yukon"), {7: SOLVED})
    assert run("--stores", stores, "--out", tmp_path / "out") == 2
    assert "deal 7: unsolvable in yukon, solved in yukon-retry.db" in capsys.readouterr().err
