"""The catalogue commands of ``yukon``: ``catalogue build|verify``, ``daily``, ``check``.

Thin: parse, call the library, print. They raise YukonError for bad input; the ``yukon``
group turns it into one ``error:`` line and exit status 2.
"""

import json
import statistics
import sys
from collections import Counter
from contextlib import closing
from datetime import date
from pathlib import Path

import click

from solver.api import catalogue_folder, check_deal, daily_deal, solve_deal
from solver.cli.options import limits_options, numbering_option, parse_deal_number, variant_option
from solver.errors import YukonError
from solver.formats import DAILY, stamped
from solver.result import SOLVED, TIER_NAMES, UNKNOWN, UNSOLVABLE

DIRECTORY_HELP = "Catalogue folder [the catalogues installed with yukon]."


def directory_option(function):
    return click.option("--dir", "directory", type=click.Path(file_okay=False), help=DIRECTORY_HELP)(function)


def tier_option(function):
    return click.option("--tier", type=click.Choice(TIER_NAMES), default=TIER_NAMES[0], show_default=True)(
        function
    )


def parse_date(text: str | None) -> date:
    if text is None:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise YukonError(f"date {text!r} is not YYYY-MM-DD") from None


@click.group()
def catalogue():
    """Build and verify catalogues of solved deals (one JSON file per variant and tier)."""


@catalogue.command()
@variant_option
@numbering_option
@tier_option
@click.option("--count", type=click.IntRange(min=1), default=1000, show_default=True, help="Entries wanted.")
@click.option(
    "--from",
    "store_path",
    type=click.Path(dir_okay=False),
    help="Results store (made without foundation return) to take deals from [runs/VARIANT.db].",
)
@click.option(
    "--deals", "deal_range", help="Deals to draw from, e.g. 1-200000; undecided ones are solved first."
)
@click.option("--out", "directory", type=click.Path(file_okay=False), help=DIRECTORY_HELP)
@click.option("--since", help="Date new entries join the daily schedule [new: epoch; extension: tomorrow].")
@limits_options(2.0, "Seconds to solve a missing deal.")
@click.option(
    "--jobs", type=click.IntRange(min=1), default=None, help="Processes solving missing deals [all cores]."
)
@click.option(
    "--minimal-seconds",
    type=float,
    default=1.0,
    show_default=True,
    help="Seconds of IDA* for a shorter line (0: none; dropped once it stops paying).",
)
def build(
    variant,
    numbering,
    tier,
    count,
    store_path,
    deal_range,
    directory,
    since,
    limits,
    jobs,
    minimal_seconds,
):
    """Grow the VARIANT-TIER catalogue to COUNT entries, keeping what is there, from the
    solved deals of a results store, rated by the player's reference greedy (R = 16 runs).

    Lines are found without foundation return, so each is valid with it on or off."""
    from solver.catalogue.build import build_catalogue
    from solver.catalogue.candidates import (
        Shortener,
        check_store,
        solve_missing,
        solved_records,
        tier_candidates,
    )
    from solver.ranges import parse_range

    store = Path(store_path or f"runs/{variant}.db")
    deals = parse_range(deal_range, numbering) if deal_range else None
    if deals is not None:
        solve_missing(store, variant, numbering, deals, limits.time_limit, jobs)
    check_store(store, variant, numbering)
    shortener = Shortener(minimal_seconds)
    folder, today = catalogue_folder(directory), date.today()
    records = solved_records(store, deals)
    with closing(tier_candidates(records, variant, numbering, tier, shortener)) as candidates:
        report = build_catalogue(candidates, folder, variant, tier, count, today, since and parse_date(since))
    for reason in report.refused:
        click.echo(f"refused {reason}", err=True)
    click.echo(f"{report.path}: {report.kept} kept, {report.added} added, {len(report.lengths)} entries")
    if len(report.lengths) < count:
        click.echo(
            f"only {len(report.lengths)} {variant} {tier} deals in {store}: widen --deals to reach {count}"
        )
    click.echo(
        f"minimal mode: {shortener.shortened} of {shortener.tried} lines shortened, "
        f"{shortener.moves_saved} moves saved"
    )
    click.echo(length_summary(report.lengths))


def length_summary(lengths: list[int]) -> str:
    """Solution lengths: min, median, max and counts per ten moves."""
    if not lengths:
        return "no entries"
    buckets = Counter(length // 10 * 10 for length in lengths)
    histogram = ", ".join(f"{low}-{low + 9}: {buckets[low]}" for low in sorted(buckets))
    middle = statistics.median(lengths)
    return f"lengths: min {min(lengths)}, median {middle:g}, max {max(lengths)} ({histogram})"


@catalogue.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False))
def verify(directory):
    """Replay every line of every catalogue in DIRECTORY on the reference engine and check
    each board is the deal it names, the checksums and counts. Exit 1 on any problem."""
    from solver.catalogue.verify import verify_directory

    report = verify_directory(catalogue_folder(directory))
    for problem in report.problems:
        click.echo(problem, err=True)
    click.echo(f"{report.files} files, {report.entries} entries, {len(report.problems)} problems")
    sys.exit(1 if report.problems else 0)


@click.command()
@click.option("--date", "day", help="YYYY-MM-DD [today, local date].")
@variant_option
@tier_option
@directory_option
@click.option("--json", "as_json", is_flag=True, help="Print the entry as one JSON object.")
def daily(day, variant, tier, directory, as_json):
    """The deal of the day for a variant and tier (the algorithm is in catalogue/README.md)."""
    chosen_day = parse_date(day)
    served = daily_deal(variant, tier, chosen_day, directory)
    entry, pick = served.entry, served.pick
    if as_json:
        click.echo(
            json.dumps(stamped({"date": chosen_day.isoformat(), "entry_index": pick.index, **entry}, DAILY))
        )
        return
    click.echo(
        f"{chosen_day.isoformat()} {variant} {tier}: {entry['numbering']} deal {entry['deal']} "
        f"(entry {pick.index}, cycle {pick.cycle} from {pick.epoch.isoformat()}, "
        f"day {pick.day + 1} of {pick.pool_size})"
    )
    click.echo(entry["board"], nl=False)
    click.echo(f"solution ({entry['length']} moves): {entry['solution']}")


# Exit statuses of ``check`` (``statuses.EXIT_STATUSES``): in a catalogue; in none
# (solvability not checked); with --solve, in none and the solver's verdict (1, 3 as ``solve``).
IN_A_CATALOGUE = 0
IN_NO_CATALOGUE = 5
CHECK_VERDICTS = {SOLVED: 6, UNSOLVABLE: 1, UNKNOWN: 3}


@click.command()
@click.argument("deal")
@variant_option
@numbering_option
@directory_option
@click.option("--solve", "then_solve", is_flag=True, help="Solve it when no catalogue holds it.")
@limits_options(60.0, "Seconds, with --solve.")
def check(deal, variant, numbering, directory, then_solve, limits):
    """Is deal DEAL in a catalogue of VARIANT, and in which tier?"""
    number = parse_deal_number(deal)
    found = check_deal(number, variant, numbering, directory)
    if found is not None:
        where = f"in the {found.tier} catalogue ({found.path.name})"
        click.echo(f"{variant} {numbering} deal {number}: solvable, {where}")
        sys.exit(IN_A_CATALOGUE)
    if not then_solve:
        click.echo(f"{variant} {numbering} deal {number}: in no catalogue; solvability not checked")
        sys.exit(IN_NO_CATALOGUE)
    from solver.interrupts import passing_ctrl_c_on
    from solver.rules import Rules

    with passing_ctrl_c_on():
        outcome = solve_deal(number, Rules(variant), numbering, limits)
    click.echo(f"{variant} {numbering} deal {number}: in no catalogue; solver says {outcome.status}")
    sys.exit(CHECK_VERDICTS[outcome.status])


COMMANDS = (catalogue, daily, check)
