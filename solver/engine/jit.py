"""The one place kernel compile flags are set: every kernel uses ``kernel``."""

import numba

KERNEL_FLAGS = {"cache": True, "nogil": True, "boundscheck": False}


def kernel(function):
    return numba.njit(**KERNEL_FLAGS)(function)
