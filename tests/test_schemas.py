"""The JSON Schemas shipped in solver/schemas/ hold for what the commands print: each
command's JSON, run through the CLI, validates against the schema of its format, and so
does every record of release 0.1.0. Each schema also rejects a document gone wrong, so a
schema that accepts anything would fail here."""

import json
import shutil
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.common.formats import BOARD, DAILY, FORMATS, HINT, RECORD, STATS, VERIFY_REPORT

LEGACY = Path(__file__).parent / "data" / "legacy"
SCHEMAS = resources.files("solver") / "schemas"


def validator(kind) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / kind.schema_name).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def run(*arguments, exit_codes=(0,)) -> str:
    result = CliRunner().invoke(main, [str(argument) for argument in arguments], prog_name="yukon")
    assert result.exit_code in exit_codes, result.output
    return result.stdout


def assert_valid(document: dict, kind) -> None:
    """``document`` names ``kind`` (in its first two keys) and its schema holds."""
    assert list(document)[:2] == ["format", "format_version"]
    assert (document["format"], document["format_version"]) == (kind.name, kind.version)
    validator(kind).validate(document)


@pytest.fixture
def legacy_store(tmp_path):
    target = tmp_path / "store-v1.db"
    shutil.copyfile(LEGACY / "store-v1.db", target)
    return target


def test_every_shipped_schema_is_a_draft_2020_12_schema():
    names = sorted(path.name for path in SCHEMAS.iterdir() if path.name.endswith(".schema.json"))
    assert {kind.schema_name for kind in FORMATS} <= set(names)
    for name in names:
        schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    ("arguments", "exit_code"),
    [
        (["16", "--variant", "russian"], 0),
        (["7", "--variant", "russian"], 1),
        (["12", "--max-nodes", "1"], 3),
        (["3", "--variant", "milligan", "--numbering", "pysol"], 0),
    ],
    ids=["solved", "unsolvable", "unknown", "milligan"],
)
def test_solve_json_is_a_record(arguments, exit_code):
    assert_valid(json.loads(run("solve", *arguments, "--json", exit_codes=(exit_code,))), RECORD)


def test_every_record_of_release_0_1_0_and_of_its_export_now_validates(legacy_store, tmp_path):
    old = [json.loads(line) for line in (LEGACY / "export-v1.jsonl").read_text().splitlines()]
    for record in old:
        assert "format" not in record
        validator(RECORD).validate(record)
    lines = run("export", legacy_store).splitlines()
    assert len(lines) == len(old) == 30
    for line in lines:
        assert_valid(json.loads(line), RECORD)


def test_verify_json_is_a_report(legacy_store, tmp_path):
    exported = tmp_path / "export.jsonl"
    run("export", legacy_store, "-o", exported)
    assert_valid(json.loads(run("verify", exported, "--json")), VERIFY_REPORT)
    assert_valid(json.loads(run("verify", LEGACY / "export-v1.jsonl", "--json")), VERIFY_REPORT)


def test_stats_json_of_verdicts_plays_and_ratings(legacy_store, tmp_path):
    assert_valid(json.loads(run("stats", legacy_store, "--json")), STATS)
    store = tmp_path / "fresh.db"
    solved = run(
        "solve", "1-3", "--variant", "russian", "--jobs", "1", "--out", store, "--json", exit_codes=(0, 1)
    )
    assert_valid(json.loads(solved), STATS)
    run("rate", "1-3", "--variant", "russian", "--runs", "2", "--jobs", "1", "--out", store)
    run(
        "play",
        "1-3",
        "--variant",
        "russian",
        "--policy",
        "greedy",
        "--runs",
        "2",
        "--jobs",
        "1",
        "--out",
        store,
    )
    summary = json.loads(run("stats", store, "--json"))
    assert summary["policies"] and summary["tiers"]
    assert_valid(summary, STATS)


@pytest.mark.parametrize(
    "arguments",
    [
        ["12", "--policy", "greedy"],
        ["12", "--policy", "sampling", "--samples", "2", "--max-nodes", "500"],
        ["12", "--samples", "2", "--max-nodes", "500"],
    ],
    ids=["greedy", "sampling", "expert"],
)
def test_hint_json(arguments):
    assert_valid(json.loads(run("hint", *arguments, "--json")), HINT)


@pytest.mark.parametrize(("variant", "tier"), [("yukon", "easy"), ("russian", "hard")])
def test_daily_json_of_the_shipped_catalogues(variant, tier):
    document = json.loads(
        run("daily", "--variant", variant, "--tier", tier, "--date", "2026-12-24", "--json")
    )
    assert_valid(document, DAILY)


@pytest.mark.parametrize("variant", ["yukon", "milligan"])
def test_deal_json_is_a_board(variant):
    assert_valid(json.loads(run("deal", "3", "--variant", variant, "--format", "json")), BOARD)


@pytest.mark.parametrize(
    ("kind", "arguments", "spoil"),
    [
        (RECORD, ["solve", "16", "--variant", "russian", "--json"], {"status": "SOLVED"}),
        (RECORD, ["solve", "16", "--variant", "russian", "--json"], {"format_version": 2}),
        (HINT, ["hint", "12", "--policy", "greedy", "--json"], {"confidence": 2}),
        (DAILY, ["daily", "--date", "2026-12-24", "--json"], {"date": "24 December"}),
        (BOARD, ["deal", "3", "--format", "json"], {"stock": ["1S"]}),
    ],
)
def test_a_document_gone_wrong_is_rejected(kind, arguments, spoil):
    document = json.loads(run(*arguments))
    validator(kind).validate(document)
    with pytest.raises(jsonschema.ValidationError):
        validator(kind).validate(document | spoil)


# --- the library's to_json is what the commands print ---------------------------------------


@pytest.mark.parametrize(
    ("arguments", "settings"),
    [
        (["--policy", "greedy"], {"policy": "greedy"}),
        (
            ["--samples", "2", "--max-nodes", "500", "--seed", "4"],
            {"samples": 2, "max_nodes": 500, "seed": 4},
        ),
    ],
    ids=["greedy", "sampling"],
)
def test_a_hint_from_python_is_the_commands_json(arguments, settings):
    import solver

    document = solver.hint(solver.deal(12), "yukon", **settings).to_json()
    assert_valid(document, HINT)
    assert document == json.loads(run("hint", "12", *arguments, "--json"))


def test_the_daily_deal_from_python_is_the_commands_json():
    import solver

    document = solver.daily_deal("russian", "hard", "2026-12-24").to_json()
    assert_valid(document, DAILY)
    printed = run("daily", "--variant", "russian", "--tier", "hard", "--date", "2026-12-24", "--json")
    assert document == json.loads(printed)


def test_a_deal_number_beyond_2_53_is_written_as_text_and_read_back():
    import solver
    from solver.results.record import Record

    huge = 99999999999999999999
    record = solver.solve_deal(huge, "russian", limits=solver.Limits(max_nodes=1)).record
    document = record.to_json()
    assert document["deal"] == str(huge) and json.loads(json.dumps(document), parse_int=float)["deal"] == str(
        huge
    )
    assert_valid(document, RECORD)
    assert Record.from_json(document) == record and record.deal == huge
    report = solver.verify_results([json.dumps(document), json.dumps(document | {"deal": huge})])
    assert (report["unverifiable"], report["unreadable"], report["illegal"]) == (2, 0, 0)
    small = record.to_json() | {"deal": 2**53 - 1}
    assert_valid(small, RECORD)
    with pytest.raises(jsonschema.ValidationError):
        validator(RECORD).validate(document | {"deal": "12"})  # a small number stays an integer


def test_a_board_and_a_verify_report_from_python_are_the_commands_json(legacy_store, tmp_path):
    import solver

    board = solver.deal(3, "milligan").to_json()
    assert_valid(board, BOARD)
    assert board == json.loads(run("deal", "3", "--variant", "milligan", "--format", "json"))
    lines = (LEGACY / "export-v1.jsonl").read_text().splitlines()
    report = solver.verify_results(lines, "file " + str(LEGACY / "export-v1.jsonl"))
    assert_valid(report, VERIFY_REPORT)
    assert report == json.loads(run("verify", LEGACY / "export-v1.jsonl", "--json"))
