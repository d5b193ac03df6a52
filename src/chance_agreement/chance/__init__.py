"""The chance model: the random annotation model and the chance-corrected F1 built on it."""

__all__: list[str] = []
