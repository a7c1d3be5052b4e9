"""The viewer's ES modules (catalogue/viewer/*.js) under Node against the Python side, on the
same inputs: legal moves and the board after a move on positions of random play-outs (all
three variants, with and without foundation return), illegal moves refused, deals of every
numbering (numbers up to 10^20), daily picks of every shipped file and of the README's demo
catalogue, greedy hints with the game's history, and whole greedy games. Python writes the
fixtures into a temporary folder; tests/js/compare.mjs compares and names every mismatch."""

import json
import random
import re
import shutil
import subprocess
import tomllib
from datetime import date
from fnmatch import fnmatch
from pathlib import Path

import pytest
from test_schedule import readme_demo

from solver.catalogue.epochs import SCHEDULE, schedule_json
from solver.catalogue.files import read_catalogue, read_manifest, shipped_directory
from solver.catalogue.schedule import daily_in, listing_of, pick
from solver.engine.move_kinds import TABLEAU, TO_FOUNDATION
from solver.errors import YukonError
from solver.game.board import parse_board
from solver.game.cards import card_text
from solver.game.notation import final_position, move_token
from solver.game.numbering import deal_board
from solver.game.reference import apply_move, is_won, legal_moves
from solver.game.rules import VARIANTS, Rules
from solver.player.greedy import Greedy, ranked_moves
from solver.player.hint import hint
from solver.player.history import played_from
from solver.player.view import view_of

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="no node on PATH: the JavaScript modules are not tested")
HERE = Path(__file__).parent
PLAY_OUT_MOVES = 60


def play_out(variant: str, foundation_return: bool, deal: int, numbering: str = "pysol"):
    """(start board, tokens) of a random game of up to PLAY_OUT_MOVES moves from a deal."""
    rules = Rules(variant, foundation_return)
    rng = random.Random(f"{variant}/{foundation_return}/{deal}/{numbering}")
    board = start = deal_board(variant, deal, numbering)
    tokens = []
    for _ in range(PLAY_OUT_MOVES):
        moves = legal_moves(board, rules)
        if not moves:
            break
        move = rng.choice(moves)
        tokens.append(move_token(board, move))
        board = apply_move(board, move, rules)
    return start, tokens


def play_outs():
    for variant in VARIANTS:
        for foundation_return in (False, True):
            for deal in (1, 2, 3, 40000):
                yield variant, foundation_return, *play_out(variant, foundation_return, deal)
    yield "yukon", False, *play_out("yukon", False, 7, "kpat")


def refused_tokens(board, rules: Rules, legal: list[str]) -> list[str]:
    """Tokens naming a face-up card's packet, an exposed card to a foundation, or the stock,
    that are not legal here."""
    candidates = ["S"] if not board.stock else []
    for source, (cards, down) in enumerate(zip(board.columns, board.face_down_counts), start=1):
        for card in cards[down:]:
            candidates += [
                f"{source}>{target}:{card_text(card)}" for target in range(1, len(board.columns) + 1)
            ]
        if cards:
            candidates.append(f"{source}>F:{card_text(cards[-1])}")
    return [token for token in candidates if token not in legal][:6]


def refused_by_python(board, token: str, rules: Rules) -> bool:
    try:
        final_position(board, [token], rules)
    except YukonError:
        return True
    return False


def position_fixtures():
    positions, refused, hints = [], [], []
    for number, (variant, foundation_return, start, tokens) in enumerate(play_outs()):
        rules = Rules(variant, foundation_return)
        board = start
        for step in range(len(tokens) + 1):
            legal = [move_token(board, move) for move in legal_moves(board, rules)]
            played = tokens[step] if step < len(tokens) else None
            after = final_position(board, [played], rules).to_text() if played else None
            common = {"variant": variant, "foundation_return": foundation_return, "board": board.to_text()}
            positions.append(common | {"legal": legal, "played": played, "after": after})
            if step % 10 == 0:
                refused += [
                    common | {"token": token}
                    for token in refused_tokens(board, rules, legal)
                    if refused_by_python(board, token, rules)
                ]
            if step % 3 == number % 3:
                hints.append(greedy_hint_fixture(variant, foundation_return, start, tokens[:step], step))
            if played:
                board = final_position(board, [played], rules)
    return positions, refused, hints


def greedy_hint_fixture(variant: str, foundation_return: bool, start, tokens: list[str], seed: int) -> dict:
    rules = Rules(variant, foundation_return)
    board, history = played_from(start, tokens, rules)
    found = hint(board, rules, policy="greedy", seed=seed, history=history)
    return {
        "variant": variant,
        "foundation_return": foundation_return,
        "start": start.to_text(),
        "tokens": tokens,
        "seed": seed,
        "status": found.status,
        "move": found.move,
    }


def hidden_count(board) -> int:
    return sum(board.face_down_counts) + len(board.stock)


def best_place(board, rules: Rules, column: int, index: int) -> str | None:
    """The move a tapped card makes (play.js bestPlace): of its packet's legal moves (and its
    own to a foundation when it is exposed), the one the greedy player scores highest, the
    first of equals."""
    size = len(board.columns[column]) - index
    for _, move in ranked_moves(view_of(board, rules)):
        kinds = (TABLEAU, TO_FOUNDATION) if size == 1 else (TABLEAU,)
        if move.kind in kinds and move.source == column and move.size == size:
            return move_token(board, move)
    return None


def finishing(board, rules: Rules) -> list[str]:
    """The moves of the automatic finish once every card is face up (play.js
    finishingTokens): each time the first legal move to a foundation, as far as they go."""
    tokens = []
    while hidden_count(board) == 0:
        move = next((move for move in legal_moves(board, rules) if move.kind == TO_FOUNDATION), None)
        if move is None:
            break
        tokens.append(move_token(board, move))
        board = apply_move(board, move, rules)
    return tokens


def tap_fixtures(positions: list[dict]) -> list[dict]:
    """Every face-up card of every fifth play-out position, with the place a tap sends it."""
    taps = []
    for item in positions[::5]:
        rules = Rules(item["variant"], item["foundation_return"])
        board = parse_board(item["board"], rules)
        for column, (cards, down) in enumerate(zip(board.columns, board.face_down_counts)):
            taps += [
                {**item, "column": column, "index": index, "best": best_place(board, rules, column, index)}
                for index in range(down, len(cards))
            ]
    return taps


def finish_fixtures() -> list[dict]:
    """The board of stored lines of three files once every card is face up, and the finish."""
    found = []
    for name in ("yukon-easy.json", "russian-hard.json", "milligan-normal.json"):
        for entry in read_catalogue(shipped_directory() / name)["entries"][-6:]:
            rules = Rules(entry["variant"])
            board = parse_board(entry["board"], rules)
            for token in entry["solution"].split():
                board = final_position(board, [token], rules)
                if hidden_count(board) == 0:
                    break
            found.append(
                {"variant": entry["variant"], "board": board.to_text(), "finish": finishing(board, rules)}
            )
    return found


def greedy_games():
    games = []
    for variant in VARIANTS:
        for deal, seed in ((1, 0), (2, 5), (12, 9), (40000, 3)):
            start = board = deal_board(variant, deal)
            won, moves = Greedy().play(board, Rules(variant), seed)
            line = []
            for move in moves:
                line.append(move_token(board, move))
                board = apply_move(board, move, Rules(variant))
            games.append(
                {
                    "variant": variant,
                    "start": start.to_text(),
                    "seed": seed,
                    "won": won,
                    "line": " ".join(line),
                }
            )
    return games


def deal_numbers() -> list[tuple[str, int, str]]:
    rng = random.Random(52)
    pysol = [1, 2, 12, 31999, 32000, 32001, 2**31, 2**32 + 5, 2**53 + 1, 10**20 - 1, 10**20]
    pysol += [rng.randrange(32000, 10**20) for _ in range(6)]
    ms = [
        1,
        31999,
        32000,
        2**31 - 1,
        2**31,
        2**32 - 1,
        2**32,
        2**33 - 1,
        *[rng.randrange(1, 2**33) for _ in range(4)],
    ]
    kpat = [1, 3, 2**31 - 1, *[rng.randrange(1, 2**31) for _ in range(4)]]
    found = [(variant, number, "pysol") for variant in VARIANTS for number in pysol]
    found += [(variant, number, "ms") for variant in VARIANTS for number in ms]
    return found + [(variant, number, "kpat") for variant in ("yukon", "russian") for number in kpat]


BAD_DEALS = [
    ("yukon", 0, "pysol"),
    ("yukon", 10**20 + 1, "pysol"),
    ("milligan", 2**33, "ms"),
    ("yukon", 2**31, "kpat"),
    ("milligan", 5, "kpat"),
]


DAILY_DAYS = [
    date(2025, 12, 31),
    date(2026, 1, 1),
    date(2026, 12, 31),
    date(2027, 1, 1),
    date(2027, 8, 9),
    date(2028, 3, 2),
]


def daily_fixtures(folder: Path) -> list[dict]:
    """The daily pick of each rule set's tiers on DAILY_DAYS (``daily_in``: the shipped
    manifest, each generation's file), and of the README's demo catalogue on its dates."""
    directory = shipped_directory()
    manifest = read_manifest(directory)
    first_generation = [record for record in manifest["files"] if record.get("generation", 1) == 1]
    fixtures = [
        {
            "files": tier_files(manifest, record),
            "manifest": str(directory / "manifest.json"),
            "picks": [[day.isoformat(), daily_of_tier(record, day)] for day in DAILY_DAYS],
        }
        for record in first_generation
    ]
    demo, vectors = readme_demo()
    (folder / "demo.json").write_text(json.dumps(demo))
    (folder / "manifest.json").write_text(
        json.dumps({"format_version": 2, "schedule": schedule_json(SCHEDULE)})
    )
    listing = listing_of(demo, demo["file"])
    picks = [
        [day, pick_of(pick(listing, date.fromisoformat(day), SCHEDULE), demo["file"])] for day, *_ in vectors
    ]
    demo_files = [[1, str(folder / "demo.json"), demo["file"]]]
    return [*fixtures, {"files": demo_files, "manifest": str(folder / "manifest.json"), "picks": picks}]


def tier_files(manifest: dict, chosen: dict) -> list[list]:
    """[generation, path, name] of every file the manifest lists for ``chosen``'s rule set and tier."""
    return [
        [record.get("generation", 1), str(shipped_directory() / record["file"]), record["file"]]
        for record in manifest["files"]
        if rule_set_and_tier(record) == rule_set_and_tier(chosen)
    ]


def rule_set_and_tier(record: dict) -> tuple:
    return (
        record["variant"],
        record["tier"],
        record.get("foundation_return", False),
        record.get("numbering", "pysol"),
    )


def daily_of_tier(record: dict, day: date) -> list | None:
    """The daily pick ``yukon daily`` makes for ``record``'s rule set and tier (None: none)."""
    try:
        _, chosen = served_daily(record, day)
    except YukonError:
        return None
    return pick_of(chosen, record["file"])


def served_daily(record: dict, day: date):
    """``daily_in`` of the shipped folder for a manifest record's rule set and tier."""
    rule_set = (record["variant"], record["tier"], day, record.get("foundation_return", False))
    return daily_in(shipped_directory(), *rule_set, numbering=record.get("numbering", "pysol"))


def pick_of(chosen, name: str) -> list:
    """A pick as compare.mjs writes it (a schedule without generations names no file: ``name``)."""
    file = getattr(chosen, "file", "") or name
    return [chosen.index, chosen.cycle, chosen.day, chosen.pool_size, chosen.epoch.isoformat(), file]


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("js-fixtures")
    positions, refused, hints = position_fixtures()
    data = {
        "positions": positions,
        "refused": refused,
        "hints": hints,
        "games": greedy_games(),
        "taps": tap_fixtures(positions),
        "finishes": finish_fixtures(),
        "deals": [
            {
                "variant": variant,
                "number": str(number),
                "numbering": numbering,
                "board": deal_board(variant, number, numbering).to_text(),
            }
            for variant, number, numbering in deal_numbers()
        ],
        "bad_deals": [
            {"variant": variant, "number": str(number), "numbering": numbering}
            for variant, number, numbering in BAD_DEALS
        ],
        "daily": daily_fixtures(folder),
    }
    path = folder / "fixtures.json"
    path.write_text(json.dumps(data))
    return path


@needs_node
def test_the_javascript_modules_agree_with_the_python_side(fixtures):
    done = subprocess.run(
        [NODE, str(HERE / "js" / "compare.mjs"), str(fixtures)], capture_output=True, text=True, timeout=600
    )
    assert done.stderr == "", done.stderr
    report = json.loads(done.stdout)
    data = json.loads(fixtures.read_text())
    assert report["mismatch_count"] == 0, report["mismatches"]
    assert done.returncode == 0
    checked = report["checked"]
    assert checked["legal moves"] == len(data["positions"]) >= 1000
    assert checked["move applied"] == sum(1 for item in data["positions"] if item["played"])
    assert checked["illegal refused"] == len(data["refused"]) >= 100
    assert checked["deal"] == len(data["deals"]) and checked["bad deal refused"] == len(BAD_DEALS)
    assert checked["greedy hint"] == len(data["hints"]) >= 300
    assert {item["status"] for item in data["hints"]} >= {"move"}
    assert checked["greedy game"] == len(data["games"]) and any(game["won"] for game in data["games"])
    assert checked["tapped card"] == len(data["taps"]) >= 1000
    assert {item["best"] is None for item in data["taps"]} == {True, False}
    assert checked["automatic finish"] == len(data["finishes"]) and any(
        item["finish"] for item in data["finishes"]
    )
    assert checked["daily"] == sum(len(item["picks"]) for item in data["daily"])
    assert any(pick is None for item in data["daily"] for _, pick in item["picks"])
    first_files = [
        record for record in read_manifest(shipped_directory())["files"] if record.get("generation", 1) == 1
    ]
    assert len(data["daily"]) == 1 + len(first_files)


EXAMPLE = HERE.parent / "docs" / "examples" / "play.mjs"


def run_example(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([NODE, str(EXAMPLE), *arguments], capture_output=True, text=True, timeout=120)


def example_line(done: subprocess.CompletedProcess) -> list[str]:
    return next(line for line in done.stdout.splitlines() if line.startswith("line: "))[
        len("line: ") :
    ].split()


@needs_node
@pytest.mark.parametrize("name", ["yukon-kpat-easy.json", "russian-return-normal.json", "milligan-hard.json"])
def test_the_node_example_plays_a_catalogue_deal_to_a_win(name):
    """docs/examples/play.mjs follows the stored solution of the daily deal of a date, dealt
    from its deal number, to a win."""
    done = run_example("--file", name, "--date", "2027-05-01")
    assert (done.returncode, done.stderr) == (0, "")
    record = next(record for record in read_manifest(shipped_directory())["files"] if record["file"] == name)
    entry, chosen = served_daily(record, date(2027, 5, 1))
    served = getattr(chosen, "file", "") or name
    assert f"{served} entry {chosen.index}: {entry['variant']} deal {entry['deal']}" in done.stdout
    assert example_line(done) == entry["solution"].split()
    assert done.stdout.endswith(f"won in {entry['length']} moves\n")


@needs_node
def test_the_node_example_follows_the_greedy_hint():
    """With --greedy the example plays the greedy hint at every move: its line is legal on the
    reference engine, and won exactly when it says so (exit status 0)."""
    statuses = []
    for name, entry in (("yukon-easy.json", 305), ("russian-hard.json", 3)):
        done = run_example("--file", name, "--entry", str(entry), "--greedy")
        assert done.stderr == ""
        chosen = json.loads((shipped_directory() / name).read_text())["entries"][entry]
        rules = Rules(chosen["variant"])
        board = final_position(deal_board(chosen["variant"], chosen["deal"]), example_line(done), rules)
        assert (done.returncode == 0) == is_won(board)
        statuses.append(done.returncode)
    assert statuses == [0, 1]


@needs_node
@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--entry", "1000"], "--entry 1000: yukon-easy.json has entries 0 to 999"),
        (["--file", "nothing.json"], "nothing.json is not listed in manifest.json"),
    ],
)
def test_the_node_example_refuses_bad_input_in_one_line(arguments, message):
    done = run_example(*arguments)
    assert (done.returncode, done.stderr) == (2, f"play.mjs: {message}\n")


def test_every_viewer_file_is_packaged_with_the_catalogues():
    """The wheel's package data covers every file of catalogue/viewer, package.json included
    (without it Node reads the installed modules as CommonJS and refuses their imports)."""
    project = tomllib.loads((HERE.parent / "pyproject.toml").read_text())
    patterns = project["tool"]["setuptools"]["package-data"]["solver.catalogue_data.viewer"]
    files = [path.name for path in (HERE.parent / "catalogue" / "viewer").iterdir()]
    assert "package.json" in files and "deal.js" in files
    assert [name for name in files if not any(fnmatch(name, pattern) for pattern in patterns)] == []


@needs_node
def test_the_example_in_docs_javascript_md_runs_as_printed():
    """The JavaScript block of docs/javascript.md, run by Node from the project's folder: the
    legal moves of deal 12 and the hint its comment shows."""
    text = (HERE.parent / "docs" / "javascript.md").read_text()
    code = re.search(r"```js\n(.*?)```", text, re.S).group(1)
    assert '"2>F:AC"' in code
    code = code.replace("./catalogue/", (HERE.parent / "catalogue").as_uri() + "/")
    code += "console.log(JSON.stringify(hint));\n"
    done = subprocess.run(
        [NODE, "--input-type=module"], input=code, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert "'2>F:AC'" in lines[0] and json.loads(lines[-1])["move"] == "2>F:AC" and lines[-2] == "false"
