"""Chance-corrected F1 of annotators' span files (``chance-agreement spans A B ...``).

The files are read through the reader registry (``spans.annotators.read_annotators``): any mix of
formats, any number of annotators. The spans may nest: the table shows the pooled scores and every
depth (``nested_chance_f1``); with ``view="outermost"`` or ``"innermost"`` the flat view of each
side is scored by ``span_chance_f1`` (seqeval's numbers in the precision/recall/f1 columns). Two
annotators: the first is scored as predictions against the second. More: every pair (i, j), i < j.
"""

from __future__ import annotations

from ..chance.chance_corrected import defined_scores, undefined_reason
from ..chance.nested_f1 import nested_chance_f1
from ..chance.span_f1 import span_chance_f1
from ..spans.annotators import Team
from ..spans.nested import innermost, outermost

VIEWS = ("nested", "outermost", "innermost")


def pair_scores(spans_a, spans_b, lengths, view: str = "nested", **kwargs) -> dict:
    """``nested_chance_f1`` of two annotators' span lists, or ``span_chance_f1`` of a flat view;
    undefined scores None (``defined_scores``), unless ``kwargs`` give a ``zero_division``."""
    if view not in VIEWS:
        raise ValueError(f"view must be one of {list(VIEWS)}, got {view!r}")
    if "zero_division" not in kwargs:
        return defined_scores(lambda fill: pair_scores(spans_a, spans_b, lengths, view, zero_division=fill, **kwargs))
    if view == "nested":
        return nested_chance_f1(spans_a, spans_b, lengths, **kwargs)
    flat = {"outermost": outermost, "innermost": innermost}[view]
    return span_chance_f1(flat(spans_a, lengths, "A"), flat(spans_b, lengths, "B"), lengths, **kwargs)


def team_span_scores(team: Team, view: str = "nested", crossing: str = "error", **kwargs) -> dict:
    """Two annotators: ``pair_scores`` of the first (predictions) against the second. More:
    ``{"pairs": [{"predictions", "references", "scores"}, ...]}`` for every pair i < j. Either way
    ``skipped_spans`` lists crossing spans left out and ``layered_units`` counts units split by type."""
    spans, lengths = team.nested(crossing=crossing)
    if len(team.names) < 2:
        raise ValueError(f"give two or more annotators, got {len(team.names)} ({', '.join(team.sources)})")
    if len(team.names) == 2:
        result = pair_scores(spans[0], spans[1], lengths, view, **kwargs)
    else:
        result = {"pairs": [{"predictions": team.names[i], "references": team.names[j],
                             "scores": pair_scores(spans[i], spans[j], lengths, view, **kwargs)}
                            for i in range(len(team.names)) for j in range(i + 1, len(team.names))]}
    if team.skipped:
        result["skipped_spans"] = list(team.skipped)
    if team.layered:
        result["layered_units"] = team.layered
    return result


def format_span_table(result: dict, digits: int = 4) -> str:
    """One row per label and overall, for the pooled scores and then every depth."""
    scopes = [("pooled" if "depths" in result else "all", result)]
    scopes += [(f"depth {d}", scores) for d, scores in enumerate(result.get("depths", []))]
    column = max(digits + 4, 10)
    header = f"{'scope':<9}{'label':<10}" + "".join(h.rjust(column) for h in (
        "precision", "recall", "f1", "support", "observed", "chance", "corrected"))
    lines, notes = [header], []
    for scope, scores in scopes:
        labels = [key for key, value in scores.items() if isinstance(value, dict)]
        rows = [(label, scores[label]["precision"], scores[label]["recall"], scores[label]["f1"],
                 scores[label]["number"],
                 scores[label]["observed_f1"], scores[label]["chance_f1"], scores[label]["corrected_f1"])
                for label in labels]
        rows.append(("overall", scores["overall_precision"], scores["overall_recall"], scores["overall_f1"],
                     sum(scores[label]["number"] for label in labels), scores["overall_observed_f1"],
                     scores["overall_chance_f1"], scores["overall_corrected_f1"]))
        lines.append("")
        for label, *numbers in rows:
            cells = [str(v) if i == 3 else "undefined" if v is None else f"{v:.{digits}f}"
                     for i, v in enumerate(numbers)]
            lines.append(f"{scope:<9}{label:<10}" + "".join(cell.rjust(column) for cell in cells))
            reason = undefined_reason(dict(zip(("observed_f1", "chance_f1", "corrected_f1"), numbers[4:], strict=True)))
            notes += [f"note: {scope}, {label}: corrected F1 is undefined: {reason}"] * bool(reason)
    return "\n".join(lines + [""] * bool(notes) + notes)


__all__ = ["VIEWS", "format_span_table", "pair_scores", "team_span_scores"]
