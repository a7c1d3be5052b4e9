"""Commands on results: ``stats`` (summarise a store), ``export`` (store to JSON lines),
``verify`` (replay a results file)."""

import json
import sys
import time

import click

from solver.api import export_results, store_summary, summary_text
from solver.cli.options import input_name, json_option
from solver.errors import YukonError, counted

# How often ``verify`` says how far it got.
PROGRESS_SECONDS = 5.0


def print_summary(summary: dict, as_json: bool) -> None:
    """A store's summary as JSON or as text."""
    click.echo(json.dumps(summary, allow_nan=False) if as_json else summary_text(summary))


@click.command()
@click.argument("results", type=click.File("rb"))
@json_option
def verify(results, as_json):
    """Replay every record of a results file (JSON lines) on the reference engine.

    A solved record is good when its line wins from its board (and that board is the deal
    its number names); illegal when it does not, when a field is wrong (a status "SOLVED"),
    or when an unsolvable record carries a line that wins. Unsolvable and unknown records
    cannot be checked by replay: they count as unverifiable. Every line is checked; lines
    that are not JSON records are reported at the end (exit 2). Exit 0 only if no record
    is illegal.
    """
    report_verified(results, as_json)


def report_verified(results, as_json: bool, progress_seconds: float = PROGRESS_SECONDS) -> None:
    """``verify``'s work: replay ``results``, saying how far it got every ``progress_seconds``,
    print the report and exit with its status."""
    from solver.api import verify_results

    source = input_name(results)
    report = verify_results(results, source, ProgressLines(source, progress_seconds))
    counts = f"good {report['good']}, illegal {report['illegal']}, unverifiable {report['unverifiable']}"
    if as_json:  # the report, unreadable lines and all; their error line follows on stderr
        click.echo(json.dumps(report))
    else:
        for problem in report["problems"]:
            click.echo(problem, err=True)
    if report["unreadable"]:
        raise YukonError(
            f"{counted(report['unreadable'], 'unreadable line')} (the first: {report['first_unreadable']}); "
            f"the other records: {counts}"
        )
    if not as_json:
        click.echo(counts)
    sys.exit(1 if report["illegal"] else 0)


class ProgressLines:
    """Called with the lines read so far: a line on stderr every ``seconds``."""

    def __init__(self, source: str, seconds: float):
        self.source, self.seconds = source, seconds
        self.next_line_at = time.monotonic() + seconds

    def __call__(self, lines_read: int) -> None:
        if time.monotonic() >= self.next_line_at:
            click.echo(f"verify: {lines_read:,} lines of {self.source} read", err=True)
            self.next_line_at = time.monotonic() + self.seconds


@click.command()
@click.argument("store", type=click.Path(dir_okay=False))
@click.option("--format", "output_format", type=click.Choice(["jsonl"]), default="jsonl", show_default=True)
@click.option("--out", "-o", default="-", show_default=True, help="File to write; - for stdout.")
def export(store, output_format, out):
    """Write a results store as a results file (JSON lines) that `yukon verify` replays."""
    count = export_results(store, out)
    if out != "-":
        click.echo(f"{count} records written to {out}", err=True)


@click.command()
@click.argument("store", type=click.Path(dir_okay=False))
@json_option
def stats(store, as_json):
    """Summarise a results store: verdict counts, win rate with 95% Wilson intervals
    (unknowns counted lost and won as bounds), time per deal, nodes/s, solution lengths."""
    print_summary(store_summary(store), as_json)


COMMANDS = (verify, export, stats)
