"""The results store: one SQLite file (WAL) per batch run, made for one rule set and
numbering. This package is the only place with SQL; one module a table:

``schema``: the tables, made, migrated (a release 0.1.0 store, schema 1) and checked on
open; ``results``: one verdict a deal (``solver.results.record.Record``); ``claims``: the deals runs
are solving now, so concurrent runs share a range; ``player_tables``: the player's games
and ratings (``player_rows.Play``, ``Rating``); ``opening``: ``Store``, all of them on one
connection; ``export``: the results as JSON lines. ``connection`` holds the one write
transaction and the translation of sqlite3 errors; ``tables`` what the tables share.
"""

from solver.store.claims import BUSY, CLAIMED, DONE, Retry
from solver.store.export import export_jsonl
from solver.store.opening import Store
from solver.store.results import COLUMNS

__all__ = ["BUSY", "CLAIMED", "COLUMNS", "DONE", "Retry", "Store", "export_jsonl"]
