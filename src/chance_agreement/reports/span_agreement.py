"""``chance-agreement spans A B``: chance-corrected F1 of two annotators' span files.

``A`` and ``B`` are JSON Lines exports (``spans.jsonl``) or brat standoff (``spans.brat``: a
``.ann`` file with its ``.txt``, or a folder whose ``.ann`` files are paired by relative path).
The spans may nest: the table shows the pooled scores and every depth (``nested_chance_f1``); with
``--view outermost`` or ``--view innermost`` the flat view of each side is scored by
``span_chance_f1`` (seqeval's numbers in the precision/recall/f1 columns).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..chance.corrected_f1 import LEVELS
from ..chance.nested_f1 import nested_chance_f1
from ..chance.random_model import MODELS
from ..chance.span_f1 import span_chance_f1
from ..spans.annotated_text import pair_annotations
from ..spans.readers.brat import read_brat
from ..spans.readers.jsonl import read_jsonl
from ..spans.nested import innermost, outermost

FORMATS = ("auto", "jsonl", "brat")
VIEWS = ("nested", "outermost", "innermost")


def _format_of(path: Path, fmt: str) -> str:
    if fmt != "auto":
        return fmt
    if path.is_dir() or path.suffix == ".ann":
        return "brat"
    if path.suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    raise ValueError(f"{path}: cannot tell the format from the name; give --format jsonl or brat")


def read_annotations(path, fmt: str = "auto", widen: bool = False):
    """The ``AnnotatedText`` units of a JSONL file, a brat ``.ann`` file or a folder of them."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"{path}: no such file or folder")
    if _format_of(path, fmt) == "jsonl":
        return read_jsonl(path, widen=widen)
    if path.is_dir():
        return [unit for ann in sorted(path.rglob("*.ann")) for unit in read_brat(ann, widen=widen)]
    return read_brat(path, widen=widen)


def _check_same_documents(first: Path, second: Path) -> None:
    if first.is_dir() and second.is_dir():
        names_a = sorted(p.relative_to(first) for p in first.rglob("*.ann"))
        names_b = sorted(p.relative_to(second) for p in second.rglob("*.ann"))
        if names_a != names_b:
            only = sorted(set(map(str, names_a)) ^ set(map(str, names_b)))
            raise ValueError(f"{first} and {second} hold different .ann files: {only[:5]}")
        if not names_a:
            raise ValueError(f"{first}: no .ann files")


def span_scores(first, second, fmt="auto", widen=False, view="nested", **kwargs) -> dict:
    """The scores of two annotators' files (``nested_chance_f1``, or ``span_chance_f1`` of a flat view)."""
    first, second = Path(first), Path(second)
    _check_same_documents(first, second)
    spans_a, spans_b, lengths = pair_annotations(read_annotations(first, fmt, widen), read_annotations(second, fmt, widen))
    if view == "nested":
        return nested_chance_f1(spans_a, spans_b, lengths, **kwargs)
    flat = {"outermost": outermost, "innermost": innermost}[view]
    return span_chance_f1(flat(spans_a, lengths, "A"), flat(spans_b, lengths, "B"), lengths, **kwargs)


def format_span_table(result: dict, digits: int = 4) -> str:
    """One row per label and overall, for the pooled scores and then every depth."""
    scopes = [("pooled" if "depths" in result else "all", result)]
    scopes += [(f"depth {d}", scores) for d, scores in enumerate(result.get("depths", []))]
    column = max(digits + 4, 10)
    header = f"{'scope':<9}{'label':<10}" + "".join(h.rjust(column) for h in (
        "precision", "recall", "f1", "support", "observed", "chance", "corrected"))
    lines = [header]
    for scope, scores in scopes:
        labels = [key for key, value in scores.items() if isinstance(value, dict)]
        rows = [(label, scores[label]["precision"], scores[label]["recall"], scores[label]["f1"], scores[label]["number"],
                 scores[label]["observed_f1"], scores[label]["chance_f1"], scores[label]["corrected_f1"]) for label in labels]
        rows.append(("overall", scores["overall_precision"], scores["overall_recall"], scores["overall_f1"],
                     sum(scores[label]["number"] for label in labels), scores["overall_observed_f1"],
                     scores["overall_chance_f1"], scores["overall_corrected_f1"]))
        lines.append("")
        for label, *numbers in rows:
            cells = [str(v) if i == 3 else f"{v:.{digits}f}" for i, v in enumerate(numbers)]
            lines.append(f"{scope:<9}{label:<10}" + "".join(cell.rjust(column) for cell in cells))
    return "\n".join(lines)


def _run(args) -> int:
    result = span_scores(args.first, args.second, args.format, args.widen, args.view, model=args.model, level=args.level)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"chance-corrected F1 of {args.first} (predictions) vs {args.second} (references), "
              f"{args.view} spans, {args.level} level, {args.model} random model\n")
        print(format_span_table(result, args.digits))
    return 0


def register(subparsers) -> None:
    """Add the ``spans`` sub-command."""
    parser = subparsers.add_parser("spans", help="observed, chance and corrected F1 of two annotators' JSONL or brat files")
    parser.add_argument("first", help="annotator A (scored as predictions): .jsonl, brat .ann or a folder of .ann files")
    parser.add_argument("second", help="annotator B (scored as references), the same texts")
    parser.add_argument("--format", choices=FORMATS, default="auto", help="auto: by the name (.jsonl; .ann or folder: brat)")
    parser.add_argument("--widen", action="store_true", help="widen spans off token boundaries to the tokens they touch")
    parser.add_argument("--view", choices=VIEWS, default="nested", help="nested (pooled and per depth) or a flat view")
    parser.add_argument("--level", choices=LEVELS, default="token")
    parser.add_argument("--model", choices=MODELS, default="non_overlapping")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("--digits", type=int, default=4)
    parser.set_defaults(run=_run)
