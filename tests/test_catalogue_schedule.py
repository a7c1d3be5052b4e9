"""The daily schedule: hash vectors, no repeat within a cycle, dates kept across an extension,
and the test vectors printed in catalogue/README.md."""

import re
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.catalogue.files import load_checked, shipped_directory
from solver.catalogue.schedule import EPOCH, affine_map, daily_entry, fnv1a32, pick
from solver.errors import YukonError

README = shipped_directory() / "README.md"


def days(first: date, count: int) -> list[date]:
    return [first + timedelta(days=offset) for offset in range(count)]


def test_fnv1a32_known_values():
    assert fnv1a32("") == 0x811C9DC5
    assert fnv1a32("a") == 0xE40C292C
    assert fnv1a32("foobar") == 0xBF9CF968


@pytest.mark.parametrize("size", [1, 2, 6, 7, 12, 30, 97, 1000])
def test_affine_map_steps_are_coprime(size):
    for cycle in range(20):
        step, shift = affine_map(f"yukon/easy/{cycle}", size)
        assert sorted((step * i + shift) % size for i in range(size)) == list(range(size))


@pytest.mark.parametrize("size", [1, 5, 12, 40])
def test_every_cycle_uses_each_entry_once(size):
    sinces = [EPOCH] * size
    for cycle in range(4):
        picks = [
            pick(sinces, "yukon", "easy", day) for day in days(EPOCH + timedelta(days=cycle * size), size)
        ]
        assert sorted(chosen.index for chosen in picks) == list(range(size))
        assert {chosen.cycle for chosen in picks} == {cycle}


def test_an_extension_changes_no_date_up_to_the_end_of_the_running_cycle():
    today = date(2026, 3, 17)
    before = [EPOCH] * 10
    after = before + [today + timedelta(days=1)] * 6
    running = pick(before, "russian", "hard", today)
    cycle_end = today + timedelta(days=running.pool_size - running.day - 1)
    for day in days(EPOCH, (cycle_end - EPOCH).days + 1):
        assert pick(after, "russian", "hard", day) == pick(before, "russian", "hard", day)
    next_cycle = [
        pick(after, "russian", "hard", day).index for day in days(cycle_end + timedelta(days=1), 16)
    ]
    assert sorted(next_cycle) == list(range(16))


def test_new_entries_wait_for_the_next_cycle_when_the_extension_joins_mid_cycle():
    sinces = [EPOCH] * 4 + [EPOCH + timedelta(days=2)]
    first_cycle = [pick(sinces, "yukon", "normal", day).index for day in days(EPOCH, 4)]
    assert sorted(first_cycle) == [0, 1, 2, 3]
    assert sorted(
        pick(sinces, "yukon", "normal", day).index for day in days(EPOCH + timedelta(days=4), 5)
    ) == [
        0,
        1,
        2,
        3,
        4,
    ]


def test_no_deal_before_the_schedule_starts():
    with pytest.raises(YukonError, match="starts on 2026-01-01"):
        pick([EPOCH], "yukon", "easy", date(2025, 12, 31))


def readme_vectors() -> list[tuple[str, str, str, int, int]]:
    """Rows ``| 2026-12-01 | yukon | easy | 3 | 12 |`` of the README's test vector table."""
    rows = re.findall(
        r"^\| (\d{4}-\d\d-\d\d) \| (\w+) \| (\w+) \| (\d+) \| (\d+) \|$", README.read_text(), re.M
    )
    return [(day, variant, tier, int(index), int(deal)) for day, variant, tier, index, deal in rows]


def test_the_readme_test_vectors_hold_on_the_shipped_catalogues():
    vectors = readme_vectors()
    assert len(vectors) >= 9
    for day, variant, tier, index, deal in vectors:
        entry, chosen = daily_entry(load_checked(shipped_directory(), variant, tier), date.fromisoformat(day))
        assert (chosen.index, entry["deal"]) == (index, deal), (day, variant, tier)


def stepwise_pick(sinces: list[date], day: date) -> tuple[int, int, int]:
    """The README's algorithm one cycle at a time (the oracle): (pool size, cycle, day)."""
    start, cycle = max(EPOCH, min(sinces)), 0
    while True:
        size = sum(since <= start for since in sinces)
        if (day - start).days < size:
            return size, cycle, (day - start).days
        start, cycle = start + timedelta(days=size), cycle + 1


@given(
    joins=st.lists(st.integers(-5, 60), min_size=1, max_size=8),
    offset=st.integers(0, 200),
)
@settings(max_examples=200, deadline=None)
def test_skipping_cycles_picks_what_going_cycle_by_cycle_picks(joins, offset):
    sinces = [EPOCH + timedelta(days=join) for join in joins]
    day = max(EPOCH, min(sinces)) + timedelta(days=offset)
    chosen = pick(sinces, "yukon", "easy", day)
    assert (chosen.pool_size, chosen.cycle, chosen.day) == stepwise_pick(sinces, day)
    assert sinces[chosen.index] <= day


def test_entries_joining_in_the_far_future_are_reached_at_once():
    join = date(9999, 11, 30)
    sinces = [EPOCH] + [join] * 999
    # One-day cycles of the first entry up to the join, then cycles of all 1,000 entries.
    one_day_cycles = (join - EPOCH).days
    assert pick(sinces, "yukon", "easy", join - timedelta(days=1)).cycle == one_day_cycles - 1
    last = pick(sinces, "yukon", "easy", date(9999, 12, 31))
    assert (last.cycle, last.day, last.pool_size) == (one_day_cycles, 31, 1000)
