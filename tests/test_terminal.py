"""Cards on a terminal (``solver.cli.terminal``): colour codes and suit symbols when standard
output is a pseudo-terminal, none in a pipe or with NO_COLOR, and ``--color`` overrides."""

import os
import pty
import subprocess

import pytest
from test_cli import yukon_command

from solver.cli.terminal import paint
from solver.game.numbering import deal_board

ESCAPE = "\x1b["


def environment(**changes: str) -> dict:
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    return env | {"PYTHONIOENCODING": "utf-8"} | changes


def on_terminal(args: list[str], env: dict) -> str:
    """What ``yukon ARGS`` writes to standard output when that is a pseudo-terminal."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(yukon_command() + args, stdout=follower, stderr=subprocess.PIPE, env=env)
        os.close(follower)
        output = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end closed (Linux)
                break
            if not chunk:
                break
            output += chunk
        assert process.wait(timeout=60) == 0, process.stderr.read()
    finally:
        os.close(leader)
    return output.decode("utf-8").replace("\r\n", "\n")


def in_pipe(args: list[str], env: dict) -> str:
    done = subprocess.run(yukon_command() + args, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


PLAIN = deal_board("yukon", 12).to_text()


def test_a_terminal_gets_colour_and_suit_symbols():
    shown = on_terminal(["deal", "12"], environment())
    assert ESCAPE + "31m" in shown and "♥" in shown and "♠" in shown
    assert shown == paint(PLAIN)


def test_a_pipe_gets_plain_text():
    assert in_pipe(["deal", "12"], environment()) == PLAIN


@pytest.mark.parametrize("value", ["1", "yes"])
def test_no_color_is_respected_on_a_terminal(value):
    assert on_terminal(["deal", "12"], environment(NO_COLOR=value)) == PLAIN


def test_an_empty_no_color_does_not_count():
    assert ESCAPE in on_terminal(["deal", "12"], environment(NO_COLOR=""))


def test_the_color_option_overrides():
    assert on_terminal(["deal", "12", "--color", "never"], environment()) == PLAIN
    assert in_pipe(["deal", "12", "--color", "always"], environment()) == paint(PLAIN)
    assert ESCAPE in in_pipe(["deal", "12", "--color", "always"], environment(NO_COLOR="1"))


def test_a_terminal_without_the_symbols_gets_painted_letters():
    shown = on_terminal(["deal", "12"], environment(PYTHONIOENCODING="ascii"))
    assert shown == paint(PLAIN, symbols=False) and ESCAPE in shown and "♠" not in shown


def test_paint_leaves_words_and_tokens_readable():
    painted = paint("3>7:TS JSON <2D> Foundations: S-0 H-5")
    assert "JSON" in painted and "S-0 H-5" in painted
    assert painted.count(ESCAPE) == 4  # TS and 2D: a colour and a reset each
