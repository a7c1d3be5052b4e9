"""The ration of the path's tests over triples (``solver.search.path_ration``)."""

from solver.search import path_ration
from solver.search.path_ration import (
    PATH_TRIPLES_CREDIT,
    PATH_TRIPLES_SPACING,
    PATH_TRIPLES_TRIAL,
    path_test_due,
)


def first_due(tests: int, dead: int) -> int:
    """The fewest positions of the solve at which one more test is due (searched in spacing
    steps, then narrowed to the position)."""
    high = PATH_TRIPLES_SPACING
    while not path_test_due(tests, dead, high):
        high *= 2
    low = 0
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if path_test_due(tests, dead, middle) else (middle + 1, high)
    return low


def test_the_trial_tests_come_one_a_spacing():
    """While no test proved a position dead, the first PATH_TRIPLES_TRIAL tests come one per
    PATH_TRIPLES_SPACING positions (the first at once)."""
    assert [first_due(tests, 0) for tests in range(PATH_TRIPLES_TRIAL)] == [
        tests * PATH_TRIPLES_SPACING for tests in range(PATH_TRIPLES_TRIAL)
    ]


def test_after_a_fruitless_trial_the_spacing_doubles():
    """After the trial with nothing found, the gap before each further test doubles."""
    dues = [first_due(tests, 0) for tests in range(PATH_TRIPLES_TRIAL - 1, PATH_TRIPLES_TRIAL + 6)]
    gaps = [later - earlier for earlier, later in zip(dues, dues[1:])]
    assert gaps == [PATH_TRIPLES_SPACING * 2**step for step in range(1, 7)], gaps


def test_a_dead_find_brings_back_the_spacing_and_its_credit():
    """Once a test proved a position dead, tests are due one per spacing again, plus
    PATH_TRIPLES_CREDIT for each such test, whatever their count."""
    tests = PATH_TRIPLES_TRIAL + 5
    for dead in (1, 2):
        plain = (tests - PATH_TRIPLES_CREDIT * dead) * PATH_TRIPLES_SPACING
        assert path_test_due(tests, dead, plain)
        assert not path_test_due(tests, dead, plain - 1)


def test_an_endless_trial_never_backs_off(monkeypatch):
    """With the trial set beyond reach (as the tests that test every position do), the ration is
    one test per spacing however many found nothing."""
    monkeypatch.setattr(path_ration, "PATH_TRIPLES_TRIAL", 1 << 62)
    assert path_test_due(1_000, 0, 1_000 * PATH_TRIPLES_SPACING)
    assert not path_test_due(1_000, 0, 1_000 * PATH_TRIPLES_SPACING - 1)
