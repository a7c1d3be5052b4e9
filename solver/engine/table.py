"""Transposition table: open addressing with linear probing over one numpy array.

A table is the pair ``(entries, counters)``: ``table[TABLE_ENTRIES]``, ``table[TABLE_COUNTERS]``.
Entry ``i`` is ``entries[i, 0]``, the position's first 64-bit key (0 = empty slot), and
``entries[i, 1]``, its second key with the low 16 bits replaced by the smallest depth at
which the position was expanded (used by IDA*; plain DFS treats any entry as "seen"). Two
positions are taken as equal when the first key and the upper 48 bits of the second agree: a
112-bit identity. One entry is one 16-byte pair, so a look-up touches one cache line.
``counters[ENTRY_COUNT]`` counts entries; entries are never evicted: once
``counters[ENTRY_LIMIT]`` entries are in (90% of the slots), an insert is refused, which can
cost time (a position may be searched again) but never a verdict.
"""

import numpy as np

from solver.engine.jit import kernel

ENTRY_BYTES = 16
TABLE_ENTRIES, TABLE_COUNTERS = 0, 1
ENTRY_COUNT, ENTRY_LIMIT = 0, 1
SEEN, INSERTED, REFUSED, IMPROVED = 0, 1, 2, 3
DEPTH_BITS = np.uint64(0xFFFF)
IDENTITY_BITS = ~DEPTH_BITS


def make_table(capacity: int):
    """A table of ``capacity`` (a power of two) empty slots, taking up to 90% of them."""
    table = [None] * 2
    table[TABLE_ENTRIES] = np.zeros((capacity, 2), dtype=np.uint64)
    table[TABLE_COUNTERS] = np.zeros(2, dtype=np.int64)
    table[TABLE_COUNTERS][ENTRY_LIMIT] = int(capacity * 0.9)
    return tuple(table)


def make_table_if_possible(capacity: int):
    """``make_table(capacity)``, or None where the process can get no more memory."""
    try:
        return make_table(capacity)
    except MemoryError:
        return None


@kernel
def record_visit(entries, counters, first, second, depth):
    """Record that the position was reached at ``depth``.

    SEEN: already expanded at a depth <= ``depth`` (skip it). IMPROVED: seen deeper, now
    recorded at ``depth`` (expand it again). INSERTED: new. REFUSED: new but the table is
    full (expand it, unrecorded)."""
    if first == 0:
        first = np.uint64(1)
    identity = second & IDENTITY_BITS
    mask = entries.shape[0] - 1
    slot = first & mask
    while entries[slot, 0] != 0:
        if entries[slot, 0] == first and (entries[slot, 1] & IDENTITY_BITS) == identity:
            if (entries[slot, 1] & DEPTH_BITS) <= depth:
                return SEEN
            entries[slot, 1] = identity | np.uint64(depth)
            return IMPROVED
        slot = (slot + 1) & mask
    if counters[ENTRY_COUNT] >= counters[ENTRY_LIMIT]:
        return REFUSED
    entries[slot, 0] = first
    entries[slot, 1] = identity | np.uint64(depth)
    counters[ENTRY_COUNT] += 1
    return INSERTED


@kernel
def rehash(entries, new_entries, new_counters):
    """Copy every entry into a (larger) empty table."""
    mask = new_entries.shape[0] - 1
    for i in range(entries.shape[0]):
        first = entries[i, 0]
        if first == 0:
            continue
        slot = first & mask
        while new_entries[slot, 0] != 0:
            slot = (slot + 1) & mask
        new_entries[slot, 0] = first
        new_entries[slot, 1] = entries[i, 1]
        new_counters[ENTRY_COUNT] += 1
