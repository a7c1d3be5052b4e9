"""Bitsets of uint64 words: a set of small numbers (the facts of ``dead_ends.h2``, ``dead_ends.h3``
and their remembered tables) as bits, number n at bit n % 64 of word n // 64."""

import numpy as np

from solver.engine.jit import kernel


@kernel
def set_bit(words, bit):
    """Set ``bit`` of a bitset of uint64 words."""
    words[bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)


@kernel
def clear_bit(words, bit):
    """Clear ``bit`` of a bitset of uint64 words."""
    words[bit >> 6] &= ~(np.uint64(1) << np.uint64(bit & 63))


@kernel
def has_bit(words, bit):
    """Is ``bit`` of a bitset of uint64 words set?"""
    return (words[bit >> 6] >> np.uint64(bit & 63)) & np.uint64(1) != 0


@kernel
def copy_words(target, source, words):
    """Copy the first ``words`` words of ``source`` into ``target`` (a loop: an array
    assignment would compile numba's shape-error machinery into every caller)."""
    for w in range(words):
        target[w] = source[w]
