"""What people read: the leaderboard, plots, the paper's examples and the command line."""

__all__: list[str] = []
