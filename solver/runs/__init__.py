"""Runs over many deals, one job a module.

A run is a ``work.Work`` (what workers do with each deal) handed to the skeleton of
``loop`` (local worker processes of ``pool`` or the Dask cluster of ``cluster``, progress of
``progress``, Ctrl-C), which stores each answer as it comes and says what it did in a
``report.RunReport``. ``batch`` solves a deal range into a results store, resumably
(``deal_record`` is its task, ``claims`` shares a store between runs); ``play`` plays and
rates deal ranges (``player_work`` is what its workers run); ``summary`` is what ``yukon
stats`` reports.
"""
