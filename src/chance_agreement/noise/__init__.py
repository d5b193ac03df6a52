"""Noise of the agreed subset: the annotation-noise model and the instances it counts."""
