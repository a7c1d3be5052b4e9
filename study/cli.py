"""The thoughtful win-rate study, run from the checkout root: compact per-deal tables, figures,
plots and the winnability block of docs/winnability.md.

    python -m study --stores /work/study --readme docs/winnability.md
    python -m study --readme docs/winnability.md    # from the committed compact tables alone

With ``--stores DIR``, every ``<name>.db`` in DIR named for a rule set (``yukon``,
``yukon-return``, ``russian``, ``russian-return``, ``milligan``, ``milligan-return``) is
read and written to ``--out`` as a compact per-deal table, ``<name>.verdicts.csv.gz``
(deal, status, solution length, nodes, milliseconds), beside ``<name>.source.json`` (the
store's rule set, solver versions, limits and the command that made it). The figures are
then always computed from the compact tables, so they are the same with or without the
stores. Written to ``--out``: ``study.json`` (every figure) and the plots (PNG, when
matplotlib is installed); printed: the report, a command and a solver version beside each
table; with ``--readme FILE``, the same report replaces the block between
``<!-- winnability:start -->`` and ``<!-- winnability:end -->`` in FILE.

Each rule set's figures cover the contiguous range of deals 1..N that its table holds in
full (a store still being written has gaps past N); the deals stored past N are counted.

Unknowns can be retried into a store of their own, ``<name>-retry.db`` in the same
``--stores`` folder; its verdicts replace the table's unknowns (a decided verdict stands, a
contradiction is refused), and the deals retried are written to ``<name>.retried.txt``:

    yukon solve $(python -m study --unknown yukon --upto 10000) --variant yukon \
        --time-limit 10 --out /work/study/yukon-retry.db
    python -m study --stores /work/study --readme docs/winnability.md

``--out`` defaults to ``study/results/`` (the committed tables), ``--players`` to
``benchmarks/results/`` (the ``player_*.json`` summaries ``benchmarks/bench_player.py`` writes).
"""

import argparse
import sys
from pathlib import Path

from solver.errors import YukonError
from study import plots
from study.figures import study_figures
from study.report import MARKERS, report
from study.reports import readme_images, rewrite_readme, write_json
from study.shapes import STUDY
from study.tables import RESULTS, Table, contiguous_prefix, load_tables, unknown_deals

PLAYER_RESULTS = RESULTS.parents[1] / "benchmarks" / "results"


def parse_arguments(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m study", description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", type=Path, help="folder of <rule set>.db results stores to read")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder of the compact tables and outputs")
    parser.add_argument("--players", type=Path, default=PLAYER_RESULTS, help="folder of player_*.json")
    parser.add_argument("--readme", type=Path, help="Markdown file whose winnability block is rewritten")
    parser.add_argument("--no-plots", action="store_true", help="write no PNG")
    parser.add_argument(
        "--unknown", metavar="NAME", help="print the deals rule set NAME has as unknown (to retry them), only"
    )
    parser.add_argument("--upto", type=int, help="with --unknown: only deals up to this one")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_arguments(argv)
    try:
        if args.unknown:
            print(unknown_deals(args.out, args.unknown, args.upto))
            return 0
        tables = load_tables(args.stores, args.out)
        figures = study_figures(tables, args.players)
        write_json(args.out / "study.json", figures, STUDY)
        drawn = [] if args.no_plots else plots.draw_all(figures, covered_rows(tables), args.out)
        block = report(figures, readme_images(drawn, args.readme))
        if args.readme:
            rewrite_readme(args.readme, block, MARKERS)
    except YukonError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(block, end="")
    return 0


def covered_rows(tables: list[Table]) -> dict[str, list[tuple]]:
    """Each rule set's rows over the deals its figures cover."""
    return {table.name: contiguous_prefix(table.rows) for table in tables}
