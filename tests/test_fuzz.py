"""Fuzzing every input path (boards, lines, ranges, results files, stores, catalogue files
and manifests) with random bytes, text and JSON: the only outcomes allowed are
success or one ``error:`` line with exit status 2, never a traceback, and a refused store
is left as it was."""

import hashlib
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from stores import snapshot
from test_cli import run
from test_hostile import SHIPPED, catalogue_commands

from solver.catalogue.files import read_catalogue
from solver.errors import YukonError
from solver.game.numbering import deal_board
from solver.game.ranges import DealRange, parse_range

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20,
)
BOARD = deal_board("yukon", 12)
# Inputs shaped like the real thing, so the fuzzing reaches past the first check.
BOARD_JSON = st.fixed_dictionaries(
    {"columns": st.lists(st.dictionaries(st.sampled_from(["face_down", "face_up"]), JSON), max_size=8)},
    optional={"foundations": st.dictionaries(st.sampled_from("SHDCX"), JSON), "stock": JSON},
)
RECORD = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(["yukon", "russian", "milligan"]) | JSON,
        "foundation_return": st.booleans() | JSON,
        "numbering": st.sampled_from(["pysol", "kpat"]) | JSON,
        "deal": st.integers(min_value=-5, max_value=10**21) | JSON,
        "board": st.just(BOARD.to_text()) | JSON,
        "status": st.sampled_from(["solved", "unsolvable", "unknown", "SOLVED"]) | JSON,
        "solution": st.text(alphabet="0123456789>F:ASHDCKQJT /", max_size=30) | JSON,
    }
)
ANY_INPUT = (
    st.binary(max_size=300)
    | st.text(max_size=200).map(str.encode)
    | JSON.map(lambda value: json.dumps(value).encode())
)


def assert_clean(result, allowed=(0, 1, 2, 3)) -> None:
    """Success, or exactly one ``error:`` line and exit 2; never a traceback."""
    assert "Traceback" not in result.stderr
    assert result.exit_code in allowed, result.stderr
    if result.exit_code == 2:
        assert [line for line in result.stderr.splitlines() if line.startswith("error: ")] == [
            result.stderr.splitlines()[-1]
        ]


@FUZZ
@given(data=ANY_INPUT | BOARD_JSON.map(lambda board: json.dumps(board).encode()))
def test_board_files(data):
    assert_clean(run("replay", "--board", "-", "1>F:AS", input=data))


@FUZZ
@given(line=st.text(max_size=200) | st.binary(max_size=100).map(lambda data: data.decode("latin-1")))
def test_move_lines(line):
    assert_clean(run("replay", "12", line))


@FUZZ
@given(text=st.text(max_size=60))
def test_ranges(text):
    try:
        deals = parse_range(text)
    except YukonError as error:
        assert "\n" not in str(error)
    else:
        assert isinstance(deals, DealRange)


@FUZZ
@given(text=st.text(min_size=1, max_size=60).filter(lambda text: not text.startswith("-")))
def test_deal_numbers(text):
    assert_clean(run("deal", text))


@FUZZ
@given(lines=st.lists(ANY_INPUT | RECORD.map(lambda record: json.dumps(record).encode()), max_size=4))
def test_verify_files(lines):
    assert_clean(run("verify", "-", input=b"\n".join(lines)))


@FUZZ
@given(data=st.binary(min_size=1, max_size=2000))
def test_store_files(tmp_path_factory, data):
    directory = tmp_path_factory.mktemp("store")
    path = directory / "r.db"
    path.write_bytes(data)
    before = snapshot(directory)
    for args in (("stats", str(path)), ("export", str(path)), ("solve", "1", "--out", str(path))):
        result = run(*args)
        assert_clean(result, allowed=(0, 2))
        if result.exit_code == 2:
            assert snapshot(directory) == before


def test_a_schema_that_is_not_utf8_is_refused(yukon_store, tmp_path):
    """A damaged byte in a column type of the results table's schema text (found by the fuzz
    test below) makes SQLite fail to decode its table description: one line and status 2 for each
    command, and the file is left as it was."""
    data = bytearray(yukon_store.read_bytes())
    data[data.index(b"INTEGER", data.index(b"CREATE TABLE results"))] = 0x80
    path = tmp_path / "r.db"
    path.write_bytes(bytes(data))
    before = snapshot(tmp_path)
    for args in (("stats", str(path)), ("export", str(path)), ("solve", "2", "--out", str(path))):
        result = run(*args)
        assert result.exit_code == 2 and "corrupt" in result.output, result.output
        assert_clean(result, allowed=(2,))
        assert snapshot(tmp_path) == before


@FUZZ
@given(damage=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=8))
def test_damaged_stores(yukon_store, tmp_path_factory, damage):
    data = bytearray(yukon_store.read_bytes())
    for position, byte in damage:
        data[position % len(data)] = byte
    directory = tmp_path_factory.mktemp("damaged")
    path = directory / "r.db"
    path.write_bytes(bytes(data))
    before = snapshot(directory)
    for args in (("stats", str(path)), ("export", str(path)), ("solve", "2", "--out", str(path))):
        result = run(*args)
        assert_clean(result, allowed=(0, 2))
        if result.exit_code == 2:
            assert snapshot(directory) == before


ENTRY = read_catalogue(SHIPPED / "russian-easy.json")["entries"][0]
# Catalogue entries, files and manifests shaped like the real ones, any field possibly replaced.
CATALOGUE_ENTRY = st.fixed_dictionaries({key: st.just(value) | JSON for key, value in ENTRY.items()})
CATALOGUE = st.fixed_dictionaries(
    {
        "format": st.just("yukon-catalogue") | JSON,
        "variant": st.just("russian") | JSON,
        "tier": st.just("easy") | JSON,
        "entries": st.lists(CATALOGUE_ENTRY | JSON, max_size=3),
    }
)
MANIFEST_RECORD = st.fixed_dictionaries(
    {
        "file": st.sampled_from(["russian-easy.json", "../russian-easy.json", "/russian-easy.json"]) | JSON,
        "variant": st.just("russian") | JSON,
        "tier": st.sampled_from(["easy", "hard"]) | JSON,
        "count": st.integers(0, 3) | JSON,
        "sha256": st.just("CHECKSUM") | JSON,
    }
)
MANIFEST = st.fixed_dictionaries(
    {
        "format": st.just("yukon-catalogue-manifest") | JSON,
        "files": st.lists(MANIFEST_RECORD | JSON, max_size=3),
    }
)


@FUZZ
@given(catalogue=CATALOGUE | JSON, manifest=MANIFEST | JSON, raw=st.none() | st.binary(max_size=200))
def test_catalogue_files_and_manifests(tmp_path_factory, catalogue, manifest, raw):
    directory = tmp_path_factory.mktemp("catalogue")
    data = raw if raw is not None else json.dumps(catalogue).encode()
    (directory / "russian-easy.json").write_bytes(data)
    text = json.dumps(manifest).replace("CHECKSUM", hashlib.sha256(data).hexdigest())
    (directory / "manifest.json").write_text(text)
    for command, args in catalogue_commands(directory).items():
        allowed = {"verify": (0, 1), "check": (0, 2, 5)}.get(command, (0, 2))  # check: 5 in no catalogue
        assert_clean(run(*args), allowed=allowed)
