"""Noise of the agreed subset: the annotation-noise model and the instances it counts.

``chance_agreement.noise`` was one module before the layer folders; its public names stay here.
"""

from .noise_model import (
    ChanceDifference,
    NoiseBound,
    chance_difference,
    easy_proportion_from_kappa,
    hard_agreement_probability,
    kappa_noise_estimate,
    noise_bound,
    noise_report,
    noise_report_multi,
    tolerable_disagreements,
)

__all__ = [
    "ChanceDifference",
    "NoiseBound",
    "chance_difference",
    "easy_proportion_from_kappa",
    "hard_agreement_probability",
    "kappa_noise_estimate",
    "noise_bound",
    "noise_report",
    "noise_report_multi",
    "tolerable_disagreements",
]
