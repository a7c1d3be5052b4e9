"""Moves in words (``solver.game.explain``): every sentence of an explained line belongs to its
move of a line that replays on the reference engine; the hint keeps its wording and never
names a card it cannot see; ``solve`` and ``replay`` print the sentences."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.game.board import Board
from solver.game.cards import card_text, parse_card
from solver.game.explain import board_sentence, line_sentences
from solver.game.notation import replay_tokens
from solver.game.numbering import deal_board
from solver.game.reference import STOCK_DEAL, TABLEAU, TO_FOUNDATION, Move, is_won
from solver.game.rules import Rules
from solver.player.decision import reason_for
from solver.player.view import view_of

CATALOGUE = Path(__file__).parents[1] / "catalogue"


def catalogue_lines(name: str, count: int) -> list[dict]:
    return json.loads((CATALOGUE / name).read_text())["entries"][:count]


def expected_parts(board: Board, move: Move) -> list[str]:
    """What the sentence of ``move`` from ``board`` must say, read off the board itself."""
    if move.kind == STOCK_DEAL:
        return ["deals the stock"]
    parts = [card_text(move.card)]
    source = move.source
    down = board.face_down_counts[source]
    size = move.size if move.kind == TABLEAU else 1
    left = board.columns[source][:-size]
    if move.kind == TABLEAU:
        target = board.exposed_card(move.target)
        parts.append(
            f"onto {card_text(target)}" if target is not None else f"into empty column {move.target + 1}"
        )
    if move.kind == TO_FOUNDATION:
        parts.append("on its foundation")
    if move.kind in (TABLEAU, TO_FOUNDATION):
        if down and len(left) == down:
            parts.append(f"up {card_text(left[-1])} in column {source + 1}")
        elif left:
            parts.append(f"exposing {card_text(left[-1])} in column {source + 1}")
        else:
            parts.append("empt")  # "empties column" or "emptying column"
    return parts


@pytest.mark.parametrize(
    "name, rules", [("yukon-easy.json", Rules("yukon")), ("russian-hard.json", Rules("russian"))]
)
def test_every_sentence_belongs_to_its_move_of_a_replayed_line(name, rules):
    for entry in catalogue_lines(name, 20):
        board = deal_board(rules.variant, entry["deal"], entry["numbering"])
        tokens = entry["solution"].split()
        sentences = line_sentences(board, tokens, rules)
        assert len(sentences) == len(tokens)
        before = board
        for sentence, (_token, move, after) in zip(
            sentences, replay_tokens(board, tokens, rules), strict=True
        ):
            for part in expected_parts(before, move):
                assert part in sentence, (sentence, move)
            before = after
        assert is_won(before)


def test_milligan_stock_deals_say_what_they_deal_and_what_is_left():
    """Issue 53: the first deal said "68 cards left" where 60 are left, the last "4 cards left"
    as it emptied the stock; every deal of a line is checked against the stock after it."""
    rules = Rules("milligan")
    board = deal_board("milligan", 3)
    tokens = ["S"] * 9  # 68 cards in the stock: eight deals of 8, then the last 4
    sentences = line_sentences(board, tokens, rules)
    after = [step for _token, _move, step in replay_tokens(board, tokens, rules)]
    assert len(board.stock) == 68
    assert sentences[0] == "deals 8 cards from the stock (60 left)"
    for sentence, before, step in zip(sentences[:-1], [board, *after[:-2]], after[:-1], strict=True):
        assert sentence == f"deals 8 cards from the stock ({len(step.stock)} left)"
        assert len(before.stock) - len(step.stock) == 8
    assert sentences[-1] == "deals the last 4 cards of the stock" and after[-1].stock == ()


def test_one_card_on_a_moved_card_is_said_in_the_singular():
    one_on_it = Move(TABLEAU, 2, 1, parse_card("9D"), 2)
    assert "(with the card on it)" in board_sentence(POSITION, one_on_it)


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(word) for word in text.split())


# Column 3 holds 4H face down, then 9D and TC face up; column 1 holds JD.
POSITION = Board(
    (cards("JD"), cards("KS"), cards("4H 9D TC")) + ((),) * 4, (0, 0, 1, 0, 0, 0, 0), (0, 0, 0, 0)
)


def test_the_hint_keeps_its_wording():
    """The sentence the issue quotes from the hint."""
    move = Move(TABLEAU, 2, 0, parse_card("TC"))
    assert reason_for(view_of(POSITION, Rules()), move) == "moves TC onto JD, exposing 9D in column 3"


def test_the_hint_never_names_a_face_down_card_and_a_line_does():
    move = Move(TABLEAU, 2, 1, parse_card("9D"), 2)
    hint = reason_for(view_of(POSITION, Rules()), move)
    told = board_sentence(POSITION, move)
    assert "4H" not in hint and hint.startswith("turns a card in column 3: ")
    assert told == "turns up 4H in column 3: moves 9D (with the card on it) onto KS"
    assert hint.split(": ", 1)[1] == told.split(": ", 1)[1]


def run(*args: str):
    result = CliRunner().invoke(main, list(args), prog_name="yukon")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_solve_explain_prints_a_sentence_per_move_and_json_lists_them():
    rules = Rules("russian")
    record = json.loads(run("solve", "16", "--variant", "russian", "--json", "--explain").stdout)
    board = deal_board("russian", 16)
    assert record["explanation"] == line_sentences(board, record["solution"].split(), rules)
    plain = json.loads(run("solve", "16", "--variant", "russian", "--json").stdout)
    assert "explanation" not in plain and set(record) - set(plain) == {"explanation"}
    text = run("solve", "16", "--variant", "russian", "--explain").stdout
    for number, sentence in enumerate(record["explanation"], start=1):
        assert f"{number:4d}. " in text and sentence in text


def test_replay_explain_prints_a_sentence_per_move():
    entry = catalogue_lines("yukon-easy.json", 1)[0]
    result = run("replay", str(entry["deal"]), entry["solution"], "--explain")
    board = deal_board("yukon", entry["deal"])
    sentences = line_sentences(board, entry["solution"].split(), Rules())
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and len(lines) == len(sentences) + 1
    for line, token, sentence in zip(lines, entry["solution"].split(), sentences, strict=False):
        assert line.endswith(f". {token} {sentence}")


def test_explain_is_refused_with_a_store(tmp_path):
    result = run("solve", "1-2", "--out", str(tmp_path / "runs.db"), "--explain")
    assert result.exit_code == 2 and "--explain" in result.stderr
