"""The declared formats and shapes of the JSON files the benchmarks write: ``scaling.json`` of
``bench_scaling.py`` its own, every other figures file ``common.write_json`` writes
``yukon-benchmark`` (the study's are in ``study/shapes.py``). Percentile entries hold
median / p90 / p99 / max.

Every file names its format in its first two keys (``solver/common/formats.py``); files
written before the keys came lack them, and their readers take them as version 1."""

from typing import NotRequired, TypedDict

from solver.common.formats import Format
from study.shapes import Stamped

SCALING = Format("yukon-scaling", 1)
BENCHMARK = Format("yukon-benchmark", 1)


class DifficultyFigures(TypedDict):
    """``scaling.json``'s difficulty part; ``variants`` holds per variant its table, ratings,
    source, runs, thresholds, deals and groups."""

    command: str
    date: str
    variants: dict[str, dict]


class MemorySetting(TypedDict):
    memory: str
    memory_bytes: int
    counts: dict[str, int]
    solving_seconds: float
    wall_seconds: float
    nodes: int
    peak_table_entries: int
    table_payload_bytes: int
    max_rss_bytes: int
    deals: list[dict]


class MemoryFigures(TypedDict):
    """``scaling.json``'s memory part: one setting per ``--memory`` size."""

    command: str
    date: str
    machine: dict
    max_nodes: int
    per_deal_command: str
    deals: list[int]
    selection: str
    study_rows: dict
    baseline: dict
    settings: list[MemorySetting]


class JobsFigures(TypedDict):
    """``scaling.json``'s jobs part, as ``bench_batch.py`` recorded it."""

    source: str
    command: str
    date: str
    machine: dict
    settings: dict
    runs: list[dict]


class ScalingFigures(Stamped):
    """``scaling.json``: each part present once measured."""

    benchmark: str
    difficulty: NotRequired[DifficultyFigures]
    memory: NotRequired[MemoryFigures]
    jobs: NotRequired[JobsFigures]
