"""Transposition table: open addressing with linear probing over three numpy arrays.

``first_keys``/``second_keys`` hold a position's two 64-bit keys (first key 0 = empty slot),
``depths`` the smallest depth at which the position was expanded (used by IDA*; plain DFS
treats any entry as "seen"). ``counters[0]`` counts entries. Entries are never evicted:
when the table is full (``counters[1]`` entries, set by the driver) an insert is refused,
which can cost time (a position may be searched again) but never a verdict.
"""

import numpy as np

from solver.engine.jit import kernel

ENTRY_BYTES = 8 + 8 + 2
SEEN, INSERTED, REFUSED, IMPROVED = 0, 1, 2, 3


def make_table(capacity: int):
    """A table of ``capacity`` (a power of two) slots."""
    return (
        np.zeros(capacity, dtype=np.uint64),
        np.zeros(capacity, dtype=np.uint64),
        np.zeros(capacity, dtype=np.int16),
        np.array([0, int(capacity * 0.9)], dtype=np.int64),
    )


@kernel
def probe(first_keys, second_keys, depths, counters, first, second, depth):
    """Record that the position was reached at ``depth``.

    SEEN: already expanded at a depth <= ``depth`` (skip it). IMPROVED: seen deeper, now
    recorded at ``depth`` (expand it again). INSERTED: new. REFUSED: new but the table is
    full (expand it, unrecorded)."""
    if first == 0:
        first = np.uint64(1)
    mask = first_keys.shape[0] - 1
    slot = first & mask
    while first_keys[slot] != 0:
        if first_keys[slot] == first and second_keys[slot] == second:
            if depths[slot] <= depth:
                return SEEN
            depths[slot] = depth
            return IMPROVED
        slot = (slot + 1) & mask
    if counters[0] >= counters[1]:
        return REFUSED
    first_keys[slot] = first
    second_keys[slot] = second
    depths[slot] = depth
    counters[0] += 1
    return INSERTED


@kernel
def rehash(first_keys, second_keys, depths, new_first, new_second, new_depths, new_counters):
    """Copy every entry into a (larger) empty table."""
    mask = new_first.shape[0] - 1
    for i in range(first_keys.shape[0]):
        first = first_keys[i]
        if first == 0:
            continue
        slot = first & mask
        while new_first[slot] != 0:
            slot = (slot + 1) & mask
        new_first[slot] = first
        new_second[slot] = second_keys[i]
        new_depths[slot] = depths[i]
        new_counters[0] += 1
