"""The ``yukon`` command line: parse, call the library, print. Nothing else lives here."""

import json
import sys

import click

from solver import __version__
from solver.board import Board, read_board
from solver.errors import YukonError
from solver.notation import replay_tokens
from solver.numbering import NUMBERINGS, deal_board
from solver.reference import IllegalMove, is_won
from solver.result import EXIT_CODES, Limits
from solver.rules import VARIANTS, Rules

CONTEXT = {"help_option_names": ["-h", "--help"]}


class YukonGroup(click.Group):
    """Turns a YukonError anywhere below into one line on stderr and exit status 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except YukonError as error:
            click.echo(f"error: {error}", err=True)
            ctx.exit(2)


def variant_option(function):
    return click.option(
        "--variant", type=click.Choice(VARIANTS), default="yukon", show_default=True, help="Game."
    )(function)


def numbering_option(function):
    return click.option(
        "--numbering",
        type=click.Choice(NUMBERINGS),
        default="pysol",
        show_default=True,
        help="Whose deal numbers: PySolFC's game numbers or KDE Patience's.",
    )(function)


def return_option(function):
    return click.option(
        "--foundation-return",
        is_flag=True,
        help="Allow a foundation's top card back onto a column that can take it.",
    )(function)


def json_option(function):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(function)


def board_option(function):
    return click.option(
        "--board",
        "board_file",
        type=click.File("r"),
        help="Read the position from a file (text or JSON form; - for stdin) instead of a deal number.",
    )(function)


def parse_deal_number(text: str) -> int:
    if not text.isdigit():
        raise YukonError(f"deal number {text!r} is not a whole number")
    return int(text)


def opening(deal: str | None, board_file, rules: Rules, numbering: str) -> tuple[Board, int | None]:
    """The position to work on: a numbered deal or a board file, and the deal number."""
    if board_file is not None:
        if deal is not None:
            raise YukonError("give a deal number or --board FILE, not both")
        return read_board(board_file.read(), rules), None
    if deal is None:
        raise YukonError("give a deal number or --board FILE")
    number = parse_deal_number(deal)
    return deal_board(rules.variant, number, numbering), number


@click.group(cls=YukonGroup, context_settings=CONTEXT)
@click.version_option(__version__, prog_name="yukon")
def main():
    """Exact solver and deal verifier for Yukon, Russian Solitaire and Milligan Yukon.

    \b
    Examples:
      yukon deal 12                      the opening of PySolFC deal 12
      yukon solve 12                     solve it and print a replayable line
      yukon replay 12 "3>7:TS 5>F:AH"    check a line move by move
      yukon verify results.jsonl         replay every record of a results file
    """


@main.command()
@click.argument("deal")
@variant_option
@numbering_option
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def deal(deal, variant, numbering, output_format):
    """Print the opening position of deal number DEAL.

    Text form: one column per line, bottom card first, face-down cards in <>.
    """
    board = deal_board(variant, parse_deal_number(deal), numbering)
    if output_format == "json":
        click.echo(json.dumps(board.to_json()))
    else:
        click.echo(board.to_text(), nl=False)


@main.command()
@click.argument("words", nargs=-1, required=True)
@board_option
@variant_option
@numbering_option
@return_option
@click.option("--show", is_flag=True, help="Print the board after every move.")
def replay(words, board_file, variant, numbering, foundation_return, show):
    """Replay a solution line on a deal or a board.

    \b
    yukon replay DEAL "3>7:TS 5>F:AH ..."
    yukon replay --board FILE "3>7:TS ..."
    Use - as the line to read it from stdin. Exit status: 0 the line wins, 1 every move is
    legal but the game is not won, 2 a move is illegal (its number, token and the rule it
    breaks are named).
    """
    rules = Rules(variant, foundation_return)
    if board_file is not None and words[0].isdigit():
        raise YukonError("give a deal number or --board FILE, not both")
    deal_text = None if board_file is not None else words[0]
    line_words = words if board_file is not None else words[1:]
    board, _ = opening(deal_text, board_file, rules, numbering)
    tokens = " ".join(line_words).split()
    if tokens == ["-"]:
        tokens = sys.stdin.read().split()
    final = board
    try:
        for number, (token, _move, final) in enumerate(replay_tokens(board, tokens, rules), start=1):
            if show:
                click.echo(f"{number}. {token}\n{final.to_text()}")
    except IllegalMove as error:
        raise YukonError(f"illegal {error}") from None
    won = is_won(final)
    click.echo(f"{len(tokens)} moves, all legal; {'won' if won else 'not won'}")
    sys.exit(0 if won else 1)


@main.command()
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


MIN_MEMORY, MAX_MEMORY = 1 << 20, 1 << 40


def parse_memory(text: str) -> int:
    """``512M``, ``1G``, ``1.5GiB`` or a number of bytes."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    cleaned = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = cleaned[-1:] if cleaned[-1:] in units else ""
    try:
        value = float(cleaned[: len(cleaned) - len(unit)])
    except ValueError:
        raise YukonError(f"memory size {text!r} is not like 512M or 2G") from None
    size = value * units[unit]
    if not MIN_MEMORY <= size <= MAX_MEMORY:
        raise YukonError(f"memory size {text!r} must be between 1M and 1T")
    return int(size)


@main.command()
@click.argument("deal", required=False)
@board_option
@variant_option
@numbering_option
@return_option
@click.option("--minimal", is_flag=True, help="Search (IDA*) for a shortest line in moves.")
@click.option(
    "--time-limit", type=float, default=60.0, show_default=True, help="Seconds per deal before giving up."
)
@click.option("--max-nodes", type=int, default=None, help="Positions to expand before giving up.")
@click.option(
    "--memory", default="1G", show_default=True, help="Transposition table size (per worker), e.g. 512M, 2G."
)
@click.option("--out", type=click.Path(dir_okay=False), help="Results store (SQLite): DEAL is then a range.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Local worker processes [all cores].")
@click.option("--retry-unknown", is_flag=True, help="With --out: also re-solve deals stored as unknown.")
@click.option(
    "--dask", "dask_address", metavar="ADDRESS", help="tcp://scheduler:8786, or 'local' for a LocalCluster."
)
@click.option(
    "--chunk-size", type=click.IntRange(min=1), default=20, show_default=True, help="Deals per Dask task."
)
@json_option
def solve(
    deal, board_file, variant, numbering, foundation_return, minimal, time_limit, max_nodes, memory, **batch
):
    """Solve deal DEAL (or --board FILE): solved with a replayable line, unsolvable (proved),
    or unknown (a budget ran out).

    The solver sees face-down cards. Every line it prints has been replayed as a win on the
    reference rules engine. Exit status: 0 solved, 1 unsolvable, 3 unknown, 2 bad input.

    \b
    With --out DB, DEAL is a range (12, 1-1000, 1,5,9-20) solved in parallel into a SQLite
    store; running the same command again resumes (add --retry-unknown to retry unknowns).
    It ends with the summary of `yukon stats`.
      yukon solve 1-1000 --out runs/yukon.db --time-limit 10
    """
    rules = Rules(variant, foundation_return)
    if not time_limit > 0:
        raise YukonError(f"--time-limit {time_limit} must be a positive number of seconds")
    if max_nodes is not None and max_nodes <= 0:
        raise YukonError(f"--max-nodes {max_nodes} must be positive")
    limits = Limits(max_nodes, time_limit, parse_memory(memory), minimal)
    as_json = batch.pop("as_json")
    if batch["out"] is not None:
        solve_range(deal, board_file, rules, numbering, limits, as_json, **batch)
    if batch["jobs"] is not None or batch["retry_unknown"] or batch["dask_address"] is not None:
        raise YukonError("--jobs, --retry-unknown and --dask need --out DB")
    from solver.solve import solve_position

    board, number = opening(deal, board_file, rules, numbering)
    result = solve_position(board, rules, limits)
    if as_json:
        record = {**rules.as_dict(), "numbering": numbering, "deal": number, "board": board.to_text()}
        click.echo(json.dumps(record | result.as_dict()))
    else:
        click.echo(board.to_text())
        click.echo(describe(result))
    sys.exit(130 if result.budget == "interrupted" else EXIT_CODES[result.status])


def solve_range(
    deal, board_file, rules, numbering, limits, as_json, out, jobs, retry_unknown, dask_address, chunk_size
):
    """``yukon solve RANGE --out DB``: batch-solve, then print the summary; exits."""
    import shlex

    from solver.batch import run_batch, summarize
    from solver.ranges import parse_range

    if board_file is not None:
        raise YukonError("--out solves a deal range; it cannot be used with --board")
    if deal is None:
        raise YukonError("give a deal range to solve into --out, e.g. 1-1000")
    deals = parse_range(deal, numbering)
    try:
        report = run_batch(
            deals,
            rules,
            numbering,
            out,
            limits,
            jobs=jobs,
            retry_unknown=retry_unknown,
            dask=dask_address,
            progress=True,
            chunk_size=chunk_size,
            resume_command=shlex.join(["yukon", *sys.argv[1:]]),
        )
    except KeyboardInterrupt:  # a second Ctrl-C
        sys.exit(130)
    if report.interrupted:
        sys.exit(report.exit_status)
    print_summary(summarize(out), as_json)
    sys.exit(0)


def print_summary(summary: dict, as_json: bool) -> None:
    from solver.batch import format_summary

    click.echo(json.dumps(summary) if as_json else format_summary(summary))


@main.command()
@click.argument("store", type=click.Path(dir_okay=False))
@click.option("--format", "output_format", type=click.Choice(["jsonl"]), default="jsonl", show_default=True)
@click.option("--out", "-o", default="-", show_default=True, help="File to write; - for stdout.")
def export(store, output_format, out):
    """Write a results store as a results file (JSON lines) that `yukon verify` replays."""
    from solver.store import export_jsonl

    count = export_jsonl(store, out)
    if out != "-":
        click.echo(f"{count} records written to {out}", err=True)


@main.command()
@click.argument("store", type=click.Path(dir_okay=False))
@json_option
def stats(store, as_json):
    """Summarise a results store: verdict counts, win rate with 95% Wilson intervals
    (unknowns counted lost and won as bounds), time per deal, nodes/s, solution lengths."""
    from solver.batch import summarize

    print_summary(summarize(store), as_json)


def describe(result) -> str:
    why = {None: "", "interrupted": " (interrupted)"}.get(result.budget, f" ({result.budget} ran out)")
    lines = [f"verdict: {result.status}{why}"]
    if result.solution:
        minimal = "proven minimal" if result.proven_minimal else "not proven minimal"
        lines.append(f"solution: {result.solution_length} moves ({minimal})")
        tokens = result.solution.split()
        lines += [f"{number:4d}. {token}" for number, token in enumerate(tokens, start=1)]
        lines.append("line: " + result.solution)
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    lines.append(
        f"effort: {result.nodes} nodes, {result.seconds:.3f} s, {rate:,.0f} nodes/s, "
        f"{result.peak_table_entries} table entries"
    )
    return "\n".join(lines)
