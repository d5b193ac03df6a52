"""Noise of the agreed subset: the annotation-noise model and the instances it counts.

``chance_agreement.noise`` was one module before the layer folders; its public names stay here.
"""

from . import noise_model
from .noise_model import *  # noqa: F403 (the names of noise_model.__all__)

__all__ = list(noise_model.__all__)
