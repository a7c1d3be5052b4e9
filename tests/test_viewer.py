"""The viewer page in a real headless browser: the board it draws after N moves of the stored
line is the reference engine's; a game played by clicks ends won, an illegal move is refused,
undo restores the board, the moved cards are highlighted; a file whose checksum differs from
the manifest's is not used; a bad ?entry= says so; all columns fit a 420-pixel screen; and
daily.js gives the README's test vectors and ``yukon daily``'s deals."""

import functools
import http.server
import json
import shutil
import struct
import subprocess
import tempfile
import threading
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_schedule import readme_demo, shipped_vectors

from solver.board import parse_board
from solver.catalogue.files import (
    empty_catalogue,
    read_catalogue,
    read_manifest,
    save_catalogue,
    shipped_directory,
)
from solver.catalogue.schedule import daily_in
from solver.engine.move_kinds import FROM_FOUNDATION
from solver.notation import final_position, move_token
from solver.numbering import deal_board
from solver.reference import IllegalMove, legal_moves
from solver.result import Limits
from solver.rules import Rules
from solver.solve import solve_position

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (apt-get install chromium)")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--virtual-time-budget=30000",
]
HARNESS = Path(__file__).parent / "data" / "viewer_harness.js"
PHONE = (420, 900)
# One file per variant: each page load costs about two seconds.
FILES = ("yukon-easy.json", "russian-easy.json")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        """No request log on stderr."""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(folder, URL) of a site on 127.0.0.1 (a page from file:// cannot fetch JSON): the
    shipped catalogue folder's files, the harness, and the test pages written into it."""
    root = tmp_path_factory.mktemp("site")
    for path in shipped_directory().iterdir():
        (root / path.name).symlink_to(path.resolve())
    (root / "harness.js").symlink_to(HARNESS)
    handler = functools.partial(QuietHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    thread.join()


def browse(url: str, *extra: str) -> str:
    """The DOM after the page has loaded and run, as chromium dumps it (or, given other
    flags such as --screenshot, what chromium prints)."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *(extra or ["--dump-dom"]), url],
            capture_output=True,
            text=True,
            timeout=180,
        )
    return done.stdout


class Result(HTMLParser):
    """The text of the harness's <pre id="result">."""

    def __init__(self):
        super().__init__()
        self.inside, self.text = False, ""

    def handle_starttag(self, tag, attrs):
        self.inside = dict(attrs).get("id") == "result"

    def handle_data(self, data):
        if self.inside:
            self.text += data


def run_harness(site, name: str, test: dict):
    """Write a harness page running ``test``, load it, and return its JSON result."""
    root, url = site
    page = (
        '<!doctype html><meta charset="utf-8"><body style="margin:0">'
        f'<iframe id="frame" style="border:0;width:{PHONE[0]}px;height:{PHONE[1]}px"></iframe>'
        f'<pre id="result"></pre><script>const test = {json.dumps(test)};</script>'
        '<script src="viewer/daily.js"></script><script src="harness.js"></script>'
    )
    (root / f"{name}.html").write_text(page)
    parser = Result()
    parser.feed(browse(f"{url}/{name}.html"))
    result = json.loads(parser.text)
    assert not (isinstance(result, dict) and "error" in result), result
    return result


class DrawnBoard(HTMLParser):
    """Reads the board the page drew: columns of cards (face down or up), foundation slots
    and the stock, into the project's board text; and which cards are highlighted as moved."""

    def __init__(self):
        super().__init__()
        self.columns, self.heights, self.stock, self.column = [], [], [], None
        self.moved, self.daily_entry = [], None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if "column" in classes:
            self.column = []
            self.columns.append(self.column)
        elif "card" in classes and self.column is not None:
            card = attributes["data-card"]
            self.column.append(f"<{card}>" if "down" in classes else card)
            if "moved" in classes:
                self.moved.append(card)
        elif "slot" in classes:
            self.heights.append((attributes["data-suit"], int(attributes["data-height"])))
            self.column = None
            if "moved" in classes:
                self.moved.append("0A23456789TJQK"[self.heights[-1][1]] + self.heights[-1][0])
        elif attributes.get("id") == "stock":
            self.stock = (attributes.get("data-cards") or "").split()
            self.column = None
        elif attributes.get("id") == "daily":
            self.daily_entry = int(attributes["data-entry"])

    def text(self) -> str:
        ranks = "0A23456789TJQK"
        lines = [" ".join(cards) or "-" for cards in self.columns]
        lines.append("Foundations: " + " ".join(f"{suit}-{ranks[height]}" for suit, height in self.heights))
        if self.stock:
            lines.append("Stock: " + " ".join(self.stock))
        return "\n".join(lines) + "\n"


def drawn(html: str) -> DrawnBoard:
    parser = DrawnBoard()
    parser.feed(html)
    return parser


def last_entry(name: str) -> tuple[int, dict, Rules]:
    entries = read_catalogue(shipped_directory() / name)["entries"]
    return len(entries) - 1, entries[-1], Rules(entries[-1]["variant"])


def position(entry: dict, tokens: list[str], rules: Rules):
    return final_position(parse_board(entry["board"], rules), tokens, rules)


@pytest.mark.parametrize("name", FILES)
def test_show_solution_draws_the_reference_position_after_n_moves(site, name):
    index, entry, rules = last_entry(name)
    tokens = entry["solution"].split()
    for step in (1, len(tokens) // 2, len(tokens)):
        html = browse(f"{site[1]}/viewer/index.html?file={name}&entry={index}&step={step}&date=2026-12-01")
        assert parse_board(drawn(html).text(), rules) == position(entry, tokens[:step], rules), (name, step)


@pytest.mark.parametrize("name", FILES)
def test_the_stored_line_played_by_clicks_ends_won_with_the_moved_cards_highlighted(site, name):
    index, entry, rules = last_entry(name)
    tokens = entry["solution"].split()
    half = len(tokens) // 2
    actions = [{"move": token} for token in tokens[:half]] + [{"snapshot": "half"}]
    actions += [{"move": token} for token in tokens[half:]] + [{"snapshot": "end"}]
    shots = run_harness(
        site,
        f"play-{name}",
        {"kind": "play", "page": f"viewer/index.html?file={name}&entry={index}", "actions": actions},
    )
    board = drawn(shots["half"]["main"])
    assert parse_board(board.text(), rules) == position(entry, tokens[:half], rules)
    assert board.moved == moved_cards(entry, tokens[:half], rules)
    assert (shots["end"]["won"], shots["end"]["moves"]) == ("yes", len(tokens))
    assert "won in" in shots["end"]["message"]


def moved_cards(entry: dict, tokens: list[str], rules: Rules) -> list[str]:
    """The cards the last of ``tokens`` moves: its packet, bottom card first."""
    source, card = tokens[-1].split(">")[0], tokens[-1].split(":")[1][:2]
    if source == "F":
        return [card]
    cards = position(entry, tokens[:-1], rules).to_text().splitlines()[int(source) - 1].split()
    return cards[cards.index(card) :]


def illegal_packet_move(entry: dict, tokens: list[str], rules: Rules) -> str:
    """A packet move of a face-up card that the reference engine refuses after ``tokens``."""
    board = position(entry, tokens, rules)
    columns = [line.split() for line in board.to_text().splitlines()[: len(board.columns)]]
    for source, cards in enumerate(columns, start=1):
        for card in (card for card in cards if not card.startswith("<") and card != "-"):
            for target in (target for target in range(1, len(columns) + 1) if target != source):
                try:
                    final_position(board, [f"{source}>{target}:{card}"], rules)
                except IllegalMove:
                    return f"{source}>{target}:{card}"
    raise AssertionError("no illegal move found")


def test_an_illegal_move_is_refused_and_undo_restores_the_board(site):
    name = "yukon-easy.json"
    index, entry, rules = last_entry(name)
    tokens = entry["solution"].split()
    illegal = illegal_packet_move(entry, tokens[:5], rules)
    first, second = tokens[5], tokens[6]
    actions = [{"move": token} for token in tokens[:5]] + [{"snapshot": "before"}]
    actions += [{"move": illegal}, {"snapshot": "refused"}]
    actions += [{"move": first}, {"snapshot": "moved"}, {"keys": ["u"]}, {"snapshot": "undone by key"}]
    actions += [
        {"move": first},
        {"move": second},
        {"click": "#undo"},
        {"click": "#undo"},
        {"snapshot": "undone"},
        {"keys": key_presses(first)},
        {"snapshot": "by keys"},
    ]
    shots = run_harness(
        site,
        "illegal",
        {"kind": "play", "page": f"viewer/index.html?file={name}&entry={index}", "actions": actions},
    )
    before = shots["before"]
    assert drawn(shots["refused"]["main"]).text() == drawn(before["main"]).text()
    assert shots["refused"]["moves"] == 5 and f"{illegal} refused" in shots["refused"]["message"]
    assert parse_board(drawn(shots["moved"]["main"]).text(), rules) == position(entry, tokens[:6], rules)
    for undone in ("undone by key", "undone"):
        assert drawn(shots[undone]["main"]).text() == drawn(before["main"]).text(), undone
        assert shots[undone]["moves"] == 5
    assert parse_board(drawn(shots["by keys"]["main"]).text(), rules) == position(entry, tokens[:6], rules)


def key_presses(token: str) -> list[str]:
    """The keys that make a stored move: a column's number, then another's (or F, or S)."""
    if token == "S":
        return ["s"]
    source, target = token.split(":")[0].split(">")
    return [source, "f" if target == "F" else target]


def return_move(entry: dict, tokens: list[str]) -> tuple[int, str]:
    """(k, token): the first foundation return the reference engine allows after the first k
    moves of the stored line, under foundation return."""
    rules = Rules(entry["variant"], foundation_return=True)
    for count in range(len(tokens)):
        board = position(entry, tokens[:count], rules)
        for move in legal_moves(board, rules):
            if move.kind == FROM_FOUNDATION:
                return count, move_token(board, move)
    raise AssertionError("no foundation return on the way")


def test_foundation_return_is_played_only_where_the_entry_allows_it(site):
    root, _ = site
    index, entry, rules = last_entry("yukon-easy.json")
    tokens = entry["solution"].split()
    count, token = return_move(entry, tokens)
    catalogue = read_catalogue(shipped_directory() / "yukon-easy.json")
    catalogue["entries"][index] = entry | {"foundation_return": True}
    save_catalogue(root / "returns", catalogue)
    actions = [{"move": move} for move in tokens[:count]] + [{"move": token}, {"snapshot": "page"}]
    after_return = position(entry, [*tokens[:count], token], Rules("yukon", foundation_return=True))
    for manifest, allowed in (("../returns/manifest.json", True), ("../manifest.json", False)):
        page = f"viewer/index.html?manifest={manifest}&file=yukon-easy.json&entry={index}"
        shot = run_harness(site, f"return-{allowed}", {"kind": "play", "page": page, "actions": actions})[
            "page"
        ]
        if allowed:
            assert (
                parse_board(drawn(shot["main"]).text(), rules) == after_return and shot["moves"] == count + 1
            )
        else:
            assert shot["moves"] == count and "no foundation return in this rule set" in shot["message"]


@pytest.fixture(scope="module")
def milligan_folder(site):
    """A catalogue folder on the site holding one solved Milligan deal (pysol 1)."""
    root, _ = site
    rules = Rules("milligan")
    board = deal_board("milligan", 1)
    result = solve_position(board, rules, Limits(max_nodes=20000, time_limit=None))
    assert result.status == "solved"
    entry = {
        "variant": "milligan",
        "numbering": "pysol",
        "deal": 1,
        "foundation_return": False,
        "board": board.to_text(),
        "solution": result.solution,
        "length": result.solution_length,
        "score": 0.0,
        "tier": "easy",
        "since": "2026-01-01",
    }
    save_catalogue(root / "milligan", empty_catalogue("milligan", "easy") | {"entries": [entry]})
    return "milligan"


def test_a_milligan_deal_played_by_clicks_ends_won_and_its_eight_columns_fit(site, milligan_folder):
    tokens = read_catalogue(site[0] / milligan_folder / "milligan-easy.json")["entries"][0][
        "solution"
    ].split()
    assert "S" in tokens
    page = f"viewer/index.html?manifest=../{milligan_folder}/manifest.json&file=milligan-easy.json&entry=0"
    actions = [{"snapshot": "opening"}] + [{"move": token} for token in tokens] + [{"snapshot": "end"}]
    shots = run_harness(site, "milligan", {"kind": "play", "page": page, "actions": actions})
    assert (shots["end"]["won"], shots["end"]["moves"]) == ("yes", len(tokens))
    opening = shots["opening"]
    assert len(opening["columns"]) == 8
    assert all(
        0 <= column["left"] < column["right"] <= opening["clientWidth"] for column in opening["columns"]
    )
    assert opening["viewport"] == PHONE[0] and opening["scrollWidth"] <= opening["clientWidth"]


def test_daily_js_gives_the_readme_vectors(site):
    """Both tables of the README (test_schedule.py checks them against the Python code)."""
    schedule = read_manifest(shipped_directory())["schedule"]
    shipped, (demo, demo_vectors) = shipped_vectors(), readme_demo()
    picks = [
        {"url": f"{variant}-{tier}.json", "file": f"{variant}-{tier}.json", "schedule": schedule, "date": day}
        for day, variant, tier, _, _ in shipped
    ]
    picks += [
        {"catalogue": demo, "file": demo["file"], "schedule": schedule, "date": day}
        for day, *_ in demo_vectors
    ]
    results = run_harness(site, "vectors", {"kind": "vectors", "picks": picks})
    assert [result["index"] for result in results[: len(shipped)]] == [index for *_, index, _ in shipped]
    demo_results = [(result["index"], result["cycle"], result["day"]) for result in results[len(shipped) :]]
    assert demo_results == [(index, cycle, day) for _, index, _, cycle, day in demo_vectors]


def test_the_page_shows_the_daily_deal_of_a_date(site):
    day = "2027-03-14"
    html = browse(f"{site[1]}/viewer/index.html?file=russian-hard.json&date={day}")
    entry, chosen = daily_in(shipped_directory(), "russian", "hard", date.fromisoformat(day))
    assert drawn(html).daily_entry == chosen.index
    assert parse_board(drawn(html).text(), Rules("russian")) == parse_board(entry["board"], Rules("russian"))


@pytest.mark.parametrize("text", ["abc", "1000", "-1", "2.5"])
def test_a_bad_entry_parameter_says_which_and_why(site, text):
    shots = run_harness(
        site,
        "bad-entry",
        {
            "kind": "play",
            "page": f"viewer/index.html?file=yukon-easy.json&entry={text}",
            "actions": [{"snapshot": "page"}],
        },
    )
    page = shots["page"]
    assert page["error"] == "entry"
    assert page["status"] == f"?entry={text}: yukon-easy.json has no such entry (its entries are 0 to 999)"


def test_a_file_the_manifest_does_not_list_is_not_used(site):
    page = "viewer/index.html?file=../README.md"
    shot = run_harness(site, "unlisted", {"kind": "play", "page": page, "actions": [{"snapshot": "page"}]})[
        "page"
    ]
    assert (shot["error"], shot["status"]) == ("file", "../README.md is not listed in manifest.json")


def test_a_file_whose_checksum_differs_from_the_manifest_is_not_used(site):
    root, _ = site
    folder = root / "tampered"
    folder.mkdir()
    shutil.copy(shipped_directory() / "manifest.json", folder / "manifest.json")
    text = (shipped_directory() / "yukon-easy.json").read_text()
    (folder / "yukon-easy.json").write_text(text.replace('"deal": 2,', '"deal": 3,', 1))
    page = "viewer/index.html?manifest=../tampered/manifest.json&file=yukon-easy.json&entry=0"
    shots = run_harness(site, "tampered", {"kind": "play", "page": page, "actions": [{"snapshot": "page"}]})
    assert shots["page"]["status"] == "yukon-easy.json: checksum does not match manifest.json; not used"
    assert shots["page"]["error"] == "file"
    assert drawn(shots["page"]["main"]).columns == []


def test_every_column_lies_inside_a_420_pixel_wide_screen(site):
    name = "yukon-easy.json"
    index, entry, _ = last_entry(name)
    actions = [{"move": token} for token in entry["solution"].split()[:30]] + [{"snapshot": "page"}]
    page = run_harness(
        site,
        "phone",
        {"kind": "play", "page": f"viewer/index.html?file={name}&entry={index}", "actions": actions},
    )["page"]
    assert page["viewport"] == PHONE[0] and len(page["columns"]) == 7
    # The width a vertical scrollbar leaves: nothing lies under the scrollbar or past it.
    assert all(0 <= column["left"] < column["right"] <= page["clientWidth"] for column in page["columns"])
    assert page["scrollWidth"] <= page["clientWidth"]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_page_takes_a_phone_width_screenshot(site, tmp_path):
    """The same command made catalogue/viewer/screenshot.png (the README's picture)."""
    url = f"{site[1]}/viewer/index.html?file=yukon-easy.json&entry=0&step=12&date=2026-12-01"
    browse(url, f"--screenshot={tmp_path / 'page.png'}", f"--window-size={PHONE[0]},{PHONE[1]}")
    assert png_size(tmp_path / "page.png") == PHONE
