"""Verified deal catalogues: their files (``files``), building (``build``), replaying them
(``verify``), the daily schedule (``schedule``) and the ``yukon`` commands (``commands``).

The shipped catalogues are data, in the top-level folder ``catalogue/``, installed as
``solver/catalogue_data`` (see ``files.shipped_directory``); ``catalogue/README.md`` gives the
schema and the daily algorithm for other programs.
"""
