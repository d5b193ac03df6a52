"""One agreement report for an annotation team (``chance-agreement agreement A.conll B.conll ...``).

The annotators are tag columns of token-aligned CoNLL files (separate files, or columns of one
file). The report is a list of sections, each built by one function of ``SECTIONS`` from the same
``Annotations``; a section holds its full numbers (for JSON) and the tables shown in text,
Markdown and CSV. Two annotators (the first is the reference):

- chance-corrected F1 at token and entity level, per type (chance-F1 paper, eq. 4-6);
- the coefficients (Bennett's S, Scott's pi, Cohen's kappa, ...) with the contingency table they
  come from (prevalence paper, section 4.1);
- the noise bound of the agreed subset per token and per entity (Beigman Klebanov and Beigman
  2009, eq. 1).

More annotators: every pair's chance-corrected F1, Fleiss' kappa and Krippendorff's alpha with the
category counts behind them, and the noise bound of the subset all agree on. A new section is one
function ``(annotations, options) -> Section | None`` added to ``SECTIONS``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from ..chance.chance_corrected import defined_scores, undefined_reason
from ..chance.corrected_f1 import corpus_total, scores_from_statistics
from ..chance.document_scores import document_chance_f1
from ..chance.random_models import get_model
from ..chance.statistics import LEVELS
from ..chance.team_f1 import by_item, team_chance_f1, team_scores, team_statistics
from ..noise.key_meanings import noise_meaning
from ..noise.noise_model import noise_report, noise_report_multi, report_with_notes
from ..reliability.agreement_coefficients import coefficients, plain
from ..reliability.benchmark_scales import READING_SCALE, SCALE_TITLES, reading
from ..reliability.contingency_table import NOTHING, TooManyCategories, contingency
from ..reliability.multi_annotator import multi_annotator_agreement, token_ratings
from ..reliability.rater_coefficients.ratings import rating_codes
from ..reliability.table_coefficients import get_coefficient, titles
from ..spans.annotation_set import AnnotationSet, flat_team
from ..spans.annotators import read_annotators
from ..spans.tags import effective_scheme
from .command_io import UsageError
from .gamma_report import sentence_gamma
from .progress import progress as show_progress
from .table_output import csv_text, interval_text, markdown_table, most_used

SCORES = ("observed_f1", "chance_f1", "corrected_f1")

FORMATS = ("text", "markdown", "json", "csv")
COEFFICIENTS = ("observed_agreement", "bennett_s", "scott_pi", "cohen_kappa", "finn_r", "f_measure",
                "slot_error_rate")  # the built-in rows; coefficients registered later follow cohen_kappa
NOISE_KEYS = ("instances", "agreed", "disagreed", "p", "noise_bound", "noisy_items", "kappa",
              "tolerable_disagreements", "chance_difference", "p_least_favourable", "noise_bound_least_favourable")
NOISE_UNITS = ("token", "entity")
UNDEFINED_NOISE = ("kappa",)  # noise values whose None means undefined (tolerable_disagreements' None: none)
SHOWN_CATEGORIES = 40  # categories of a contingency table in text, Markdown and CSV (JSON: all)
UNDEFINED = "undefined"  # how text, Markdown and CSV show an undefined score (JSON: null)
REDACTED_NOTE = ("redacted (--redact): no token text in this report; each token is shown as its 0-based position in "
                 "its sentence, spans as type and token offsets")


@dataclass
class Table:
    title: str
    columns: list
    rows: list  # lists of cells: str, int, float or None


@dataclass
class Section:
    key: str  # its key in the JSON report
    title: str
    data: dict
    tables: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # why a value is missing ("-"), shown under the tables
    readings: list = field(default_factory=list)  # how to read the numbers: in words, what a row means


@dataclass
class Annotations:
    """``tags[a][s]`` = annotator a's tags of sentence s; ``names[a]`` how the report calls a;
    ``chunked`` their spans, chunked once for every section (``annotation_set``)."""

    names: list
    tokens: list
    tags: list
    sources: list = field(default_factory=list)
    notes: list = field(default_factory=list)  # what reading changed (``reading_notes``)
    coverage: dict = field(default_factory=dict)  # documents per annotator and pair (``coverage_of``)
    documents: list = field(default_factory=list)  # per sentence, its document's name (``Team.documents``)
    chunked: AnnotationSet | None = None  # ``load_annotations``: the set read with the files (``flat_team``)

    def sentence_label(self, index: int) -> str:
        """How a report names sentence ``index`` (0-based): its 1-based number, with its document
        when the sentences come from several documents ("12 (doc3.ann)")."""
        several = len(set(self.documents)) > 1
        return f"{index + 1} ({self.documents[index]})" if several else str(index + 1)

    @property
    def items(self) -> list:
        """Per sentence the annotators' tag sequences (the several-annotator functions' input;
        None where an annotator does not hold the sentence)."""
        return by_item(self.tags)

    def annotation_set(self, scheme=None, mode=None, suffix: bool = False) -> AnnotationSet:
        """The annotators' spans, chunked once for every section: the set read with the files
        (``load_annotations``), else the set of ``tags`` (``chunked_once``), then kept."""
        if self.chunked is None:
            self.chunked = chunked_once(dict(zip(self.names, self.tags, strict=True)), scheme=scheme, mode=mode,
                                        suffix=suffix)
        else:
            self.chunked.chunked_as(scheme, mode, suffix, "the agreement report")
        return self.chunked

    def complete_set(self, scheme=None, mode=None, suffix: bool = False) -> tuple[list, AnnotationSet, str]:
        """``(indices, set, note)``: the sentences every annotator holds, ``annotation_set``'s set of
        them, for the measures that need every annotator on every item (the noise model, gamma), and
        a note saying so when some are not (else "")."""
        chunked = self.annotation_set(scheme, mode, suffix)
        indices = np.flatnonzero(chunked.present.all(axis=0)).tolist()
        return indices, chunked.select(items=indices), "" if len(indices) == len(self.tokens) else (
            f"computed on the {len(indices)} of {len(self.tokens)} sentence units every annotator holds (it needs "
            f"every annotator on every unit)")


def chunked_once(annotations: dict, *, scheme=None, mode=None, suffix: bool = False) -> AnnotationSet:
    """``{name: tags}`` chunked once for every section of a report: their ``AnnotationSet``. Strict mode
    without a scheme detects it as the scores do: from every annotator's tags (several annotators),
    else from the reference's (the first)."""
    names = list(annotations)
    detected_on = [tags for name in (names if len(names) > 2 else names[:1]) for tags in annotations[name]
                   if tags is not None]
    resolved = effective_scheme(detected_on, scheme, mode, suffix)
    return AnnotationSet.from_tags(annotations, scheme=resolved, mode=mode, suffix=suffix)


# --- reading -------------------------------------------------------------------------------------


def load_annotations(specs, column: int | None = None, names=None, scheme=None, mode=None, suffix=False, *,
                     crossing: str = "error", redact: bool = False, **read_options) -> Annotations:
    """Annotators from any mix of files (``spans.annotators.read_annotators``: any format of the
    reader registry, ``FILE:COLUMN`` for column files, one multi-column or multi-annotator file
    alone meaning all of its annotators), as tags (``Team.flat``: crossing spans by ``crossing``,
    overlapping types one layer each) and as their ``AnnotationSet``, chunked once (``flat_team``).
    Fewer than two annotators, or a wrong number of ``names``, is a ``UsageError``; bad files are
    ValueErrors naming the file and line or document. ``redact`` replaces the token text by
    positions (``Team.redact``) before anything is built from it."""
    team = read_annotators(specs, column=column, partial=True, **read_options)
    if redact:
        team.redact()
    if len(team.names) < 2:
        raise UsageError("give two or more annotators: files, FILE:COLUMN, or one file with two or more annotators "
                         "(tag columns, or annotator ids)")
    if names is not None:
        if len(names) != len(team.names):
            raise UsageError(f"{len(names)} names for {len(team.names)} annotators")
        team.names = list(names)
    tokens, tags, chunked = flat_team(team, scheme=scheme, mode=mode, suffix=suffix, crossing=crossing)
    return Annotations(list(team.names), tokens, tags, list(team.sources), reading_notes(team), coverage_of(team),
                       team.documents(tokens), chunked)


def coverage_of(team) -> dict:
    """``Team.coverage`` in JSON form: ``documents``, ``per_annotator`` {name: documents held},
    ``pairs`` [{"annotators": [a, b], "documents": shared}], ``left_out`` (where each document only
    one annotator holds is).

    Parameters
    ----------
    team : spans.annotators.Team

    Returns
    -------
    dict

    Examples
    --------
    >>> team = read_annotators(["tests/data/partial/doccano/alice.jsonl", "tests/data/partial/doccano/bob.jsonl"],
    ...                        partial=True)
    >>> coverage_of(team)["pairs"]
    [{'annotators': ['alice', 'bob'], 'documents': 2}]
    """
    coverage = team.coverage()
    return {"documents": coverage["units"], "per_annotator": coverage["per_annotator"],
            "pairs": [{"annotators": list(pair), "documents": count} for pair, count in coverage["pairs"].items()],
            "left_out": [where for where, _ in team.left_out]}


def coverage_notes(team) -> list[str]:
    """Partial coverage (annotators holding different documents): the documents per annotator and
    per pair, and those left out because fewer than two annotators hold them (each listed).

    Parameters
    ----------
    team : spans.annotators.Team
        Read with ``partial=True``.

    Returns
    -------
    list of str
        Empty when every annotator holds every document.

    Examples
    --------
    >>> team = read_annotators(["tests/data/partial/doccano/alice.jsonl", "tests/data/partial/doccano/bob.jsonl"],
    ...                        partial=True)
    >>> print("\\n".join(coverage_notes(team)))
    partial coverage: not every annotator holds all 4 documents (sentence units); each pair is scored on the \
documents both hold. Documents per annotator: alice 3, bob 3; shared by each pair: alice and bob 2
    2 document(s) left out: only one annotator holds them:
      tests/data/partial/doccano/alice.jsonl line 1 (alice only)
      tests/data/partial/doccano/bob.jsonl line 3 (bob only)
    """
    coverage = team.coverage()
    notes = []
    if any(count < coverage["units"] for count in coverage["per_annotator"].values()):
        held = ", ".join(f"{name} {count}" for name, count in coverage["per_annotator"].items())
        shared = ", ".join(f"{a} and {b} {count}" for (a, b), count in coverage["pairs"].items())
        notes.append(f"partial coverage: not every annotator holds all {coverage['units']} documents (sentence "
                     f"units); each pair is scored on the documents both hold. Documents per annotator: {held}; "
                     f"shared by each pair: {shared}")
    if team.left_out:
        notes.append(f"{len(team.left_out)} document(s) left out: only one annotator holds them:")
        notes += [f"  {where} ({team.names[index]} only)" for where, index in team.left_out]
    return notes


def reading_notes(team) -> list[str]:
    """What reading changed: partial coverage (``coverage_notes``), units scored one layer per type,
    crossing spans left out (each listed)."""
    notes = coverage_notes(team)
    if team.layered:
        notes.append(f"{team.layered} sentence unit(s) hold overlapping spans of different types: each type is "
                     f"scored in its own layer there (one copy of the unit per type)")
    if team.redacted:
        notes.append(REDACTED_NOTE)
    if team.skipped:
        notes.append(f"{len(team.skipped)} crossing span(s) left out (--crossing skip):")
        notes += [f"  {line}" for line in team.skipped]
    return notes


# --- sections ------------------------------------------------------------------------------------


def _cell_of(value, undefined: bool):
    """A table cell: the value; for None, ``UNDEFINED`` where None means undefined, else None ("-")."""
    if value is not None:
        return value
    return UNDEFINED if undefined else None


def _score_cell(value, scored: bool = True):
    """A score as a table cell: ``UNDEFINED`` for an undefined score (None in the data) of something
    that was scored, None ("-") for something that was not (an annotator or pair sharing no sentence)."""
    return _cell_of(value, True) if scored else None


def _shown(scores) -> list:
    """The three scores of a row as table cells (``_score_cell``; a row of None: not scored)."""
    return [_score_cell(None if scores is None else scores[key], scores is not None) for key in SCORES]


def _undefined_notes(level: str, rows) -> list[str]:
    """Per reason, the rows ``(name, scores)`` whose corrected F1 is undefined (``undefined_reason``)."""
    by_reason: dict[str, list[str]] = {}
    for name, scores in rows:
        reason = None if scores is None else undefined_reason(scores)
        if reason is not None:
            by_reason.setdefault(reason, []).append(name)
    return [f"{level} level: corrected F1 of {', '.join(names)} is undefined: {reason}"
            for reason, names in by_reason.items()]


def _type_rows(result: dict) -> list[tuple[str, dict]]:
    """``(name, scores)`` of every entity type, then ``("overall", ...)`` (with its interval when
    there is one)."""
    rows = [(name, value) for name, value in result.items()
            if isinstance(value, dict) and name != "per_annotator"]
    overall = {key: result[f"overall_{key}"] for key in SCORES}
    if "overall_corrected_f1_ci" in result:
        overall["corrected_f1_ci"] = result["overall_corrected_f1_ci"]
    return [*rows, ("overall", overall)]


def _add_intervals(result: dict, annotations: Annotations, level: str, options: dict) -> list:
    """With ``options["interval_level"]``: the bootstrap intervals of the team's (or the pair's)
    scores per type and overall (``team_chance_f1``: a sentence bootstrap seeded by
    ``random_state``; for two annotators ``chance_f1``'s own, bit for bit) put into ``result``, and
    the interval column's title in a list (else [] and ``result`` unchanged)."""
    level_asked = options.get("interval_level")
    if level_asked is None:
        return []
    intervals = team_chance_f1(annotations.annotation_set(**options["span"]), names=annotations.names, level=level,
                               model=options["model"], zero_division=0, confidence_level=level_asked,
                               n_resamples=options["n_resamples"], random_state=options["random_state"])
    for key in SCORES:
        result[f"overall_{key}_ci"] = intervals[f"overall_{key}_ci"]
        for name, scores in intervals.items():
            if isinstance(scores, dict) and name in result and f"{key}_ci" in scores:
                result[name][f"{key}_ci"] = scores[f"{key}_ci"]
    return [f"corrected F1 {level_asked:.0%} interval"]


def _interval_cells(scores, columns: list) -> list:
    """The interval column's cell of a row (a ``(low, high)`` pair; ``UNDEFINED`` where the model
    supports no corrected F1 in some resample), or nothing when no interval was asked."""
    if not columns:
        return []
    interval = (scores or {}).get("corrected_f1_ci")
    return [UNDEFINED if interval is None else tuple(interval)]


def _readings(level: str, what: str, scores: dict, confidence_level=None) -> list[str]:
    """The overall corrected F1 read in words on the report's scale (``benchmark_scales.reading``),
    as a note; none for an undefined score (its reason is noted already)."""
    words = reading(scores["corrected_f1"], scores.get("corrected_f1_ci"), confidence_level=confidence_level)
    return [f"{level} level, {what}: corrected F1 {scores['corrected_f1']:.4f} is {words}"] if words else []


SCALE_NOTE = (f"corrected F1 is 1 for perfect agreement, 0 for what the random annotation model gives by "
              f"chance, below 0 for worse than chance; words follow the {SCALE_TITLES[READING_SCALE]} scale, "
              f"made for kappa and applied to corrected F1 as a convention")


def chance_f1_section(annotations: Annotations, options: dict) -> Section | None:
    """Two annotators: chance-corrected F1 per type at token and entity level, undefined scores
    None (``defined_scores``) with the reason in the notes."""
    if len(annotations.names) != 2:
        return None
    total = corpus_total(annotations.annotation_set(**options["span"]), None, model=options["model"], levels=LEVELS)
    data, tables, notes, readings = {}, [], [], [SCALE_NOTE]
    for level in LEVELS:
        result = defined_scores(partial(scores_from_statistics, total, level))
        data[level] = result
        interval = _add_intervals(result, annotations, level, options)
        rows = _type_rows(result)
        support = [result[name]["number"] for name, _ in rows[:-1]]
        tables.append(Table(f"{level} level",
                            ["type", "support", "observed F1", "chance F1", "corrected F1", *interval],
                            [[name, number, *_shown(scores), *_interval_cells(scores, interval)]
                             for (name, scores), number in zip(rows, [*support, sum(support)], strict=True)]))
        notes += _undefined_notes(level, rows)
        readings += _readings(level, "overall", rows[-1][1], options.get("interval_level"))
    title = (f"Chance-corrected F1, {annotations.names[1]} against {annotations.names[0]} "
             f"({options['model'].replace('_', '-')} random model)")
    return Section("chance_f1", title, data, tables, notes, readings)


def team_chance_f1_section(annotations: Annotations, options: dict) -> Section | None:
    """More than two annotators: the team's chance-corrected F1 (pairwise micro average) per type,
    each annotator against the rest, and the matrix of pairwise corrected F1, at both levels;
    undefined scores None with the reason in the notes."""
    if len(annotations.names) < 3:
        return None
    data, tables, notes, readings = {}, [], [], [SCALE_NOTE]
    names = annotations.names
    for level in LEVELS:
        _, pairs = team_statistics(annotations.annotation_set(**options["span"]), names=names, level=level,
                                   model=options["model"])
        result = defined_scores(partial(team_scores, names, pairs, level))
        data[level] = result
        interval = _add_intervals(result, annotations, level, options)
        rows = _type_rows(result)
        tables.append(Table(f"{level} level, the team (every pair pooled)",
                            ["type", "observed F1", "chance F1", "corrected F1", *interval],
                            [[name, *_shown(scores), *_interval_cells(scores, interval)] for name, scores in rows]))
        readings += _readings(level, "the team", rows[-1][1], options.get("interval_level"))
        tables.append(Table(f"{level} level, each annotator against the rest",
                            ["annotator", "observed F1", "chance F1", "corrected F1"],
                            [[name, *_shown(scores)] for name, scores in result["per_annotator"].items()]))
        met = [[pairs.get((min(i, j), max(i, j))) is not None for j in range(len(names))] for i in range(len(names))]
        tables.append(Table(f"{level} level, corrected F1 of every pair", ["", *names],
                            [[name, *map(_score_cell, row, met_row)]
                             for name, row, met_row in zip(names, result["pairwise_corrected_f1"], met, strict=True)]))
        pair_rows = [(f"{names[i]} and {names[j]}", {key: result[f"pairwise_{key}"][i][j] for key in SCORES})
                     for (i, j), totals in pairs.items() if totals is not None]
        notes += _undefined_notes(level, rows + list(result["per_annotator"].items()) + pair_rows)
    title = f"Chance-corrected F1 of the team ({options['model'].replace('_', '-')} random model)"
    return Section("team_chance_f1", title, data, tables, notes, readings)


def documents_section(annotations: Annotations, options: dict) -> Section | None:
    """Sentences from two or more documents: observed, chance and corrected F1 of each document at
    both levels (``document_chance_f1``: the pair's, or every pair of the team pooled), with
    bootstrap intervals over each document's sentences when ``confidence_level`` asks for them."""
    if len(set(annotations.documents)) < 2:
        return None
    data, tables, notes = {}, [], []
    asked = options.get("interval_level")
    interval = [f"corrected F1 {asked:.0%} interval"] if asked is not None else []
    for level in LEVELS:
        rows = document_chance_f1(annotations.annotation_set(**options["span"]), annotations.documents,
                                  names=annotations.names, level=level, model=options["model"],
                                  confidence_level=asked, n_resamples=options["n_resamples"],
                                  random_state=options["random_state"])
        data[level] = rows
        tables.append(Table(f"{level} level, per document", ["document", "sentences", "observed F1", "chance F1",
                                                             "corrected F1", *interval],
                            [[row["document"], row["sentences"], *_shown(row), *_interval_cells(row, interval)]
                             for row in rows]))
        notes += _undefined_notes(level, [(row["document"], row) for row in rows])
    return Section("documents", f"Chance-corrected F1 per document ({len(data['token'])} documents)", data, tables,
                   notes)


def _coefficient_rows() -> list[str]:
    """``COEFFICIENTS`` with every further coefficient of the registry after Cohen's kappa."""
    extra = [name for name, title in titles().items() if name not in COEFFICIENTS and get_coefficient(name).unweighted]
    rows = list(COEFFICIENTS)
    return rows[:rows.index("cohen_kappa") + 1] + extra + rows[rows.index("cohen_kappa") + 1:]


def coefficients_section(annotations: Annotations, options: dict) -> Section | None:
    """Two annotators: the kappa family on every token and on the entity tokens, with the tables."""
    if len(annotations.names) != 2:
        return None

    chunked = annotations.annotation_set(**options["span"])
    data, tables, columns, shown_notes = {}, [], {}, []
    for view, label in (("all", "all tokens"), ("entities", "entity tokens")):
        try:
            table, categories = contingency(chunked, view=view)
        except TooManyCategories as error:  # refused before any table is built; the other sections stand
            return Section("coefficients", "Agreement coefficients and their contingency tables",
                           {"undefined": str(error)}, [], [f"not computed: {error}"])
        result = plain(coefficients(table, categories))
        result["contingency"] = {"categories": list(categories), "table": table.tolist()}
        data[view] = result
        columns[view] = result
        shown, counts, left_out = most_used(categories, result["contingency"]["table"], SHOWN_CATEGORIES, NOTHING)
        tables.append(Table(f"contingency table, {label}: rows {annotations.names[0]}, "
                            f"columns {annotations.names[1]}", ["", *shown],
                            [[category, *row] for category, row in zip(shown, counts, strict=True)]))
        if left_out:
            shown_notes.append(f"{view}: text, Markdown and CSV show the contingency table's {len(shown)} most used "
                               f"of its {len(categories)} categories; JSON has all of them")
    rows = [[name, *(_cell_of(columns[view].get(name), name in columns[view]) for view in columns)]
            for name in _coefficient_rows()]  # an undefined coefficient: "undefined", its reason in the notes
    tables.insert(0, Table("coefficients (entity tokens: those both annotators put in an entity, "
                           "prevalence paper case 3)", ["coefficient", "all tokens", "entity tokens"], rows))
    notes = [f"{view}: {warning}" for view, result in data.items() for warning in result.get("warnings", [])]
    notes += shown_notes
    kappa = data["all"].get("cohen_kappa")
    readings = [f"Cohen's kappa on all tokens {kappa:.4f} is {reading(kappa)}"] if kappa is not None else []
    return Section("coefficients", "Agreement coefficients and their contingency tables", data, tables, notes,
                   readings)


def several_annotators_section(annotations: Annotations, options: dict) -> Section | None:
    """More than two annotators: Fleiss' kappa and Krippendorff's alpha with the category counts."""
    if len(annotations.names) < 3:
        return None

    chunked = annotations.annotation_set(**options["span"])
    result = multi_annotator_agreement(chunked)
    ratings, _ = token_ratings(chunked)
    categories = result["categories"]
    counts = category_counts(ratings, categories, len(annotations.names))
    result["category_counts"] = {"categories": categories, "annotators": list(annotations.names), "counts": counts}
    values = [[key, result[key]] for key in ("fleiss_kappa", "krippendorff_alpha", "observed_agreement",
                                             "expected_agreement", "n_tokens", "n_annotators")]
    tables = [Table("token-level coefficients", ["coefficient", "value"], values),
              Table("tokens per category and annotator", ["category", *annotations.names],
                    [[category, *row] for category, row in zip(categories, counts, strict=True)])]
    kappa = result["fleiss_kappa"]
    words = [f"Fleiss' kappa {kappa:.4f} is {reading(kappa)}"] if kappa is not None else []
    return Section("several_annotators", "Fleiss' kappa and Krippendorff's alpha (nominal)", result, tables,
                   list(result["warnings"]), words)


def category_counts(ratings, categories: list, annotators: int) -> list:
    """``counts[c][a]``: the tokens annotator ``a`` put in ``categories[c]`` (one ``np.bincount``
    per annotator over the codes of ``rating_codes``, missing labels left out)."""
    codes, coded = rating_codes(ratings, categories)
    per_annotator = [np.bincount(codes[:, a][codes[:, a] >= 0], minlength=len(coded)) for a in range(annotators)]
    return [[int(column[c]) for column in per_annotator] for c in range(len(coded))]


def noise_section(annotations: Annotations, options: dict) -> Section | None:
    """The noise bound of the subset every annotator agrees on, per token and per entity."""

    data, flags = {}, []
    indices, complete, coverage = annotations.complete_set(**options["span"])
    for unit in NOISE_UNITS:
        settings = dict(confidence_level=options["confidence_level"], max_noise=options["max_noise"], unit=unit)
        try:
            if not indices:
                raise ValueError("no sentence unit is held by every annotator")
            noise = noise_report if len(annotations.names) == 2 else noise_report_multi
            data[unit], notes = report_with_notes(noise, complete, **settings)
        except ValueError as error:  # e.g. no entity at all: no entity instances
            data[unit] = {"undefined": str(error)}
            continue
        flags += [f"{unit}: {note}" for note in notes]  # the model's flags, beside its numbers
    rows = [[key, *(_cell_of(data[unit].get(key), key in UNDEFINED_NOISE or "undefined" in data[unit])
                    for unit in NOISE_UNITS)] for key in NOISE_KEYS]
    title = (f"Noise bound of the agreed subset (confidence level {options['confidence_level']}; "
             f"tolerable disagreements for at most {options['max_noise']} noise)")
    notes = [coverage] * bool(coverage)
    notes += [f"{unit}: {data[unit]['undefined']}" for unit in NOISE_UNITS if "undefined" in data[unit]] + flags
    table = Table("instances = tokens, or spans anyone proposed", ["", *NOISE_UNITS], rows)
    meanings = [f"row {key}: {noise_meaning(key)}" for key in NOISE_KEYS]  # what each row means, one sentence each
    return Section("noise", title, data, [table], notes, meanings)


def gamma_section(annotations: Annotations, options: dict) -> Section | None:
    """Gamma (Mathet et al. 2015) with gamma-cat and gamma-k, and the most disordered unitary
    alignments of the best alignment; only with ``gamma_samples`` > 0 (``--gamma-samples``)."""
    if not options.get("gamma_samples"):
        return None
    indices, complete, coverage = annotations.complete_set(**options["span"])
    if not indices:
        return Section("gamma", "Gamma", {"undefined": "no sentence unit is held by every annotator"}, [],
                       ["not computed: no sentence unit is held by every annotator"])
    tokens = [annotations.tokens[s] for s in indices]
    result = sentence_gamma(complete, indices, annotators=annotations.names, n_samples=options["gamma_samples"],
                            sampler=options["gamma_sampler"])
    data = result.to_dict(alignment=False)
    rows = sorted(result.alignment.rows(), key=lambda row: -row["disorder"])[:GAMMA_WORST]
    offsets = result.alignment.continuum.text_offsets
    for row in rows:  # which sentence (1-based) of which document each alignment is in
        row["sentence"] = indices[row["text"]] + 1
        if annotations.documents:
            row["document"] = annotations.documents[indices[row["text"]]]
    data["most_disordered"] = rows
    values = [[key, data[key]] for key in ("gamma", "gamma_se", "observed_disorder", "expected_disorder",
                                            "expected_disorder_se", "gamma_cat", "n_samples", "sampler")]
    tables = [Table("gamma", ["", "value"], values),
              Table("gamma-k per category", ["category", "gamma_k"], [[k, v] for k, v in data["gamma_k"].items()]),
              Table(f"the {len(rows)} most disordered unitary alignments (sentence: type start-end, tokens)",
                    ["disorder", "sentence", *annotations.names],
                    [[row["disorder"], annotations.sentence_label(indices[row["text"]]),
                      *(_unit_cell(tokens, offsets, row["text"], unit) for unit in row["units"].values())]
                     for row in rows])]
    return Section("gamma", f"Gamma ({result.sampler} sampler, {result.n_samples} samples)", data, tables,
                   [coverage] * bool(coverage) + list(result.warnings))


def _unit_cell(tokens: list, offsets, sentence: int, unit) -> str:
    if unit is None:
        return "-"
    category, start, end = unit
    start, end = int(start - offsets[sentence]), int(end - offsets[sentence])
    words = tokens[sentence][start:end] if 0 <= start < end <= len(tokens[sentence]) else []
    return f"{category} {start}-{end} {' '.join(words)}".strip()


GAMMA_WORST = 10  # unitary alignments shown in the gamma section

# (annotations, options) -> Section or None; a new section is one more function here.
SECTIONS = [chance_f1_section, team_chance_f1_section, documents_section, coefficients_section,
            several_annotators_section, noise_section, gamma_section]


def build_report(annotations: Annotations, model: str = "non_overlapping", confidence_level: float = 0.95,
                 max_noise: float = 0.05, scheme=None, mode=None, suffix: bool = False,
                 sections=None, progress=False, gamma_samples: int = 0, gamma_sampler: str = "statistical",
                 intervals: bool = False, n_resamples: int = 1000, random_state=None) -> dict:
    """``{"annotators": [...], "sources": [...], "sentences", "tokens", "reading_notes", "coverage"
    (``coverage_of``: documents per annotator and pair), "sections": [Section, ...]}``.

    ``progress``: a bar over the report's parts on standard error (None: only on a terminal).
    ``gamma_samples`` > 0 adds gamma (``gamma_section``) with that many random continua.
    ``confidence_level`` is the level of the noise bound and of the intervals; ``intervals`` adds
    sentence-bootstrap intervals of the corrected F1 (per type and overall, for a pair or a team:
    ``team_chance_f1``) from ``n_resamples`` resamples seeded by ``random_state``.
    """
    get_model(model)  # a registered name or a RandomModel, else ValueError
    options = {"model": model, "confidence_level": confidence_level, "max_noise": max_noise,
               "span": {"scheme": scheme, "mode": mode, "suffix": suffix},
               "gamma_samples": gamma_samples, "gamma_sampler": gamma_sampler,
               "interval_level": confidence_level if intervals else None, "n_resamples": n_resamples,
               "random_state": random_state}
    parts = SECTIONS if sections is None else sections
    built = [section(annotations, options)
             for section in show_progress(parts, "agreement report", unit="part", enabled=progress)]
    return {"annotators": list(annotations.names), "sources": list(annotations.sources),
            "sentences": len(annotations.tokens), "tokens": sum(map(len, annotations.tokens)),
            "reading_notes": list(annotations.notes), "coverage": dict(annotations.coverage),
            "sections": [section for section in built if section is not None]}


# --- output --------------------------------------------------------------------------------------


def _cell(value, digits: int) -> str:
    if value is None:
        return "-"
    if isinstance(value, tuple):  # an interval; its level is in the column title
        return interval_text(value, digits) or UNDEFINED
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _header(report: dict) -> str:
    annotators = ", ".join(f"{name} ({source})"
                           for name, source in zip(report["annotators"], report["sources"], strict=True))
    return (f"{len(report['annotators'])} annotators: {annotators}; {report['sentences']} sentences, "
            f"{report['tokens']} tokens")


def to_text(report: dict, digits: int = 4) -> str:
    lines = [_header(report)] + [f"note: {note}" for note in report.get("reading_notes", [])]
    for section in report["sections"]:
        lines += ["", section.title, "=" * len(section.title)]
        for table in section.tables:
            cells = [[str(c) for c in table.columns]] + [[_cell(v, digits) for v in row] for row in table.rows]
            widths = [max(len(row[i]) for row in cells) for i in range(len(table.columns))]
            lines += ["", table.title]
            for row in cells:
                lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                       for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip())
        if section.notes:
            lines += [""] + [f"note: {note}" for note in section.notes]
        if section.readings:
            lines += [""] + [f"reading: {text}" for text in section.readings]
    return "\n".join(lines) + "\n"


def to_markdown(report: dict, digits: int = 4) -> str:
    lines = ["# Agreement report", "", _header(report)]
    lines += [""] + [f"- {note}" for note in report["reading_notes"]] if report.get("reading_notes") else []
    for section in report["sections"]:
        lines += ["", f"## {section.title}"]
        for table in section.tables:
            lines += ["", f"{table.title}:", ""]
            lines += markdown_table(table.columns, [[_cell(v, digits) for v in row] for row in table.rows])
        if section.notes:
            lines += [""] + [f"- {note}" for note in section.notes]
        if section.readings:
            lines += [""] + [f"- reading: {text}" for text in section.readings]
    return "\n".join(lines) + "\n"


def to_csv(report: dict) -> str:
    """Long format: one line per table cell (section, table, row, column, value); full precision;
    an interval cell is two lines, its column's title with " low" and " high"."""
    rows = [[section.key, table.title, row[0], column + side, bound]
            for section in report["sections"] for table in section.tables
            for row in table.rows for column, value in zip(table.columns[1:], row[1:], strict=True)
            for side, bound in (zip((" low", " high"), value, strict=True) if isinstance(value, tuple)
                                else [("", value)])]
    return csv_text(["section", "table", "row", "column", "value"], rows)


def to_json(report: dict) -> str:
    body = {key: value for key, value in report.items() if key != "sections"}
    body.update({section.key: section.data for section in report["sections"]})
    body["notes"] = {section.key: section.notes for section in report["sections"] if section.notes}
    body["readings"] = {section.key: section.readings for section in report["sections"] if section.readings}
    return json.dumps(body, indent=2) + "\n"


def render(report: dict, fmt: str = "text", digits: int = 4) -> str:
    """The report as ``fmt``: one of ``FORMATS``."""
    writers = {"text": lambda: to_text(report, digits), "markdown": lambda: to_markdown(report, digits),
               "csv": lambda: to_csv(report), "json": lambda: to_json(report)}
    if fmt not in writers:
        raise ValueError(f"format must be one of {list(FORMATS)}, got {fmt!r}")
    return writers[fmt]()


__all__ = [
    "COEFFICIENTS",
    "FORMATS",
    "GAMMA_WORST",
    "NOISE_KEYS",
    "NOISE_UNITS",
    "REDACTED_NOTE",
    "SCORES",
    "SECTIONS",
    "SHOWN_CATEGORIES",
    "UNDEFINED",
    "Annotations",
    "Section",
    "Table",
    "build_report",
    "category_counts",
    "chance_f1_section",
    "chunked_once",
    "coefficients_section",
    "coverage_notes",
    "coverage_of",
    "documents_section",
    "gamma_section",
    "load_annotations",
    "noise_section",
    "reading_notes",
    "render",
    "several_annotators_section",
    "team_chance_f1_section",
    "to_csv",
    "to_json",
    "to_markdown",
    "to_text",
]
