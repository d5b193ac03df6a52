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
from pathlib import Path

from ..chance.corrected_f1 import LEVELS, chance_f1
from ..chance.random_model import MODELS
from ..chance.team_f1 import team_chance_f1
from ..spans.conll import ColumnFile, check_same_tokens, check_tag_columns, parse_column_spec, read_column_file
from .command_io import UsageError, add_span_options, check_output_path, emit, open_fraction
from .progress import add_quiet_option
from .progress import progress as show_progress
from .table_output import csv_text, markdown_table

SCORES = ("observed_f1", "chance_f1", "corrected_f1")

FORMATS = ("text", "markdown", "json", "csv")
COEFFICIENTS = ("observed_agreement", "bennett_s", "scott_pi", "cohen_kappa", "finn_r", "f_measure",
                "slot_error_rate")
NOISE_KEYS = ("instances", "agreed", "disagreed", "p", "noise_bound", "noisy_items", "kappa",
              "tolerable_disagreements", "chance_difference", "p_least_favourable", "noise_bound_least_favourable")
NOISE_UNITS = ("token", "entity")
ZERO_DIVISION_NOTE = "a score whose denominator is 0 (no entity on either side) is reported as 0"


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


@dataclass
class Annotations:
    """``tags[a][s]`` = annotator a's tags of sentence s; ``names[a]`` how the report calls a."""

    names: list
    tokens: list
    tags: list
    sources: list = field(default_factory=list)

    @property
    def items(self) -> list:
        """Per sentence the annotators' tag sequences (the several-annotator functions' input)."""
        return [list(item) for item in zip(*self.tags)]


# --- reading -------------------------------------------------------------------------------------


def load_annotations(specs, column: int = -1, names=None, scheme=None, mode=None, suffix=False) -> Annotations:
    """Annotators from ``FILE`` (its ``column``) or ``FILE:COLUMN`` specs; one ``FILE`` alone means
    every tag column of it (columns 1 to the last). Files must be token-aligned and every tag one
    the chunker takes, else a ValueError names the file(s) and the 1-based line."""
    files: dict[str, ColumnFile] = {}
    chosen: list[tuple[ColumnFile, int, str]] = []
    for spec in specs:
        path, index = parse_column_spec(spec)
        if path not in files:
            files[path] = read_column_file(path)
        columns = files[path]
        if len(specs) == 1 and index is None:
            chosen += [(columns, i, f"{Path(path).stem}:{i}") for i in range(1, columns.width)]
        else:
            label = Path(path).stem if index is None else f"{Path(path).stem}:{columns.resolve(index)}"
            index = column if index is None else index
            columns.resolve(index)
            chosen.append((columns, index, label))
    if len(chosen) < 2:
        raise UsageError("give two or more annotators: files, FILE:COLUMN, or one file with two or more tag columns")
    if names is not None:
        if len(names) != len(chosen):
            raise UsageError(f"{len(names)} names for {len(chosen)} annotators")
        labels = list(names)
    else:
        labels = [label for _, _, label in chosen]
    if len(set(labels)) < len(labels):
        labels = [f"{label}#{i + 1}" for i, label in enumerate(labels)]
    first = chosen[0][0]
    for columns, _, _ in chosen[1:]:
        if columns is not first:
            check_same_tokens(first, columns)
    resolved = scheme
    for columns, index, _ in chosen:
        resolved = check_tag_columns(columns, [index], resolved, mode, suffix)
    return Annotations(labels, first.tokens, [columns.column(index) for columns, index, _ in chosen],
                       [f"{columns.name}:{index % columns.width}" for columns, index, _ in chosen])


# --- sections ------------------------------------------------------------------------------------


def _per_type_table(result: dict, title: str) -> Table:
    types = [key for key, value in result.items() if isinstance(value, dict)]
    rows = [[name, result[name]["number"], result[name]["observed_f1"], result[name]["chance_f1"],
             result[name]["corrected_f1"]] for name in types]
    support = sum(result[name]["number"] for name in types)
    rows.append(["overall", support, result["overall_observed_f1"], result["overall_chance_f1"],
                 result["overall_corrected_f1"]])
    return Table(title, ["type", "support", "observed F1", "chance F1", "corrected F1"], rows)


def chance_f1_section(annotations: Annotations, options: dict) -> Section | None:
    """Two annotators: chance-corrected F1 per type at token and entity level."""
    if len(annotations.tags) != 2:
        return None
    reference, other = annotations.tags
    data, tables = {}, []
    for level in LEVELS:
        result = chance_f1(other, reference, level=level, model=options["model"], zero_division=0,
                           **options["span"])
        data[level] = result
        tables.append(_per_type_table(result, f"{level} level"))
    title = (f"Chance-corrected F1, {annotations.names[1]} against {annotations.names[0]} "
             f"({options['model'].replace('_', '-')} random model)")
    return Section("chance_f1", title, data, tables, [ZERO_DIVISION_NOTE])


def team_chance_f1_section(annotations: Annotations, options: dict) -> Section | None:
    """More than two annotators: the team's chance-corrected F1 (pairwise micro average) per type,
    each annotator against the rest, and the matrix of pairwise corrected F1, at both levels."""
    if len(annotations.tags) < 3:
        return None
    data, tables = {}, []
    for level in LEVELS:
        result = team_chance_f1(annotations.tags, names=annotations.names, level=level, model=options["model"],
                                zero_division=0, **options["span"])
        data[level] = result
        tables.append(Table(f"{level} level, the team (every pair pooled)",
                            ["type", "observed F1", "chance F1", "corrected F1"],
                            [[name, *(result[name][key] for key in SCORES)]
                             for name, value in result.items() if isinstance(value, dict) and name != "per_annotator"]
                            + [["overall", *(result[f"overall_{key}"] for key in SCORES)]]))
        tables.append(Table(f"{level} level, each annotator against the rest",
                            ["annotator", "observed F1", "chance F1", "corrected F1"],
                            [[name, *((scores or {}).get(key) for key in SCORES)]
                             for name, scores in result["per_annotator"].items()]))
        tables.append(Table(f"{level} level, corrected F1 of every pair", ["", *annotations.names],
                            [[name, *row] for name, row in zip(annotations.names, result["pairwise_corrected_f1"])]))
    title = f"Chance-corrected F1 of the team ({options['model'].replace('_', '-')} random model)"
    return Section("team_chance_f1", title, data, tables, [ZERO_DIVISION_NOTE])


def coefficients_section(annotations: Annotations, options: dict) -> Section | None:
    """Two annotators: the kappa family on every token and on the entity tokens, with the tables."""
    if len(annotations.tags) != 2:
        return None
    from ..reliability.agreement_coefficients import coefficients, plain
    from ..reliability.contingency_table import contingency

    reference, other = annotations.tags
    data, tables, columns = {}, [], {}
    for view, label in (("all", "all tokens"), ("entities", "entity tokens")):
        table, categories = contingency(other, reference, view=view, **options["span"])
        result = plain(coefficients(table, categories))
        result["contingency"] = {"categories": list(categories), "table": table.tolist()}
        data[view] = result
        columns[view] = result
        tables.append(Table(f"contingency table, {label}: rows {annotations.names[0]}, "
                            f"columns {annotations.names[1]}", [""] + list(categories),
                            [[category, *counts] for category, counts in zip(categories, table.tolist())]))
    rows = [[name, *(columns[view].get(name) for view in columns)] for name in COEFFICIENTS]
    tables.insert(0, Table("coefficients (entity tokens: those both annotators put in an entity, prevalence paper case 3)",
                           ["coefficient", "all tokens", "entity tokens"], rows))
    notes = [f"{view}: {warning}" for view, result in data.items() for warning in result.get("warnings", [])]
    return Section("coefficients", "Agreement coefficients and their contingency tables", data, tables, notes)


def several_annotators_section(annotations: Annotations, options: dict) -> Section | None:
    """More than two annotators: Fleiss' kappa and Krippendorff's alpha with the category counts."""
    if len(annotations.tags) < 3:
        return None
    from ..reliability.multi_annotator import multi_annotator_agreement, token_ratings

    result = multi_annotator_agreement(annotations.items, **options["span"])
    ratings, _ = token_ratings(annotations.items, **options["span"])
    categories = result["categories"]
    counts = [[sum(1 for row in ratings if str(row[a]) == category) for a in range(len(annotations.names))]
              for category in categories]
    result["category_counts"] = {"categories": categories, "annotators": list(annotations.names), "counts": counts}
    values = [[key, result[key]] for key in ("fleiss_kappa", "krippendorff_alpha", "observed_agreement",
                                             "expected_agreement", "n_tokens", "n_annotators")]
    tables = [Table("token-level coefficients", ["coefficient", "value"], values),
              Table("tokens per category and annotator", ["category", *annotations.names],
                    [[category, *row] for category, row in zip(categories, counts)])]
    return Section("several_annotators", "Fleiss' kappa and Krippendorff's alpha (nominal)", result, tables,
                   list(result["warnings"]))


def noise_section(annotations: Annotations, options: dict) -> Section | None:
    """The noise bound of the subset every annotator agrees on, per token and per entity."""
    from ..noise.noise_model import noise_report, noise_report_multi, report_with_notes

    data, flags = {}, []
    for unit in NOISE_UNITS:
        settings = dict(confidence=options["confidence"], max_noise=options["max_noise"], unit=unit, **options["span"])
        try:
            if len(annotations.tags) == 2:
                data[unit], notes = report_with_notes(noise_report, annotations.tags[1], annotations.tags[0], **settings)
            else:
                data[unit], notes = report_with_notes(noise_report_multi, annotations.items, **settings)
        except ValueError as error:  # e.g. no entity at all: no entity instances
            data[unit] = {"undefined": str(error)}
            continue
        flags += [f"{unit}: {note}" for note in notes]  # the model's flags, beside its numbers
    rows = [[key, *(data[unit].get(key) for unit in NOISE_UNITS)] for key in NOISE_KEYS]
    title = (f"Noise bound of the agreed subset (confidence {options['confidence']}; "
             f"tolerable disagreements for at most {options['max_noise']} noise)")
    notes = [f"{unit}: {data[unit]['undefined']}" for unit in NOISE_UNITS if "undefined" in data[unit]] + flags
    table = Table("instances = tokens, or spans anyone proposed", ["", *NOISE_UNITS], rows)
    return Section("noise", title, data, [table], notes)


# (annotations, options) -> Section or None; a new section is one more function here.
SECTIONS = [chance_f1_section, team_chance_f1_section, coefficients_section, several_annotators_section,
            noise_section]


def build_report(annotations: Annotations, model: str = "non_overlapping", confidence: float = 0.95,
                 max_noise: float = 0.05, scheme=None, mode=None, suffix: bool = False,
                 sections=None, progress=False) -> dict:
    """``{"annotators": [...], "sources": [...], "sentences", "tokens", "sections": [Section, ...]}``.

    ``progress``: a bar over the report's parts on standard error (None: only on a terminal).
    """
    if model not in MODELS:
        raise ValueError(f"model must be one of {list(MODELS)}, got {model!r}")
    options = {"model": model, "confidence": confidence, "max_noise": max_noise,
               "span": {"scheme": scheme, "mode": mode, "suffix": suffix}}
    parts = SECTIONS if sections is None else sections
    built = [section(annotations, options)
             for section in show_progress(parts, "agreement report", unit="part", enabled=progress)]
    return {"annotators": list(annotations.names), "sources": list(annotations.sources),
            "sentences": len(annotations.tokens), "tokens": sum(map(len, annotations.tokens)),
            "sections": [section for section in built if section is not None]}


# --- output --------------------------------------------------------------------------------------


def _cell(value, digits: int) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _header(report: dict) -> str:
    annotators = ", ".join(f"{name} ({source})" for name, source in zip(report["annotators"], report["sources"]))
    return f"{len(report['annotators'])} annotators: {annotators}; {report['sentences']} sentences, {report['tokens']} tokens"


def to_text(report: dict, digits: int = 4) -> str:
    lines = [_header(report)]
    for section in report["sections"]:
        lines += ["", section.title, "=" * len(section.title)]
        for table in section.tables:
            cells = [[str(c) for c in table.columns]] + [[_cell(v, digits) for v in row] for row in table.rows]
            widths = [max(len(row[i]) for row in cells) for i in range(len(table.columns))]
            lines += ["", table.title]
            for row in cells:
                lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if section.notes:
            lines += [""] + [f"note: {note}" for note in section.notes]
    return "\n".join(lines) + "\n"


def to_markdown(report: dict, digits: int = 4) -> str:
    lines = [f"# Agreement report", "", _header(report)]
    for section in report["sections"]:
        lines += ["", f"## {section.title}"]
        for table in section.tables:
            lines += ["", f"{table.title}:", ""]
            lines += markdown_table(table.columns, [[_cell(v, digits) for v in row] for row in table.rows])
        if section.notes:
            lines += [""] + [f"- {note}" for note in section.notes]
    return "\n".join(lines) + "\n"


def to_csv(report: dict) -> str:
    """Long format: one line per table cell (section, table, row, column, value); full precision."""
    rows = [[section.key, table.title, row[0], column, value]
            for section in report["sections"] for table in section.tables
            for row in table.rows for column, value in zip(table.columns[1:], row[1:])]
    return csv_text(["section", "table", "row", "column", "value"], rows)


def to_json(report: dict) -> str:
    body = {key: value for key, value in report.items() if key != "sections"}
    body.update({section.key: section.data for section in report["sections"]})
    body["notes"] = {section.key: section.notes for section in report["sections"] if section.notes}
    return json.dumps(body, indent=2) + "\n"


def render(report: dict, fmt: str = "text", digits: int = 4) -> str:
    """The report as ``fmt``: one of ``FORMATS``."""
    writers = {"text": lambda: to_text(report, digits), "markdown": lambda: to_markdown(report, digits),
               "csv": lambda: to_csv(report), "json": lambda: to_json(report)}
    if fmt not in writers:
        raise ValueError(f"format must be one of {list(FORMATS)}, got {fmt!r}")
    return writers[fmt]()


# --- command line --------------------------------------------------------------------------------


def _run(args) -> int:
    if args.output:
        check_output_path(args.output)
    names = args.names.split(",") if args.names else None
    span = {"scheme": args.scheme, "mode": args.mode, "suffix": args.suffix}
    annotations = load_annotations(args.annotators, args.column, names, **span)
    report = build_report(annotations, model=args.model, confidence=args.confidence, max_noise=args.max_noise,
                          progress=False if args.quiet else None, **span)
    emit(render(report, args.format, args.digits), args.output)
    return 0


def register(commands) -> None:
    """Add the ``agreement`` sub-command to the CLI's subparsers."""
    parser = commands.add_parser(
        "agreement", help="one report on two or more annotators: chance-corrected F1, coefficients, noise bound",
        description="Annotators are CoNLL column files (their last column, or --column), FILE:COLUMN "
                    "(0-based), or one file whose columns 1.. are the annotators. The files must hold "
                    "the same tokens; the first annotator is the reference.")
    parser.add_argument("annotators", nargs="+", metavar="ANNOTATOR", help="FILE, FILE:COLUMN, or one multi-column FILE")
    parser.add_argument("--column", type=int, default=-1, help="0-based tag column of FILE annotators (default: last)")
    parser.add_argument("--names", help="comma-separated annotator names (default: file names)")
    parser.add_argument("--model", choices=MODELS, default="non_overlapping", help="random annotation model")
    parser.add_argument("--confidence", type=open_fraction, default=0.95, help="confidence of the noise bound")
    parser.add_argument("--max-noise", type=open_fraction, default=0.05, help="noise level for tolerable disagreements")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("--output", "-o", help="write the report to this file instead of standard output")
    parser.add_argument("--digits", type=int, default=4, help="decimals in text and Markdown")
    add_span_options(parser)
    add_quiet_option(parser)
    parser.set_defaults(run=_run)
