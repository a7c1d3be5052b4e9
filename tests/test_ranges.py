"""Deal ranges: forms, merging, validation against the numbering's last deal."""

import pytest

from solver.errors import YukonError
from solver.game.numbering import MAX_DEAL
from solver.game.ranges import DealRange, parse_range


@pytest.mark.parametrize(
    ("text", "deals"),
    [
        ("12", [12]),
        ("1-5", [1, 2, 3, 4, 5]),
        ("7-7", [7]),
        ("1,5,9-12", [1, 5, 9, 10, 11, 12]),
        (" 3 , 1 - 2 ", [1, 2, 3]),
        ("9-12,1,5,10-11,5", [1, 5, 9, 10, 11, 12]),
        ("1-3,4-6", [1, 2, 3, 4, 5, 6]),
    ],
)
def test_forms_give_sorted_unique_deals(text, deals):
    assert list(parse_range(text)) == deals
    assert parse_range(text).count == len(deals)


def test_overlapping_and_adjacent_parts_merge():
    assert parse_range("1-3,4-6,10,8-11").intervals == ((1, 6), (8, 11))
    assert str(parse_range("1-3,4-6,10,8-11")) == "1-6,8-11"


def test_huge_ranges_stay_lazy():
    last = MAX_DEAL["pysol"]
    deals = parse_range(f"1-{last}")
    assert deals.count == last
    assert (deals.first, deals.last) == (1, last)
    assert last in deals and 0 not in deals and last + 1 not in deals
    iterator = iter(deals)
    assert [next(iterator) for _ in range(3)] == [1, 2, 3]


def test_membership():
    deals = parse_range("1-3,10-20,40")
    assert all(deal in deals for deal in (1, 3, 10, 15, 20, 40))
    assert not any(deal in deals for deal in (0, 4, 9, 21, 39, 41))
    assert 5 not in DealRange(())


@pytest.mark.parametrize(
    ("text", "numbering", "part"),
    [
        ("5-1", "pysol", "'5-1'"),
        ("abc", "pysol", "'abc'"),
        ("0", "pysol", "'0'"),
        ("0-4", "pysol", "'0-4'"),
        ("1,,3", "pysol", "''"),
        ("-5", "pysol", "'-5'"),
        ("4-", "pysol", "'4-'"),
        ("1.5", "pysol", "'1.5'"),
        ("1-3,x7", "pysol", "'x7'"),
        (str(MAX_DEAL["pysol"] + 1), "pysol", str(MAX_DEAL["pysol"] + 1)),
        (f"1-{MAX_DEAL['kpat'] + 1}", "kpat", f"'1-{MAX_DEAL['kpat'] + 1}'"),
    ],
)
def test_bad_parts_are_named_in_one_line(text, numbering, part):
    with pytest.raises(YukonError) as error:
        parse_range(text, numbering)
    message = str(error.value)
    assert part in message
    assert "\n" not in message


def test_reversed_range_suggests_the_fix():
    with pytest.raises(YukonError, match="5 is above 1"):
        parse_range("5-1")


def test_beyond_the_numbering_names_its_last_deal():
    with pytest.raises(YukonError, match=f"beyond the last kpat deal {MAX_DEAL['kpat']}"):
        parse_range(str(MAX_DEAL["kpat"] + 1), "kpat")
    assert list(parse_range(str(MAX_DEAL["kpat"]), "kpat")) == [MAX_DEAL["kpat"]]


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_range(text):
    with pytest.raises(YukonError, match="empty deal range"):
        parse_range(text)


def test_unknown_numbering():
    with pytest.raises(YukonError, match="unknown numbering"):
        parse_range("1-3", "freecell")
