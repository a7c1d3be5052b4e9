"""The player's commands: ``hint`` (one move for a position), ``play`` (a policy plays a
deal range into a store) and ``rate`` (difficulty tiers into a store)."""

import json
import sys
import time

import click

from solver.api import play_range, rate_range, store_summary
from solver.cli.options import (
    board_option,
    json_option,
    limits_options,
    numbering_option,
    opening,
    rules_options,
)
from solver.cli.results import print_summary
from solver.cli.terminal import color_option, echo
from solver.errors import YukonError, counted
from solver.player.decision import MAX_SAMPLES
from solver.results.result import LARGEST_INTEGER
from solver.runs.progress import is_terminal

# Seconds a hint runs before it shows its progress.
PROGRESS_AFTER = 1.0


def seed_option(function):
    return click.option("--seed", type=int, default=0, show_default=True, help="Seed of the random choices.")(
        function
    )


def policy_settings_options(function):
    """``--samples`` and ``--max-nodes`` of the expert and sampling policies (their defaults
    when omitted; the policy refuses what is not positive, and more than MAX_SAMPLES samples)."""
    whole = click.IntRange(max=LARGEST_INTEGER)
    function = click.option(
        "--max-nodes", type=whole, default=None, help="Expert, sampling: node budget per sampled deal."
    )(function)
    return click.option(
        "--samples",
        type=whole,
        default=None,
        help=f"Expert: the most sampled deals per decision; sampling: sampled deals per decision "
        f"(at most {MAX_SAMPLES:,}).",
    )(function)


def given_settings(samples, max_nodes) -> dict:
    """The policy settings given on the command line."""
    named = {"samples": samples, "max_nodes": max_nodes}
    return {name: value for name, value in named.items() if value is not None}


def store_options(function):
    function = click.option("--jobs", type=int, default=None, help="Local worker processes [all cores].")(
        function
    )
    return click.option(
        "--out", type=click.Path(dir_okay=False), required=True, help="Results store (SQLite)."
    )(function)


@click.command()
@click.argument("deal", required=False)
@board_option
@rules_options
@numbering_option
@click.option("--after", default="", help='Moves played from the opening first (deal 12: "2>F:AC 2>1:4H").')
@click.option(
    "--history", default="", help="With --board: the moves that led to the board, so that no hint goes back."
)
@click.option("--policy", default="expert", show_default=True, help="expert, sampling or greedy.")
@seed_option
@policy_settings_options
@json_option
@color_option
def hint(deal, board_file, rules, numbering, after, history, policy, seed, samples, max_nodes, as_json):
    """Suggest one move for deal DEAL (after --after's moves) or --board FILE, from what a
    person can see: face-down cards and the stock's order stay unknown to the policy, and
    the board may leave them unknown (<?>, Stock: ?). The hint never undoes the last move
    nor returns to a position already seen in the game (--after, --history).

    \b
    Prints the move in the project notation, the policy's confidence (expert, sampling: how
    many sampled deals of the unseen cards are still won after it, with a 95% interval) and
    a reason. When every sampled deal is proved lost from the position (with nothing
    hidden: the position itself), it says the game is lost, suggests no move and exits 4.
    A hint that samples many deals shows its progress on a terminal.
      yukon hint 12 --after "2>F:AC 2>1:4H"
      yukon hint --board position.txt --policy greedy --json
    """
    from solver.api import hint as suggest

    if history.strip() and board_file is None:
        raise YukonError("--history goes with --board (with a deal number, give the moves as --after)")
    board, _number = opening(deal, board_file, rules, numbering, unknown_cards=True)
    answer = suggest(
        board,
        rules,
        after=after,
        history=history,
        policy=policy,
        samples=samples,
        max_nodes=max_nodes,
        seed=seed,
        progress=HintProgress(sys.stderr),
    )
    if as_json:
        click.echo(json.dumps(answer.to_json()))
    else:
        echo(answer.text())
    sys.exit(answer.exit_status)


class HintProgress:
    """``done of total sampled deals solved`` on a terminal's stderr, rewritten in place,
    once a hint has taken ``after`` seconds (a quick hint shows nothing)."""

    def __init__(self, stream, after: float = PROGRESS_AFTER):
        self.stream, self.started, self.after = stream, time.monotonic(), after

    def __call__(self, done: int, total: int) -> None:
        if not is_terminal(self.stream) or time.monotonic() - self.started < self.after:
            return
        end = "\n" if done == total else ""
        print(
            f"\rhint: {done:,} of {counted(total, 'sampled deal')} solved",
            end=end,
            file=self.stream,
            flush=True,
        )


@click.command()
@click.argument("deals")
@rules_options
@numbering_option
@click.option("--policy", required=True, help="expert, greedy or sampling.")
@click.option("--runs", type=int, default=1, show_default=True, help="Games per deal.")
@seed_option
@policy_settings_options
@store_options
def play(deals, rules, numbering, policy, runs, seed, samples, max_nodes, out, jobs):
    """Play every deal of DEALS (12, 1-1000, 1,5,9-20) RUNS times with POLICY, as a person
    would (no peeking), into the results store --out; then print its summary.

    Each game's line is replayed on the reference engine before it is stored, one deal's
    games per transaction: running the same command again resumes a stopped run.
      yukon play 1-1000 --policy greedy --runs 16 --out runs/yukon.db
    """
    settings = given_settings(samples, max_nodes)
    report = play_range(
        deals,
        rules,
        out,
        policy=policy,
        settings=settings,
        runs=runs,
        seed=seed,
        numbering=numbering,
        jobs=jobs,
    )
    finish(report, out)


@click.command()
@click.argument("deals")
@rules_options
@numbering_option
@click.option("--runs", type=int, default=16, show_default=True, help="Greedy games per deal.")
@seed_option
@limits_options(10.0, "Seconds per deal the store lacks.", "max_nodes")
@store_options
def rate(deals, rules, numbering, runs, seed, limits, out, jobs):
    """Rate every deal of DEALS: the greedy reference player's failure rate over RUNS seeded
    games, and a tier (easy, normal, hard) for deals the solver proved solvable, stored
    beside the verdict in --out (deals it lacks are solved first); then print its summary.

    \b
    The same version, runs and seed give the same ratings.
      yukon rate 1-1000 --variant russian --out runs/russian.db
    """
    report = rate_range(
        deals, rules, out, runs=runs, seed=seed, numbering=numbering, limits=limits, jobs=jobs
    )
    finish(report, out)


def finish(report, out) -> None:
    """Print the store's summary unless the run was stopped; exit with the run's status."""
    if report.interrupted_by is None:
        print_summary(store_summary(out), False)
    sys.exit(report.exit_status)


COMMANDS = (hint, play, rate)
