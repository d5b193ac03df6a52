"""Gamma in the HTML report: the values and the best alignment drawn for the most disordered
sentences (``chance-agreement report --gamma-samples N``).

``gamma_data`` gathers plain values (the sentences ranked by the summed disorder of the unitary
alignments that start in them); ``gamma_html`` draws them: one row per annotator, each unit a box
over its tokens coloured by category, the units of one unitary alignment joined by a line whose
darkness grows with its disorder. Names are shortened (``short_names``) with the full name as tooltip,
and isolated (FSI ... PDI) against a right-to-left override (``html_text``).
"""

from __future__ import annotations

import math

import numpy as np

from ..reliability.gamma import AlignmentTooLarge, GammaResult, gamma_agreement
from ..spans.annotation_set import AnnotationSet
from .html_text import escape, short_names

__all__ = ["gamma_data", "gamma_html", "sentence_gamma"]

COLOURS = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#eebefa", "#ffec99", "#ffc9c9", "#99e9f2", "#d0bfff")
ROW, LEFT, TOP = 34, 110, 26  # pixels: annotator row height, label column (at least), token line
CHAR, SHORTEST = 7, 24  # pixels per character of a name; the fewest characters a long name shows (``short_names``)


def sentence_gamma(items: list | AnnotationSet, indices: list, **options) -> GammaResult:
    """``gamma_agreement(items, **options)`` on the sentences ``indices`` (``items[t]`` is sentence
    ``indices[t]``); an alignment refused as too large is named by its sentence (from 1) and the
    command line's ways out."""
    try:
        return gamma_agreement(items, **options)
    except AlignmentTooLarge as error:
        text = f"sentence {indices[error.text] + 1}" if error.sample is None else "a random text"
        raise ValueError(error.describe(text, "or leave out --gamma-samples")) from None


def gamma_data(tokens, annotations: AnnotationSet, *, samples: int, sampler: str, max_sentences: int) -> dict:
    """Gamma of the set's annotators and the ``max_sentences`` most disordered sentences, on the
    sentences every one of them annotated (``data["on_sentences"]`` counts them when some are left
    out)."""
    indices = np.flatnonzero(annotations.present.all(axis=0)).tolist()
    if not indices:
        raise ValueError("gamma: no sentence is annotated by every annotator")
    result = sentence_gamma(annotations.select(items=indices), indices, annotators=list(annotations.names),
                            n_samples=samples, sampler=sampler)
    data = result.to_dict(alignment=False)
    if len(indices) < len(tokens):
        data["on_sentences"] = f"on the {len(indices)} of {len(tokens)} sentences every annotator annotated"
    offsets = result.alignment.continuum.text_offsets
    by_sentence: dict[int, list] = {}
    for row in result.alignment.rows():
        by_sentence.setdefault(row["text"], []).append(row)
    totals = {t: math.fsum(row["disorder"] for row in rows) for t, rows in by_sentence.items()}
    ranked = sorted((t for t in totals if totals[t] > 0), key=lambda t: (-totals[t], t))[:max_sentences]
    data["sentences"] = [{
        "sentence": indices[t] + 1, "disorder": totals[t], "tokens": [str(token) for token in tokens[indices[t]]],
        "alignments": [{"disorder": row["disorder"], "units": {
            name: None if unit is None else [unit[0], int(unit[1] - offsets[t]), int(unit[2] - offsets[t])]  # type: ignore[index]
            for name, unit in row["units"].items()}} for row in by_sentence[t]],
    } for t in ranked]
    return data


def _e(text) -> str:
    return escape(text)


def _f(value, digits: int = 4) -> str:
    return "&ndash;" if value is None else f"{value:.{digits}f}"


def _label(name: str, shown: str, x: int, y: int) -> str:
    """An annotator's label in a drawing: ``shown`` (``short_names``) with the full name as its
    tooltip, isolated (FSI ... PDI) so that a right-to-left name does not reorder the drawing."""
    return f'<text x="{x}" y="{y}" font-size="11"><title>{_e(name)}</title>\u2068{_e(shown)}\u2069</text>'


def _drawing(sentence: dict, names: list, colours: dict) -> str:
    tokens = sentence["tokens"]
    labels = short_names(names, SHORTEST)
    edges = [max(LEFT, CHAR * max((len(label) for label in labels), default=0) + 12)]
    for token in tokens:
        edges.append(edges[-1] + max(28, 7 * len(token) + 10))
    width, height = edges[-1] + 10, TOP + ROW * len(names) + 6
    parts = [f'<text x="{(edges[i] + edges[i + 1]) / 2:.0f}" y="16" text-anchor="middle" '
             f'font-size="11">{_e(token)}</text>'
             for i, token in enumerate(tokens)]
    parts += [_label(name, labels[a], 4, TOP + ROW * a + 21) for a, name in enumerate(names)]
    for alignment in sentence["alignments"]:
        centres = []
        for a, name in enumerate(names):
            unit = alignment["units"].get(name)
            if unit is None or not 0 <= unit[1] < unit[2] <= len(tokens):
                continue
            x0, x1, y = edges[unit[1]] + 2, edges[unit[2]] - 2, TOP + ROW * a + 6
            parts.append(f'<rect x="{x0}" y="{y}" width="{x1 - x0}" height="{ROW - 12}" rx="4" '
                         f'fill="{colours.get(unit[0], COLOURS[0])}" stroke="#555"><title>{_e(name)}: {_e(unit[0])} '
                         f'{unit[1]}-{unit[2]}</title></rect>')
            centres.append(((x0 + x1) / 2, y + (ROW - 12) / 2))
        if len(centres) > 1:
            shade = max(0, 200 - int(200 * min(alignment["disorder"], 1.0)))
            points = " ".join(f"{x:.0f},{y:.0f}" for x, y in centres)
            parts.append(f'<polyline points="{points}" fill="none" stroke="rgb(200,{shade},{shade})" stroke-width="2">'
                         f'<title>unitary alignment, disorder {alignment["disorder"]:.4f}</title></polyline>')
    return (f'<svg role="img" aria-label="best alignment of sentence {sentence["sentence"]}" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}">{"".join(parts)}</svg>')


def _of(sentence: dict) -> str:
    """" of DOCUMENT" when the report knows the sentence's document (several documents), else ""."""
    return f" of {_e(sentence['document'])}" if "document" in sentence else ""


def gamma_html(data: dict) -> str:
    """The report's gamma section."""
    names = data["annotators"]
    categories = sorted(data["gamma_k"])
    colours = {c: COLOURS[i % len(COLOURS)] for i, c in enumerate(categories)}
    values = "".join(f"<tr><th>{_e(label)}</th><td>{_f(data[key])}</td></tr>" for key, label in (
        ("gamma", "gamma"), ("gamma_se", "its standard error"), ("observed_disorder", "observed disorder"),
        ("expected_disorder", "expected disorder"), ("gamma_cat", "gamma-cat")))
    per_category = "".join(f'<tr><th style="background:{colours[c]}">{_e(c)}</th><td>{_f(data["gamma_k"][c])}</td></tr>'
                           for c in categories)
    drawings = "".join(f'<h3>Sentence {s["sentence"]}{_of(s)} (disorder {s["disorder"]:.4f})</h3>'
                       f'{_drawing(s, names, colours)}' for s in data["sentences"])
    notes = ([data["on_sentences"]] if "on_sentences" in data else []) + list(data["warnings"])
    warnings = "".join(f'<p class="note">{_e(w)}</p>' for w in notes)
    return (f'<section id="gamma"><h2>Gamma</h2><p>Gamma (Mathet, Widl&ouml;cher and M&eacute;tivier 2015) of '
            f'{len(names)} annotators: 1 &minus; the disorder of the best alignment of their units over the mean '
            f'disorder of {data["n_samples"]} random continua ({_e(data["sampler"])} sampler).</p>'
            f'<div class="figures"><table>{values}</table><table><tr><th>category (colour)</th><th>gamma-k</th></tr>'
            f'{per_category}</table></div>{warnings}<h3>The most disordered sentences</h3><p class="muted">One row '
            f'per annotator; a line joins the units aligned together, redder when their disorder is higher; a unit '
            f'alone is aligned with empty units.</p>{drawings or "<p>No sentence has any disorder.</p>"}</section>')
