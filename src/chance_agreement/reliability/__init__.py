"""Classical reliability coefficients: contingency tables, two- and several-annotator coefficients,
unitizing and segmentation alphas. (Not named ``coefficients``: that is a public function.)"""

__all__: list[str] = []
