"""Input layer: entity spans from tag sequences (as seqeval finds them) and the file readers."""

__all__: list[str] = []
