"""Classical agreement coefficients: contingency tables, two- and several-annotator coefficients,
unitizing and segmentation alphas."""
