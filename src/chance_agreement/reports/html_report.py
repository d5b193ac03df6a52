"""One self-contained HTML page about the agreement of two or more annotations (``chance-agreement report``).

The page needs no network and no JavaScript: styles are inline, figures are hand-written SVG.
It is built in two steps so that each can be used (and tested) alone:

- ``report_data(tokens, annotations, ...)`` gathers plain result dicts from the library
  (``chance_f1``, ``contingency`` + ``coefficients``, ``noise_report``, the leaderboard);
- ``render_report(data)`` turns such a dict into HTML; it shows whatever keys are present (an
  interval when a ``*_ci`` key is there, the several-annotators sections when ``team`` is there).

``html_report(...)`` does both. Two annotations: the first is the reference. Three or more: every
pair is compared (``_team_results``). ``leaderboard=True``: the first is the gold standard, the
others are systems, ranked by corrected F1; the detailed sections compare the gold with the first
system.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from ..chance.bootstrap_intervals import add_intervals
from ..chance.chance_corrected import chance_corrected, defined_scores, undefined_reason, with_defined_scores
from ..chance.corrected_f1 import chance_f1, sentence_scores
from ..chance.document_scores import document_chance_f1
from ..chance.random_models import get_model
from ..chance.statistics import LEVELS
from ..chance.team_f1 import team_scores, team_statistics
from ..ecosystem.output_files import write_file
from ..noise.key_meanings import noise_meaning
from ..noise.noise_model import noise_report, noise_report_multi, report_with_notes
from ..reliability.agreement_coefficients import coefficients
from ..reliability.benchmark_scales import READING_SCALE, SCALE_TITLES, reading
from ..reliability.contingency_table import NOTHING, check_category_count, check_tag_types, contingency
from ..reliability.multi_annotator import multi_annotator_agreement
from ..reliability.table_coefficients import titles
from ..spans.annotation_set import AnnotationSet, flat_team
from ..spans.annotators import read_annotators
from .annotator_report import annotator_html
from .command_io import UsageError
from .gamma_report import gamma_data, gamma_html
from .html_text import escape, isolated_name, short_name, short_names
from .leaderboard import board_set, build_leaderboard
from .table_output import interval_text, most_used
from .team_report import chunked_once, reading_notes

MAX_SENTENCES = 20  # sentences with the most disagreement beyond chance
MAX_TYPES = 40  # rows of the per-type table and bars
MAX_CATEGORIES = 25  # categories in the heat maps
MAX_ROWS = 40  # systems in the leaderboard, annotators in the pairwise matrix
HISTOGRAM_BINS = 20
KAPPA_FAMILY = ("observed_agreement", "bennett_s", "scott_pi", "cohen_kappa")
TEAM_KAPPA = ("fleiss_kappa", "krippendorff_alpha")
SCORES = ("observed_f1", "chance_f1", "corrected_f1")


# --- gathering the results -----------------------------------------------------------------------


def _interval_options(confidence_level, n_resamples, random_state) -> dict:
    """``chance_f1``'s bootstrap options, or {} when intervals are off."""
    if confidence_level is None:
        return {}
    return {"confidence_level": confidence_level, "n_resamples": n_resamples, "random_state": random_state}
def _no_interval_reason(confidence_level) -> str:
    """Why a score has no interval on the page (shown in its place)."""
    if confidence_level is None:
        return "not computed: no confidence level was asked for (--confidence-level)"
    return "not computed"


def _team_results(annotations: AnnotationSet, level: str, model: str, interval_options: dict | None = None) -> dict:
    """Several annotators: ``team_chance_f1``'s result (pairwise micro average, each annotator against
    the rest, the m x m pairwise matrix; undefined scores None) with its pooled per-sentence scores
    and, when ``interval_options`` ask for them, its sentence-bootstrap intervals."""
    sentences: list = []
    names, pairs = team_statistics(annotations, level=level, model=model, sentences=sentences)
    result = defined_scores(lambda fill: team_scores(names, pairs, level, fill))  # as team_chance_f1, undefined None
    result["sentence_scores"] = sentence_scores(sentences, level)
    if interval_options:
        add_intervals(result, sentences, level, 0, interval_options["confidence_level"],
                      interval_options["n_resamples"], interval_options["random_state"])
    return result


def _team_noise(annotations: AnnotationSet) -> tuple[dict, list]:
    """``noise_report_multi`` with its notes, on the sentences every annotator annotated (the noise
    model needs every annotator on every sentence; a note says so when some are left out)."""
    indices = np.flatnonzero(annotations.present.all(axis=0))
    noise, notes = report_with_notes(noise_report_multi, annotations.select(items=indices))
    if len(indices) < annotations.n_items:
        notes.insert(0, f"on the {len(indices)} of {annotations.n_items} sentences every annotator annotated (the "
                        f"noise model needs every annotator on every sentence)")
    return noise, notes


def _pooled_contingency(annotations: AnnotationSet) -> tuple[list[list[int]], list[str]]:
    """The token contingency table of every pair of annotators (first of the pair in the rows), summed
    over the sentences both annotated."""
    m = annotations.n_annotators
    shared = [(a, b, annotations.shared_items(a, b)) for a in range(m) for b in range(a + 1, m)]
    tables = [contingency(annotations.select([a, b], items)) for a, b, items in shared if items.size]
    categories = [*sorted({c for _, cats in tables for c in cats if c != NOTHING}), NOTHING]
    position = {c: i for i, c in enumerate(categories)}
    pooled = np.zeros((len(categories), len(categories)), dtype=np.int64)
    for table, cats in tables:
        index = [position[c] for c in cats]
        pooled[np.ix_(index, index)] += table  # the categories of one table are distinct
    return pooled.tolist(), categories


def _ranked_sentences(sentence_scores, limit: int) -> tuple[list[dict], int]:
    """Sentences by disagreement beyond chance, most first: ``(1 - corrected F1) x denominator``,
    i.e. observed over chance-expected disagreement, weighted by the sentence's annotated size."""
    ranked = []
    for index, score in enumerate(sentence_scores):
        observed, chance = score["observed_f1"], score["chance_f1"]
        corrected = None if observed is None or chance is None else chance_corrected(observed, chance)
        if corrected is None:
            continue
        ranked.append({"sentence": index + 1, "observed_f1": observed, "chance_f1": chance,
                       "corrected_f1": corrected, "denominator": score["denominator"],
                       "disagreement": (1.0 - corrected) * score["denominator"]})
    ranked = [row for row in ranked if row["disagreement"] > 0]
    ranked.sort(key=lambda row: (-row["disagreement"], row["sentence"]))
    return ranked[:limit], max(0, len(ranked) - limit)


def _leaderboard_results(board: AnnotationSet, level, model, interval_options) -> dict:
    """``build_leaderboard``'s ranking of a board (``leaderboard.board_set``: the gold, then the
    systems); each row gets ``chance_f1``'s ``*_ci`` when intervals are on."""
    result = build_leaderboard(board, level=level, model=model, progress=False)
    if interval_options:
        for row in result["systems"]:
            if row["corrected_f1"] is None:  # undefined (chance F1 1): no interval
                continue
            pair = board.select([0, board.names.index(row["system"])])
            scores = chance_f1(pair, level=level, model=model, zero_division=0, **interval_options)
            for key in SCORES:
                if f"overall_{key}_ci" in scores:
                    row[f"{key}_ci"] = scores[f"overall_{key}_ci"]
    return result


def report_data(tokens, annotations: dict | AnnotationSet, *, leaderboard: bool = False, level: str = "token",
                model: str = "non_overlapping", scheme=None, mode=None, suffix: bool = False,
                max_sentences: int = MAX_SENTENCES, confidence_level: float | None = 0.95,
                n_resamples: int = 1000, random_state: int = 0, title: str | None = None,
                gamma_samples: int = 0, gamma_sampler: str = "statistical", documents=None) -> dict:
    r"""Gather the plain result dicts that :func:`render_report` turns into the HTML report.

    Parameters
    ----------
    tokens : list of list of str
        The sentences' tokens.
    annotations : dict or AnnotationSet
        ``{name: tag sequences}``, in order, two or more (a tag list may be None where an annotator
        did not annotate the sentence), or their ``AnnotationSet`` (:func:`load_annotation_set`),
        whose spans are not chunked again. Two: the first is the reference. More: every pair is
        compared. With ``leaderboard``, the first is the gold standard and the others are systems.
    leaderboard : bool, default False
        Rank the systems by corrected F1 against the gold standard; the detailed sections compare
        the gold with the first system.
    level : {"token", "entity"}, default "token"
        The level of :func:`chance_f1`.
    model : str, default "non_overlapping"
        The random annotation model (a name of ``random_models``).
    scheme, mode, suffix : optional
        As in seqeval and :func:`spans_from_tags`.
    max_sentences : int, default 20
        The most sentences shown: those with the most disagreement beyond chance,
        :math:`(1 - \mathrm{corrected\ F1})` times the sentence's annotated size, first.
    confidence_level : float or None, default 0.95
        The level of the bootstrap intervals of :func:`chance_f1`; None turns intervals off.
    n_resamples : int, default 1000
        Bootstrap resamples for the intervals.
    random_state : int, default 0
        The seed of the bootstrap.
    title : str, optional
        The page's title (default ``"Agreement report: "`` and the names).
    gamma_samples : int, default 0
        When positive, add :func:`gamma_agreement` with that many random continua, and the best
        alignment of the most disordered sentences.
    gamma_sampler : str, default "statistical"
        The sampler of gamma's random continua.
    documents : list of str, optional
        Per sentence, the name of its document: adds the scores of each document
        (:func:`document_chance_f1`) and names the document beside every sentence number, when
        there are several.

    Returns
    -------
    dict
        Plain values: ``title``, ``annotators``, ``level``, ``model``, ``kind`` (``"pair"`` or
        ``"team"``), ``compared``, ``result`` (:func:`chance_f1`'s, or :func:`team_chance_f1`'s
        for a team), ``coefficients`` (:func:`coefficients` of the ``contingency`` table, pooled
        over pairs for a team), ``noise`` and ``noise_notes`` (:func:`noise_report`), the shown
        ``sentences`` and every sentence's chance F1 (``sentence_chance``); ``team`` and ``multi``
        for three or more annotations, ``leaderboard`` and ``gamma`` when asked for.

    Raises
    ------
    ValueError
        Fewer than two annotations, sequences that do not match the tokens (naming the sentence),
        an unknown level or model, or an option out of range.

    See Also
    --------
    render_report : The HTML of this dict.
    html_report : Both steps, and the file.

    Examples
    --------
    >>> tokens = [["Ada", "Lovelace", "met", "Babbage", "."], ["She", "lived", "in", "London", "."]]
    >>> annotations = {"anna": [["B-PER", "I-PER", "O", "B-PER", "O"], ["O", "O", "O", "B-LOC", "O"]],
    ...                "bob": [["B-PER", "I-PER", "O", "O", "O"], ["O", "O", "O", "B-LOC", "O"]]}
    >>> data = report_data(tokens, annotations, confidence_level=None)
    >>> data["kind"], data["compared"]
    ('pair', 'bob against anna')
    >>> data["contingency"]["categories"], data["contingency"]["table"]
    (['LOC', 'PER', 'O'], [[1, 0, 0], [0, 2, 1], [0, 0, 6]])
    >>> round(data["coefficients"]["cohen_kappa"], 4), round(data["result"]["overall_corrected_f1"], 4)
    (0.8039, 0.7561)
    """
    names = list(annotations.names if isinstance(annotations, AnnotationSet) else annotations)
    _check_report_arguments(names, level, model, max_sentences)
    _check_shapes(tokens, annotations)
    span_options = {"scheme": scheme, "mode": mode, "suffix": suffix}
    intervals = _interval_options(confidence_level, n_resamples, random_state)
    team = len(names) > 2 and not leaderboard
    shown_names = names if team else names[:2]
    if not isinstance(annotations, AnnotationSet):  # a table too large: refused before the work
        check_tag_types([annotations[name] for name in shown_names], suffix)
    data: dict[str, Any]
    data = {"title": title or _default_title(names, str),
            "annotators": names, "level": level, "model": model, "kind": "team" if team else "pair",
            "intervals_requested": confidence_level is not None, "confidence_level": confidence_level,
            "sentence_count": len(tokens), "no_interval": _no_interval_reason(confidence_level)}
    board = _annotation_set(annotations, names, leaderboard, span_options)  # every section reads its spans
    chunked = board if team else board.select([0, 1])
    if isinstance(annotations, AnnotationSet):  # a table too large: refused before the work
        check_category_count(len(np.unique(chunked.type_code)) + 1)
    if team:
        data["result"] = _team_results(chunked, level, model, intervals)
        data["team"] = {key: data["result"].pop(key) for key in ("annotators", "per_annotator",
                                                                 "pairwise_corrected_f1")}
        table, categories = _pooled_contingency(chunked)
        data["multi"] = multi_annotator_agreement(chunked)
        data["noise"], data["noise_notes"] = _team_noise(chunked)
        data["compared"] = f"every pair of the {len(names)} annotators, pooled"
    else:
        reference, other = names[0], names[1]
        data["result"] = with_defined_scores(
            chance_f1(chunked, level=level, model=model, zero_division=0, return_sentence_scores=True, **intervals),
            lambda fill: chance_f1(chunked, level=level, model=model, zero_division=fill))
        array, categories = contingency(chunked)
        table = array.tolist()
        data["noise"], data["noise_notes"] = report_with_notes(noise_report, chunked)
        data["compared"] = f"{other} against {reference}"
    data["coefficients"] = coefficients(table, categories, nothing=NOTHING)
    data["contingency"] = {"categories": categories, "table": table,
                           "rows": "the first of each pair" if team else names[0],
                           "columns": "the second of each pair" if team else names[1]}
    if leaderboard:
        data["leaderboard"] = _leaderboard_results(board, level, model, intervals)
    sentence_scores = data["result"].pop("sentence_scores")
    data["sentence_chance"] = [score["chance_f1"] for score in sentence_scores]
    data["sentences"] = _shown_sentences(tokens, chunked, sentence_scores, max_sentences, team)
    if gamma_samples:
        data["gamma"] = gamma_data(tokens, chunked, samples=gamma_samples, sampler=gamma_sampler,
                                   max_sentences=max_sentences)
    if documents is not None and len(set(documents)) > 1:
        _add_documents(data, chunked, documents, intervals)
    return data


def _annotation_set(annotations, names: list, leaderboard: bool, span_options: dict) -> AnnotationSet:
    """The report's annotations chunked once, the one conversion at its entry: a set as given, else
    the tags' set (``leaderboard.board_set`` for a board: the scheme detected from the gold, else
    ``team_report.chunked_once``)."""
    if isinstance(annotations, AnnotationSet):
        annotations.chunked_as(function="report_data", **span_options)
        return annotations
    if leaderboard:
        return board_set(annotations[names[0]], {name: annotations[name] for name in names[1:]}, gold=names[0],
                         **span_options)
    return chunked_once(annotations, **span_options)


def _default_title(names: list, show) -> str:
    """The report's title when none is given, each name shown by ``show``."""
    return "Agreement report: " + " vs ".join(show(who) for who in names[:6]) + (" ..." if len(names) > 6 else "")


def _title(data: dict) -> str:
    """The page heading: the default title with each name isolated (``html_text.name``), else the
    title given, isolated as a whole."""
    if data["title"] == _default_title(data["annotators"], str):
        return _default_title(data["annotators"], isolated_name)
    return f"<bdi>{_e(data['title'])}</bdi>"


def _add_documents(data: dict, annotations: AnnotationSet, documents: list, intervals: dict) -> None:
    """The scores of each document (``document_chance_f1`` of the compared annotations, with
    intervals when asked) and the document of every sentence the page shows."""
    data["documents"] = document_chance_f1(annotations, documents, level=data["level"], model=data["model"],
                                           **intervals)
    for row in data["sentences"]["shown"] + data.get("gamma", {}).get("sentences", []):
        row["document"] = documents[row["sentence"] - 1]


def _check_report_arguments(names: list, level: str, model, max_sentences: int) -> None:
    if len(names) < 2:
        raise ValueError(f"a report needs at least two annotations, got {len(names)}")
    if level not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    get_model(model)  # a registered name or a RandomModel, else ValueError
    if max_sentences < 0:
        raise ValueError(f"max_sentences must be >= 0, got {max_sentences}")


def _shown_sentences(tokens, annotations: AnnotationSet, sentence_scores, max_sentences: int, team: bool) -> dict:
    """The sentences with the most disagreement beyond chance, with their tokens and spans."""
    shown, left_out = _ranked_sentences(sentence_scores, max_sentences)
    spans = {name: annotations.sentence_spans(a) for a, name in enumerate(annotations.names)}
    for row in shown:
        i = row["sentence"] - 1
        row["tokens"] = [str(token) for token in tokens[i]]
        row["spans"] = {name: [list(span) for span in found[i]]
                        for name, found in spans.items() if found[i] is not None}  # absent: not annotated
    support = _team_support(annotations) if team else None
    return {"shown": shown, "left_out": left_out, "annotators": list(annotations.names), "support": support}


def _team_support(annotations: AnnotationSet) -> dict:
    """Entity spans per type, every annotator's together, and their total under ``"overall"``."""
    counts: dict = {"overall": 0}
    for a in range(annotations.n_annotators):
        for spans in annotations.sentence_spans(a):
            for span in spans or ():
                counts[span[0]] = counts.get(span[0], 0) + 1
                counts["overall"] += 1
    return counts


def _check_shapes(tokens, annotations) -> None:
    """Every annotation has the tokens' sentences, each as long as the tokens' (1-based numbers) or
    None where its annotator did not annotate it."""
    lengths = [len(sentence) for sentence in tokens]
    if isinstance(annotations, AnnotationSet):
        if annotations.lengths.tolist() != lengths:
            given = annotations.lengths.tolist()
            at = next((s for s, (a, b) in enumerate(zip(given, lengths, strict=False)) if a != b), min(len(given),
                                                                                                       len(lengths)))
            raise ValueError(f"the annotation set's {annotations.n_items} sentences are not the tokens' "
                             f"{len(lengths)}: sentence {at + 1} differs")
        return
    for name, tags in annotations.items():
        if isinstance(tags, str) or len(tags) != len(lengths):
            raise ValueError(f"{name}: {len(tags)} sentences, the tokens have {len(lengths)}")
        for number, (sentence, length) in enumerate(zip(tags, lengths, strict=True), start=1):
            if sentence is None:  # not annotated by this annotator (partial coverage)
                continue
            if isinstance(sentence, str) or len(sentence) != length:
                raise ValueError(f"{name}: sentence {number} has {len(sentence)} tags for {length} tokens")


# --- small HTML and SVG pieces -------------------------------------------------------------------

OBSERVED, CHANCE, CORRECTED = "#3b6ea8", "#a6a29d", "#e07b1a"
SERIES = (("observed F1", OBSERVED), ("chance F1", CHANCE), ("corrected F1", CORRECTED))
# span colours by type (cycled); chosen to stay readable behind black text
TYPE_COLOURS = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#eebefa", "#ffec99", "#ffc9c9", "#99e9f2",
                "#d0bfff", "#c0eb75", "#fcc2d7")


def _e(text) -> str:
    """Text escaped for HTML content and attribute values (also inside SVG; ``html_text.escape``)."""
    return escape(text)


def _f(value, digits: int = 4) -> str:
    if value is None:
        return "\N{EN DASH}"
    if isinstance(value, float) and not math.isfinite(value):
        return "\N{EN DASH}"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _num(key: str, value, digits: int = 4, tag: str = "td") -> str:
    """A cell with the number rounded and its exact value in ``data-value`` (``data-key`` names it)."""
    exact = "" if value is None else repr(float(value)) if isinstance(value, float) else str(value)
    return f'<{tag} class="num" data-key="{_e(key)}" data-value="{_e(exact)}">{_f(value, digits)}</{tag}>'


def _score(key: str, value, tag: str = "td") -> str:
    """A score cell (``_num``), or "undefined" for an undefined score (None: ``defined_scores``)."""
    if value is None:
        return f'<{tag} class="num" data-key="{_e(key)}" data-value="">undefined</{tag}>'
    return _num(key, value, tag=tag)


def _interval(result: dict, key: str, data_key: str, reason: str = "not computed", level=None) -> str:
    """The interval of ``result[key]`` labelled with its ``level`` ("95% interval 0.7560-0.8506",
    ``table_output.interval_text``; each bound in a ``data-key`` span), or ``interval: <reason>``
    when there is none."""
    ci = result.get(f"{key}_ci")
    if ci is None:
        return f'<span class="muted">interval: {_e(reason)}</span>'
    def bound(side, value, shown):
        return f'<span data-key="{_e(data_key)}/{side}" data-value="{_e(repr(float(value)))}">{shown}</span>'

    return f'<span class="ci">{interval_text(ci, 4, level, bound)}</span>'


def _capped(items: list, limit: int) -> tuple[list, str]:
    """The first ``limit`` items and a note saying how many were left out ("" if none)."""
    if len(items) <= limit:
        return items, ""
    return items[:limit], f'<p class="note">{len(items) - limit} more left out (showing the first {limit}).</p>'


def _colour(value, low: float, high: float) -> str:
    """White to dark blue for value in [low, high] (clipped); grey for None."""
    if value is None:
        return "#eeeeee"
    t = 0.0 if high <= low else min(max((value - low) / (high - low), 0.0), 1.0)
    r, g, b = (round(255 + (end - 255) * t) for end in (8, 69, 148))
    return f"#{r:02x}{g:02x}{b:02x}"


def _svg(width: float, height: float, body: str, label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{_e(label)}">{body}</svg>')


def _legend(series, x: float, y: float) -> str:
    parts = []
    for index, (name, colour) in enumerate(series):
        left = x + index * 120
        parts.append(f'<rect x="{left:.1f}" y="{y - 9:.1f}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{left + 14:.1f}" y="{y:.1f}" class="small">{_e(name)}</text>')
    return "".join(parts)


def bar_chart(groups: list[tuple[str, list]], series=SERIES, label: str = "bar chart") -> str:
    """Grouped vertical bars, one group per label, one bar per series; None bars are left out."""
    values = [v for _, vs in groups for v in vs if v is not None]
    low = min([0.0, *values])
    high = max([1.0, *values])
    plot_h, top = 220.0, 26.0
    shown = short_names([name for name, _ in groups], 18)
    left = max(46.0, 10.0 + 5.6 * max([len(label) for label in shown] + [0]))  # room for slanted labels
    group_w = max(28.0, 14.0 * len(series) + 14)
    width = max(left + group_w * len(groups) + 20, left + 120 * len(series) + 10)
    height = top + plot_h + 70

    def y(v):
        return top + (high - v) / (high - low) * plot_h

    body = [_legend(series, left, 14)]
    ticks = sorted({round(low, 1), 0.0, 0.25, 0.5, 0.75, 1.0})
    for tick in ticks:
        if low - 1e-9 <= tick <= high + 1e-9:
            body.append(f'<line x1="{left:.1f}" x2="{width - 10:.1f}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
                        f'class="grid"/><text x="{left - 4:.1f}" y="{y(tick) + 4:.1f}" class="small" '
                        f'text-anchor="end">{tick:.2f}</text>')
    bar_w = (group_w - 10) / len(series)
    for g, (name, vals) in enumerate(groups):
        x0 = left + g * group_w + 5
        for s, value in enumerate(vals):
            if value is None:
                continue
            top_y, bottom_y = sorted((y(value), y(0.0)))
            body.append(f'<rect x="{x0 + s * bar_w:.1f}" y="{top_y:.1f}" width="{bar_w - 1:.1f}" '
                        f'height="{max(bottom_y - top_y, 0.5):.1f}" fill="{series[s][1]}">'
                        f'<title>{_e(name)}: {_e(series[s][0])} {value:.4f}</title></rect>')
        cx = x0 + (group_w - 10) / 2
        body.append(f'<text x="{cx:.1f}" y="{top + plot_h + 14:.1f}" class="small" text-anchor="end" '
                    f'transform="rotate(-35 {cx:.1f} {top + plot_h + 14:.1f})">{_e(shown[g])}</text>')
    body.append(f'<line x1="{left:.1f}" x2="{width - 10:.1f}" y1="{y(0.0):.1f}" y2="{y(0.0):.1f}" class="axis"/>')
    return _svg(width, height, "".join(body), label)


def heat_map(rows: list[str], columns: list[str], values: list[list], label: str, digits: int = 0,
             low: float | None = None, high: float | None = None, log: bool = False,
             row_title: str = "", column_title: str = "") -> str:
    """A matrix of coloured cells with the value written in each; ``log`` colours by log(1 + v)."""
    present = [v for row in values for v in row if v is not None]
    scale = (lambda v: math.log1p(max(v, 0.0))) if log else (lambda v: v)
    low = scale(min(present)) if low is None and present else (low if low is not None else 0.0)
    high = scale(max(present)) if high is None and present else (high if high is not None else 1.0)
    cell = 58.0 if digits else 64.0
    row_labels, column_labels = short_names(rows, 18), short_names(columns, 18)
    left = 16 + 7.0 * max([len(label) for label in row_labels] + [4])
    top = 30 + 6.0 * max([len(label) for label in column_labels] + [4])
    width, height = left + cell * len(columns) + 10, top + cell * len(rows) + 24
    body = [f'<text x="{left:.1f}" y="12" class="small">{_e(column_title)}</text>']
    for j, column in enumerate(column_labels):
        cx = left + (j + 0.5) * cell
        body.append(f'<text x="{cx:.1f}" y="{top - 6:.1f}" class="small" transform="rotate(-40 {cx:.1f} '
                    f'{top - 6:.1f})">'
                    f'{_e(column)}</text>')
    for i, row in enumerate(rows):
        cy = top + (i + 0.5) * cell
        body.append(f'<text x="{left - 6:.1f}" y="{cy + 4:.1f}" class="small" '
                    f'text-anchor="end">{_e(row_labels[i])}</text>')
        for j, value in enumerate(values[i]):
            fill = _colour(None if value is None else scale(value), low, high)
            dark = value is not None and high > low and (scale(value) - low) / (high - low) > 0.55
            text = "" if value is None else _f(float(value), digits) if digits else str(int(value))
            body.append(f'<rect x="{left + j * cell:.1f}" y="{top + i * cell:.1f}" width="{cell - 1:.1f}" '
                        f'height="{cell - 1:.1f}" fill="{fill}"><title>{_e(row)} / {_e(columns[j])}: '
                        f'{_e(text or "-")}</title></rect>'
                        f'<text x="{left + (j + 0.5) * cell:.1f}" y="{cy + 4:.1f}" text-anchor="middle" '
                        f'class="cell{" light" if dark else ""}">{_e(text)}</text>')
    body.append(f'<text x="4" y="{height - 6:.1f}" class="small">rows: {_e(row_title)}</text>')
    return _svg(width, height, "".join(body), label)


def histogram(values: list, bins: int = HISTOGRAM_BINS, label: str = "histogram") -> str:
    """Counts of ``values`` in ``bins`` equal bins over [0, 1] (None values are not drawn)."""
    counts = [0] * bins
    for value in values:
        if value is not None:
            counts[min(int(value * bins), bins - 1)] += 1
    left, top, plot_w, plot_h = 50.0, 12.0, 520.0, 200.0
    highest = max([*counts, 1])
    body = []
    for tick in (0, highest // 2, highest):
        ty = top + plot_h - tick / highest * plot_h
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{ty:.1f}" y2="{ty:.1f}" class="grid"/>'
                    f'<text x="{left - 4}" y="{ty + 4:.1f}" class="small" text-anchor="end">{tick}</text>')
    width = plot_w / bins
    for index, count in enumerate(counts):
        h = count / highest * plot_h
        body.append(f'<rect x="{left + index * width:.1f}" y="{top + plot_h - h:.1f}" width="{width - 1:.1f}" '
                    f'height="{h:.1f}" fill="{CHANCE}"><title>chance F1 in [{index / bins:.2f}, '
                    f'{(index + 1) / bins:.2f}): {count} sentences</title></rect>')
    for share in (0.0, 0.25, 0.5, 0.75, 1.0):
        body.append(f'<text x="{left + share * plot_w:.1f}" y="{top + plot_h + 16:.1f}" class="small" '
                    f'text-anchor="middle">{share:.2f}</text>')
    body.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 34:.1f}" class="small" text-anchor="middle">'
                f'chance F1 of the sentence</text>')
    return _svg(left + plot_w + 12, top + plot_h + 42, "".join(body), label)


def scatter_plot(points: list[dict], label: str = "observed against corrected F1") -> str:
    """Observed (x) against corrected (y) F1 per system, the diagonal corrected = observed, and the
    corrected F1 interval as a vertical bar when a point has ``ci``."""
    values = [p["x"] for p in points] + [p["y"] for p in points]
    values += [v for p in points if p.get("ci") for v in p["ci"]]
    low, high = min(values), max(values)
    pad = max(0.02, 0.08 * (high - low))
    low, high = max(-1.0, low - pad), min(1.0, high + pad)
    left, top, size = 56.0, 12.0, 360.0

    def sx(v):
        return left + (v - low) / (high - low) * size

    def sy(v):
        return top + (high - v) / (high - low) * size

    body = [f'<rect x="{left}" y="{top}" width="{size}" height="{size}" fill="none" class="axis"/>',
            f'<line x1="{sx(low):.1f}" y1="{sy(low):.1f}" x2="{sx(high):.1f}" y2="{sy(high):.1f}" class="diagonal"/>']
    for k in range(5):
        tick = low + k * (high - low) / 4
        body.append(f'<text x="{sx(tick):.1f}" y="{top + size + 16:.1f}" class="small" '
                    f'text-anchor="middle">{tick:.3f}</text>'
                    f'<text x="{left - 4:.1f}" y="{sy(tick) + 4:.1f}" class="small" '
                    f'text-anchor="end">{tick:.3f}</text>')
    for p in points:
        x, y = sx(p["x"]), sy(p["y"])
        if p.get("ci"):
            body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{sy(p["ci"][0]):.1f}" y2="{sy(p["ci"][1]):.1f}" '
                        'class="errorbar"/>')
        body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{CORRECTED}"><title>{_e(p["label"])}: observed '
                    f'{p["x"]:.4f}, corrected {p["y"]:.4f}</title></circle>'
                    f'<text x="{x + 7:.1f}" y="{y - 6:.1f}" class="small">{_e(short_name(p["mark"], 24))}</text>')
    body.append(f'<text x="{left + size / 2:.1f}" y="{top + size + 34:.1f}" class="small" '
                'text-anchor="middle">observed F1</text>'
                f'<text x="14" y="{top + size / 2:.1f}" class="small" text-anchor="middle" '
                f'transform="rotate(-90 14 {top + size / 2:.1f})">chance-corrected F1</text>')
    return _svg(left + size + 120, top + size + 44, "".join(body), label)


# --- the page ------------------------------------------------------------------------------------

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0;
       color: #1f2328; background: #ffffff; line-height: 1.45; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 28px 60px; }
h1 { font-size: 1.6em; margin: 0.3em 0 0.2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 2px solid #d0d7de; padding-bottom: 4px; }
h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; }
p.meta { color: #57606a; margin-top: 0; }
.cards { display: flex; flex-wrap: wrap; gap: 16px; }
.card { flex: 1 1 320px; border: 1px solid #d0d7de; border-radius: 8px; padding: 12px 16px; background: #f6f8fa; }
.card .big { font-size: 2em; font-weight: 600; color: #1f2328; }
.card p.read { color: #424a53; font-size: 0.92em; margin-bottom: 0; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.92em; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; white-space: nowrap; }
th { background: #f6f8fa; }
bdi.name { display: inline-block; max-width: 24em; white-space: normal; overflow-wrap: anywhere; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.muted { color: #6e7781; font-size: 0.9em; }
.ci { color: #424a53; }
.note { color: #9a6700; font-style: italic; }
.figures { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.figures > div { max-width: 100%; }
p.muted, p.read { max-width: 760px; }
svg { max-width: 100%; height: auto; }
svg text { font-family: inherit; fill: #1f2328; }
svg text.small { font-size: 11px; }
svg text.cell { font-size: 11px; }
svg text.light { fill: #ffffff; }
svg .grid { stroke: #e5e7eb; stroke-width: 1; }
svg .axis { stroke: #57606a; stroke-width: 1; }
svg .diagonal { stroke: #8c959f; stroke-dasharray: 5 4; stroke-width: 1; }
svg .errorbar { stroke: #1f2328; stroke-width: 1.5; }
mark.ent { padding: 0 2px; border-radius: 3px; color: #1f2328; }
mark.ent sub { font-size: 0.7em; font-weight: 600; color: #424a53; margin-left: 2px; }
td.sentence { max-width: 520px; min-width: 260px; white-space: normal; }
td.sentence.stacked { max-width: 760px; }
.stack { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 10px; }
.stack .who { font-weight: 600; color: #57606a; font-size: 0.85em; padding-top: 2px; }
.up { color: #1a7f37; } .down { color: #cf222e; }
"""


def _header(*cells: str) -> str:
    return "<tr>" + "".join(f"<th>{_e(cell)}</th>" for cell in cells) + "</tr>"


def _section(heading: str, anchor: str, body: str) -> str:
    return f'<section id="{_e(anchor)}"><h2>{_e(heading)}</h2>{body}</section>'


def _card(title: str, value_html: str, details: str, how: str) -> str:
    return (f'<div class="card"><h3>{_e(title)}</h3><div class="big">{value_html}</div>'
            f'<div>{details}</div><p class="read">{how}</p></div>')


SHOWN_NOISE = ("noise_bound", "noisy_items", "p", "p_least_favourable", "noise_bound_least_favourable")


def _noise_meanings() -> str:
    """What the noise card's numbers mean, one plain sentence each (``noise.key_meanings``)."""
    items = "".join(f"<li><b>{_e(key)}</b>: {_e(noise_meaning(key))}</li>" for key in SHOWN_NOISE)
    return f'<details><summary>What these numbers mean</summary><ul class="muted">{items}</ul></details>'



def _least_favourable(noise: dict, notes: list) -> str:
    """The bound under the least favourable p, when it differs, and the model's flags."""
    if noise["noise_bound_least_favourable"] == noise["noise_bound"] and not notes:
        return ""
    text = (f'<br>under the least favourable p = {_f(noise["p_least_favourable"])}: '
            f'{_num("summary/noise_bound_least_favourable", noise["noise_bound_least_favourable"], tag="span")}')
    return text + "".join(f'<br><span class="muted">{_e(note)}</span>' for note in notes)


def _summary(data: dict) -> str:
    result, noise, team, ci_level = data["result"], data["noise"], "team" in data, data.get("confidence_level")
    corrected = result["overall_corrected_f1"]
    words = reading(corrected, result.get("overall_corrected_f1_ci"), confidence_level=ci_level)
    f1_card = _card(
        "Chance-corrected F1" + (" (all pairs pooled)" if team else ""),
        _score("summary/overall_corrected_f1", corrected, tag="span"),
        _interval(result, "overall_corrected_f1", "summary/overall_corrected_f1_ci", data["no_interval"], ci_level)
        + f'<br>'
        f'observed F1 {_score("summary/overall_observed_f1", result["overall_observed_f1"], tag="span")}, '
        f'chance F1 {_score("summary/overall_chance_f1", result["overall_chance_f1"], tag="span")}'
        + (f'<br><span class="muted">undefined: {_e(reason)}</span>' if (reason := undefined_reason(
            {key: result[f"overall_{key}"] for key in SCORES})) else ""),
        (f"In words: {_e(words)}. " if words else "")
        + f"How to read it: 1 is perfect agreement, 0 is what two annotators reach when they place the same "
        f"number of spans of the same lengths at random ({_e(data['model'].replace('_', '-'))} random model, "
        f"{_e(data['level'])} level), below 0 is worse than chance. The words follow the "
        f"{_e(SCALE_TITLES[READING_SCALE])} scale, made for kappa and applied to corrected F1 as a convention.")
    names = {**titles(), **_NAMES}
    family = list(KAPPA_FAMILY) + [key for key in titles() if key not in KAPPA_FAMILY and key in data["coefficients"]]
    rows = "".join(f"<tr><th>{_e(names[key])}</th>{_num('summary/' + key, data['coefficients'][key])}</tr>"
                   for key in family)
    if team:
        rows += "".join(f"<tr><th>{_e(_NAMES[key])}</th>{_num('summary/' + key, data['multi'][key])}</tr>"
                        for key in TEAM_KAPPA)
    kappa = data["multi"]["fleiss_kappa"] if team else data["coefficients"]["cohen_kappa"]
    kappa_words = reading(kappa)
    kappa_card = _card(
        "Kappa family", _num("summary/headline_kappa", kappa, tag="span"),
        (f"{_NAMES['fleiss_kappa']}; the first four rows from the contingency table of all pairs"
         if team else _NAMES["cohen_kappa"]) + f"<table>{rows}</table>",
        (f"In words: {_e(kappa_words)}. " if kappa_words else "")
        + "How to read it: agreement on each token's category (entity type or O) beyond what the category "
        "proportions predict, from the <a href=\"#contingency\">contingency table</a>; the many tokens both "
        "leave as O count as agreement, so on sparse entities these run higher than the corrected F1.")
    noise_card = _card(
        "Noise bound of the agreed subset",
        _num("summary/noise_bound", noise["noise_bound"], tag="span"),
        f'{_num("summary/noisy_items", noise["noisy_items"], tag="span")} of '
        f'{_num("summary/agreed", noise["agreed"], tag="span")} agreed tokens '
        f'({noise["disagreed"]} of {noise["instances"]} disagreed; hard-case agreement p = {_f(noise["p"])})'
        + _least_favourable(noise, data.get("noise_notes", [])) + _noise_meanings(),
        f"How to read it: with {noise['confidence_level']:.0%} confidence, at most this share of the tokens the "
        "annotators agree on are hard cases they agreed on by luck, i.e. noise in a gold standard built "
        "from the agreed tokens (Beigman Klebanov &amp; Beigman 2009, eq. 1).")
    return _section("Summary", "summary", f'<div class="cards">{f1_card}{kappa_card}{noise_card}</div>')


_NAMES = {"observed_agreement": "observed agreement", "bennett_s": "Bennett's S", "scott_pi": "Scott's pi",
          "cohen_kappa": "Cohen's kappa", "fleiss_kappa": "Fleiss' kappa",
          "krippendorff_alpha": "Krippendorff's alpha (nominal)"}


def _types(result: dict) -> list[str]:
    return [key for key, value in result.items() if isinstance(value, dict) and "corrected_f1" in value]


def _per_type(data: dict) -> str:
    result, support, reason = data["result"], data["sentences"]["support"], data["no_interval"]
    ci_level = data.get("confidence_level")
    types, note = _capped(_types(result), MAX_TYPES)
    head = _header("type", "support", "observed F1", "chance F1", "corrected F1", "corrected F1 interval")
    rows = []
    for name in types:
        scores = result[name]
        count = support.get(name, 0) if support else scores.get("number")
        rows.append(f"<tr><th>{_e(name)}</th>{_num(f'types/{name}/number', count)}"
                    + "".join(_score(f"types/{name}/{key}", scores[key]) for key in SCORES)
                    + f"<td>{_interval(scores, 'corrected_f1', f'types/{name}/corrected_f1_ci', reason, ci_level)}"
                    + "</td></tr>")
    overall_support = _num("types/overall/number", support["overall"]) if support else "<td></td>"
    rows.append(f"<tr><th>overall</th>{overall_support}"
                + "".join(_score(f"types/overall/{key}", result[f"overall_{key}"]) for key in SCORES)
                + f"<td>{_interval(result, 'overall_corrected_f1', 'types/overall/corrected_f1_ci', reason, ci_level)}"
                + "</td></tr>")
    chart = bar_chart([(name, [result[name][key] for key in SCORES]) for name in types]
                      + [("overall", [result[f"overall_{key}"] for key in SCORES])], label="F1 per entity type")
    support = (f"the entity spans of each type, all {len(data['annotators'])} annotators together" if "team" in data
               else f"the entity spans of {_e(data['annotators'][0])}")
    if "team" in data and ci_level is not None:
        support += (". The intervals of the team come from a bootstrap over sentences, every pair of a sentence "
                    "resampled together")
    body = (f'<p class="muted">{_e(data["compared"])}. Support: {support}.</p>'
            f'<div class="figures"><div><table>{head}{"".join(rows)}</table>{note}</div>{chart}</div>')
    return _section("Per entity type", "types", body)


def _documents(data: dict) -> str:
    """The scores of each document (``data["documents"]``), as the per-type table shows types."""
    ci_level = data.get("confidence_level")
    rows, shown = [], data["documents"][:MAX_ROWS * 5]
    for row in shown:
        key = f"documents/{row['document']}"
        reason = _document_reason(row, data)
        interval = f"<td>{_interval(row, 'corrected_f1', f'{key}/corrected_f1_ci', reason, ci_level)}</td>"
        rows.append(f"<tr><th>{isolated_name(row['document'])}</th>{_num(key + '/sentences', row['sentences'])}"
                    + "".join(_score(f"{key}/{score}", row[score]) for score in SCORES) + interval + "</tr>")
    left_out = len(data["documents"]) - len(shown)
    head = _header("document", "sentences", "observed F1", "chance F1", "corrected F1", "corrected F1 interval")
    note = (f'<p class="note">{left_out} more documents left out (showing the first {len(shown)}).</p>'
            if left_out else "")
    body = (f'<p class="muted">{_e(data["compared"])}, document by document: the statistics of the document\'s '
            f'sentences summed (every pair pooled for a team). Sentence numbers elsewhere on the page name their '
            f'document.</p><table>{head}{"".join(rows)}</table>{note}')
    return _section(f"Per document ({len(data['documents'])} documents)", "documents", body)


def _document_reason(row: dict, data: dict) -> str:
    if row["corrected_f1"] is None:
        return "none: corrected F1 is undefined"
    if row["sentences"] < 2 and data.get("confidence_level") is not None:
        return "none: one sentence, nothing to resample"
    return data["no_interval"]


def _square(categories: list[str], matrix: list[list], keep: int) -> tuple[list[str], list[list], str]:
    """The ``keep`` most used categories (O always kept) of a square matrix, and a note on the rest."""
    categories, matrix, left_out = most_used(categories, matrix, keep, always=NOTHING)
    note = f'<p class="note">{left_out} more categories left out (the least used).</p>' if left_out else ""
    return categories, matrix, note


def _contingency(data: dict) -> str:
    table = data["contingency"]
    categories, matrix, note = _square(table["categories"], table["table"], MAX_CATEGORIES)
    counts = heat_map(categories, categories, matrix, "contingency table", log=True,
                      row_title=table["rows"], column_title=f"columns: {table['columns']}")
    similarity = data["coefficients"]["category_similarity"]
    values = [[similarity[a][b] for b in categories] for a in categories]
    sims = heat_map(categories, categories, values, "category similarities", digits=3, low=0.0, high=1.0,
                    row_title="category", column_title="similar category")
    body = (f'<p>Token categories of {_e(data["compared"])}: each token counts once in the cell of the '
            f'category its rows annotator gave it (entity type or O) and the one the columns annotator gave it. '
            f'Colours follow log(1 + count).</p><div class="figures"><div><h3>Contingency table</h3>{counts}'
            f'{note}</div><div><h3>Category similarities</h3>{sims}<p class="muted">Sim(C1, C2) = (P(C2|C1) + '
            f'P(C1|C2)) / 2, P(C2|C1) = (n(C1,C2) + n(C2,C1)) / (r(C1) + c(C1)) (prevalence paper, '
            f'section 4.2, Table 8): how often a token one annotator put in C1 got C2 from the other.</p></div></div>')
    return _section("Contingency table and category similarities", "contingency", body)


def _annotated(tokens: list[str], spans: list[list], colours: dict) -> str:
    """The sentence with each span wrapped in a mark coloured by its type."""
    starts = {start: (name, end) for name, start, end in spans}
    parts, position = [], 0
    while position < len(tokens):
        if position in starts:
            name, end = starts[position]
            parts.append(f'<mark class="ent" style="background:{colours.get(name, TYPE_COLOURS[0])}" '
                         f'title="{_e(name)}">{_e(" ".join(tokens[position:end]))}<sub>{_e(name)}</sub></mark>')
            position = end
        else:
            parts.append(_e(tokens[position]))
            position += 1
    return " ".join(parts)


def _sentences(data: dict) -> str:
    chances = data["sentence_chance"]
    undefined = sum(value is None for value in chances)
    chart = histogram(chances, label="per-sentence chance F1")
    sentences = data["sentences"]
    names = sentences["annotators"]
    all_types = sorted({span[0] for row in sentences["shown"] for spans in row["spans"].values() for span in spans})
    colours = {name: TYPE_COLOURS[i % len(TYPE_COLOURS)] for i, name in enumerate(all_types)}
    stacked = len(names) > 2  # side by side, three or more would run past the window
    named = any("document" in row for row in sentences["shown"])
    head = _header("sentence", *(["document"] if named else []), "annotated", "observed", "chance", "corrected",
                   *(["annotations"] if stacked else names))
    rows = []
    for row in sentences["shown"]:
        key = f"sentences/{row['sentence']}"
        if stacked:
            lines = "".join(f'<div class="who">{isolated_name(who)}</div>'
                            + (f'<div>{_annotated(row["tokens"], row["spans"][who], colours)}</div>'
                               if who in row["spans"] else '<div class="muted">not annotated</div>') for who in names)
            texts = f'<td class="sentence stacked"><div class="stack">{lines}</div></td>'
        else:
            texts = "".join(f'<td class="sentence">{_annotated(row["tokens"], row["spans"][name], colours)}</td>'
                            for name in names)
        document = f"<td>{isolated_name(row['document'])}</td>" if named else ""
        rows.append(f"<tr>{_num(key + '/sentence', row['sentence'])}{document}"
                    f"{_num(key + '/denominator', row['denominator'], 0)}"
                    + "".join(_num(f"{key}/{score}", row[score]) for score in SCORES) + texts + "</tr>")
    note = (f'<p class="note">{sentences["left_out"]} more sentences with disagreement beyond chance left out '
            f'(showing the first {len(sentences["shown"])}).</p>' if sentences["left_out"] else "")
    legend = " ".join(f'<mark class="ent" style="background:{colour}">{_e(name)}</mark>'
                      for name, colour in colours.items())
    table = (f"<table>{head}{''.join(rows)}</table>" if rows else
             "<p>No sentence has disagreement beyond chance.</p>")
    body = (f'<div class="figures"><div>{chart}</div><div><p>Chance F1 of each sentence: the F1 two random '
            f'annotations with the same spans per type would reach in it. {len(chances) - undefined} sentences '
            f'drawn; {undefined} have no entity on either side and no chance level.</p></div></div>'
            f'<h3>Sentences with the most disagreement beyond chance</h3><p class="muted">Ranked by (1 &minus; '
            f'corrected F1) &times; annotated tokens (the {_e(data["level"])}-level F1 denominator), i.e. observed '
            f'over chance-expected disagreement, weighted by size. Sentence numbers are 1-based, in file order. '
            f'Types: {legend}</p>{table}{note}')
    return _section("Sentences", "sentences", body)


def _team(data: dict) -> str:
    team = data["team"]
    names, matrix = team["annotators"], team["pairwise_corrected_f1"]
    shown, note = _capped(list(range(len(names))), MAX_ROWS)
    labels = [names[i] for i in shown]
    values = [[matrix[i][j] for j in shown] for i in shown]
    present = [v for row in values for v in row if v is not None]
    chart = heat_map(labels, labels, values, "pairwise corrected F1", digits=3, low=min([*present, 0.0]), high=1.0,
                     row_title="annotator", column_title="other annotator")
    grid = "".join(f"<tr><th>{isolated_name(labels[a])}</th>" + "".join(
        _num(f"pairwise/{labels[a]}/{labels[b]}", values[a][b]) for b in range(len(labels))) + "</tr>"
        for a in range(len(labels)))
    rows = "".join(f"<tr><th>{isolated_name(who)}</th>" + "".join(
        (_score(f"annotators/{who}/{key}", team["per_annotator"][who][key]) if team["per_annotator"][who] else
         _num(f"annotators/{who}/{key}", None)) for key in SCORES) + "</tr>" for who in labels)
    bars = bar_chart([(who, [(team["per_annotator"][who] or {}).get(key) for key in SCORES]) for who in labels],
                     label="each annotator against the rest")
    heads = "".join(f"<th>{isolated_name(who)}</th>" for who in labels)
    body = ('<h3>Pairwise corrected F1</h3><div '
            f'class="figures">{chart}<table><tr><th></th>{heads}</tr>{grid}</table></div>'
            f'{note}<h3>Each annotator against the rest</h3><p class="muted">The pooled statistics of the '
            f'annotator\'s pairs.</p><div class="figures"><table>'
            f'{_header("annotator", "observed F1", "chance F1", "corrected F1")}{rows}</table>{bars}</div>')
    return _section("Several annotators", "annotators", body)


def _row_reason(row: dict, data: dict) -> str:
    if row["corrected_f1"] is None:
        return "none: corrected F1 is undefined"
    return data["no_interval"]


def _leaderboard(data: dict) -> str:
    board, ci_level = data["leaderboard"], data.get("confidence_level")
    systems, note = _capped(board["systems"], MAX_ROWS)
    rows = []
    for row in systems:
        key = f"leaderboard/{row['system']}"
        change = row["rank_change"]
        arrow = (f'<span class="up">&#9650; +{change:d}</span>' if change and change > 0 else
                 f'<span class="down">&#9660; {change:d}</span>' if change else "0")
        scores = "".join(_score(f"{key}/{k}", row[k]) for k in SCORES)
        interval = _interval(row, "corrected_f1", f"{key}/corrected_f1_ci", _row_reason(row, data), ci_level)
        rows.append(f"<tr>{_num(key + '/corrected_rank', row['corrected_rank'])}"
                    f"<th>{isolated_name(row['system'])}</th>"
                    + scores
                    + f"<td>{interval}</td>"
                    + f"{_num(key + '/observed_rank', row['observed_rank'])}<td>{arrow}</td></tr>")
    head = _header("rank", "system", "observed F1", "chance F1", "corrected F1", "corrected F1 interval",
                   "observed rank", "rank change")
    points = [{"x": row["observed_f1"], "y": row["corrected_f1"], "ci": row.get("corrected_f1_ci"),
               "label": row["system"], "mark": f"{row['corrected_rank']}. {row['system']}"}
              for row in systems if row["corrected_f1"] is not None]
    plot = scatter_plot(points) if points else '<p class="muted">No system has a defined corrected F1.</p>'
    notes = "".join(f'<p class="muted">{_e(text)}</p>' for text in board.get("notes", []))
    body = (f'<p>Systems against the gold standard {_e(data["annotators"][0])}, ranked by corrected F1; rank change = '
            f'observed rank &minus; corrected rank. The other sections compare {_e(data["compared"])}.</p>'
            f'<table>{head}{"".join(rows)}</table>{note}{notes}<h3>Observed against corrected F1</h3>{plot}'
            f'<p class="muted">The dashed diagonal is corrected = observed; the distance below it is what chance '
            f'explains.</p>')
    return _section("Leaderboard", "leaderboard", body)


def _reading_notes(data: dict) -> str:
    notes = data.get("reading_notes") or []
    return f"<ul class=\"meta\">{''.join(f'<li>{_e(note.strip())}</li>' for note in notes)}</ul>" if notes else ""


def render_report(data: dict) -> str:
    """Render :func:`report_data`'s dict as one self-contained HTML page.

    Parameters
    ----------
    data : dict
        A dict as :func:`report_data` returns it; a section whose keys are absent is left out (an
        interval is shown where a ``*_ci`` key is present, the several-annotators sections where
        ``team`` is).

    Returns
    -------
    str
        The page: inline styles and hand-written SVG figures, no JavaScript, no network.

    See Also
    --------
    html_report : Gather, render and write in one call.

    Examples
    --------
    >>> tokens = [["Ada", "Lovelace", "met", "Babbage", "."], ["She", "lived", "in", "London", "."]]
    >>> annotations = {"anna": [["B-PER", "I-PER", "O", "B-PER", "O"], ["O", "O", "O", "B-LOC", "O"]],
    ...                "bob": [["B-PER", "I-PER", "O", "O", "O"], ["O", "O", "O", "B-LOC", "O"]]}
    >>> page = render_report(report_data(tokens, annotations, confidence_level=None))
    >>> page.startswith("<!DOCTYPE html>"), "<title>Agreement report: anna vs bob</title>" in page
    (True, True)
    >>> "<script" in page
    False
    """
    parts = [_summary(data)]
    if "leaderboard" in data:
        parts.append(_leaderboard(data))
    if "team" in data:
        parts.append(_team(data))
    parts += [_per_type(data)] + ([_documents(data)] if "documents" in data else []) + [_contingency(data)]
    parts.append(_sentences(data))
    if "gamma" in data:
        parts.append(gamma_html(data["gamma"]))
    if "annotator_test" in data:
        parts.append(annotator_html(data["annotator_test"]))
    names = ", ".join(isolated_name(who) for who in data["annotators"][:MAX_ROWS])
    more = f" and {len(data['annotators']) - MAX_ROWS} more" if len(data["annotators"]) > MAX_ROWS else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_e(data['title'])}</title><style>{STYLE}</style></head><body><main>"
            f"<h1>{_title(data)}</h1><p class=\"meta\">Annotations: {names}{more}. Compared: "
            f"{_e(data['compared'])}; {data.get('sentence_count', '?')} sentences; {_e(data['level'])} level, "
            f"{_e(data['model'].replace('_', '-'))} random model. Made by chance-agreement.</p>"
            + _reading_notes(data) + "".join(parts) + "</main></body></html>\n")


# --- files, the one-call form and the command line -----------------------------------------------


def load_annotations(specs, names=None, first_column: int = 1, other_column: int = -1, *, crossing: str = "error",
                     scheme=None, mode=None, suffix: bool = False, notes: list | None = None, partial: bool = True,
                     documents: list | None = None, redact: bool = False, **read_options) -> tuple[list, dict]:
    """``(tokens, {name: tags})`` from annotation files of any format the reader registry reads
    (``spans.annotators.read_annotators``), given as ``FILE`` or ``FILE:COLUMN``.

    Without a column the first column file's tags are read from ``first_column`` and the others'
    from ``other_column``; one file alone gives all of its annotators. Names are the annotators'
    ids or file names (with the column when two would be equal); with ``partial`` (the default)
    annotators may hold different documents (``spans.annotators.align``: a tag list is None where
    its annotator did not annotate the sentence; the notes say the coverage), else every file must
    have the first one's documents. A document's tokens must be the same for every annotator.
    Crossing spans follow ``crossing``; overlapping types become layers; what that changed is
    appended to ``notes`` when given (``team_report.reading_notes``), and each sentence's document
    to ``documents`` (``Team.documents``). ``redact`` replaces the token text by positions
    (``Team.redact``) before anything is built from it.
    """
    team = _read_team(specs, names, first_column, other_column, partial, redact, read_options)
    tokens, tags = team.flat(scheme=scheme, mode=mode, suffix=suffix, crossing=crossing)
    _add_notes(team, tokens, notes, documents)
    return tokens, dict(zip(names or team.names, tags, strict=True))


def load_annotation_set(specs, names=None, first_column: int = 1, other_column: int = -1, *, crossing: str = "error",
                        scheme=None, mode=None, suffix: bool = False, notes: list | None = None, partial: bool = True,
                        documents: list | None = None, redact: bool = False,
                        **read_options) -> tuple[list, AnnotationSet]:
    """``(tokens, annotations)``: :func:`load_annotations`' reading as the ``AnnotationSet`` that
    :func:`report_data` and :func:`html_report` take, every file chunked once (``flat_team``: a bad
    tag still named by its file and line); the annotators named by ``names``, else as there.

    Parameters
    ----------
    specs, names, first_column, other_column, crossing, scheme, mode, suffix, notes, partial, documents, redact
        As in :func:`load_annotations`.
    **read_options
        Options of ``read_annotators``.

    Returns
    -------
    (list, AnnotationSet)

    Raises
    ------
    ValueError
        As :func:`load_annotations`.

    Examples
    --------
    >>> tokens, annotations = load_annotation_set(["examples/anna.conll", "examples/ben.conll"])
    >>> annotations.names, annotations.n_items == len(tokens)
    (('anna', 'ben'), True)
    """
    team = _read_team(specs, names, first_column, other_column, partial, redact, read_options)
    tokens, _, annotations = flat_team(team, scheme=scheme, mode=mode, suffix=suffix, crossing=crossing)
    _add_notes(team, tokens, notes, documents)
    return tokens, annotations if names is None else dataclasses.replace(annotations, names=tuple(names))


def _read_team(specs, names, first_column: int, other_column: int, partial: bool, redact: bool, read_options):
    """The team of :func:`load_annotations`' files, checked (see there)."""
    specs = [str(spec) for spec in specs]
    columns = None if len(specs) == 1 else [first_column] + [other_column] * (len(specs) - 1)
    team = read_annotators(specs, columns=columns, partial=partial, **read_options)
    if redact:
        team.redact()
    if len(team.names) < 2:
        raise ValueError(f"give at least two annotations, got {len(team.names)} in {specs}")
    if names is not None and len(names) != len(team.names):
        raise UsageError(f"--names gives {len(names)} names for {len(team.names)} annotations")
    return team


def _add_notes(team, tokens: list, notes: list | None, documents: list | None) -> None:
    """What reading changed onto ``notes``, each sentence's document onto ``documents`` (when given)."""
    if notes is not None:
        notes += reading_notes(team)
    if documents is not None:
        documents += team.documents(tokens)


def html_report(tokens, annotations: dict | AnnotationSet, path=None, *, reading_notes: list | None = None,
                annotator_test=None, **options) -> str:
    """Build the HTML agreement report of two or more annotations, and write it when asked.

    Parameters
    ----------
    tokens : list of list of str
        The sentences' tokens.
    annotations : dict or AnnotationSet
        ``{name: tag sequences}``, in order, or their set (see :func:`report_data`).
    path : str or os.PathLike, optional
        Where to write the page (UTF-8, whole or not at all).
    reading_notes : list of str, optional
        What reading the files changed, listed under the title.
    annotator_test : dict, optional
        An annotator test's report, which adds its section.
    **options
        The options of :func:`report_data` (``leaderboard``, ``level``, ``model``, ``scheme``,
        ``confidence_level``, ``gamma_samples``...).

    Returns
    -------
    str
        The HTML page (:func:`render_report`).

    Raises
    ------
    ValueError
        As :func:`report_data`.
    OSError
        When ``path`` cannot be written.

    See Also
    --------
    report_data, render_report : The two steps.

    Examples
    --------
    >>> tokens = [["Ada", "Lovelace", "met", "Babbage", "."], ["She", "lived", "in", "London", "."]]
    >>> annotations = {"anna": [["B-PER", "I-PER", "O", "B-PER", "O"], ["O", "O", "O", "B-LOC", "O"]],
    ...                "bob": [["B-PER", "I-PER", "O", "O", "O"], ["O", "O", "O", "B-LOC", "O"]]}
    >>> page = html_report(tokens, annotations, confidence_level=None, title="Two annotators")
    >>> "<h1><bdi>Two annotators</bdi></h1>" in page
    True
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = html_report(tokens, annotations, pathlib.Path(folder) / "report.html", confidence_level=None)
    ...     (pathlib.Path(folder) / "report.html").read_text(encoding="utf-8") == written
    True
    """
    data = report_data(tokens, annotations, **options)
    if reading_notes:
        data["reading_notes"] = list(reading_notes)
    if annotator_test is not None:
        data["annotator_test"] = annotator_test
    page = render_report(data)
    if path is not None:
        write_file(path, page)
    return page


__all__ = [
    "HISTOGRAM_BINS",
    "KAPPA_FAMILY",
    "MAX_CATEGORIES",
    "MAX_ROWS",
    "MAX_SENTENCES",
    "MAX_TYPES",
    "SCORES",
    "SERIES",
    "SHOWN_NOISE",
    "STYLE",
    "TEAM_KAPPA",
    "TYPE_COLOURS",
    "bar_chart",
    "heat_map",
    "histogram",
    "html_report",
    "load_annotation_set",
    "load_annotations",
    "render_report",
    "report_data",
    "scatter_plot",
]
