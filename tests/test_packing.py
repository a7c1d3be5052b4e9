"""solver/packing.py: a Board packed into the engine's arrays and read back."""

from engine_helpers import walk
from strategies import RULE_SETS

from solver.packing import pack, unpack


def test_pack_unpack_round_trip():
    for rules in RULE_SETS:
        for board in walk(rules, 7, 7, 60):
            assert unpack(pack(board, rules)) == board
