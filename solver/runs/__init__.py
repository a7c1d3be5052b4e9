"""Runs over many deals, one job a module.

``solve_deal`` solves one deal into a record (a failure becomes an unknown record);
``pool`` runs local worker processes, ``cluster`` a Dask cluster; ``progress`` shows how a
run goes; ``batch`` runs a deal range into a results store, resumably; ``summary`` is what
``yukon stats`` reports.
"""
