"""Gamma (Mathet, Widloecher and Metivier 2015): agreement on units that annotators place and
categorise, from the best alignment of all annotators' units and the disorder of random continua."""
