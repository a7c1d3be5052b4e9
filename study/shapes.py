"""The declared formats and shapes of the JSON files the study writes: ``<name>.source.json``
(a compact table's provenance) and ``study.json`` (every figure). Counts are keyed by status
(solved / unsolvable / unknown).

Every file names its format in its first two keys (``solver/common/formats.py``); files
written before the keys came lack them, and their readers take them as version 1."""

from typing import NotRequired, TypedDict

from solver.common.formats import Format

STUDY = Format("yukon-study", 1)
TABLE_SOURCE = Format("yukon-study-source", 1)


class Stamped(TypedDict):
    """The format keys that lead a file."""

    format: str
    format_version: int


class TableSource(TypedDict):
    """Where a compact table came from (``<name>.source.json``, where the format keys lead
    it); ``retry`` is the retry store's source, with the deals it retried (``deals``) and how
    its commands name them."""

    format: NotRequired[str]
    format_version: NotRequired[int]
    store: str
    rules: dict
    numbering: str
    created_at: str | None
    created_by: str | None
    solver_versions: list[str]
    time_limits: list[float | None]
    max_nodes: list[int | None]
    deal_span: list[int] | None
    commands: list[str]
    retry: NotRequired["TableSource"]
    earlier_retries: NotRequired[list["TableSource"]]
    deals: NotRequired[str]
    deals_argument: NotRequired[str]


class RuleSetFigures(TypedDict):
    """One rule set's figures over deals 1..N."""

    name: str
    rule_set: str
    source: TableSource
    deals: dict
    stored_past_range: int
    counts: dict[str, int]
    win_rate: dict
    seconds_per_deal: dict
    nodes: int
    solution_length: dict


class RetryPlan(TypedDict):
    deals: int
    time_limit: float
    hours_at_most: float
    command: str


class ExtensionPlan(TypedDict):
    """The deals and commands to reach the target half-width."""

    target_half_width: float
    deals_needed: int
    more_deals: int
    cpu_hours: float
    hours_with_jobs: dict
    resume: str
    dask: str
    retry_unknown: RetryPlan | None


class ReturnFigures(TypedDict):
    """What foundation return changes over the deals both rule sets of a variant cover."""

    variant: str
    deals: dict
    crossing: dict[str, dict[str, int]]
    unsolvable_turned_solvable: dict
    consistency: dict


class StudyFigures(Stamped):
    """``study.json``; ``players`` is keyed by variant, then by figure."""

    rule_sets: list[RuleSetFigures]
    extension: dict[str, ExtensionPlan | None]
    foundation_return: list[ReturnFigures]
    players: dict[str, dict]
