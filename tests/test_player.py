"""The non-peeking player: views hold no hidden card, decisions ignore hidden cards, hints
are legal, games replay, ratings reproduce, bad input is one clear error."""

import dataclasses
import random

import numpy as np
import pytest

from solver.engine import greedy_play, player_moves
from solver.errors import YukonError
from solver.game import reference
from solver.game.board import Board
from solver.game.cards import make_card
from solver.game.notation import final_position, parse_token
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.difficulty import rate, run_seeds
from solver.player.greedy import Greedy
from solver.player.hint import LOST, WON, game_so_far, hint
from solver.player.play import play_deal
from solver.player.policies import make_policy
from solver.player.sampling import Sampling
from solver.player.view import View, view_of
from solver.search.packing import pack

YUKON, RUSSIAN, MILLIGAN = Rules("yukon"), Rules("russian"), Rules("milligan")
SMALL_SAMPLING = {"samples": 3, "max_nodes": 3000}
SMALL_EXPERT = {"samples": 4, "first_worlds": 2, "max_nodes": 3000, "plan_nodes": 2000}
SMALL = {"greedy": {}, "sampling": SMALL_SAMPLING, "expert": SMALL_EXPERT}


def positions(rules: Rules, deals=(1, 2, 3), prefixes=(0, 5, 15)) -> list[Board]:
    """Openings and positions part-way through greedy games."""
    found = []
    for deal in deals:
        board = deal_board(rules.variant, deal)
        _won, moves = Greedy().play(board, rules, deal)
        for prefix in prefixes:
            found.append(reference.replay(board, moves[:prefix], rules))
    return found


def permute_hidden(board: Board, rng: random.Random) -> Board:
    """The same visible position with its face-down and stock cards shuffled."""
    hidden = [card for cards, down in zip(board.columns, board.face_down_counts) for card in cards[:down]]
    hidden += board.stock
    rng.shuffle(hidden)
    columns, at = [], 0
    for cards, down in zip(board.columns, board.face_down_counts):
        columns.append(tuple(hidden[at : at + down]) + cards[down:])
        at += down
    return Board(tuple(columns), board.face_down_counts, board.foundations, tuple(hidden[at:]))


def test_a_view_has_no_field_for_a_hidden_card():
    assert [field.name for field in dataclasses.fields(View)] == [
        "rules",
        "face_up",
        "face_down_counts",
        "foundations",
        "stock_size",
    ]
    board = deal_board("milligan", 4)
    view = view_of(board, MILLIGAN)
    assert view.hidden_count == sum(board.face_down_counts) + len(board.stock)
    assert sorted(view.unseen()) == sorted(
        [card for cards, down in zip(board.columns, board.face_down_counts) for card in cards[:down]]
        + list(board.stock)
    )


@pytest.mark.parametrize("rules", [YUKON, RUSSIAN, MILLIGAN], ids=lambda rules: rules.variant)
@pytest.mark.parametrize(
    "policy, settings",
    [*SMALL.items(), ("expert", SMALL_EXPERT | {"every_move": False})],
    ids=[*SMALL, "expert-voted-plans-only"],
)
def test_decisions_and_confidence_ignore_hidden_cards(rules, policy, settings):
    player = make_policy(policy, **settings)
    rng = random.Random(7)
    for board in positions(rules, deals=(1, 2), prefixes=(0, 10)):
        other = permute_hidden(board, rng)
        if other == board:
            continue
        assert view_of(other, rules) == view_of(board, rules)
        for seed in (0, 1):
            assert player.decide(view_of(board, rules), seed) == player.decide(view_of(other, rules), seed)


def masked_state(board: Board, rules: Rules) -> np.ndarray:
    """The engine's view of ``board``: its packed state with the hidden cards masked."""
    packed = pack(board, rules)
    view = np.empty_like(packed.state)
    player_moves.mask_into(packed.state, packed.params, view)
    return view


@pytest.mark.parametrize("rules", [YUKON, RUSSIAN, MILLIGAN], ids=lambda rules: rules.variant)
def test_the_engines_view_holds_no_hidden_card(rules):
    """Every face-down place and every stock place of the masked state holds HIDDEN, so
    positions that differ only in their hidden cards have the same view; what is visible
    is kept."""
    rng = random.Random(5)
    for board in positions(rules):
        view = masked_state(board, rules)
        packed = pack(board, rules)
        shown = view != player_moves.HIDDEN
        assert np.count_nonzero(~shown) == board_hidden_count(board)
        assert np.array_equal(view[shown], packed.state[shown])
        assert np.array_equal(masked_state(permute_hidden(board, rng), rules), view)


def board_hidden_count(board: Board) -> int:
    return sum(board.face_down_counts) + len(board.stock)


@pytest.mark.parametrize("share", [0, 1000])
@pytest.mark.parametrize("rules", [YUKON, MILLIGAN], ids=lambda rules: rules.variant)
def test_the_greedy_kernel_decides_on_the_masked_state(rules, share):
    """The in-kernel game masks before every decision: its first move is the same whatever
    the hidden cards are (with random moves too: ``share`` per mille)."""
    rng = random.Random(3)
    for board in positions(rules):
        first = []
        for candidate in (board, permute_hidden(board, rng), permute_hidden(board, rng)):
            packed = pack(candidate, rules)
            line = np.zeros(1, dtype=np.int64)
            greedy_play.play(
                packed.state, packed.params, packed.zobrist, packed.column_keys, 5, 1, line, share
            )
            first.append(int(line[0]))
        assert len(set(first)) == 1


@pytest.mark.parametrize("rules", [YUKON, RUSSIAN, MILLIGAN], ids=lambda rules: rules.variant)
def test_a_greedy_decision_from_a_view_is_the_first_move_of_the_game(rules):
    """A decision masks a world made from the View, a game masks the true state: the same
    view of the engine, so the same move."""
    for board in positions(rules, deals=(1, 2), prefixes=(0, 10)):
        for seed in (0, 7):
            _won, moves = Greedy().play(board, rules, seed)
            assert Greedy().decide(view_of(board, rules), seed).move == (moves[0] if moves else None)


@pytest.mark.parametrize("policy", ["greedy", "sampling", "expert"])
def test_every_hint_is_a_legal_move(policy):
    settings = SMALL[policy]
    for rules in (YUKON, MILLIGAN):
        for board in positions(rules, deals=(4,), prefixes=(0, 8, 20)):
            if reference.is_won(board):
                continue
            answer = hint(board, rules, policy, seed=2, **settings)
            assert answer.move is not None and answer.reason
            reference.check_move(board, parse_token(answer.move, board), rules)


def test_a_hint_says_when_no_move_remains_and_when_the_position_looks_lost():
    stuck = deal_board("russian", 2)
    while reference.legal_moves(stuck, RUSSIAN):
        stuck = reference.apply_move(stuck, reference.legal_moves(stuck, RUSSIAN)[0], RUSSIAN)
    for policy in ("sampling", "greedy", "expert"):
        answer = hint(stuck, RUSSIAN, policy)
        assert (answer.status, answer.move, answer.exit_status) == (LOST, None, 1)
        assert "no legal move remains" in answer.reason
    lost = deal_board("russian", 1)  # proved unsolvable by the solver
    answer = hint(lost, RUSSIAN, **SMALL_SAMPLING)
    if answer.confidence.won == 0:
        assert "lost" in answer.reason


def forced_win() -> Board:
    """Every card face up, each suit a column from King (bottom) to Ace (top)."""
    columns = tuple(tuple(make_card(rank, suit) for rank in range(13, 0, -1)) for suit in range(4))
    return Board(columns + ((), (), ()), (0,) * 7, (0,) * 4)


def test_a_forced_win_is_rated_easy_and_ratings_reproduce():
    rating = rate(forced_win(), YUKON, runs=16, seed=3)
    assert (rating.tier, rating.failures) == ("easy", 0)
    board = deal_board("yukon", 6)
    assert rate(board, YUKON, seed=11) == rate(board, YUKON, seed=11)
    assert run_seeds(11, 16) == run_seeds(11, 16) != run_seeds(12, 16)


def test_a_deal_not_proved_solvable_gets_no_tier():
    rating = rate(deal_board("russian", 1), RUSSIAN)
    assert rating.status == "unsolvable" and rating.tier is None


def test_sampling_wins_more_deals_than_greedy():
    """On fixed deals (counts, not time): sampling's one game each against greedy's
    games with seed 0."""
    deals = (6, 11)
    sampling = Sampling(samples=8, max_nodes=5000)
    sampling_wins = sum(sampling.play(deal_board("yukon", deal), YUKON, 0)[0] for deal in deals)
    greedy_wins = sum(Greedy().play(deal_board("yukon", deal), YUKON, 0)[0] for deal in deals)
    assert sampling_wins > greedy_wins


@pytest.mark.parametrize("policy", ["greedy", "sampling", "expert"])
def test_a_played_game_is_a_record_whose_winning_line_replays(policy):
    settings = SMALL[policy]
    records = [play_deal(deal, YUKON, policy, seed=1, **settings) for deal in (2, 6)]
    assert any(record.won for record in records)
    for record in records:
        final = final_position(deal_board("yukon", record.deal), record.line.split(), YUKON)
        assert reference.is_won(final) == record.won
        assert record.moves == len(record.line.split())
        with pytest.raises(dataclasses.FrozenInstanceError):
            record.won = not record.won
    assert records[0] == play_deal(2, YUKON, policy, seed=1, **settings)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: game_so_far(deal_board("yukon", 12), YUKON, "1>F:AS 9>2:KH"), "after: move"),
        (lambda: hint(deal_board("yukon", 1), YUKON, policy="oracle"), "unknown policy 'oracle'"),
        (lambda: rate(deal_board("yukon", 1), YUKON, runs=0), "runs must be a positive integer"),
        (lambda: make_policy("sampling", samples=0), "samples must be a positive integer"),
        (lambda: make_policy("sampling", samples=10**8), "samples must be at most 1,000, not 100,000,000"),
        (lambda: make_policy("expert", samples=1001), "expert setting samples must be at most 1,000"),
        (lambda: make_policy("expert", lead_z=-1), "lead_z must be a number from 0 to 10"),
        (lambda: make_policy("expert", unknown_weight=2), "unknown_weight must be a number from 0 to 1"),
        (lambda: make_policy("expert", turn_now="yes"), "turn_now must be true or false"),
        (lambda: make_policy("expert", every_move=1), "every_move must be true, false, .doubt. or null"),
        (lambda: make_policy("expert", gone_samples=5000), "gone_samples must be at most 1,000"),
    ],
)
def test_bad_input_is_one_clear_yukon_error(call, message):
    with pytest.raises(YukonError, match=message) as caught:
        call()
    assert "\n" not in str(caught.value)


def test_after_names_the_illegal_move_and_its_place():
    first = hint(deal_board("yukon", 12), YUKON, policy="greedy").move
    with pytest.raises(YukonError, match=r"^after: move 2 7>1:AS"):
        game_so_far(deal_board("yukon", 12), YUKON, f"{first} 7>1:AS")


def test_a_won_position_is_reported_won():
    for policy in ("greedy", "sampling", "expert"):
        answer = hint(forced_win_played(), YUKON, policy)
        assert (answer.status, answer.move, answer.exit_status) == (WON, None, 5)


def forced_win_played() -> Board:
    board = forced_win()
    _won, moves = Greedy().play(board, YUKON, 0)
    return reference.replay(board, moves, YUKON)


def test_a_shared_plan_counts_fewer_worlds_and_does_not_peek():
    planner = Sampling(samples=4, max_nodes=3000, plan_plies=3)
    rng = random.Random(3)
    for board in positions(YUKON, deals=(2,), prefixes=(0, 10)):
        view = view_of(board, YUKON)
        worlds = planner.fresh_worlds(view, random.Random(1), planner.samples)
        move, after = planner.evaluate(view, worlds)
        assert 0 < planner.score(after, YUKON) <= sum(world.line is not None for world in after)
        assert planner.decide(view_of(permute_hidden(board, rng), YUKON), 5) == planner.decide(view, 5)
    assert "plan_plies" not in Sampling().settings() and planner.settings()["plan_plies"] == 3
