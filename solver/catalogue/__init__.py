"""Verified deal catalogues: their files (``files``), building (``build``), replaying them
(``verify``), rated candidates from a results store (``candidates``), the ladder's games
kept for a build (``ladder_games``) and the daily schedule (``schedule``, its epochs in the
manifest: ``epochs``); the ``yukon`` commands are in ``solver.cli.catalogue``.

The shipped catalogues are data, in the top-level folder ``catalogue/``, installed as
``solver/catalogue_data`` (see ``files.shipped_directory``); ``catalogue/README.md`` gives the
schema and the daily algorithm for other programs.
"""
