"""Commands on results: ``stats`` (summarise a store), ``export`` (store to JSON lines),
``verify`` (replay a results file)."""

import json
import sys

import click

from solver.cli.options import json_option


def print_summary(summary: dict, as_json: bool) -> None:
    """A store's summary as JSON or as text."""
    from solver.runs.summary import format_summary

    click.echo(json.dumps(summary) if as_json else format_summary(summary))


@click.command()
@click.argument("results", type=click.File("r"))
@json_option
def verify(results, as_json):
    """Replay every record of a results file (JSON lines) on the reference engine.

    A solved record is good when its line wins from its board (and that board is the deal
    its number names); illegal when it does not. Unsolvable and unknown records cannot be
    checked by replay: they count as unverifiable. Exit 0 only if no record is illegal.
    """
    from solver.verify import verify_records

    report = verify_records(results, getattr(results, "name", "input"))
    if as_json:
        click.echo(json.dumps(report))
    else:
        for problem in report["problems"]:
            click.echo(problem, err=True)
        click.echo(
            f"good {report['good']}, illegal {report['illegal']}, unverifiable {report['unverifiable']}"
        )
    sys.exit(1 if report["illegal"] else 0)


@click.command()
@click.argument("store", type=click.Path(dir_okay=False))
@click.option("--format", "output_format", type=click.Choice(["jsonl"]), default="jsonl", show_default=True)
@click.option("--out", "-o", default="-", show_default=True, help="File to write; - for stdout.")
def export(store, output_format, out):
    """Write a results store as a results file (JSON lines) that `yukon verify` replays."""
    from solver.store import export_jsonl

    count = export_jsonl(store, out)
    if out != "-":
        click.echo(f"{count} records written to {out}", err=True)


@click.command()
@click.argument("store", type=click.Path(dir_okay=False))
@json_option
def stats(store, as_json):
    """Summarise a results store: verdict counts, win rate with 95% Wilson intervals
    (unknowns counted lost and won as bounds), time per deal, nodes/s, solution lengths."""
    from solver.runs.summary import summarize

    print_summary(summarize(store), as_json)


COMMANDS = (verify, export, stats)
