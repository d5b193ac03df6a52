"""The annotator test on files (``chance-agreement annotator-test HUMANS... --candidate FILE``).

Humans and candidates are read together through the reader registry (``spans.annotators``: any
format ``agreement`` reads, aligned unit by unit, the same tokens checked), so a candidate's output
is scored on exactly the humans' sentences. Each ``--candidate`` file gives one annotator
(``FILE:COLUMN`` picks one column of a column file; by default its last column, a system's
prediction). A unit whose spans of different types overlap is scored one layer per type (as in
``agreement``); its layers are resampled together, as one unit. The test is
``chance.annotator_test``; this module reads, runs and renders it as text, JSON or CSV.
"""

from __future__ import annotations

import json
from dataclasses import replace

from ..chance.annotator_test import annotator_test
from ..spans.annotation_set import flat_team
from ..spans.annotators import read_annotators
from .command_io import UsageError
from .html_text import escape, isolated_name
from .table_output import csv_text
from .team_report import reading_notes

FORMATS = ("text", "json", "csv")
PER_HUMAN = ("human_corrected_f1", "candidate_corrected_f1", "advantage", "advantage_p_value",
             "advantage_adjusted_p_value")
SUMMARY = ("verdict", "mean_advantage", "mean_advantage_ci", "p_value", "equivalence_p_value", "inferiority_p_value",
           "winning_rate", "replaceable", "unparsed", "unparsed_policy")


def read_team(humans, candidates, *, column=None, human_names=None, candidate_names=None, scheme=None, mode=None,
              suffix=False, crossing="error", **read_options) -> dict:
    """``{"humans", "candidates", "annotations", "units", "sources", "notes"}`` of the files:
    ``annotations`` the ``AnnotationSet`` of the humans then the candidates (every file chunked
    once, ``flat_team``: a bad tag named by its file and line), ``units[s]`` the file unit each
    (layered) sentence comes from. A candidate file with several annotators, fewer than two humans
    or a wrong number of names is a ``UsageError``."""
    team = read_annotators(list(humans) + list(candidates), column=column, **read_options)
    human_count = sum(origin < len(humans) for origin in team.origins)
    for index, spec in enumerate(candidates):
        count = team.origins.count(len(humans) + index)
        if count != 1:
            raise UsageError(f"--candidate {spec} holds {count} annotators: give a file with one "
                             "(FILE:COLUMN for one column of a column file)")
    if human_count < 2:
        raise UsageError("give two or more human annotators: files, FILE:COLUMN, or a file with annotator ids")
    names = {"human": (human_names, team.names[:human_count]), "candidate": (candidate_names, team.names[human_count:])}
    for kind, (given, default) in names.items():
        if given is not None and len(given) != len(default):
            raise UsageError(f"{len(given)} {kind} names for {len(default)} {kind}s")
    human_names, candidate_names = (list(given or default) for given, default in names.values())
    if len(set(human_names + candidate_names)) < len(human_names) + len(candidate_names):
        raise UsageError(f"two annotators are named alike in {human_names + candidate_names}: give --names")
    tokens, _, annotations = flat_team(team, scheme=scheme, mode=mode, suffix=suffix, crossing=crossing)
    position = {id(unit.tokens): u for u, unit in enumerate(team.units[0])}
    return {"humans": human_names, "candidates": candidate_names,
            "annotations": replace(annotations, names=tuple(human_names + candidate_names)),
            "units": [position[id(t)] for t in tokens],
            "sources": list(team.sources), "notes": reading_notes(team)}


def run_test(team: dict, *, margin: float, **options) -> dict:
    """The test of every candidate of ``read_team``'s ``team``, with the reading's facts around it."""
    layered = len(set(team["units"])) < len(team["units"])
    results = annotator_test(team["annotations"], team["candidates"], margin=margin,
                             document_ids=team["units"] if layered else None, **options)
    return {"humans": team["humans"], "sources": team["sources"], "sentences": len(team["units"]),
            "reading_notes": team["notes"], "candidates": results}


def _number(value, digits: int) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _candidate_text(result: dict, digits: int) -> list[str]:
    low, high = (_number(x, digits) for x in result["mean_advantage_ci"])
    lines = ["", f"candidate {result['candidate']}: {result['verdict']}",
             f"  mean advantage {_number(result['mean_advantage'], digits)}, "
             f"{result['confidence_level']:.0%} interval [{low}, {high}]",
             f"  p-values: non-inferiority {_number(result['p_value'], digits)}, inferiority "
             f"{_number(result['inferiority_p_value'], digits)}, equivalence "
             f"{_number(result['equivalence_p_value'], digits) if result['equivalence'] else 'not asked'}",
             f"  winning rate {_number(result['winning_rate'], digits)} (beats: {', '.join(result['beats']) or 'none'})"
             f"; replaceable by the alt-test rule (>= 0.5): {_number(result['replaceable'], digits)}",
             f"  unparsed sentences: {result['unparsed']} ({result['unparsed_policy']})", ""]
    header = ["human", "human F1", "candidate F1", "advantage", "p", "adjusted p"]
    rows = [header] + [[human] + [_number(result[key][human], digits) for key in PER_HUMAN]
                       for human in result["humans"]]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines += ["  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths, strict=True)))
              for row in rows]
    return lines + [f"  note: {note}" for note in result["notes"]]


def to_text(report: dict, digits: int = 4) -> str:
    first = next(iter(report["candidates"].values()))
    lines = [f"annotator test: {len(report['humans'])} humans ({', '.join(report['humans'])}), "
             f"{report['sentences']} sentences; {first['level']} level, {first['model']} random model",
             f"margin {first['margin']:g}, alpha {first['alpha']:g}, {first['n_resamples']} resamples of the "
             f"{first['resampled']}; advantage: the candidate's corrected F1 minus the human's, both against the "
             "other humans"]
    lines += [f"note: {note}" for note in report["reading_notes"]]
    for result in report["candidates"].values():
        lines += _candidate_text(result, digits)
    return "\n".join(lines) + "\n"


def to_csv(report: dict) -> str:
    """Long format, full precision: candidate, human (``all`` for the summary), key, value."""
    rows = []
    for name, result in report["candidates"].items():
        for key in SUMMARY:
            value = result[key]
            rows += [[name, "all", f"{key}_{side}", bound]
                     for side, bound in zip(("low", "high"), value, strict=True)] \
                if key == "mean_advantage_ci" else [[name, "all", key, value]]
        rows += [[name, human, key, result[key][human]] for human in result["humans"] for key in PER_HUMAN]
    return csv_text(["candidate", "human", "key", "value"], rows)


def _cells(values, digits: int = 4) -> str:
    return "".join(f'<td class="num">{escape(_number(value, digits))}</td>' for value in values)


def _candidate_html(result: dict) -> str:
    low, high = result["mean_advantage_ci"]
    rows = "".join(f"<tr><th>{isolated_name(human)}</th>{_cells(result[key][human] for key in PER_HUMAN)}"
                   f"<td>{'yes' if human in result['beats'] else 'no'}</td></tr>" for human in result["humans"])
    notes = "".join(f'<p class="note">{escape(note)}</p>' for note in result["notes"])
    return (f'<h3>{isolated_name(result["candidate"])}: {escape(result["verdict"])}</h3>'
            f'<p>Mean advantage {_number(result["mean_advantage"], 4)}, {result["confidence_level"]:.0%} interval '
            f'[{_number(low, 4)}, {_number(high, 4)}]; p-values: non-inferiority {_number(result["p_value"], 4)}, '
            f'inferiority {_number(result["inferiority_p_value"], 4)}. Winning rate '
            f'{_number(result["winning_rate"], 4)}: {"replaceable" if result["replaceable"] else "not replaceable"} '
            f'by the alt-test rule (at least 1/2). Unparsed sentences: {result["unparsed"]} '
            f'({escape(result["unparsed_policy"])}).</p><table><tr><th>human</th><th>human F1</th>'
            f'<th>candidate F1</th><th>advantage</th><th>p</th><th>adjusted p</th><th>beaten</th></tr>{rows}</table>'
            f'{notes}')


def annotator_html(report: dict) -> str:
    """The HTML report's section of ``run_test``'s report (``chance-agreement report --candidate``)."""
    first = next(iter(report["candidates"].values()))
    return (f'<section id="annotator-test"><h2>Is a candidate as good as one more human?</h2><p>For each human h: '
            f'the candidate\'s corrected F1 against the other humans minus h\'s own (the advantage of replacing h), '
            f'{escape(first["level"])} level. The mean advantage over the {len(report["humans"])} humans is '
            f'tested against &minus;{first["margin"]:g} (alpha {first["alpha"]:g}, {first["n_resamples"]} '
            f'resamples of the {escape(first["resampled"])}); per human, one-sided tests with Benjamini-Yekutieli '
            f'control give the winning rate (Calderon, Reichart and Dror 2025).</p>'
            + "".join(_candidate_html(result) for result in report["candidates"].values()) + "</section>")


def render(report: dict, fmt: str = "text", digits: int = 4) -> str:
    """The report as ``fmt``, one of ``FORMATS``."""
    if fmt == "json":
        return json.dumps(report, indent=2) + "\n"
    if fmt == "csv":
        return to_csv(report)
    if fmt == "text":
        return to_text(report, digits)
    raise ValueError(f"format must be one of {list(FORMATS)}, got {fmt!r}")


__all__ = ["FORMATS", "PER_HUMAN", "SUMMARY", "annotator_html", "read_team", "render", "run_test", "to_csv", "to_text"]
