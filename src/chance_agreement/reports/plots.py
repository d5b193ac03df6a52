"""Figures: the random model's start distributions (the paper's Figure 1) and the leaderboard plot.

matplotlib is an optional extra (``pip install matplotlib``, or ``pip install ".[plot]"`` in a clone),
imported only here and
only when a figure is drawn. Figures are built without pyplot (Agg canvas), so no global backend
is changed; pass your own ``ax`` to draw into a pyplot or notebook figure.
"""

from __future__ import annotations

from pathlib import Path

from ..chance.random_model import start_probabilities
from ..ecosystem.output_files import write_file
from .command_io import check_output_path, image_format

FIGURE1_LENGTHS = (1, 5, 10, 15)
_MISSING = "plotting needs matplotlib: pip install matplotlib"


def require_matplotlib():
    """matplotlib's ``Figure`` class, or an ImportError saying how to install it: a command that
    draws calls it before any work, so a missing extra costs nothing.

    Returns
    -------
    type
        ``matplotlib.figure.Figure``.

    Raises
    ------
    ImportError
        When matplotlib cannot be imported, saying ``plotting needs matplotlib: pip install matplotlib``.

    Examples
    --------
    >>> require_matplotlib().__name__
    'Figure'
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(_MISSING) from None
    return Figure


def _new_axes(width: float, height: float):
    figure = require_matplotlib()(figsize=(width, height), dpi=120)
    return figure.add_subplot()


def plot_start_distributions(n: int = 100, lengths=FIGURE1_LENGTHS, ax=None, model: str = "non_overlapping"):
    """One curve per segment: P(the segment starts at token l) under the random model; returns ax."""
    lengths = list(lengths)
    if ax is None:
        ax = _new_axes(7.5, 4.2)
    highest = 0.0
    for index, length in enumerate(lengths):
        probabilities = start_probabilities(n, lengths, index, model=model)
        starts = range(1, len(probabilities) + 1)
        highest = max(highest, float(probabilities.max()))
        ax.plot(starts, probabilities, marker="o", markersize=2.5, linewidth=1.2,
                label=f"length {length} ({len(probabilities)} starts)")
    ax.set_xlabel("start token (1-based)")
    ax.set_ylabel("probability")
    sizes = ", ".join(str(length) for length in lengths)
    ax.set_title(f"Start distribution of each random segment\n"
                 f"text of {n} tokens, segments of lengths {sizes}, {model.replace('_', '-')} model", fontsize=10)
    ax.set_xlim(0, n + 1)
    ax.set_ylim(0, 1.08 * highest)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower center", ncol=2, framealpha=0.9)
    return ax


def save_start_distributions(path, n: int = 100, lengths=FIGURE1_LENGTHS, model: str = "non_overlapping") -> Path:
    """The paper's Figure 1 (by default) written to exactly ``path`` (format from its suffix, PNG
    without one)."""
    check_output_path(path)
    ax = plot_start_distributions(n, lengths, model=model)
    ax.figure.tight_layout()
    write_file(path, lambda temporary: ax.figure.savefig(temporary, format=image_format(path)))
    return Path(path)


def plot_leaderboard(board: dict, path=None, ax=None):
    """Observed against corrected F1, one point per system, from ``leaderboard.build_leaderboard``.

    The dashed diagonal is corrected = observed (no chance agreement); the gap below it is what
    chance explains. A system whose corrected F1 is undefined is named in the legend, not drawn. Saves to ``path`` when
    given; returns ax.
    """
    rows = [row for row in board["systems"] if row["corrected_f1"] is not None]  # undefined: not drawn
    left_out = [row["system"] for row in board["systems"] if row["corrected_f1"] is None]
    if not rows:
        raise ValueError("no system has a defined corrected F1 (chance F1 is 1 for every one): nothing to plot")
    if ax is None:
        ax = _new_axes(7.5, 5.0 + 0.22 * len(rows))
    markers = "osD^vP*Xhp<>"
    observed = [row["observed_f1"] for row in rows]
    corrected = [row["corrected_f1"] for row in rows]
    for row in rows:  # the part of the observed F1 that chance explains
        ax.plot([row["observed_f1"]] * 2, [row["observed_f1"], row["corrected_f1"]], color="lightgrey",
                linewidth=1, zorder=1)
    for index, row in enumerate(rows):
        change = row["rank_change"]
        moved = "" if not change else f", rank {row['observed_rank']} → {row['corrected_rank']}"
        ax.scatter(row["observed_f1"], row["corrected_f1"], s=55, marker=markers[index % len(markers)], zorder=3,
                   label=f"{row['corrected_rank']}. {row['system']} (obs {row['observed_f1']:.3f}, "
                         f"cor {row['corrected_f1']:.3f}{moved})")
        ax.annotate(str(row["corrected_rank"]), (row["observed_f1"], row["corrected_f1"]),
                    textcoords="offset points", xytext=(6, -3), fontsize=8)
    low = min(observed + corrected)
    high = max(observed + corrected)
    pad = max(0.02, 0.08 * (high - low))
    lower, upper = max(-1.0, low - pad), min(1.0, high + pad)
    ax.plot([lower, upper], [lower, upper], linestyle="--", color="grey", linewidth=1, label="corrected = observed")
    ax.set_xlim(lower, upper)
    ax.set_ylim(lower, upper)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("observed F1")
    ax.set_ylabel("chance-corrected F1")
    ax.set_title(f"Observed and chance-corrected F1\n({board['level']} level, "
                 f"{board['model'].replace('_', '-')} random model)", fontsize=10)
    ax.grid(alpha=0.3)
    title = "rank by corrected F1" + (f" (undefined, not drawn: {', '.join(left_out)})" if left_out else "")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=1, frameon=False,
              title=title, title_fontsize=8)
    if path is not None:
        check_output_path(path)
        ax.figure.tight_layout()
        write_file(path, lambda temporary: ax.figure.savefig(temporary, bbox_inches="tight",
                                                             format=image_format(path)))
    return ax


__all__ = ["FIGURE1_LENGTHS", "plot_leaderboard", "plot_start_distributions", "require_matplotlib",
           "save_start_distributions"]
