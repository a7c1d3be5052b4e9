"""The daily schedule: hash vectors, no repeat within a cycle, dates kept across an extension,
every day of 2026 kept as release 0.1.0 served it, the keyed order from 2027, the manifest's
epochs, and the test vectors printed in catalogue/README.md."""

import hashlib
import json
import re
from datetime import date, timedelta
from math import gcd

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import assert_bad_input, run

from solver.catalogue.epochs import (
    AFFINE,
    GAP,
    KEYED_SORT,
    SCHEDULE,
    SCHEDULE_BEFORE_GENERATIONS,
    SPACED,
    Epoch,
    read_schedule,
    schedule_json,
)
from solver.catalogue.files import (
    read_catalogue,
    read_manifest,
    rule_set_of,
    save_catalogue,
    shipped_directory,
)
from solver.catalogue.schedule import (
    EPOCH,
    Listing,
    affine_map,
    affine_order,
    daily_in,
    fnv1a32,
    keyed_order,
    listing_for,
    listing_of,
    pick,
    served,
)
from solver.errors import YukonError

README = shipped_directory() / "README.md"
LAST_AFFINE_DAY = date(2026, 12, 31)
KEYED_START = date(2027, 1, 1)
AFFINE_ONLY = (Epoch(EPOCH, AFFINE, ""),)
KEYED_ONLY = (Epoch(EPOCH, KEYED_SORT, "test"),)
# The schedule shipped before generation 2: the keyed order over generation 1's files from 2027.
KEYED_SCHEDULE = SCHEDULE_BEFORE_GENERATIONS
BOTH_METHODS = pytest.mark.parametrize("schedule", [AFFINE_ONLY, KEYED_ONLY], ids=["affine", "keyed"])
# SHA-256 of the lines "YYYY-MM-DD:deal" for every day of 2026 as release 0.1.0 (commit 3818444,
# solver/catalogue/schedule.py) served them from the six files it shipped: the days already
# promised to players, which no later schedule or catalogue change may alter.
SERVED_2026 = {
    "yukon-easy.json": "552e22c3a2f63293df52945b812dbcd2eb2d8b60d7950c558d337524a23ca260",
    "yukon-normal.json": "b4e73a9b74651b7f17713fbed084839ec7c6d30d1807474e96124089089db5e6",
    "yukon-hard.json": "c3cb81ee9c57687a77328d46f0a172691f2fff871ba28a067ff7639a278b9b8c",
    "russian-easy.json": "ad58a2513b7f68c6b2a6387a052f38b4ba0eaff7f98ccd8b0095da10482c9bd3",
    "russian-normal.json": "5abd011b0b8fdb10bfe41ae33efc9692518eda06a5f6eba51f546f722c362622",
    "russian-hard.json": "9856b55be50a4c5f80baa475cd0349c96520bdc7b60ba91b8437448cac11d597",
}

# SHA-256 of the lines "YYYY-MM-DD:deal" of every generation 1 file, for every day of 2026 and
# for 2027-01-01..2029-12-31 (the keyed epoch's first 1,000-day cycle and more) under the
# schedule shipped before generation 2, computed from the files of commit 39cf49e: a
# rescoring or an extension of a file may change none of these days.
SERVED_WINDOWS = ((date(2026, 1, 1), date(2026, 12, 31)), (KEYED_START, date(2029, 12, 31)))
SERVED_AS_SHIPPED = {
    "milligan-easy.json": (
        "adafa4a5ed4efc1afa4c7f7aba2328b903686ee5c9508fcfcc56effa72fbe79d",
        "c4a8dbe5578e62881859dad1255218dfe0c6d0960b0f52709feaad516a8a41ec",
    ),
    "milligan-hard.json": (
        "042a0abc46754654c7f486e7557cd62d339a5c504095dc6e1d319efdaae18e16",
        "7db27189073ea71cee3993bd38aca7d4f425e62d2e9c024c6ebba25d6378df38",
    ),
    "milligan-normal.json": (
        "258d02c88b94f1acd2a22afa22c382b692d97177814957b159f94b7bbf556914",
        "5fc34314cd88a0cc7f70ca4e8871f4937496d24235791de7bdebb890dc579ddc",
    ),
    "milligan-return-easy.json": (
        "adafa4a5ed4efc1afa4c7f7aba2328b903686ee5c9508fcfcc56effa72fbe79d",
        "459fd401d9932342a2d90b35d10ec98976121ba5472f4996be6ab6e0daf48db5",
    ),
    "milligan-return-hard.json": (
        "042a0abc46754654c7f486e7557cd62d339a5c504095dc6e1d319efdaae18e16",
        "cc1ce5bee44e30a3cec1a8efb992e3d17d1e3294433b2699006eee8bba17cb32",
    ),
    "milligan-return-normal.json": (
        "258d02c88b94f1acd2a22afa22c382b692d97177814957b159f94b7bbf556914",
        "a5aaccc9397fcf236cb5076bc6ca8a2757749a4cc3df449eabfd2b4b87e3bb80",
    ),
    "russian-easy.json": (
        "ad58a2513b7f68c6b2a6387a052f38b4ba0eaff7f98ccd8b0095da10482c9bd3",
        "8c334c4c72d66ce4d3abd7dc02dba6dfa864b29aec48a920ad7610e938b18f22",
    ),
    "russian-hard.json": (
        "9856b55be50a4c5f80baa475cd0349c96520bdc7b60ba91b8437448cac11d597",
        "f3e51645bd68ed55bfd47eca2479595fd222aa7bf477591f6d8217b78a82af22",
    ),
    "russian-normal.json": (
        "5abd011b0b8fdb10bfe41ae33efc9692518eda06a5f6eba51f546f722c362622",
        "3f813dc55a7e9cf42d592ac0478d3f5c3b715417e6131b6f9522384e76415027",
    ),
    "russian-return-easy.json": (
        "ad58a2513b7f68c6b2a6387a052f38b4ba0eaff7f98ccd8b0095da10482c9bd3",
        "d1539463a2785930cbe919945cbc14b7b86f576377ed7e00b8d2575073403bb3",
    ),
    "russian-return-hard.json": (
        "9dc11d9a836d141f38f1a997434a5e1842f2c6d283ec7e34f46650c3c5fd1ae2",
        "1f8c0da7b8031cdee921c63eae11926932b78553f47af2935b245514f07881f9",
    ),
    "russian-return-normal.json": (
        "4e7a643b6a33be40fb4bb3784d9aeb4703ca31d998607c5a1a70ff769567fd49",
        "0f4fb3b3c5187882d32e905d3fedc922e88d8fca01dd395f0be9950259747e50",
    ),
    "yukon-easy.json": (
        "552e22c3a2f63293df52945b812dbcd2eb2d8b60d7950c558d337524a23ca260",
        "17a4f1661c7f8d51fcec59f69c70536c18eaa2884545c95164c1a54f91ceab84",
    ),
    "yukon-hard.json": (
        "c3cb81ee9c57687a77328d46f0a172691f2fff871ba28a067ff7639a278b9b8c",
        "c814ed6a32a4e5b3a7a1a42d918a439234e2fd04f2a91d628d6586b411d41cde",
    ),
    "yukon-kpat-easy.json": (
        "04d396a972634af827dfd6b6d27f5c7bfd35d0601a0f7964633fb13e8d4f7639",
        "58de6f289a327b692e8c5851529434c0d5d23a78e9d5832daf02b25e0a4b9daf",
    ),
    "yukon-kpat-hard.json": (
        "b44c12b0f1a4813409a703b8774598cfe56bdec2782f8993cab0e22a7d45e35c",
        "ea990bc67a2314352e29164cfa3c36b7260950cd8ce249a55794280d58d82da1",
    ),
    "yukon-kpat-normal.json": (
        "06118d2d348fbdd1f1626c54ee5ccad9b8cb16329097f6dc4581656fdc3f2a13",
        "22d23dbe1e9c1e073f2c9611e5b872fd6f4d1d3dcd5bebcf20b362842b4f56ee",
    ),
    "yukon-normal.json": (
        "b4e73a9b74651b7f17713fbed084839ec7c6d30d1807474e96124089089db5e6",
        "5835de4f00519967c0346508fcff5ef80a9a7d2f175adfcc9ef1aa5c1b82566a",
    ),
    "yukon-return-easy.json": (
        "e4d8f58c48bef590d5cc0d8f938914cb81021fd722aa6636b172e205c599347a",
        "c495bf208b86ac9e166f444c7aaa520a8008d630347809eb79f42d635121123d",
    ),
    "yukon-return-hard.json": (
        "fa2cd438be3e1db2ce35fb9df690ab01de26c7954a143344e8fa373acfd38999",
        "8c2421a89189935bfa379ae7cf58eae85233ae7fedbb2e6895d7b7a65133c4e2",
    ),
    "yukon-return-normal.json": (
        "c4ced6c23a4b45144b6be9adab771d23ca406b0380cbb90d76dc8eb8af7873a2",
        "021b08814769a7559d52dac590c53ecde8cb017b9382a6c2c3f3593f4aa56835",
    ),
}


def days(first: date, count: int) -> list[date]:
    return [first + timedelta(days=offset) for offset in range(count)]


def listing(sinces: list[date], name: str = "yukon-easy.json") -> Listing:
    return Listing(name, "yukon", "easy", sinces, [1000 + index for index in range(len(sinces))])


def test_fnv1a32_known_values():
    assert fnv1a32("") == 0x811C9DC5
    assert fnv1a32("a") == 0xE40C292C
    assert fnv1a32("foobar") == 0xBF9CF968


@pytest.mark.parametrize("size", [1, 2, 6, 7, 12, 30, 97, 1000])
def test_affine_map_steps_are_coprime(size):
    for cycle in range(20):
        step, shift = affine_map(f"yukon/easy/{cycle}", size)
        assert sorted((step * i + shift) % size for i in range(size)) == list(range(size))


@BOTH_METHODS
@pytest.mark.parametrize("size", [1, 5, 12, 40])
def test_every_cycle_uses_each_entry_once(size, schedule):
    sinces = [EPOCH] * size
    for cycle in range(4):
        cycle_days = days(EPOCH + timedelta(days=cycle * size), size)
        picks = [pick(listing(sinces), day, schedule) for day in cycle_days]
        assert sorted(chosen.index for chosen in picks) == list(range(size))
        assert {chosen.cycle for chosen in picks} == {cycle}


@BOTH_METHODS
def test_an_extension_changes_no_date_up_to_the_end_of_the_running_cycle(schedule):
    today = date(2026, 3, 17)
    before = [EPOCH] * 10
    after = before + [today + timedelta(days=1)] * 6
    running = pick(listing(before), today, schedule)
    cycle_end = today + timedelta(days=running.pool_size - running.day - 1)
    for day in days(EPOCH, (cycle_end - EPOCH).days + 1):
        assert pick(listing(after), day, schedule) == pick(listing(before), day, schedule)
    next_cycle = [
        pick(listing(after), day, schedule).index for day in days(cycle_end + timedelta(days=1), 16)
    ]
    assert sorted(next_cycle) == list(range(16))


@BOTH_METHODS
def test_new_entries_wait_for_the_next_cycle_when_the_extension_joins_mid_cycle(schedule):
    sinces = listing([EPOCH] * 4 + [EPOCH + timedelta(days=2)])
    first_cycle = [pick(sinces, day, schedule).index for day in days(EPOCH, 4)]
    assert sorted(first_cycle) == [0, 1, 2, 3]
    second_cycle = [pick(sinces, day, schedule).index for day in days(EPOCH + timedelta(days=4), 5)]
    assert sorted(second_cycle) == [0, 1, 2, 3, 4]


def test_no_deal_before_the_schedule_starts():
    with pytest.raises(YukonError, match="starts on 2026-01-01"):
        pick(listing([EPOCH]), date(2025, 12, 31), SCHEDULE)


def release_1_pick(sinces: list[date], variant: str, tier: str, day: date) -> int:
    """Release 0.1.0's schedule as its README stated it, one cycle at a time (the oracle):
    the entry index of ``day``."""
    start, cycle = max(EPOCH, min(sinces)), 0
    while True:
        pool = [index for index, since in enumerate(sinces) if since <= start]
        if (day - start).days < len(pool):
            break
        start, cycle = start + timedelta(days=len(pool)), cycle + 1
    value, size = fnv1a32(f"{variant}/{tier}/{cycle}"), len(pool)
    step = 1 + (value // size) % size
    while gcd(step, size) != 1:
        step += 1
    return pool[(step * (day - start).days + value % size) % size]


def shipped_catalogues() -> list[tuple[str, dict]]:
    """(file name, catalogue) of every generation 1 file the shipped manifest lists (the
    files the schedule serves up to 2026-12-31)."""
    folder = shipped_directory()
    return [
        (record["file"], read_catalogue(folder / record["file"]))
        for record in read_manifest(folder)["files"]
        if record.get("generation", 1) == 1
    ]


def test_every_day_up_to_2026_12_31_keeps_its_release_1_deal_in_every_shipped_file():
    schedule = read_schedule(read_manifest(shipped_directory()), "manifest.json")
    for name, catalogue in shipped_catalogues():
        files_listing = listing_of(catalogue, name)
        first = max(EPOCH, min(files_listing.sinces))
        for day in days(first, (LAST_AFFINE_DAY - first).days + 1):
            expected = release_1_pick(files_listing.sinces, catalogue["variant"], catalogue["tier"], day)
            assert pick(files_listing, day, schedule).index == expected, (name, day)


@pytest.mark.parametrize("name", sorted(SERVED_2026))
def test_the_deals_served_in_2026_are_those_release_1_shipped(name):
    catalogue = read_catalogue(shipped_directory() / name)
    schedule = read_schedule(read_manifest(shipped_directory()), "manifest.json")
    files_listing = listing_of(catalogue, name)
    served = "".join(
        f"{day}:{files_listing.deals[pick(files_listing, day, schedule).index]}\n" for day in days(EPOCH, 365)
    )
    assert hashlib.sha256(served.encode()).hexdigest() == SERVED_2026[name]


def served_digest(name: str, first: date, last: date) -> str:
    """SHA-256 of the lines "YYYY-MM-DD:deal" the shipped file ``name`` serves from ``first`` to
    ``last`` under the schedule shipped before generation 2."""
    folder = shipped_directory()
    files_listing = listing_of(read_catalogue(folder / name), name)
    lines = (
        f"{day}:{files_listing.deals[pick(files_listing, day, KEYED_SCHEDULE).index]}\n"
        for day in days(first, (last - first).days + 1)
    )
    return hashlib.sha256("".join(lines).encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(SERVED_AS_SHIPPED))
def test_no_shipped_day_of_2026_or_of_the_keyed_epoch_changes(name):
    assert tuple(served_digest(name, *window) for window in SERVED_WINDOWS) == SERVED_AS_SHIPPED[name]


def test_every_shipped_file_is_pinned():
    assert sorted(SERVED_AS_SHIPPED) == sorted(name for name, _catalogue in shipped_catalogues())


def test_the_keyed_order_starts_a_new_cycle_on_2027_01_01_and_looks_random():
    name, catalogue = "yukon-hard.json", read_catalogue(shipped_directory() / "yukon-hard.json")
    files_listing, size = listing_of(catalogue, name), len(catalogue["entries"])
    first_cycle = [pick(files_listing, day, KEYED_SCHEDULE) for day in days(KEYED_START, 3)]
    assert [(chosen.epoch, chosen.cycle, chosen.day) for chosen in first_cycle] == [
        (KEYED_START, 0, day) for day in range(3)
    ]
    keyed = keyed_order(files_listing, KEYED_SCHEDULE[1], 0, list(range(size)))
    assert [chosen.index for chosen in first_cycle] == keyed[:3] and sorted(keyed) == list(range(size))
    # The affine order moves by one fixed step a day; the keyed one by hundreds of different steps.
    affine = affine_order(files_listing, AFFINE_ONLY[0], 0, list(range(size)))
    assert len({(later - earlier) % size for earlier, later in zip(affine, affine[1:])}) == 1
    assert len({(later - earlier) % size for earlier, later in zip(keyed, keyed[1:])}) > size // 2


def test_the_keyed_order_differs_between_files_of_one_variant_and_tier():
    sinces = [EPOCH] * 50
    first = [pick(listing(sinces, "yukon-easy.json"), day, KEYED_ONLY).index for day in days(EPOCH, 50)]
    other = [
        pick(listing(sinces, "yukon-return-easy.json"), day, KEYED_ONLY).index for day in days(EPOCH, 50)
    ]
    assert sorted(first) == sorted(other) and first != other


def test_a_file_whose_entries_join_in_2027_starts_on_its_first_since_in_the_keyed_order():
    start = date(2027, 3, 1)
    later = listing([start] * 5)
    with pytest.raises(YukonError, match="starts on 2027-03-01"):
        pick(later, start - timedelta(days=1), KEYED_SCHEDULE)
    chosen = pick(later, start, KEYED_SCHEDULE)
    assert (chosen.epoch, chosen.cycle, chosen.day) == (KEYED_START, 0, 0)


def manifest_with(schedule) -> dict:
    return {"format": "yukon-catalogue-manifest", "format_version": 2, "files": [], "schedule": schedule}


@pytest.mark.parametrize(
    ("schedule", "message"),
    [
        (None, "no 'schedule' list"),
        ([], "no 'schedule' list"),
        (["2027-01-01"], "epoch 1 is not a JSON object"),
        ([{"start": "2027-01-01", "method": "shuffle", "key": ""}], "epoch 1 has method 'shuffle'"),
        ([{"start": "2027-01-01", "method": AFFINE}], "epoch 1 has no text 'key'"),
        ([{"start": "2027-13-01", "method": AFFINE, "key": ""}], "epoch 1 has a bad 'start'"),
        (schedule_json()[::-1], "epoch 2 does not start after epoch 1"),
        (
            [{"start": "2027-01-01", "method": SPACED, "key": "", "generation": 0}],
            "epoch 1 has a bad 'generation'",
        ),
        (
            [{"start": "2027-01-01", "method": SPACED, "key": "", "generation": "2"}],
            "epoch 1 has a bad 'generation'",
        ),
    ],
)
def test_a_malformed_schedule_is_refused_in_one_line(schedule, message):
    with pytest.raises(YukonError, match=message) as error:
        read_schedule(manifest_with(schedule), "manifest.json")
    assert "\n" not in str(error.value) and str(error.value).startswith("manifest.json: ")


def test_a_version_1_manifest_keeps_the_affine_order_forever():
    manifest = {"format": "yukon-catalogue-manifest", "format_version": 1, "files": []}
    assert read_schedule(manifest, "manifest.json") == AFFINE_ONLY


def test_a_new_folder_gets_the_current_schedule_and_the_shipped_one_has_it(tmp_path):
    catalogue = read_catalogue(shipped_directory() / "yukon-easy.json")
    save_catalogue(tmp_path, catalogue | {"entries": catalogue["entries"][:3]})
    for folder in (tmp_path, shipped_directory()):
        assert read_schedule(read_manifest(folder), "manifest.json") == SCHEDULE


def readme_section(title: str) -> str:
    """The text of the README's section ``### title`` up to the next heading."""
    return README.read_text().split(f"### {title}\n", 1)[1].split("\n#", 1)[0]


def shipped_vectors() -> list[tuple[str, str, str, int, int]]:
    """Rows ``| 2026-12-01 | yukon | easy | 3 | 12 |`` of the README's shipped-file vectors."""
    rows = re.findall(
        r"^\| (\d{4}-\d\d-\d\d) \| (\w+) \| (\w+) \| (\d+) \| (\d+) \|$",
        readme_section("Test vectors: the shipped files"),
        re.M,
    )
    return [(day, variant, tier, int(index), int(deal)) for day, variant, tier, index, deal in rows]


def test_the_readme_vectors_hold_on_the_generation_1_files_under_the_keyed_schedule():
    vectors = shipped_vectors()
    assert len(vectors) >= 30
    for day, variant, tier, index, deal in vectors:
        name = f"{variant}-{tier}.json"
        files_listing = listing_of(read_catalogue(shipped_directory() / name), name)
        chosen = pick(files_listing, date.fromisoformat(day), KEYED_SCHEDULE)
        assert (chosen.index, files_listing.deals[chosen.index]) == (index, deal), (day, variant, tier)


def spaced_vectors() -> list[tuple[str, str, str, str, int, int]]:
    """Rows ``| 2027-01-01 | yukon | easy | yukon-easy-g2.json | 3 | 12 |`` of the README's
    vectors of the shipped schedule."""
    rows = re.findall(
        r"^\| (\d{4}-\d\d-\d\d) \| (\w+) \| (\w+) \| ([\w.-]+) \| (\d+) \| (\d+) \|$",
        readme_section("Test vectors: the shipped schedule"),
        re.M,
    )
    return [
        (day, variant, tier, name, int(index), int(deal)) for day, variant, tier, name, index, deal in rows
    ]


def test_the_readme_vectors_of_the_shipped_schedule_hold():
    vectors = spaced_vectors()
    assert len(vectors) >= 24
    for day, variant, tier, name, index, deal in vectors:
        entry, chosen = daily_in(shipped_directory(), variant, tier, date.fromisoformat(day))
        assert (chosen.file, chosen.index, entry["deal"]) == (name, index, deal), (day, variant, tier)


def readme_demo() -> tuple[dict, list[tuple[str, int, int, int, int]]]:
    """The README's small catalogue (a JSON block) and its vectors: (date, entry, deal, cycle, day)."""
    text = readme_section("Test vectors: cycles, epochs and late entries")
    demo = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    rows = re.findall(r"^\| (\d{4}-\d\d-\d\d) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", text, re.M)
    return demo, [(day, *map(int, numbers)) for day, *numbers in rows]


def test_the_readme_vectors_across_cycles_epochs_and_late_entries():
    demo, vectors = readme_demo()
    demo_listing = listing_of(demo, demo["file"])
    assert len(vectors) >= 20 and len({cycle for *_, cycle, _ in vectors}) >= 3
    for day, index, deal, cycle, day_in_cycle in vectors:
        chosen = pick(demo_listing, date.fromisoformat(day), KEYED_SCHEDULE)
        assert (chosen.index, demo["entries"][chosen.index]["deal"], chosen.cycle, chosen.day) == (
            index,
            deal,
            cycle,
            day_in_cycle,
        ), day


def stepwise_pick(sinces: list[date], start: date, day: date) -> tuple[int, int, int]:
    """The README's algorithm one cycle at a time from ``start`` (the oracle): (pool size, cycle, day)."""
    start, cycle = max(start, min(sinces)), 0
    while True:
        size = sum(since <= start for since in sinces)
        if (day - start).days < size:
            return size, cycle, (day - start).days
        start, cycle = start + timedelta(days=size), cycle + 1


@given(
    joins=st.lists(st.integers(-5, 400), min_size=1, max_size=8),
    offset=st.integers(0, 600),
)
@settings(max_examples=200, deadline=None)
def test_skipping_cycles_picks_what_going_cycle_by_cycle_picks(joins, offset):
    sinces = [EPOCH + timedelta(days=join) for join in joins]
    day = max(EPOCH, min(sinces)) + timedelta(days=offset)
    chosen = pick(listing(sinces), day, KEYED_SCHEDULE)
    epoch_start = EPOCH if day < KEYED_START else KEYED_START
    assert chosen.epoch == epoch_start
    assert (chosen.pool_size, chosen.cycle, chosen.day) == stepwise_pick(sinces, epoch_start, day)
    assert sinces[chosen.index] <= day


def test_entries_joining_in_the_far_future_are_reached_at_once():
    join = date(9999, 11, 30)
    sinces = [EPOCH] + [join] * 999
    # One-day cycles of the first entry from the keyed epoch's start to the join, then cycles of all 1,000.
    one_day_cycles = (join - KEYED_START).days
    assert pick(listing(sinces), join - timedelta(days=1), KEYED_SCHEDULE).cycle == one_day_cycles - 1
    last = pick(listing(sinces), date(9999, 12, 31), KEYED_SCHEDULE)
    assert (last.cycle, last.day, last.pool_size) == (one_day_cycles, 31, 1000)


def test_yukon_daily_refuses_a_manifest_with_a_bad_schedule_in_one_line(tmp_path):
    catalogue = read_catalogue(shipped_directory() / "yukon-easy.json")
    save_catalogue(tmp_path, catalogue | {"entries": catalogue["entries"][:3]})
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["schedule"][1]["method"] = "feistel"
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    result = run("daily", "--dir", str(tmp_path), "--date", "2026-06-01")
    assert_bad_input(result)
    assert "schedule epoch 2 has method 'feistel'" in result.stderr


def test_yukon_daily_names_the_epoch_of_the_cycle():
    result = run("daily", "--date", "2027-01-02", "--variant", "russian", "--tier", "hard")
    assert result.exit_code == 0
    assert re.search(r"cycle 0 from 2027-01-01, day 2 of \d+\)$", result.stdout.splitlines()[0])


def gaps(served_days) -> list[int]:
    """Days between two servings of one deal, for every serving after a deal's first."""
    last, found = {}, []
    for day, chosen, served_listing in served_days:
        deal = served_listing.deals[chosen.index]
        if deal in last:
            found.append((day - last[deal]).days)
        last[deal] = day
    return found


def shipped_listings(
    variant: str, tier: str, foundation_return: bool = False, numbering: str = "pysol"
) -> dict:
    """The shipped files of a rule set's tier, by generation, as the schedule reads them."""
    manifest = read_manifest(shipped_directory())
    return {
        record.get("generation", 1): listing_of(
            read_catalogue(shipped_directory() / record["file"]), record["file"]
        )
        for record in manifest["files"]
        if (rule_set_of(record), record["tier"]) == ((variant, foundation_return, numbering), tier)
    }


SHIPPED_TIERS = sorted(
    {(*rule_set_of(record), record["tier"]) for record in read_manifest(shipped_directory())["files"]}
)


@pytest.mark.parametrize(("variant", "foundation_return", "numbering", "tier"), SHIPPED_TIERS)
def test_no_tier_serves_a_deal_twice_within_365_days_from_2026_to_2033(
    variant, foundation_return, numbering, tier
):
    listings = shipped_listings(variant, tier, foundation_return, numbering)
    first_listing = listings[1]
    served_days = list(served(listings, SCHEDULE, EPOCH, date(2033, 12, 31)))
    assert len(served_days) == (date(2033, 12, 31) - max(EPOCH, min(first_listing.sinces))).days + 1
    assert min(gaps(served_days)) >= GAP > 365
    # The first epoch is release 0.1.0's order, unchanged; the second serves the newest file.
    newest = listings[max(listings)].name
    for day, chosen, served_listing in served_days[::7]:
        if day <= LAST_AFFINE_DAY:
            assert chosen.index == release_1_pick(first_listing.sinces, variant, tier, day)
            assert served_listing is first_listing
        else:
            assert served_listing.name == newest


def test_yukon_normal_3509_no_longer_comes_back_on_2027_01_01():
    listings = shipped_listings("yukon", "normal")
    served_days = {
        day: chosen for day, chosen, _ in served(listings, SCHEDULE, date(2026, 12, 6), date(2027, 12, 5))
    }
    deals = [
        listing_for(listings, 2 if day >= KEYED_START else 1).deals[chosen.index]
        for day, chosen in served_days.items()
    ]
    assert deals[0] == 3509 and 3509 not in deals[1:]


@given(
    size=st.integers(GAP, GAP + 40),
    late=st.integers(0, 30),
    joins=st.integers(0, 800),
)
@settings(max_examples=15, deadline=None)
def test_the_spaced_order_keeps_366_days_between_servings_with_late_entries(size, late, joins):
    sinces = [EPOCH] * size + [EPOCH + timedelta(days=joins)] * late
    spaced = (Epoch(EPOCH, SPACED, "test"),)
    served_days = list(served(listing(sinces), spaced, EPOCH, EPOCH + timedelta(days=4 * GAP)))
    assert min(gaps(served_days)) >= GAP
    per_cycle = {}
    for _day, chosen, _ in served_days:
        per_cycle.setdefault(chosen.cycle, []).append(chosen.index)
    for cycle, indices in list(per_cycle.items())[:-1]:
        assert sorted(indices) == sorted(set(indices)) and len(indices) == served_days_pool(
            served_days, cycle
        )


def served_days_pool(served_days, cycle: int) -> int:
    return next(chosen.pool_size for _day, chosen, _ in served_days if chosen.cycle == cycle)


def test_a_spaced_pool_smaller_than_the_gap_serves_the_deal_served_longest_ago():
    spaced = (Epoch(EPOCH, SPACED, "test"),)
    served_days = list(served(listing([EPOCH] * 5), spaced, EPOCH, EPOCH + timedelta(days=24)))
    assert gaps(served_days) == [5] * 20


def test_yukon_daily_prints_the_solution_only_when_asked():
    asked = ["daily", "--date", "2027-02-03", "--variant", "yukon", "--tier", "hard"]
    plain, shown, as_json = run(*asked), run(*asked, "--solution"), run(*asked, "--json")
    entry = json.loads(as_json.stdout)
    assert plain.exit_code == shown.exit_code == as_json.exit_code == 0
    assert entry["solution"] not in plain.stdout and f"solvable in {entry['length']} moves" in plain.stdout
    assert f"solution ({entry['length']} moves): {entry['solution']}" in shown.stdout
    assert entry["file"] == "yukon-hard-g2.json" and f"of {entry['file']}," in plain.stdout


def test_an_epoch_states_its_generation_only_past_the_first():
    assert schedule_json()[0] == {"start": "2026-01-01", "method": AFFINE, "key": ""}
    assert schedule_json()[1]["generation"] == 2
    assert read_schedule(manifest_with(schedule_json()), "manifest.json") == SCHEDULE
