"""The viewer page in a real headless browser: the board it draws after N moves is the
reference engine's, and its daily deal is ``yukon daily``'s."""

import functools
import http.server
import shutil
import subprocess
import tempfile
import threading
from datetime import date
from html.parser import HTMLParser

import pytest

from solver.board import parse_board
from solver.catalogue.files import read_catalogue, shipped_directory
from solver.catalogue.schedule import daily_entry
from solver.notation import final_position
from solver.rules import Rules

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
    "--virtual-time-budget=10000",
]
DATES = ("2026-02-28", "2026-12-01", "2030-07-04")
# One file per variant: each page load costs about two seconds.
FILES = ("yukon-easy.json", "russian-easy.json")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        """No request log on stderr."""


@pytest.fixture(scope="module")
def server():
    """The catalogue folder served on 127.0.0.1 (a page from file:// cannot fetch JSON)."""
    handler = functools.partial(QuietHandler, directory=str(shipped_directory()))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
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
            timeout=120,
        )
    return done.stdout


class DrawnBoard(HTMLParser):
    """Reads the board the page drew: columns of cards (face down or up), foundation slots
    and the stock, into the project's board text."""

    def __init__(self):
        super().__init__()
        self.columns, self.heights, self.stock, self.column = [], [], [], None
        self.daily_entry = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if "column" in classes:
            self.column = []
            self.columns.append(self.column)
        elif "card" in classes and self.column is not None:
            card = attributes["data-card"]
            self.column.append(f"<{card}>" if "down" in classes else card)
        elif "slot" in classes:
            self.heights.append((attributes["data-suit"], int(attributes["data-height"])))
            self.column = None
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


@pytest.mark.parametrize("path", [shipped_directory() / name for name in FILES], ids=lambda path: path.stem)
def test_the_page_draws_the_reference_position_after_n_moves(server, path):
    catalogue = read_catalogue(path)
    index = len(catalogue["entries"]) - 1
    entry = catalogue["entries"][index]
    rules = Rules(entry["variant"])
    tokens = entry["solution"].split()
    for step in (0, 1, len(tokens) // 2, len(tokens)):
        html = browse(f"{server}/viewer/index.html?catalogue=../{path.name}&entry={index}&step={step}")
        page = parse_board(drawn(html).text(), rules)
        assert page == final_position(parse_board(entry["board"], rules), tokens[:step], rules), (path, step)


def test_the_page_daily_deal_is_yukon_daily(server):
    for path in (shipped_directory() / name for name in FILES):
        catalogue = read_catalogue(path)
        for iso in DATES:
            html = browse(f"{server}/viewer/index.html?catalogue=../{path.name}&date={iso}")
            assert drawn(html).daily_entry == daily_entry(catalogue, date.fromisoformat(iso))[1].index, (
                path,
                iso,
            )


def test_the_page_takes_a_screenshot(server, tmp_path):
    """The same command made catalogue/viewer/screenshot.png (the README's picture)."""
    url = f"{server}/viewer/index.html?catalogue=../yukon-easy.json&entry=0&step=12&date=2026-12-01"
    browse(url, f"--screenshot={tmp_path / 'page.png'}", "--window-size=1000,760")
    assert (tmp_path / "page.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
