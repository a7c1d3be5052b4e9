"""The catalogue commands of ``yukon``: ``catalogue build|verify``, ``daily``, ``check``.

Thin: parse, call the library, print. They raise YukonError for bad input; the ``yukon``
group turns it into one ``error:`` line and exit status 2.
"""

import json
import math
import statistics
import sys
from collections import Counter
from datetime import date
from pathlib import Path

import click

from solver.api import TIER_NAMES, Status, deal_range, solve_deal
from solver.cli.options import (
    limits_options,
    numbering_option,
    parse_deal_number,
    return_option,
    rules_options,
    variant_option,
)
from solver.common.interrupts import passing_ctrl_c_on
from solver.errors import YukonError

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


def seconds_at_least_zero(value: float, option: str) -> float:
    """``value`` when it is a number of seconds (finite, not negative); YukonError else."""
    if not math.isfinite(value) or value < 0:
        raise YukonError(f"{option} {value} is not a number of seconds (0 or more)")
    return value


@click.group()
def catalogue():
    """Build and verify catalogues of solved deals (one JSON file per variant and tier)."""


@catalogue.command()
@rules_options
@numbering_option
@click.option(
    "--tier",
    type=click.Choice((*TIER_NAMES, "all")),
    default=TIER_NAMES[0],
    show_default=True,
    help="The tier to grow, or all three from one pass over the deals.",
)
@click.option("--count", type=click.IntRange(min=1), default=1000, show_default=True, help="Entries wanted.")
@click.option(
    "--from",
    "store_path",
    type=click.Path(dir_okay=False),
    help="Results store of the rule set to take deals from [runs/RULESET.db, e.g. runs/yukon-return.db].",
)
@click.option(
    "--ladder",
    "ladder_path",
    type=click.Path(dir_okay=False),
    help="The ladder's games, read and grown [runs/RULESET.ladder.jsonl] (where the ladder is calibrated).",
)
@click.option(
    "--deals", "deal_range_text", help="Deals to draw from, e.g. 1-200000; undecided ones are solved first."
)
@click.option(
    "--out",
    "directory",
    type=click.Path(file_okay=False),
    required=True,
    help="Catalogue folder to grow (made when missing; the shipped one is `catalogue` of a checkout).",
)
@click.option("--since", help="Date new entries join the daily schedule [new: epoch; extension: tomorrow].")
@limits_options(2.0, "Seconds to solve a missing deal.")
@click.option(
    "--jobs", type=click.IntRange(min=1), default=None, help="Processes solving missing deals [all cores]."
)
@click.option(
    "--minimal-seconds",
    type=float,
    callback=lambda _context, _parameter, value: seconds_at_least_zero(value, "--minimal-seconds"),
    default=1.0,
    show_default=True,
    help="Seconds of IDA* for a shorter line (0: none; dropped once it stops paying).",
)
def build(
    rules,
    numbering,
    tier,
    count,
    store_path,
    ladder_path,
    deal_range_text,
    directory,
    since,
    limits,
    jobs,
    minimal_seconds,
):
    """Grow the catalogue of the rule set and TIER to COUNT entries, keeping what is there,
    from the solved deals of a results store of that rule set, scored by the difficulty
    ladder where it is calibrated (else rated by the greedy player's R = 16 runs).

    A line found with --foundation-return may use it; its catalogue says so."""
    deals = deal_range(deal_range_text, numbering) if deal_range_text else None
    from solver.api import build_catalogues  # the catalogues' modules, loaded by their commands only

    shortener = build_catalogues(
        rules,
        directory,
        numbering=numbering,
        tiers=TIER_NAMES if tier == "all" else (tier,),
        count=count,
        store=store_path,
        ladder=ladder_path,
        deals=deals,
        since=since and parse_date(since),
        limits=limits,
        jobs=jobs,
        minimal_seconds=minimal_seconds,
        on_tier=lambda built: tell_build(built.report, count, f"{built.rule_set} {built.tier}", built.store),
    )
    click.echo(
        f"minimal mode: {shortener.shortened} of {shortener.tried} lines shortened, "
        f"{shortener.moves_saved} moves saved"
    )


def tell_build(report, count: int, what: str, store: Path) -> None:
    """What a build of one tier did: refusals, counts, the deals taken, solution lengths."""
    for reason in report.refused:
        click.echo(f"refused {reason}", err=True)
    taken = f" (deals {report.taken[0]}-{report.taken[1]})" if report.taken else ""
    click.echo(
        f"{report.path}: {report.kept} kept, {report.added} added{taken}, {len(report.lengths)} entries"
    )
    if len(report.lengths) < count:
        click.echo(f"only {len(report.lengths)} {what} deals in {store}: widen --deals to reach {count}")
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
    from solver.api import verify_catalogues

    report = verify_catalogues(directory)
    for problem in report.problems:
        click.echo(problem, err=True)
    click.echo(f"{report.files} files, {report.entries} entries, {len(report.problems)} problems")
    sys.exit(1 if report.problems else 0)


@click.command()
@click.option("--date", "day", help="YYYY-MM-DD [today, local date].")
@variant_option
@return_option
@numbering_option
@tier_option
@directory_option
@click.option(
    "--solution",
    "show_solution",
    is_flag=True,
    help="Print the winning line under the board (hidden by default).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the entry as one JSON object (it always holds the solution).",
)
def daily(day, variant, foundation_return, numbering, tier, directory, show_solution, as_json):
    """The deal of the day for a rule set and tier (the algorithm is in catalogue/README.md);
    a rule set that has no catalogue is refused in one line. The solution is printed only
    with --solution; the JSON form always holds it, for programs."""
    chosen_day = parse_date(day)
    from solver.api import daily_deal
    from solver.api.catalogue import rule_set_name

    served = daily_deal(
        variant,
        tier,
        chosen_day,
        directory=directory,
        foundation_return=foundation_return,
        numbering=numbering,
    )
    entry, pick = served.entry, served.pick
    if as_json:
        click.echo(json.dumps(served.to_json()))
        return
    click.echo(
        f"{chosen_day.isoformat()} {rule_set_name(variant, foundation_return, numbering)} {tier}: "
        f"{entry['numbering']} deal {entry['deal']} "
        f"(entry {pick.index} of {pick.file}, cycle {pick.cycle} from {pick.epoch.isoformat()}, "
        f"day {pick.day + 1} of {pick.pool_size})"
    )
    click.echo(entry["board"], nl=False)
    if show_solution:
        click.echo(f"solution ({entry['length']} moves): {entry['solution']}")
    else:
        click.echo(f"solvable in {entry['length']} moves (--solution prints the line)")


# Exit statuses of ``check`` (``statuses.EXIT_STATUSES``): in a catalogue; in none
# (solvability not checked); with --solve, in none and the solver's verdict (1, 3 as ``solve``).
IN_A_CATALOGUE = 0
IN_NO_CATALOGUE = 5
CHECK_VERDICTS = {Status.SOLVED: 6, Status.UNSOLVABLE: 1, Status.UNKNOWN: 3}


@click.command()
@click.argument("deal")
@variant_option
@numbering_option
@directory_option
@click.option("--solve", "then_solve", is_flag=True, help="Solve it when no catalogue holds it.")
@limits_options(60.0, "Seconds, with --solve.")
def check(deal, variant, numbering, directory, then_solve, limits):
    """Is deal DEAL in a catalogue of VARIANT (any shipped rule set), and in which tier?"""
    number = parse_deal_number(deal)
    from solver.api import catalogue_hits

    hits = catalogue_hits(number, variant, numbering=numbering, directory=directory)
    if hits:
        where = ", ".join(f"{hit.rule_set} {hit.tier} ({hit.path.name})" for hit in hits)
        click.echo(f"{variant} {numbering} deal {number}: solvable, in the catalogues {where}")
        sys.exit(IN_A_CATALOGUE)
    if not then_solve:
        click.echo(f"{variant} {numbering} deal {number}: in no catalogue; solvability not checked")
        sys.exit(IN_NO_CATALOGUE)
    with passing_ctrl_c_on():
        outcome = solve_deal(number, variant, numbering=numbering, limits=limits)
    click.echo(f"{variant} {numbering} deal {number}: in no catalogue; solver says {outcome.status}")
    sys.exit(CHECK_VERDICTS[outcome.status])


COMMANDS = (catalogue, daily, check)
