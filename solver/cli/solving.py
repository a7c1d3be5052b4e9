"""The ``solve`` command: one deal or board, or a deal range into a results store."""

import json
import sys
import textwrap

import click

from solver.api import Spent, Status, deal_range, explain_steps, solve_deal, solved, store_summary
from solver.api import solve_range as solve_into
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
from solver.commands import typed_command
from solver.common.interrupts import exit_status
from solver.errors import YukonError, counted

# Exit statuses of ``solve``: one deal's by its verdict; a range run that met a verdict
# contradicting the stored one.
EXIT_CODES = {Status.SOLVED: 0, Status.UNSOLVABLE: 1, Status.UNKNOWN: 3}
CONTRADICTION_STATUS = 4


@click.command()
@click.argument("deal", required=False)
@board_option
@rules_options
@numbering_option
@limits_options(60.0, "Seconds per deal before giving up.", "minimal", "max_nodes", "memory_bytes")
@click.option("--out", type=click.Path(dir_okay=False), help="Results store (SQLite): DEAL is then a range.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Local worker processes [all cores].")
@click.option("--retry-unknown", is_flag=True, help="With --out: also re-solve deals stored as unknown.")
@click.option(
    "--dask", "dask_address", metavar="ADDRESS", help="tcp://scheduler:8786, or 'local' for a LocalCluster."
)
@click.option(
    "--chunk-size",
    type=click.IntRange(min=1),
    default=None,
    help="Deals in flight per Dask worker thread (each deal is its own task) [2].",
)
@click.option(
    "--explain", is_flag=True, help="Say what every move of the line does (JSON: an explanation list)."
)
@json_option
@color_option
def solve(deal, board_file, rules, numbering, limits, explain, **batch):
    """Solve deal DEAL (or --board FILE): solved with a replayable line, unsolvable (proved),
    or unknown (a budget ran out).

    The solver sees face-down cards. Every line it prints has been replayed as a win on the
    reference rules engine.

    \b
    DEAL may be a range (1-1000, 1,5,9-20): each deal's record (as `yukon export` writes it)
    is printed as one JSON line as soon as it is decided, in deal order.
    With --out DB, DEAL is a range (12, 1-1000, 1,5,9-20) solved in parallel into a SQLite
    store; running the same command again resumes (add --retry-unknown to retry unknowns).
    It ends with the summary of `yukon stats`.
      yukon solve 1-1000 --out runs/yukon.db --time-limit 10
    """
    as_json = batch.pop("as_json")
    if explain and batch["out"] is not None:
        raise YukonError("--explain tells one deal's line; it cannot be used with --out")
    if batch["out"] is not None:
        solve_range(deal, board_file, rules, numbering, limits, as_json, **batch)
    if batch["jobs"] is not None or batch["retry_unknown"] or batch["dask_address"] is not None:
        raise YukonError("--jobs, --retry-unknown and --dask need --out DB")
    if board_file is None and deal is not None and is_range(deal):
        stream_records(deal_range(deal, numbering), rules, numbering, limits)
    board, number = opening(deal, board_file, rules, numbering)
    outcome = solved(board, rules, limits, numbering, number, on_bound=tell_bound if limits.minimal else None)
    sentences = (
        [said for _move, said, _after in explain_steps(board, outcome.solution, rules)] if explain else None
    )
    if as_json:
        told = ({"explanation": sentences} if explain else {}) | minimal_fields(outcome)
        click.echo(json.dumps(outcome.to_json() | told))
    else:
        echo(board.to_text())
        echo(describe(outcome, sentences))
    sys.exit(exit_status() if outcome.budget == Spent.INTERRUPTED else EXIT_CODES[outcome.status])


def is_range(deal: str) -> bool:
    """Does DEAL name a range (``1-3``, ``5,9``) rather than one deal?"""
    return any(mark in deal for mark in "-,")


def stream_records(deals, rules, numbering, limits) -> None:
    """``yukon solve RANGE`` without --out: solve the deals one after another, printing each
    one's record (as ``export`` writes it) on a line of its own as soon as it is decided;
    exits 0 once every deal has its line, 130 after Ctrl-C (the deal it stopped has none)."""
    for number in deals:
        outcome = solve_deal(number, rules, numbering=numbering, limits=limits)
        if outcome.budget == Spent.INTERRUPTED:
            sys.exit(exit_status())
        click.echo(json.dumps(outcome.to_json(), allow_nan=False))
    sys.exit(0)


def solve_range(
    deal, board_file, rules, numbering, limits, as_json, out, jobs, retry_unknown, dask_address, chunk_size
):
    """``yukon solve RANGE --out DB``: batch-solve, then print the summary; exits."""
    if board_file is not None:
        raise YukonError("--out solves a deal range; it cannot be used with --board")
    if deal is None:
        raise YukonError("give a deal range to solve into --out, e.g. 1-1000")
    deals = deal_range(deal, numbering)
    try:
        report = solve_into(
            deals,
            rules,
            out,
            numbering=numbering,
            limits=limits,
            jobs=jobs,
            retry_unknown=retry_unknown,
            dask=dask_address,
            chunk_size=chunk_size,
            resume_command=typed_command(sys.argv[1:]),
        )
    except KeyboardInterrupt:  # a second Ctrl-C
        sys.exit(exit_status())
    if report.interrupted:
        sys.exit(report.exit_status)
    print_summary(store_summary(out), as_json)
    if report.contradictions:
        click.echo(
            f"error: {len(report.contradictions)} new verdicts contradict the stored ones (kept), "
            f"first {report.contradictions[0]}",
            err=True,
        )
        sys.exit(CONTRADICTION_STATUS)
    sys.exit(0)


# What to give an unknown verdict's search next, by the budget that ran out. Most deals a
# few seconds leave unknown are huge lost spaces: their proofs take minutes and tens of
# millions of positions (README, "The hard tail").
MORE_OF = {
    Spent.TIME: "a larger --time-limit (hard deals can take minutes)",
    Spent.NODES: "a larger --max-nodes (hard deals can take a hundred million positions)",
    Spent.MEMORY: "a larger --memory, or more memory for the process (the table was full or could not grow)",
}


def tell_bound(bound: int, length: int) -> None:
    """The progress of ``--minimal``, on stderr: the lower bound reached and the gap."""
    click.echo(
        f"minimal: no line is shorter than {bound} moves; found {length} (gap {length - bound})", err=True
    )


def minimal_fields(result) -> dict:
    """What a ``--minimal`` solve adds to its JSON: the lower bound reached and the gap."""
    if result.lower_bound is None:
        return {}
    return {"lower_bound": result.lower_bound, "gap": result.solution_length - result.lower_bound}


def describe(result, sentences: list[str] | None = None) -> str:
    """A verdict, its line move by move (each with its sentence, when given), and the
    effort, for a reader."""
    why = {None: "", Spent.INTERRUPTED: " (interrupted)"}.get(result.budget, f" ({result.budget} ran out)")
    lines = [f"verdict: {result.status}{why}"]
    if result.loss_reason:
        lines.append(textwrap.fill("why: " + result.loss_reason, width=96, subsequent_indent="  "))
    if result.budget in MORE_OF:
        lines.append(f"to search on: {MORE_OF[result.budget]}")
    if result.solution:
        minimal = "proven minimal" if result.proven_minimal else "not proven minimal"
        if result.lower_bound is not None and not result.proven_minimal:
            gap = result.solution_length - result.lower_bound
            minimal += f": no line is shorter than {counted(result.lower_bound, 'move')}, a gap of {gap}"
        lines.append(f"solution: {counted(result.solution_length, 'move')} ({minimal})")
        tokens = result.solution.split()
        said = sentences or [""] * len(tokens)
        lines += [
            f"{number:4d}. {token:<10} {sentence}".rstrip()
            for number, (token, sentence) in enumerate(zip(tokens, said, strict=True), start=1)
        ]
        lines.append("line: " + result.solution)
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    lines.append(
        f"effort: {counted(result.nodes, 'node')}, {result.seconds:.3f} s, {rate:,.0f} nodes/s, "
        f"{result.peak_table_entries} table {'entry' if result.peak_table_entries == 1 else 'entries'}"
    )
    return "\n".join(lines)


COMMANDS = (solve,)
