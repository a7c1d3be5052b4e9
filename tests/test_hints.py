"""Hints as a player asks for them: from a board that leaves hidden cards unknown, knowing
the game so far (never undoing the last move nor returning to a position seen), and with
an honest confidence."""

import random

import pytest
from test_player import permute_hidden

from solver.errors import ArgumentError, YukonError
from solver.game import reference
from solver.game.board import UNKNOWN, Board
from solver.game.cards import make_card
from solver.game.notation import parse_token, solution_text
from solver.game.numbering import deal_board
from solver.game.rules import Rules
from solver.player.expert import Expert, PlanSearch, plan_of
from solver.player.greedy import Greedy
from solver.player.hint import GONE, MOVE, game_so_far, hint
from solver.player.history import NO_HISTORY, led_to, played_from, undoes
from solver.player.policies import make_policy
from solver.player.sampling import Sampling, solved_world
from solver.player.view import view_of

YUKON, RUSSIAN, MILLIGAN = Rules("yukon"), Rules("russian"), Rules("milligan")
SMALL_SAMPLING = {"samples": 3, "max_nodes": 3000}
SMALL_EXPERT = {"samples": 4, "first_worlds": 2, "max_nodes": 3000, "plan_nodes": 2000}
HINT_GAME_DEALS = range(1, 51)
HINT_GAME_MOVES = 60


def greedy_positions(rules: Rules, deals, prefixes) -> list[Board]:
    found = []
    for deal in deals:
        board = deal_board(rules.variant, deal)
        _won, moves = Greedy().play(board, rules, deal)
        found += [reference.replay(board, moves[:prefix], rules) for prefix in prefixes]
    return found


def with_unknown_cards(board: Board) -> Board:
    """The same position with every face-down card and the stock left unknown."""
    columns = tuple(
        (UNKNOWN,) * down + cards[down:] for cards, down in zip(board.columns, board.face_down_counts)
    )
    return Board(columns, board.face_down_counts, board.foundations, (UNKNOWN,) * len(board.stock))


@pytest.mark.parametrize("rules", [YUKON, RUSSIAN, MILLIGAN], ids=lambda rules: rules.variant)
@pytest.mark.parametrize("policy", ["greedy", "sampling", "expert"])
def test_a_board_with_unknown_cards_gets_the_hint_of_the_board_with_its_hidden_cards_permuted(rules, policy):
    settings = {"greedy": {}, "sampling": SMALL_SAMPLING, "expert": SMALL_EXPERT}[policy]
    rng = random.Random(4)
    for board in greedy_positions(rules, deals=(2, 5), prefixes=(0, 12)):
        permuted = permute_hidden(board, rng)
        unknown = with_unknown_cards(board)
        assert unknown.unknown_count == view_of(board, rules).hidden_count
        expected = hint(permuted, rules, policy, seed=3, **settings)
        assert hint(unknown, rules, policy, seed=3, **settings) == expected
        assert hint(board, rules, policy, seed=3, **settings) == expected


def hint_only_game(deal: int, rules: Rules) -> list[str]:
    """Follow the greedy hints from deal ``deal``, each given the game so far; check every
    hinted move neither undoes the last one nor returns to a position seen."""
    board, history, seen, tokens = deal_board(rules.variant, deal), NO_HISTORY, set(), []
    while len(tokens) < HINT_GAME_MOVES:
        answer = hint(board, rules, "greedy", seed=deal, history=history)
        if answer.status != MOVE:
            break
        move = parse_token(answer.move, board)
        assert not undoes(move, history.last), (deal, tokens, answer.move)
        seen.add(view_of(board, rules))
        history = history.after(view_of(board, rules), move)
        board = reference.apply_move(board, move, rules)
        assert view_of(board, rules) not in seen, (deal, tokens, answer.move)
        tokens.append(answer.move)
    return tokens


@pytest.mark.parametrize("rules", [YUKON, RUSSIAN], ids=lambda rules: rules.variant)
def test_hint_only_games_never_undo_a_move_nor_repeat_a_position(rules):
    lengths = [len(hint_only_game(deal, rules)) for deal in HINT_GAME_DEALS]
    assert sum(lengths) > len(HINT_GAME_DEALS)  # the games do go somewhere


def test_without_the_game_so_far_the_hint_undoes_the_move_just_played():
    """The issue's example (Yukon deal 1, greedy hints on the bare position each time):
    move 23 is 6>5:2D and the bare position's hint after it 5>6:2D; knowing the game, the
    hint after 6>5:2D is another move, or none (greedy finds nothing else worth playing)."""
    opening, board, tokens = deal_board("yukon", 1), deal_board("yukon", 1), []
    while not tokens or tokens[-1] != "6>5:2D":
        tokens.append(hint(board, YUKON, "greedy").move)
        board = reference.apply_move(board, parse_token(tokens[-1], board), YUKON)
    assert len(tokens) == 23 and hint(board, YUKON, "greedy").move == "5>6:2D"
    final, history = game_so_far(opening, YUKON, after=" ".join(tokens))
    assert final == board
    knowing = hint(board, YUKON, "greedy", history=history)
    assert knowing.move != "5>6:2D"
    assert knowing.status == MOVE or knowing.reason.startswith(
        "every move worth playing undoes the last move"
    )


def test_the_sampling_player_never_returns_to_a_position_it_saw():
    sampling = Sampling(**SMALL_SAMPLING)
    for deal in (1, 3, 8):
        seen = []

        def observe(board, _move, _confidence, seen=seen):
            seen.append(view_of(board, YUKON))

        sampling.play(deal_board("yukon", deal), YUKON, 0, observe)
        assert len(seen) == len(set(seen)), deal


def test_a_history_taken_back_holds_the_positions_since_the_last_possible_turn():
    board = deal_board("yukon", 4)
    _won, moves = Greedy().play(board, YUKON, 4)
    tokens = solution_text(board, moves[:30], YUKON).split()
    final, forward = played_from(board, tokens, YUKON)
    backward = led_to(view_of(final, YUKON), tokens)
    assert backward.seen <= forward.seen
    if backward.seen:
        assert backward.last == forward.last
    assert all(view.hidden_count == view_of(final, YUKON).hidden_count for view in backward.seen)


def test_a_history_that_does_not_lead_to_the_board_is_refused_in_one_line():
    board = deal_board("yukon", 4)
    with pytest.raises(ArgumentError, match=r"^history: move 1 3>5:QH") as caught:
        game_so_far(board, YUKON, history="3>5:QH")
    assert "\n" not in str(caught.value)


def test_moves_after_a_board_with_unknown_cards_may_not_show_one():
    board = with_unknown_cards(deal_board("yukon", 1))
    turning = next(move for move in reference.legal_moves(deal_board("yukon", 1), YUKON) if move.size == 5)
    token = solution_text(deal_board("yukon", 1), [turning], YUKON)
    with pytest.raises(YukonError, match="shows a card the board leaves unknown"):
        game_so_far(board, YUKON, after=token)


def test_confidence_counts_samples_and_says_when_every_sample_is_proved_lost():
    lost = deal_board("russian", 1)  # proved unsolvable by the solver
    answer = hint(lost, RUSSIAN, "sampling", samples=4, max_nodes=100_000)
    assert answer.confidence.samples == 4 and answer.confidence.won == 0
    assert answer.confidence.interval[0] == 0.0 and 0 < answer.confidence.interval[1] < 1
    if answer.confidence.all_proved_lost:
        assert answer.status == GONE and answer.move is None
        assert "(0 of 4 samples won (95% interval 0%-49%); the solver proved every sampled world lost)" in (
            answer.text()
        )
        assert "every sampled deal of the unseen cards is proved lost" in answer.reason


def test_with_nothing_hidden_the_confidence_is_the_positions_own_verdict_not_a_sample():
    columns = tuple(tuple(make_card(rank, suit) for rank in range(13, 0, -1)) for suit in range(4))
    open_board = Board(columns + ((), (), ()), (0,) * 7, (0,) * 4)
    answer = hint(open_board, YUKON, "sampling")
    assert answer.confidence.exact and (answer.confidence.won, answer.confidence.samples) == (1, 1)
    assert "nothing is hidden: won by the solver" in answer.text()
    assert not hint(deal_board("yukon", 3), YUKON, "sampling", **SMALL_SAMPLING).confidence.exact


def gone_board(face_down: int) -> Board:
    """Strict Yukon, hearts alone on the table: 2H lies on AH and no black card is left to
    take it, so the game is lost, though a King may still move to an empty column. With
    ``face_down`` 1, 3H is face down (the only unseen card: every world is this one)."""
    hearts = [make_card(rank, 1) for rank in range(14)]
    columns = ((hearts[1], hearts[2]), (hearts[13],), tuple(hearts[3:13]), (), (), (), ())
    return Board(columns, (0, 0, face_down, 0, 0, 0, 0), (13, 0, 13, 13))


@pytest.mark.parametrize("policy", ["expert", "sampling"])
@pytest.mark.parametrize("face_down", [0, 1])
def test_a_hint_says_the_game_is_lost_when_every_sampled_deal_is_proved_lost(policy, face_down):
    board = gone_board(face_down)
    assert reference.legal_moves(board, YUKON)
    answer = hint(board, YUKON, policy)
    assert (answer.status, answer.move, answer.exit_status) == (GONE, None, 4)
    assert answer.confidence.all_proved_lost and answer.confidence.exact == (face_down == 0)
    assert answer.text().startswith("the game is lost: " if face_down == 0 else "the game looks lost: ")
    assert ("nothing is hidden" in answer.text()) == (face_down == 0)
    if policy == "expert" and face_down:
        assert answer.confidence.samples == make_policy("expert").gone_samples


def test_the_expert_ends_a_gone_game_as_lost_without_a_move():
    assert make_policy("expert").play(gone_board(1), YUKON, 0) == (False, [])


def test_an_expert_plan_ends_with_the_first_move_that_turns_a_card():
    board = deal_board("yukon", 2)
    plan = plan_of(board, solved_world(board, YUKON, 100_000).line, YUKON)
    hidden = view_of(board, YUKON).hidden_count
    before = reference.replay(board, list(plan.moves[:-1]), YUKON)
    assert view_of(before, YUKON).hidden_count == hidden
    assert view_of(reference.apply_move(before, plan.moves[-1], YUKON), YUKON).hidden_count == hidden - 1
    assert plan.key == (view_of(before, YUKON), plan.moves[-1])


@pytest.mark.parametrize(
    "variant, every_move, made", [("yukon", None, True), ("milligan", False, False), ("milligan", True, True)]
)
def test_the_expert_makes_every_move_plans_as_set_or_by_rule_set(variant, every_move, made):
    rules = Rules(variant)
    view = view_of(deal_board(variant, 3), rules)
    search = PlanSearch(
        Expert(**SMALL_EXPERT, every_move=every_move), view, NO_HISTORY, random.Random(0), None
    )
    search.run()
    assert (search.every_plans is not None) == made


def test_in_doubt_every_move_plans_are_made_only_when_the_voted_plan_loses_a_world():
    assert Expert().every_move_for(MILLIGAN) == "doubt"
    made = set()
    for deal in range(1, 9):
        view = view_of(deal_board("yukon", deal), YUKON)
        expert = Expert(**SMALL_EXPERT, every_move="doubt")
        search = PlanSearch(expert, view, NO_HISTORY, random.Random(0), None)
        search.run()
        voted = search.votes.most_common(1)[0][0]
        in_doubt = any(search.outcome(voted, index) != "won" for index in range(len(search.worlds)))
        assert (search.every_plans is not None) == in_doubt
        made.add(in_doubt)
    assert made == {True, False}


def test_the_expert_has_a_candidate_plan_for_every_move_a_sampled_deal_wins_after():
    rules, nodes = YUKON, SMALL_EXPERT["max_nodes"]
    board = reference.replay(
        deal_board("yukon", 2), Greedy().play(deal_board("yukon", 2), rules, 2)[1][:6], rules
    )
    view = view_of(board, rules)
    search = PlanSearch(Expert(**SMALL_EXPERT), view, NO_HISTORY, random.Random(0), None)
    search.run()
    plans = [search.plans[key] for key in search.move_plans()]
    firsts = [plan.moves[0] for plan in plans]
    assert len(set(firsts)) == len(firsts)
    hidden = view.hidden_count
    for move in reference.legal_moves(board, rules):
        turns = view_of(reference.apply_move(board, move, rules), rules).hidden_count < hidden
        worlds = [world.board for world in search.worlds[: SMALL_EXPERT["first_worlds"]]]
        won_after = any(
            solved_world(reference.apply_move(world, move, rules), rules, nodes).line for world in worlds
        )
        assert (move in firsts) == (turns or won_after)
        if turns:
            assert plans[firsts.index(move)].moves == (move,)
    assert any(len(plan.moves) > 1 for plan in plans)
