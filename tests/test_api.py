"""The public Python API (``import solver``): every name in ``solver.__all__``, on small deals,
and that importing it loads no numba."""

import json
import logging
import os
import subprocess
import sys
from datetime import date, timedelta

import pytest
from click.testing import CliRunner

import solver
import solver.api as solver_api
from solver import Limits, Rules
from solver.cli import main
from solver.engine import jit
from solver.game.numbering import deal_board
from solver.game.reference import legal_moves

RUSSIAN = Rules("russian")
RUSSIAN_WON = 33  # a PySolFC Russian deal the solver wins at once, in the easy catalogue
RUSSIAN_LOST = 1  # proved unsolvable before any move
YUKON_HARD = 91  # unknown after 150 s (README, "The hard tail"): a tiny budget never decides it


def cli_error(*arguments: str) -> str:
    """The message the command line prints for bad input, without ``error: ``."""
    result = CliRunner().invoke(main, list(arguments), prog_name="yukon")
    assert result.exit_code == 2, result.output
    return result.stderr.removeprefix("error: ").rstrip("\n")


@pytest.fixture(scope="module")
def won():
    """The Outcome of RUSSIAN_WON and its opening."""
    return solver.solve_deal(RUSSIAN_WON, RUSSIAN), solver.deal(RUSSIAN_WON, "russian")


# --- the package -----------------------------------------------------------------------------


def test_every_public_name_is_there_and_documented():
    for name in solver.__all__:
        value = getattr(solver, name)
        if callable(value):
            assert (value.__doc__ or "").strip(), name
    assert set(solver.__all__) <= set(dir(solver))
    assert set(solver.__all__) - {"__version__"} == set(solver_api.__all__)  # one list, offered twice
    assert set(solver_api.__all__) <= set(dir(solver_api))  # the catalogue's names too, loaded lazily
    with pytest.raises(AttributeError):
        _ = solver.no_such_name


def test_import_solver_loads_no_numba_until_a_solve_needs_it():
    probe = (
        "import sys, solver\n"
        "first = 'numba' in sys.modules\n"
        "board = solver.deal(12)\n"
        "solver.replay(board, '2>F:AC')\n"
        "solver.check_deal(12)\n"
        "print(first, 'numba' in sys.modules)\n"
    )
    completed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert completed.stdout.split() == ["False", "False"], completed.stderr


def test_the_error_base_covers_illegal_moves_and_contradictions():
    from solver.results.record import Contradiction

    assert issubclass(solver.IllegalMove, solver.YukonError)
    assert issubclass(Contradiction, solver.YukonError)


# --- deals and boards ------------------------------------------------------------------------


def test_deal_follows_variant_and_numbering():
    assert isinstance(solver.deal(12), solver.Board)
    assert solver.deal(5, "russian") == solver.deal(5, "yukon")  # PySolFC deals both alike
    assert solver.deal(5, numbering="kpat") != solver.deal(5)
    assert len(solver.deal(5, "milligan").stock) == 68
    for variant in solver.VARIANTS:
        for numbering in solver.NUMBERINGS:
            if variant != "milligan" or numbering == "pysol":
                assert solver.deal(7, variant, numbering=numbering).columns


def test_a_bad_deal_number_has_the_command_lines_message():
    with pytest.raises(solver.YukonError) as caught:
        solver.deal(0)
    assert str(caught.value) == cli_error("deal", "0")


def test_read_board_reads_text_json_text_and_json_objects():
    board = solver.deal(12)
    assert solver.read_board(board.to_text()) == board
    assert solver.read_board(json.dumps(board.to_json())) == board
    assert solver.read_board(board.to_json()) == board
    with pytest.raises(solver.YukonError, match="not a full russian deck"):
        solver.read_board(board.to_text().replace("5S", "5H", 1), RUSSIAN)


# --- solving ---------------------------------------------------------------------------------


def test_a_solved_outcome_carries_its_line_as_text_and_as_moves(won):
    outcome, opening = won
    assert isinstance(outcome, solver.Outcome) and outcome.status == "solved" and outcome.budget is None
    assert " ".join(move.token for move in outcome.moves) == outcome.solution
    assert all(isinstance(move, solver.LineMove) for move in outcome.moves)
    # Winning turns every face-down card up, each once, and sends all 52 cards home.
    hidden = [
        card
        for cards, down in zip(opening.to_json()["columns"], opening.face_down_counts)
        for card in cards["face_down"]
    ]
    assert len(hidden) == sum(opening.face_down_counts)
    assert sorted(move.turned_up for move in outcome.moves if move.turned_up) == sorted(hidden)
    home = sum(move.kind == "to_foundation" for move in outcome.moves)
    assert home - sum(move.kind == "from_foundation" for move in outcome.moves) == 52
    assert outcome.nodes > 0 and outcome.seconds > 0 and outcome.peak_table_entries > 0


def test_a_structured_move_names_columns_from_1_and_its_packet(won):
    outcome, opening = won
    first = outcome.moves[0]
    assert first.to_json() == {
        "token": first.token,
        "kind": first.kind,
        "source": first.source,
        "target": first.target,
        "card": first.card,
        "size": first.size,
        "turned_up": first.turned_up,
    }
    source_cards = opening.to_json()["columns"][first.source - 1]["face_up"]
    assert first.card in source_cards and first.size == len(source_cards) - source_cards.index(first.card)


def test_the_record_holds_the_provenance(won):
    outcome, opening = won
    record = outcome.record
    assert isinstance(record, solver.Record) and outcome.opening == opening
    assert (record.variant, record.numbering, record.deal, record.board) == (
        "russian",
        "pysol",
        RUSSIAN_WON,
        opening.to_text(),
    )
    assert record.to_json()["solution"] == outcome.solution and record.solver_version == solver.__version__


def test_unsolvable_and_unknown_outcomes():
    lost = solver.solve_deal(RUSSIAN_LOST, RUSSIAN)
    assert (lost.status, lost.solution, lost.moves, lost.budget) == ("unsolvable", "", (), None)
    unknown = solver.solve_deal(YUKON_HARD, limits=Limits(max_nodes=5))
    # the node limit is the plan's: its 5 positions, after a first look capped at the limit too
    assert (unknown.status, unknown.budget, unknown.nodes) == ("unknown", "nodes", 10)
    assert unknown.record.max_nodes == 5


def test_solve_board_solves_a_mid_game_position(won):
    outcome, opening = won
    played = outcome.solution.split()[:5]
    middle = solver.replay(opening, played, RUSSIAN).final
    rest = solver.solve_board(middle, RUSSIAN, limits=Limits(time_limit=30))
    assert rest.status == "solved" and rest.record.deal is None
    assert solver.replay(opening, [*played, *rest.solution.split()], RUSSIAN).won


# --- replaying and verifying -----------------------------------------------------------------


def test_replay_wins_along_the_solution(won):
    outcome, opening = won
    replayed = solver.replay(opening, outcome.solution, RUSSIAN)
    assert isinstance(replayed, solver.Replay) and replayed.won and replayed.moves == outcome.moves
    steps = list(solver.replay_steps(opening, outcome.solution.split()[:3], RUSSIAN))
    assert [move.token for move, _ in steps] == outcome.solution.split()[:3]
    assert steps[-1][1] == solver.replay(opening, outcome.solution.split()[:3], RUSSIAN).final
    assert not solver.replay(opening, "", RUSSIAN).won


def test_an_illegal_move_has_the_command_lines_message():
    line = "2>F:AC 2>F:AC"
    with pytest.raises(solver.IllegalMove) as caught:
        solver.replay(solver.deal(12), line)
    assert str(caught.value).startswith("illegal move 2 2>F:AC:")
    assert str(caught.value) == cli_error("replay", "12", line)
    with pytest.raises(solver.YukonError) as unreadable:
        solver.replay(solver.deal(12), "nonsense")
    assert not isinstance(unreadable.value, solver.IllegalMove)


def test_verify_results_replays_records(won):
    outcome, _ = won
    good = json.dumps(outcome.record.to_json())
    broken = json.dumps(outcome.record.to_json() | {"solution": outcome.solution.rsplit(" ", 1)[0]})
    report = solver.verify_results([good, broken, "not json"], "the list")
    assert (report["good"], report["illegal"], report["unreadable"]) == (1, 1, 1)
    assert report["problems"][0].startswith("the list line 2")


# --- hints -----------------------------------------------------------------------------------


def test_a_greedy_hint_is_a_legal_move_and_the_same_after_the_same_moves():
    opening = solver.deal(12)
    first = solver.hint(opening, policy="greedy")
    assert first.move is not None and first.confidence is None and first.reason
    after = solver.replay(opening, first.move).final
    assert solver.hint(opening, after=first.move, policy="greedy") == solver.hint(after, policy="greedy")


def test_a_sampling_hint_reports_its_confidence():
    opening = solver.deal(12)
    answer = solver.hint(opening, samples=2, max_nodes=2_000, seed=3)
    assert answer.move in tokens_of(opening)
    assert answer.status == "move" and answer.confidence.samples == 2
    assert 0.0 <= answer.confidence.fraction <= 1.0
    with pytest.raises(solver.ArgumentError, match="^seed must be a whole number") as caught:
        solver.hint(opening, seed=-1)
    assert cli_error("hint", "12", "--seed", "-1") == "--seed" + caught.value.problem  # the option's name


def tokens_of(board) -> set[str]:
    """The tokens of every legal move of ``board`` (yukon rules)."""
    from solver.game.notation import move_token

    return {move_token(board, move) for move in legal_moves(board, Rules())}


# --- catalogues and the daily deal -----------------------------------------------------------


def test_check_deal_finds_catalogued_deals_and_none_for_others(tmp_path):
    entry = solver.load_catalogue("russian", "easy")["entries"][0]
    found = solver.check_deal(entry["deal"], "russian", numbering=entry["numbering"])
    assert isinstance(found, solver.CatalogueHit)
    assert (found.tier, found.path.name, found.entry) == ("easy", "russian-easy.json", entry)
    assert solver.check_deal(RUSSIAN_LOST, "russian") is None
    with pytest.raises(solver.YukonError) as caught:
        solver.check_deal(RUSSIAN_LOST, "russian", directory=tmp_path)
    assert str(caught.value) == cli_error(
        "check", str(RUSSIAN_LOST), "--variant", "russian", "--dir", str(tmp_path)
    )


def test_load_catalogue_gives_the_checked_catalogue():
    catalogue = solver.load_catalogue("yukon", "hard")
    assert (catalogue["variant"], catalogue["tier"]) == ("yukon", "hard")
    assert len(catalogue["entries"]) == 1000
    assert set(solver.TIER_NAMES) == {"easy", "normal", "hard"}


def test_a_tier_in_order_of_difficulty_keeps_every_entry_and_file_order_on_ties():
    catalogue = solver.load_catalogue("yukon", "hard", numbering="kpat")
    ordered = solver.entries_by_difficulty(catalogue)
    assert sorted(map(id, ordered)) == sorted(map(id, catalogue["entries"]))
    scores = [entry["difficulty"] for entry in ordered]
    assert scores == sorted(scores)
    place = {id(entry): index for index, entry in enumerate(catalogue["entries"])}
    ties = [
        place[id(a)] < place[id(b)]
        for a, b in zip(ordered, ordered[1:])
        if a["difficulty"] == b["difficulty"]
    ]
    assert all(ties)
    made_up = {"entries": [{"score": 0.5, "deal": 1}, {"score": 0.25, "deal": 2}]}  # no ladder score
    assert [entry["deal"] for entry in solver.entries_by_difficulty(made_up)] == [2, 1]


def test_the_daily_deal_is_an_entry_and_none_comes_back_within_days():
    from solver.catalogue.files import read_catalogue, shipped_directory

    start = date(2026, 12, 24)  # the days cross into 2027, served from the files of generation 2
    served = [solver.daily_deal("yukon", "easy", start + timedelta(days=n)) for n in range(30)]
    assert all(
        isinstance(daily, solver.DailyDeal) and isinstance(daily.pick, solver.DailyPick) for daily in served
    )
    files = {daily.pick.file: read_catalogue(shipped_directory() / daily.pick.file) for daily in served}
    assert all(files[daily.pick.file]["entries"][daily.pick.index] == daily.entry for daily in served)
    assert len({daily.entry["deal"] for daily in served}) == 30 and len(files) == 2
    assert served[0].day == start and solver.daily_deal("yukon", "easy").day == date.today()


# --- one way to say things ------------------------------------------------------------------


def test_every_call_takes_a_variant_name_or_rules_and_deal_numbers_as_typed():
    assert solver.deal("#12") == solver.deal("12") == solver.deal(12, solver.Rules())
    assert solver.deal("ms40000", "russian") == deal_board("russian", 40000, "ms")
    assert solver.deal(3, "lexington-harp") == solver.deal(3, solver.Rules("milligan"))
    assert solver.Rules("lexington-harp") == solver.Rules("milligan")
    lost = solver.solve_deal("#1", rules="russian")
    assert (lost.status, lost.record.variant, lost.record.deal) == ("unsolvable", "russian", RUSSIAN_LOST)
    entry = solver.load_catalogue(RUSSIAN, "easy")["entries"][0]
    assert solver.check_deal(f"#{entry['deal']}", RUSSIAN) == solver.check_deal(entry["deal"], "russian")


def test_a_day_is_a_date_or_iso_text():
    assert solver.daily_deal(day="2026-12-24") == solver.daily_deal("yukon", "easy", date(2026, 12, 24))
    returned = solver.daily_deal(solver.Rules("yukon", foundation_return=True), day="2026-12-24")
    assert returned == solver.daily_deal("yukon", day="2026-12-24", foundation_return=True)
    assert returned.entry["foundation_return"]


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: Rules("yukon", "yes"), "foundation_return"),
        (lambda: Rules("chess"), "variant"),
        (lambda: Limits(time_limit="10"), "time_limit"),
        (lambda: Limits(max_nodes=True), "max_nodes"),
        (lambda: Limits(memory_bytes=1.5e9), "memory_bytes"),
        (lambda: Limits(minimal="no"), "minimal"),
        (lambda: solver.solve_deal(12, rules=5), "variant"),
        (lambda: solver.solve_deal(12, limits=60), "limits"),
        (lambda: solver.solve_board("JD ..."), "board"),
        (lambda: solver.deal(12.0), "number"),
        (lambda: solver.read_board(12), "source"),
        (lambda: solver.read_board(solver.deal(12).to_text(), unknown_cards="yes"), "unknown_cards"),
        (lambda: solver.replay(solver.deal(12), None), "line"),
        (lambda: solver.hint(solver.deal(12), after=None), "after"),
        (lambda: solver.daily_deal(day="24 December"), "day"),
        (lambda: solver.daily_deal(day=20261224), "day"),
        (lambda: solver.load_catalogue("yukon", "medium"), "tier"),
        (lambda: solver.check_deal(12, directory=5), "directory"),
        (lambda: solver.Game(solver.deal(12).to_text()), "position"),
    ],
)
def test_a_value_a_call_does_not_take_is_an_argument_error_naming_it(call, argument):
    with pytest.raises(solver.ArgumentError) as caught:
        call()
    assert caught.value.argument == argument and str(caught.value).startswith(argument)
    assert isinstance(caught.value, solver.YukonError) and "--" not in str(caught.value)


def test_an_unknown_tier_names_the_tiers_there_are():
    with pytest.raises(solver.ArgumentError, match=r"\(there are: easy, normal, hard\)"):
        solver.daily_deal("yukon", "medium")


# --- library messages ------------------------------------------------------------------------


class KeptRecords(logging.Handler):
    """The log records it is given, in order."""

    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_the_compile_notice_and_cache_warning_go_through_logging(tmp_path, monkeypatch):
    from solver.engine.groups import LEAN
    from solver.search import readiness

    monkeypatch.setattr(readiness, "exercise", lambda group: None)  # the messages, not the compiling
    kept = KeptRecords()  # on the module's logger: whatever the command line did to "solver"'s
    readiness.LOG.addHandler(kept)
    try:  # a process that has made no kernel ready yet, over an empty cache with a note
        readiness.warm_up(readiness.KernelsReady(jit.KernelCache(tmp_path, "a note about the cache")))
    finally:
        readiness.LOG.removeHandler(kept)
    notice = f"compiling the solver's {LEAN.name}, once per machine: about {LEAN.seconds} s"
    assert [(record.name, record.getMessage()) for record in kept.records] == [
        ("solver.search.solve", "warning: a note about the cache"),
        ("solver.search.solve", notice),
    ]


def test_the_command_line_prints_the_library_messages_bare(tmp_path):
    """A process whose cache folder cannot be written prints the note saying so, bare; its
    fallback cache folder is this process's, through a link, so nothing compiles."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    fallback = tmp_path / f"yukon-solver-{os.getuid()}"
    fallback.mkdir(mode=0o700)
    (fallback / jit.CACHE.folder.name).symlink_to(jit.CACHE.folder, target_is_directory=True)
    environment = os.environ | {"NUMBA_CACHE_DIR": str(blocker / "cache"), "TMPDIR": str(tmp_path)}
    command = ["solve", str(RUSSIAN_LOST), "--variant", "russian"]
    completed = subprocess.run(
        [sys.executable, "-c", "from solver.cli import main; main()", *command],
        env=environment,
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 1
    assert completed.stderr.splitlines() == [
        f"warning: cache folder {blocker / 'cache'} is not writable; using {fallback}"
    ]
