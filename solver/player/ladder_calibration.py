"""The ladder's calibration per rule set (``Rules.label()``), written by
``benchmarks/bench_ladder.py calibrate`` (not by hand): each rung's skill (logits, in
``ladder.LADDER`` order) and the difficulty thresholds (easy at most, normal at most;
above: hard), halfway between the deals nearest the thirds of the calibration deals'
difficulties. The calibration's figures are in ``benchmarks/results/ladder_<rule set>.json``.
"""

LADDER_CALIBRATION = {
    "milligan": {"skills": (2.344, 5.662), "thresholds": (-0.135, 0.514)},
    "yukon": {"skills": (-2.027, 0.918), "thresholds": (-1.559, 2.277)},
}
