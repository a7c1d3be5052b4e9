"""The ration of the path's tests over triples (``search.config.PathRation``)."""

from dataclasses import replace

from solver.search.config import DEFAULT

RATION = DEFAULT.path_ration()
SPACING, CREDIT, TRIAL = RATION


def first_due(tests: int, dead: int) -> int:
    """The fewest positions of the solve at which one more test is due (searched in spacing
    steps, then narrowed to the position)."""
    high = SPACING
    while not RATION.due(tests, dead, high):
        high *= 2
    low = 0
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if RATION.due(tests, dead, middle) else (middle + 1, high)
    return low


def test_the_trial_tests_come_one_a_spacing():
    """While no test proved a position dead, the first ``path_triples_trial`` tests come one per
    ``path_triples_spacing`` positions (the first at once)."""
    assert [first_due(tests, 0) for tests in range(TRIAL)] == [tests * SPACING for tests in range(TRIAL)]


def test_after_a_fruitless_trial_the_spacing_doubles():
    """After the trial with nothing found, the gap before each further test doubles."""
    dues = [first_due(tests, 0) for tests in range(TRIAL - 1, TRIAL + 6)]
    gaps = [later - earlier for earlier, later in zip(dues, dues[1:])]
    assert gaps == [SPACING * 2**step for step in range(1, 7)], gaps


def test_a_dead_find_brings_back_the_spacing_and_its_credit():
    """Once a test proved a position dead, tests are due one per spacing again, plus
    ``path_triples_credit`` for each such test, whatever their count."""
    tests = TRIAL + 5
    for dead in (1, 2):
        plain = (tests - CREDIT * dead) * SPACING
        assert RATION.due(tests, dead, plain)
        assert not RATION.due(tests, dead, plain - 1)


def test_an_endless_trial_never_backs_off():
    """With the trial set beyond reach (as the tests that test every position do), the ration is
    one test per spacing however many found nothing."""
    endless = replace(DEFAULT, path_triples_trial=1 << 62).path_ration()
    assert endless.due(1_000, 0, 1_000 * SPACING)
    assert not endless.due(1_000, 0, 1_000 * SPACING - 1)
