"""Gamma (Mathet, Widloecher and Metivier 2015, Computational Linguistics 41(3)): agreement on
units that annotators both place and categorise, from the best alignment of all annotators'
units (exact, for any number of annotators) and the disorder of random continua.

- :mod:`.dissimilarity`: positional-sporadic, categorical and combined dissimilarities;
- :mod:`.continuum`: the units of every annotator from tags, span lists or real intervals;
- :mod:`.alignment`: the best alignment (assignment for two annotators, set partition beyond);
- :mod:`.sampling`: random continua (pygamma's statistical sampler, Mathet's shuffle, the random
  annotation model of ``chance_f1``);
- :mod:`.gamma`: gamma, gamma-cat and gamma-k with their Monte Carlo standard errors.
"""

from .alignment import MAX_CANDIDATES, Alignment, AlignmentTooLarge, best_alignment
from .continuum import Continuum, continuum_from_annotated, continuum_from_texts, continuum_from_units
from .dissimilarity import Dissimilarity
from .gamma import PRECISION_LEVELS, SAMPLES_LIMIT, GammaResult, gamma_agreement
from .sampling import SAMPLERS

GammaDissimilarity = Dissimilarity  # the name exported by the package root

__all__ = [
    "MAX_CANDIDATES",
    "PRECISION_LEVELS",
    "SAMPLERS",
    "SAMPLES_LIMIT",
    "Alignment",
    "AlignmentTooLarge",
    "Continuum",
    "Dissimilarity",
    "GammaDissimilarity",
    "GammaResult",
    "best_alignment",
    "continuum_from_annotated",
    "continuum_from_texts",
    "continuum_from_units",
    "gamma_agreement",
]
