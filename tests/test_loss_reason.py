"""Why a deal is lost (``solver.search.loss_reason``), checked against the dead-end tests' own
derivations: the plain-Python HOPELESS fixpoint flags exactly the positions the kernel's
``prune.hopeless`` flags; the cards it finds never home are cards whose *home* fact the
kernel's pairwise table finds unreachable; every step of a reason can be checked on the
table; a reason comes only with a flagged position; and it is printed and stored."""

import json
import random
import re
import sqlite3

import pytest
from click.testing import CliRunner
from strategies import playout

from solver.cli import main
from solver.game.board import Board
from solver.game.cards import card_text, parse_card
from solver.game.numbering import deal_board
from solver.game.ranges import parse_range
from solver.game.rules import Rules
from solver.results.limits import Limits
from solver.results.result import UNSOLVABLE, Proof
from solver.runs.batch import run_batch
from solver.search.loss_reason import Derivation, hopeless_reason, kernel_flags, loss_reason, twin_split_flags
from solver.search.solve import solve_position
from solver.store import Store
from solver.store.schema import SCHEMA_VERSION

RULE_SETS = [Rules("yukon"), Rules("yukon", True), Rules("russian"), Rules("russian", True)]
# PySolFC Yukon deals lost at the root: 67 and 151 by HOPELESS, 355 by the pairwise test only.
LOST_BY_HOPELESS, LOST_BY_PAIRS, LOST_BY_HOME_PAIR = (67, 151), 355, 706


def positions(rules: Rules, deals: range, seed: int = 0):
    """Each deal's opening and the positions of a random playout from it."""
    rng = random.Random(seed)
    for deal in deals:
        yield from playout(deal_board(rules.variant, deal), rules, rng, 40)


def never_home_cards(board: Board, rules: Rules) -> set[int]:
    derivation = Derivation(board, rules)
    return {derivation.card(place) for place in derivation.never_home()}


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.label())
def test_the_derivation_flags_what_the_kernel_flags(rules):
    flagged = 0
    for board in positions(rules, range(1, 21)):
        hopeless, unreachable, _apart = kernel_flags(board, rules)
        lost = never_home_cards(board, rules)
        assert bool(lost) == hopeless
        if lost and unreachable:
            assert lost <= set(unreachable)  # the pairwise table agrees card by card
        flagged += hopeless
    assert flagged > 0


def checked_steps(board: Board, rules: Rules, reason: str) -> int:
    """Check every step of ``reason`` that names where cards lie against ``board``; the
    number of steps checked."""
    derivation = Derivation(board, rules)
    place = {derivation.card(spot): spot for spot in derivation.places()}
    checked = 0
    for under, over in re.findall(r"(\w\w) is never exposed: (\w\w) lies on it", reason):
        column, index = place[parse_card(under)]
        assert board.columns[column][index + 1] == parse_card(over)
        checked += 1
    for card in re.findall(r"(\w\w) never leaves: it is face down", reason):
        column, index = place[parse_card(card)]
        assert index < board.face_down_counts[column]
        checked += 1
    for card, parents in re.findall(
        r"(\w\w) never leaves: it never goes home; it builds only on ([\w ]+):", reason
    ):
        named = {parse_card(word) for word in parents.split(" and ")}
        assert named == set(derivation.parents(parse_card(card)))
        checked += 1
    return checked


@pytest.mark.parametrize("deal", LOST_BY_HOPELESS)
def test_a_dead_deal_has_a_reason_to_check_on_the_table(deal):
    board, rules = deal_board("yukon", deal), Rules("yukon")
    reason = loss_reason(board, rules, 0, Proof.SEARCH)
    first = re.match(r"(\w\w) can never go home", reason).group(1)
    hopeless, unreachable, _apart = kernel_flags(board, rules)
    assert hopeless and parse_card(first) in unreachable
    assert parse_card(first) in never_home_cards(board, rules)
    assert checked_steps(board, rules, reason) >= 5


def test_every_reason_on_random_positions_checks_out():
    checked = 0
    for rules in RULE_SETS:
        for board in positions(rules, range(1, 21), seed=1):
            reason = hopeless_reason(board, rules)
            assert (reason is not None) == kernel_flags(board, rules)[0]
            if reason is not None:
                checked += checked_steps(board, rules, reason)
    assert checked > 0


def test_a_deal_the_pairwise_test_decides_names_its_unreachable_cards():
    board, rules = deal_board("yukon", LOST_BY_PAIRS), Rules("yukon")
    hopeless, unreachable, _apart = kernel_flags(board, rules)
    reason = loss_reason(board, rules, 2000, Proof.SEARCH)
    assert not hopeless and unreachable
    assert reason.startswith("The pairwise dead-end test shows that ")
    assert all(card_text(card) in reason for card in unreachable)


def test_a_deal_two_homes_decide_names_both_cards():
    """PySolFC 706: the pairwise table reaches every card's home alone, but two never together."""
    board, rules = deal_board("yukon", LOST_BY_HOME_PAIR), Rules("yukon")
    hopeless, unreachable, apart = kernel_flags(board, rules)
    reason = loss_reason(board, rules, 0, Proof.SEARCH)
    assert not hopeless and not unreachable and apart
    assert reason.startswith("The pairwise dead-end test shows that ") and "never both" in reason
    assert all(card_text(card) in reason for card in apart)


def test_a_deal_the_twin_split_decides_is_named_so():
    """PySolFC Yukon 2104: only the case split on twins flags its opening."""
    board, rules = deal_board("yukon", 2104), Rules("yukon")
    assert kernel_flags(board, rules) == (False, [], None) and twin_split_flags(board, rules)
    assert loss_reason(board, rules, 0, Proof.SEARCH).startswith(
        "The dead-end test shows it by a case split on twins"
    )


def test_a_loss_proved_by_search_says_how_large_the_tree_was():
    """Russian deal 15 is lost (in 750 positions), but neither test flags its opening."""
    board, rules = deal_board("russian", 15), Rules("russian")
    result = solve_position(board, rules, Limits(time_limit=None))
    assert result.status == UNSOLVABLE and kernel_flags(board, rules) == (False, [], None)
    assert not twin_split_flags(board, rules)
    assert result.loss_reason == (
        f"The whole game tree was searched: {result.nodes:,} positions, none of them a win "
        "(the search left out only moves and positions that cannot matter to a win)."
    )


def run(*args: str):
    result = CliRunner().invoke(main, list(args), prog_name="yukon")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_the_reason_is_printed_with_the_verdict_and_in_the_json():
    text = run("solve", "151").stdout
    record = json.loads(run("solve", "151", "--json").stdout)
    assert "verdict: unsolvable\nwhy: 5S can never go home" in text
    assert record["loss_reason"] == loss_reason(deal_board("yukon", 151), Rules("yukon"), 0, Proof.SEARCH)
    assert "loss_reason" not in json.loads(run("solve", "12", "--json").stdout)


def test_the_reason_is_stored_and_an_older_store_keeps_opening(tmp_path):
    path = tmp_path / "runs.db"
    run_batch(parse_range("151-152"), Rules("yukon"), "pysol", path, Limits(max_nodes=300_000), jobs=1)
    with Store.open_existing(path) as store:
        reasons = {record.deal: record.loss_reason for record in store.records()}
    assert reasons[151].startswith("5S can never go home") and reasons[152] is None
    connection = sqlite3.connect(path)  # the same store as schema 2 made it
    with connection:
        connection.execute("ALTER TABLE results DROP COLUMN loss_reason")
        connection.execute("ALTER TABLE results DROP COLUMN solver_source")
        connection.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    connection.close()
    with Store.open_existing(path) as store:
        assert {record.deal: record.loss_reason for record in store.records()} == {151: None, 152: None}
    with Store.open_for_run(path, Rules("yukon"), "pysol") as store:
        assert store.meta["schema"] == SCHEMA_VERSION
        assert [record.loss_reason for record in store.records()] == [None, None]


# What a reason may say of the search, by the proof the solver reports (issue 53: 454 and 644 said
# the whole tree was searched when the root test over triples had proved them lost).
SAID_OF = {
    Proof.SEARCH: "The whole game tree was searched",
    Proof.ROOT_PAIRS: "The pairwise dead-end test (",
    Proof.ROOT_TRIPLES: "The dead-end test over triples of facts",
}


@pytest.mark.parametrize(
    ("variant", "deal", "proof"),
    [("yukon", 454, Proof.ROOT_TRIPLES), ("yukon", 644, Proof.ROOT_TRIPLES), ("russian", 15, Proof.SEARCH)],
)
def test_a_loss_reason_names_what_proved_the_loss(variant, deal, proof):
    result = solve_position(deal_board(variant, deal), Rules(variant), Limits(time_limit=None))
    assert result.status == UNSOLVABLE and result.proof == proof
    sentences = re.split(r"(?<=[.;]) ", result.loss_reason)
    claims = [said for said in SAID_OF.values() if any(sentence.startswith(said) for sentence in sentences)]
    assert claims == [SAID_OF[proof]]
    if proof != Proof.SEARCH:
        assert (
            f"{result.nodes:,} positions were searched in all, not the whole game tree" in result.loss_reason
        )
