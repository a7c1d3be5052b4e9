"""The study's compact per-deal tables: read from a results store, written as
``<name>.verdicts.csv.gz`` beside ``<name>.source.json``, read back, and merged with a retry
store's verdicts. The study, ``benchmarks/bench_scaling.py`` and ``benchmarks/ladder_deals.py``
read them."""

import csv
import gzip
import io
import json
from dataclasses import dataclass
from pathlib import Path

from solver.commands import solve_command
from solver.common.atomic import replace_file
from solver.common.formats import check_format, unstamped
from solver.errors import YukonError
from solver.game.rules import Rules
from solver.results.result import UNKNOWN
from solver.runs.batch import as_deal_range
from solver.store import Store
from study.reports import write_json
from study.shapes import TABLE_SOURCE, TableSource

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
RULE_SETS = {
    Rules(variant, foundation_return).label().replace("+", "-"): Rules(variant, foundation_return)
    for variant in ("yukon", "russian", "milligan")
    for foundation_return in (False, True)
}
COLUMNS = ("deal", "status", "length", "nodes", "ms")


@dataclass
class Table:
    """The compact verdicts of one rule set: rows (deal, status, length, nodes, ms) in deal
    order, and where they came from."""

    name: str
    source: TableSource
    rows: list[tuple]

    @property
    def rules(self) -> Rules:
        return Rules(**self.source["rules"])


def table_from_store(path: Path, name: str) -> Table:
    """The compact table of a results store, refused when the store is of another rule set."""
    with Store.open_existing(path) as store:
        if store.rules != RULE_SETS[name]:
            raise YukonError(f"results store {path} holds {store.rules.describe()}, not {name}")
        records = list(store.records())
        meta = store.meta
    rows = [
        (record.deal, record.status, record.solution_length, record.nodes, round(record.seconds * 1000, 3))
        for record in records
    ]
    source = {
        "store": path.name,
        "rules": RULE_SETS[name].as_dict(),
        "numbering": meta["numbering"],
        "created_at": meta.get("created_at"),
        "created_by": meta.get("created_by"),
        "solver_versions": sorted({record.solver_version for record in records}),
        "time_limits": sorted({record.time_limit for record in records}, key=none_last),
        "max_nodes": sorted({record.max_nodes for record in records}, key=none_last),
        "deal_span": [rows[0][0], rows[-1][0]] if rows else None,
    }
    source["commands"] = store_commands(source)
    return Table(name, source, rows)


def none_last(value):
    return (value is None, value)


def store_commands(source: dict) -> list[str]:
    """The ``yukon solve`` commands that make a store like this one: the first at the lowest
    time limit, then one ``--retry-unknown`` run per higher limit."""
    if source["deal_span"] is None:
        return []
    deals = source.get("deals_argument") or f"{source['deal_span'][0]}-{source['deal_span'][1]}"
    nodes = next((value for value in source["max_nodes"] if value is not None), None)
    return [
        solve_command(
            deals,
            Rules(**source["rules"]),
            numbering=source["numbering"],
            max_nodes=nodes,
            time_limit=float("inf") if limit is None else limit,  # None: the run had no time limit
            retry_unknown=index > 0,
            out=source["store"],
        )
        for index, limit in enumerate(source["time_limits"])
    ]


def write_table(table: Table, directory: Path) -> None:
    """Write ``<name>.verdicts.csv.gz`` (byte-for-byte the same for the same rows) and
    ``<name>.source.json``."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    for deal, status, length, nodes, ms in table.rows:
        writer.writerow((deal, status, length, nodes, f"{ms:.3f}".rstrip("0").rstrip(".")))
    directory.mkdir(parents=True, exist_ok=True)
    verdicts = gzip.compress(text.getvalue().encode(), compresslevel=9, mtime=0)
    replace_file(directory / f"{table.name}.verdicts.csv.gz", verdicts)
    write_json(directory / f"{table.name}.source.json", table.source, TABLE_SOURCE)
    for number, retried in enumerate(retries_of(table.source), 1):
        replace_file(directory / retried_file(table.name, number), retried["deals"] + "\n")


def read_table(directory: Path, name: str) -> Table:
    """The compact table ``name`` in ``directory``, as ``write_table`` wrote it."""
    verdicts = directory / f"{name}.verdicts.csv.gz"
    try:
        source = json.loads((directory / f"{name}.source.json").read_text())
        lines = gzip.decompress(verdicts.read_bytes()).decode().splitlines()
    except (OSError, ValueError) as error:
        raise YukonError(f"cannot read compact table {verdicts}: {error}") from None
    reader = csv.reader(lines)
    if tuple(next(reader, ())) != COLUMNS:
        raise YukonError(f"compact table {verdicts} does not start with the header {','.join(COLUMNS)}")
    try:
        rows = [
            (int(deal), status, int(length), int(nodes), float(ms))
            for deal, status, length, nodes, ms in reader
        ]
    except ValueError as error:
        raise YukonError(f"compact table {verdicts} has a bad row: {error}") from None
    check_format(source, TABLE_SOURCE, str(directory / f"{name}.source.json"))
    return Table(name, unstamped(source), rows)


def load_tables(stores: Path | None, directory: Path) -> list[Table]:
    """Every rule set's table: from its store in ``stores`` when there is one, else from the
    compact table in ``directory``; with the verdicts of ``<name>-retry.db`` in ``stores``
    merged in (``with_retries``); a table read from a store or merged is written back."""
    if stores is not None and not stores.is_dir():
        raise YukonError(f"--stores {stores} is not a directory")
    tables = []
    for name in RULE_SETS:
        store = stores / f"{name}.db" if stores is not None else None
        retry = stores / f"{name}-retry.db" if stores is not None else None
        table = None
        if store is not None and store.is_file():
            table = table_from_store(store, name)
        elif (directory / f"{name}.verdicts.csv.gz").is_file():
            table = read_table(directory, name)
        if table is not None and retry is not None and retry.is_file():
            table = with_retries(table, table_from_store(retry, name))
        if table is not None:
            write_table(table, directory)
            tables.append(read_table(directory, name))
    if not tables:
        where = f"{stores} (stores) or {directory}" if stores else str(directory)
        raise YukonError(f"no study tables found in {where}")
    return tables


def with_retries(table: Table, retry: Table) -> Table:
    """``table`` with the deals it has as unknown replaced by their rows in ``retry``
    (``settles_more`` says which), a store of deals solved again after the main run (its
    unknowns: ``--unknown NAME`` prints them). A decided verdict stands; a retry that
    contradicts one is refused. The retried deals are recorded in the source, so the command that made the
    retry store can be printed; a table retried before keeps its earlier retries' sources
    (``earlier_retries``, oldest first), and merging the same retry store again changes nothing."""
    again = {row[0]: row for row in retry.rows}
    rows = []
    for row in table.rows:
        new = again.get(row[0])
        if new is not None and UNKNOWN not in (row[1], new[1]) and new[1] != row[1]:
            store = retry.source["store"]
            raise YukonError(f"deal {row[0]}: {row[1]} in {table.name}, {new[1]} in {store}")
        rows.append(new if new is not None and row[1] == UNKNOWN and settles_more(new, row) else row)
    deals = str(as_deal_range(again))
    earlier = [
        done
        for done in retries_of(table.source)
        if (done["created_at"], done["deals"]) != (retry.source["created_at"], deals)
    ]
    listed = f"$(cat {RESULTS.relative_to(HERE.parent)}/{retried_file(table.name, len(earlier) + 1)})"
    retried = retry.source | {"deals": deals, "deals_argument": listed}
    retried["commands"] = store_commands(retried)
    source = {key: value for key, value in table.source.items() if key != "earlier_retries"} | {
        "retry": retried
    }
    if earlier:
        source["earlier_retries"] = earlier
    return Table(table.name, source, rows)


def settles_more(again: tuple, before: tuple) -> bool:
    """Does a retry's row of a deal stored as unknown replace it: a verdict always, an
    unknown only after searching more positions (a cheap retry leaves the effort it did not
    match as it was)."""
    return again[1] != UNKNOWN or again[3] > before[3]


def retries_of(source: dict) -> list[dict]:
    """The retry sources of a table's source, oldest first."""
    latest = [source["retry"]] if "retry" in source else []
    return [*source.get("earlier_retries", []), *latest]


def retried_file(name: str, number: int) -> str:
    """The file listing the deals of a table's ``number``-th retry (from 1)."""
    return f"{name}.retried.txt" if number == 1 else f"{name}.retried-{number}.txt"


def contiguous_prefix(rows: list[tuple]) -> list[tuple]:
    """The rows of deals 1..N for the largest N with every one of those deals present."""
    count = 0
    while count < len(rows) and rows[count][0] == count + 1:
        count += 1
    return rows[:count]


def unknown_deals(directory: Path, name: str, upto: int | None) -> str:
    """The deals the compact table ``name`` has as unknown, as a deal range."""
    if name not in RULE_SETS:
        raise YukonError(f"--unknown {name!r} is not a rule set ({', '.join(RULE_SETS)})")
    rows = read_table(directory, name).rows
    unknown = [deal for deal, status, *_ in rows if status == UNKNOWN and (upto is None or deal <= upto)]
    if not unknown:
        raise YukonError(f"{name} has no unknown deals" + (f" up to {upto}" if upto else ""))
    return str(as_deal_range(unknown))
