"""The viewer page in a real headless browser: the board it draws after N moves of the stored
line is the reference engine's, with no face-down or stock card anywhere in the DOM; a game
played by drags ends won by the automatic finish, a tapped card goes to its best place, the
hint is the greedy hint, an illegal move is refused, undo restores the board, a game with no
move left says so, the moved cards are highlighted; the header names the rule set and the
board's deal, the difficulty in words; a file whose checksum differs from the manifest's is
not used; a bad ?entry= says so; at 420 and 1,400 pixels the board uses the width and its
longest column ends in the window, Milligan's foundations on one row; and daily.js gives the
README's test vectors and ``yukon daily``'s deals."""

import functools
import http.server
import json
import random
import shutil
import struct
import subprocess
import tempfile
import threading
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest
import test_schedule
from test_js_modules import best_place, finishing, hidden_count

from solver.catalogue.epochs import SCHEDULE, schedule_json
from solver.catalogue.files import (
    empty_catalogue,
    read_catalogue,
    save_catalogue,
    shipped_directory,
)
from solver.catalogue.schedule import daily_in
from solver.engine.move_kinds import FROM_FOUNDATION
from solver.game.board import Board, parse_board
from solver.game.cards import RANKS, SUITS, card_text
from solver.game.notation import final_position, move_token
from solver.game.numbering import deal_board
from solver.game.reference import IllegalMove, apply_move, is_won, legal_moves
from solver.game.rules import Rules
from solver.player.hint import hint
from solver.player.history import played_from
from solver.results.limits import Limits
from solver.search.solve import solve_position

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
DESKTOP = (1400, 900)
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


def run_harness(site, name: str, test: dict, size: tuple[int, int] = PHONE):
    """Write a harness page running ``test`` on a page ``size`` pixels large, load it, and
    return its JSON result."""
    root, url = site
    page = (
        '<!doctype html><meta charset="utf-8"><body style="margin:0">'
        f'<iframe id="frame" style="border:0;width:{size[0]}px;height:{size[1]}px"></iframe>'
        f'<pre id="result"></pre><script>const test = {json.dumps(test)};</script>'
        '<script type="module" src="harness.js"></script>'
    )
    (root / f"{name}.html").write_text(page)
    parser = Result()
    parser.feed(browse(f"{url}/{name}.html", "--dump-dom", f"--window-size={size[0]},{size[1] + 200}"))
    result = json.loads(parser.text)
    assert not (isinstance(result, dict) and "error" in result), result
    return result


class DrawnBoard(HTMLParser):
    """Reads the board the page drew: columns of cards (a face-down card is a bare back: drawn
    as ``<?>``), foundation slots and the stock's count, into the project's board text with
    hidden cards unknown; which cards are highlighted as moved; and every card face the DOM
    names (``data-card`` and ``title`` attributes)."""

    def __init__(self):
        super().__init__()
        self.columns, self.heights, self.stock, self.column = [], [], 0, None
        self.moved, self.daily_entry, self.faces, self.backs_with_faces = [], None, [], 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if "data-card" in attributes:
            self.faces.append(attributes["data-card"])
        if "down" in classes and ("data-card" in attributes or attributes.get("title") != "face down"):
            self.backs_with_faces += 1
        if "column" in classes:
            self.column = []
            self.columns.append(self.column)
        elif "card" in classes and self.column is not None:
            card = "<?>" if "down" in classes else attributes["data-card"]
            self.column.append(card)
            if "moved" in classes:
                self.moved.append(card)
        elif "slot" in classes:
            self.heights.append((attributes["data-suit"], int(attributes["data-height"])))
            self.column = None
            if "moved" in classes:
                self.moved.append("0A23456789TJQK"[self.heights[-1][1]] + self.heights[-1][0])
        elif attributes.get("id") == "stock":
            self.stock = int(attributes.get("data-count") or 0)
            self.column = None
        elif attributes.get("id") == "daily":
            self.daily_entry = int(attributes["data-entry"]) if attributes.get("data-entry") else None

    def text(self) -> str:
        ranks = "0A23456789TJQK"
        lines = [" ".join(cards) or "-" for cards in self.columns]
        lines.append("Foundations: " + " ".join(f"{suit}-{ranks[height]}" for suit, height in self.heights))
        if self.stock:
            lines.append(f"Stock: {self.stock} cards")
        return "\n".join(lines) + "\n"


def seen_text(board: Board) -> str:
    """``board`` as a player sees it, in DrawnBoard's text: hidden cards unknown."""
    lines = [
        " ".join(["<?>"] * down + [card_text(card) for card in cards[down:]]) or "-"
        for cards, down in zip(board.columns, board.face_down_counts)
    ]
    lines.append(board.to_text().splitlines()[len(board.columns)])
    if board.stock:
        lines.append(f"Stock: {len(board.stock)} cards")
    return "\n".join(lines) + "\n"


def visible_cards(board: Board) -> list[str]:
    """The faces a player sees: face-up cards and each foundation's top."""
    faces = [
        card_text(card) for cards, down in zip(board.columns, board.face_down_counts) for card in cards[down:]
    ]
    return faces + [
        RANKS[height - 1] + SUITS[slot % 4] for slot, height in enumerate(board.foundations) if height
    ]


def drawn(html: str) -> DrawnBoard:
    parser = DrawnBoard()
    parser.feed(html)
    return parser


def last_entry(name: str) -> tuple[int, dict, Rules]:
    entries = read_catalogue(shipped_directory() / name)["entries"]
    return len(entries) - 1, entries[-1], Rules(entries[-1]["variant"])


def position(entry: dict, tokens: list[str], rules: Rules) -> Board:
    return final_position(parse_board(entry["board"], rules), tokens, rules)


def page_of(name: str, index: int, extra: str = "") -> str:
    return f"viewer/index.html?file={name}&entry={index}{extra}"


def to_the_finish(entry: dict, rules: Rules) -> tuple[list[str], list[str]]:
    """(the stored line up to the move after which every card is face up, the finish the
    page then plays by itself)."""
    tokens = entry["solution"].split()
    board = parse_board(entry["board"], rules)
    for count, token in enumerate(tokens, start=1):
        board = final_position(board, [token], rules)
        if hidden_count(board) == 0:
            return tokens[:count], finishing(board, rules)
    raise AssertionError("the stored line never shows every card")


def finished_by_the_page(name: str) -> tuple[int, dict, Rules, list[str], list[str]]:
    """The last entry of a file whose automatic finish wins the game."""
    entries = read_catalogue(shipped_directory() / name)["entries"]
    for index in range(len(entries) - 1, len(entries) - 40, -1):
        rules = Rules(entries[index]["variant"])
        played, finish = to_the_finish(entries[index], rules)
        if is_won(final_position(parse_board(entries[index]["board"], rules), played + finish, rules)):
            return index, entries[index], rules, played, finish
    raise AssertionError(f"no entry of {name} is won by the automatic finish")


def assert_no_hidden_card(html: str, board: Board) -> None:
    """The page's DOM names exactly the faces a player sees, and no face-down card's."""
    shown = drawn(html)
    assert shown.backs_with_faces == 0
    assert sorted(shown.faces) == sorted(visible_cards(board))


@pytest.mark.parametrize("name", FILES)
def test_show_solution_draws_the_reference_position_after_n_moves_and_no_hidden_card(site, name):
    index, entry, rules = last_entry(name)
    tokens = entry["solution"].split()
    for step in (1, len(tokens) // 2, len(tokens)):
        html = browse(f"{site[1]}/{page_of(name, index, f'&step={step}&date=2026-12-01')}")
        expected = position(entry, tokens[:step], rules)
        assert drawn(html).text() == seen_text(expected), (name, step)
        assert_no_hidden_card(html, expected)


@pytest.mark.parametrize("name", FILES)
def test_a_stored_line_played_by_drags_ends_won_by_the_automatic_finish(site, name):
    index, entry, rules, played, finish = finished_by_the_page(name)
    half = len(played) // 2
    actions = [{"move": token} for token in played[:half]] + [{"snapshot": "half"}]
    actions += [{"move": token} for token in played[half:]] + [{"snapshot": "end"}]
    shots = run_harness(
        site, f"play-{name}", {"kind": "play", "page": page_of(name, index), "actions": actions}
    )
    board = drawn(shots["half"]["main"])
    assert board.text() == seen_text(position(entry, played[:half], rules))
    assert board.moved == moved_cards(entry, played[:half], rules)
    end = shots["end"]
    assert (end["won"], end["moves"]) == ("yes", len(played) + len(finish))
    assert end["message"] == f"Won in {len(played) + len(finish)} moves!"
    assert drawn(end["main"]).text() == seen_text(position(entry, played + finish, rules))


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
    shots = run_harness(site, "illegal", {"kind": "play", "page": page_of(name, index), "actions": actions})
    before = shots["before"]
    assert drawn(shots["refused"]["main"]).text() == drawn(before["main"]).text()
    assert shots["refused"]["moves"] == 5 and f"{illegal} refused" in shots["refused"]["message"]
    assert drawn(shots["moved"]["main"]).text() == seen_text(position(entry, tokens[:6], rules))
    for undone in ("undone by key", "undone"):
        assert drawn(shots[undone]["main"]).text() == drawn(before["main"]).text(), undone
        assert shots[undone]["moves"] == 5
    assert drawn(shots["by keys"]["main"]).text() == seen_text(position(entry, tokens[:6], rules))


def key_presses(token: str) -> list[str]:
    """The keys that make a stored move: a column's number, then another's (or F, or S)."""
    if token == "S":
        return ["s"]
    source, target = token.split(":")[0].split(">")
    return [source, "f" if target == "F" else target]


def test_a_tapped_card_goes_to_its_best_place(site):
    name = "yukon-easy.json"
    index, entry, rules = last_entry(name)
    tokens = entry["solution"].split()[:12]
    board = position(entry, tokens, rules)
    taps = [
        (column, place)
        for column, (cards, down) in enumerate(zip(board.columns, board.face_down_counts))
        for place in range(down, len(cards))
    ]
    actions = [{"move": token} for token in tokens]
    for column, place in taps:
        actions += [
            {"tap": f"{column + 1}:{card_text(board.columns[column][place])}"},
            {"snapshot": f"{column}/{place}"},
        ]
        if best_place(board, rules, column, place):
            actions.append({"keys": ["u"]})
    shots = run_harness(site, "tap", {"kind": "play", "page": page_of(name, index), "actions": actions})
    moved = 0
    for column, place in taps:
        shot = shots[f"{column}/{place}"]
        token = best_place(board, rules, column, place)
        if token is None:
            assert shot["moves"] == len(tokens) and "has nowhere to go" in shot["message"]
            assert drawn(shot["main"]).text() == seen_text(board)
        else:
            moved += 1
            assert shot["moves"] == len(tokens) + 1 and shot["moves_text"].endswith(f"(last {token})")
            assert drawn(shot["main"]).text() == seen_text(final_position(board, [token], rules))
    assert 0 < moved < len(taps)


def test_the_hint_button_and_key_give_the_greedy_hint(site):
    name = "russian-easy.json"
    index, entry, rules = last_entry(name)
    tokens = entry["solution"].split()
    start = parse_board(entry["board"], rules)
    steps = (0, 9, 20)
    actions = []
    for step in steps:
        actions += [{"click": "#restart"}, *({"move": token} for token in tokens[:step])]
        actions += [
            {"click": "#hint"},
            {"snapshot": f"button {step}"},
            {"keys": ["h"]},
            {"snapshot": f"key {step}"},
        ]
    shots = run_harness(site, "hint", {"kind": "play", "page": page_of(name, index), "actions": actions})
    for step in steps:
        board, history = played_from(start, tokens[:step], rules)
        expected = hint(board, rules, policy="greedy", seed=0, history=history)
        assert expected.move is not None
        for how in ("button", "key"):
            shot = shots[f"{how} {step}"]
            assert (shot["hint"], shot["moves"]) == (expected.move, step), (how, step)
            assert shot["message"].startswith("Hint: ") and "hinted" in shot["main"]


def stuck_play_out(entry: dict, rules: Rules) -> list[str]:
    """A random game from the entry that ends with no legal move while cards are still hidden."""
    for seed in range(50):
        rng = random.Random(seed)
        board, tokens = parse_board(entry["board"], rules), []
        while legal_moves(board, rules) and hidden_count(board) and len(tokens) < 400:
            move = rng.choice(legal_moves(board, rules))
            tokens.append(move_token(board, move))
            board = apply_move(board, move, rules)
        if not legal_moves(board, rules):
            return tokens
    raise AssertionError("no random game got stuck")


def test_a_game_with_no_move_left_says_so(site):
    name = "russian-hard.json"
    entry = read_catalogue(shipped_directory() / name)["entries"][0]
    tokens = stuck_play_out(entry, Rules("russian"))
    actions = [{"move": token} for token in tokens[:-1]] + [{"snapshot": "before"}, {"move": tokens[-1]}]
    shots = run_harness(
        site,
        "stuck",
        {"kind": "play", "page": page_of(name, 0), "actions": [*actions, {"snapshot": "stuck"}]},
    )
    assert (shots["before"]["stuck"], shots["before"]["moves"]) == ("no", len(tokens) - 1)
    assert "No move left" not in shots["before"]["message"]
    stuck = shots["stuck"]
    assert (stuck["stuck"], stuck["won"], stuck["moves"]) == ("yes", "no", len(tokens))
    assert stuck["message"] == "No move left: undo or restart."


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
            assert drawn(shot["main"]).text() == seen_text(after_return) and shot["moves"] == count + 1
            assert shot["heading"].startswith("Yukon with foundation return deal ")
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


def test_a_milligan_deal_played_by_drags_fits_a_phone_and_never_shows_its_stock(site, milligan_folder):
    entry = read_catalogue(site[0] / milligan_folder / "milligan-easy.json")["entries"][0]
    rules = Rules("milligan")
    played, finish = to_the_finish(entry, rules)
    assert "S" in played
    page = f"viewer/index.html?manifest=../{milligan_folder}/manifest.json&file=milligan-easy.json&entry=0"
    middle = played.index("S") + 3
    actions = [
        {"snapshot": "opening"},
        *({"move": token} for token in played[:middle]),
        {"snapshot": "middle"},
    ]
    actions += [*({"move": token} for token in played[middle:]), {"snapshot": "end"}]
    shots = run_harness(site, "milligan", {"kind": "play", "page": page, "actions": actions})
    end = shots["end"]
    assert end["moves"] == len(played) + len(finish)
    assert drawn(end["main"]).text() == seen_text(position(entry, played + finish, rules))
    for name, tokens in (("opening", []), ("middle", played[:middle])):
        assert_no_hidden_card(shots[name]["main"], position(entry, tokens, rules))
    opening = shots["opening"]
    assert len(opening["columns"]) == 8 and len(opening["slots"]) == 8
    assert all(
        0 <= column["left"] < column["right"] <= opening["clientWidth"] for column in opening["columns"]
    )
    assert len({slot["top"] for slot in opening["slots"]}) == 1, "the foundations wrap"
    assert all(0 <= slot["left"] < slot["right"] <= opening["clientWidth"] for slot in opening["slots"])
    assert opening["viewport"] == PHONE[0] and opening["scrollWidth"] <= opening["clientWidth"]


# The schedule the README's vectors are stated under: the keyed one of the generation 1 files
# (test_schedule.KEYED_SCHEDULE once the schedule has generations; before, the shipped one).
VECTOR_SCHEDULE = schedule_json(getattr(test_schedule, "KEYED_SCHEDULE", SCHEDULE))


def test_daily_js_gives_the_readme_vectors(site):
    """Both tables of the README, each file alone under the vectors' schedule
    (test_schedule.py checks them against the Python code)."""
    shipped, (demo, demo_vectors) = test_schedule.shipped_vectors(), test_schedule.readme_demo()
    picks = [
        {"files": [[1, f"{variant}-{tier}.json"]], "schedule": VECTOR_SCHEDULE, "date": day}
        for day, variant, tier, _, _ in shipped
    ]
    picks += [
        {"catalogue": demo, "file": demo["file"], "schedule": VECTOR_SCHEDULE, "date": day}
        for day, *_ in demo_vectors
    ]
    results = run_harness(site, "vectors", {"kind": "vectors", "picks": picks})
    deals = [
        read_catalogue(shipped_directory() / result["file"])["entries"][result["index"]]["deal"]
        for result in results[: len(shipped)]
    ]
    assert [(result["index"], deal) for result, deal in zip(results, deals)] == [
        (index, deal) for *_, index, deal in shipped
    ]
    demo_results = [(result["index"], result["cycle"], result["day"]) for result in results[len(shipped) :]]
    assert demo_results == [(index, cycle, day) for _, index, _, cycle, day in demo_vectors]


def test_the_page_shows_the_daily_deal_of_a_date(site):
    day = "2027-03-14"
    html = browse(f"{site[1]}/viewer/index.html?file=russian-hard.json&date={day}")
    entry, chosen = daily_in(shipped_directory(), "russian", "hard", date.fromisoformat(day))
    assert drawn(html).daily_entry == chosen.index
    assert drawn(html).text() == seen_text(parse_board(entry["board"], Rules("russian")))


def test_the_header_names_the_rule_set_and_the_board_s_deal_in_words(site):
    """Another entry than the date's daily deal: the header names the board's deal only, the
    difficulty is words, and one move is "1 move"."""
    name, day = "russian-return-hard.json", "2027-03-14"
    entries = read_catalogue(shipped_directory() / name)["entries"]
    _, daily = daily_in(
        shipped_directory(), "russian", "hard", date.fromisoformat(day), foundation_return=True
    )
    index = (daily.index + 1) % len(entries)
    entry = entries[index]
    first = entry["solution"].split()[0]
    page = page_of(name, index, f"&date={day}")
    shot = run_harness(
        site, "header", {"kind": "play", "page": page, "actions": [{"move": first}, {"snapshot": "page"}]}
    )["page"]
    heading = f"Russian Solitaire with foundation return deal {entry['deal']} (PySolFC numbering)"
    assert shot["heading"] == heading and shot["title"] == heading.replace(" deal", ", deal")
    assert shot["daily"] == f"Play the daily deal of {day}"
    assert str(entries[daily.index]["deal"]) not in shot["daily"] + shot["difficulty"]
    assert shot["difficulty"].startswith("Hard deal: ") and "score" not in shot["header"] + shot["main"]
    assert shot["moves_text"] == f"1 move (last {first})"


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


def longest_column_step(entry: dict, rules: Rules) -> tuple[int, int]:
    """(step, cards): the first step of the stored line with its longest column."""
    tokens = entry["solution"].split()
    lengths = [
        max(map(len, position(entry, tokens[:step], rules).columns)) for step in range(0, len(tokens) + 1, 2)
    ]
    return 2 * lengths.index(max(lengths)), max(lengths)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_board_uses_the_width_and_its_longest_column_stays_in_view(site, size):
    name = "yukon-easy.json"
    index, entry, rules = last_entry(name)
    step, longest = longest_column_step(entry, rules)
    assert longest >= 20
    page = page_of(name, index, f"&step={step}")
    shot = run_harness(
        site, f"layout-{size[0]}", {"kind": "play", "page": page, "actions": [{"snapshot": "page"}]}, size
    )["page"]
    assert shot["viewport"] == size[0] and len(shot["columns"]) == 7
    # The width a vertical scrollbar leaves: nothing lies under the scrollbar or past it.
    assert all(0 <= column["left"] < column["right"] <= shot["clientWidth"] for column in shot["columns"])
    assert shot["scrollWidth"] <= shot["clientWidth"]
    assert shot["tableau"]["right"] - shot["tableau"]["left"] >= 0.9 * shot["clientWidth"]
    assert len(shot["cards"]) == 52 - sum(
        position(entry, entry["solution"].split()[:step], rules).foundations
    )
    assert max(card["bottom"] for card in shot["cards"]) <= size[1], "a column runs below the window"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_page_takes_a_screenshot(site, tmp_path, size):
    """The same command made catalogue/viewer/screenshot.png (the README's picture, PHONE)."""
    url = f"{site[1]}/viewer/index.html?file=yukon-easy.json&entry=0&step=12&date=2026-12-01"
    browse(
        url,
        f"--screenshot={tmp_path / 'page.png'}",
        f"--window-size={size[0]},{size[1]}",
        "--hide-scrollbars",
    )
    assert png_size(tmp_path / "page.png") == size
