"""The shipped catalogues and their manifest against their JSON Schemas (draft 2020-12) in
solver/schemas/, and the schemas catching what they are for."""

import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is a test dependency ('.[test]')")

from solver.catalogue.files import MANIFEST_NAME, read_manifest, shipped_directory  # noqa: E402

SCHEMAS = Path(__file__).resolve().parent.parent / "solver" / "schemas"


def validator(name: str):
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def shipped_files() -> list[str]:
    return [record["file"] for record in read_manifest(shipped_directory())["files"]]


def test_the_manifest_is_valid():
    manifest = json.loads((shipped_directory() / MANIFEST_NAME).read_text(encoding="utf-8"))
    assert list(validator("manifest.schema.json").iter_errors(manifest)) == []


@pytest.mark.parametrize("name", shipped_files())
def test_every_shipped_catalogue_is_valid(name):
    catalogue = json.loads((shipped_directory() / name).read_text(encoding="utf-8"))
    errors = [error.message for error in validator("catalogue.schema.json").iter_errors(catalogue)]
    assert errors == [], (name, errors[:3])


def test_the_catalogue_schema_refuses_what_verify_would():
    catalogue = json.loads((shipped_directory() / "yukon-easy.json").read_text(encoding="utf-8"))
    check = validator("catalogue.schema.json")
    entry = catalogue["entries"][0]
    for broken in (
        entry | {"tier": "medium"},
        entry | {"solution": "3>7:TS  5>F:AH"},
        entry | {"since": "1 Jan 2026"},
        entry | {"surprise": 1},
        {
            key: value for key, value in entry.items() if key not in ("ladder", "difficulty_se")
        },  # a bare score
        {key: value for key, value in entry.items() if key != "board"},
    ):
        assert not check.is_valid(catalogue | {"entries": [broken]}), broken


def test_the_catalogue_schema_wants_a_score_with_its_games():
    catalogue = json.loads((shipped_directory() / "milligan-hard.json").read_text(encoding="utf-8"))
    check = validator("catalogue.schema.json")
    entry = catalogue["entries"][0]
    assert check.is_valid(catalogue | {"entries": [entry]})
    assert not check.is_valid(catalogue | {"entries": [{k: v for k, v in entry.items() if k != "ladder"}]})
    assert not check.is_valid(catalogue | {"difficulty_model": {"model": "elo"}})


def test_the_manifest_schema_refuses_a_path_elsewhere():
    manifest = json.loads((shipped_directory() / MANIFEST_NAME).read_text(encoding="utf-8"))
    record = manifest["files"][0] | {"file": "../yukon-easy.json"}
    assert not validator("manifest.schema.json").is_valid(manifest | {"files": [record]})


def test_the_catalogue_schema_takes_a_tiering_of_either_kind_and_nothing_else():
    catalogue = json.loads((shipped_directory() / "milligan-hard.json").read_text(encoding="utf-8"))
    check = validator("catalogue.schema.json")
    model = catalogue["difficulty_model"]
    by_ladder = {"by": "ladder", "rungs": 1, "skills": [0.5], "thresholds": [-1.0, 1.0]}
    by_score = {"by": "score", "thresholds": [0.5, 0.9375]}
    for tiering in (by_ladder, by_score):
        assert check.is_valid(catalogue | {"difficulty_model": model | {"tiering": tiering}})
    for broken in (by_score | {"by": "elo"}, by_score | {"rungs": 1}, {"by": "ladder", "thresholds": [0, 1]}):
        assert not check.is_valid(catalogue | {"difficulty_model": model | {"tiering": broken}}), broken
