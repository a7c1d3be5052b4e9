"""The ladder's calibration per rule set (``Rules.label()``), package data in
``ladder_calibration.json`` written by ``benchmarks/bench_ladder.py calibrate`` (not by
hand): each rung's skill (logits, in ``ladder.LADDER`` order) and the difficulty
thresholds (easy at most, normal at most; above: hard), halfway between the deals nearest
the thirds of the calibration deals' difficulties. A rule set is scored by as many rungs as
it has skills. Where those thresholds would move a shipped entry to another tier,
``tiering`` keeps the tiers of the earlier calibration (``difficulty.model_tier``). The
calibration's figures are in ``benchmarks/results/ladder_<rule set>.json``.
"""

import json
from pathlib import Path

CALIBRATION_FILE = Path(__file__).with_name("ladder_calibration.json")


def frozen(value):
    """``value`` read from JSON with its lists as tuples (a calibration is not changed)."""
    if isinstance(value, dict):
        return {key: frozen(item) for key, item in value.items()}
    return tuple(frozen(item) for item in value) if isinstance(value, list) else value


LADDER_CALIBRATION = frozen(json.loads(CALIBRATION_FILE.read_text(encoding="utf-8")))
