"""The ladder's calibration per rule set (``Rules.label()``), written by
``benchmarks/bench_ladder.py calibrate`` (not by hand): each rung's skill (logits, in
``ladder.LADDER`` order) and the difficulty thresholds (easy at most, normal at most;
above: hard), halfway between the deals nearest the thirds of the calibration deals'
difficulties. A rule set is scored by as many rungs as it has skills. Where those thresholds
would move a shipped entry to another tier, ``tiering`` keeps the tiers of the earlier
calibration (``difficulty.model_tier``). The calibration's figures are in
``benchmarks/results/ladder_<rule set>.json``.
"""

LADDER_CALIBRATION = {
    "milligan": {
        "skills": (2.344, 5.662),
        "thresholds": (-0.135, 0.514),
    },
    "milligan+return": {
        "skills": (2.339, 4.201),
        "thresholds": (-0.14, 0.508),
    },
    "russian": {
        "skills": (0.317, 0.774, 1.399),
        "thresholds": (-3.395, 4.056),
    },
    "russian+return": {
        "skills": (0.316, 0.836, 1.336),
        "thresholds": (-3.396, 4.054),
        "tiering": {"by": "ladder", "rungs": 2, "skills": (0.324, 0.846), "thresholds": (-3.389, 3.993)},
    },
    "yukon": {
        "skills": (-2.05, 0.854, 1.46),
        "thresholds": (-1.581, 2.622),
        "tiering": {"by": "ladder", "rungs": 2, "skills": (-2.027, 0.918), "thresholds": (-1.559, 2.277)},
    },
    "yukon+return": {
        "skills": (-2.067, 1.014, 1.731),
        "thresholds": (-1.727, 2.71),
        "tiering": {"by": "ladder", "rungs": 2, "skills": (-2.036, 1.085), "thresholds": (-1.696, 2.31)},
    },
}
