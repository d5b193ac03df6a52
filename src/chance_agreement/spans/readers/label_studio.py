"""Label Studio exports of a text-span (NER) project: JSON and JSON-MIN.

- ``JSON`` (``project-1-at-....json``): an array of tasks, each ``{"id", "data": {"text": ...},
  "annotations": [{"id", "completed_by", "was_cancelled", "result": [{"type": "labels", "value":
  {"start", "end", "text", "labels": [...]}, ...}]}], "predictions": [...]}`` (older exports say
  ``completions``; one task object, as a Label Studio 0.x ``completions/`` file holds, is refused
  with what to do). Every annotation is one annotator's reading of the task; the annotator is
  ``completed_by`` (a user id, or a user object: its ``email``, else its ``id``). Cancelled
  (skipped) annotations are left out, with one warning giving the count; predictions are not
  read (a file of predictions only is refused, saying so).
  Only regions of ``type`` ``labels`` (Labels on Text) are read: regions of other span types
  (``hypertextlabels``, ``paragraphlabels``, ...) are counted in one warning, and a file with
  only those is refused. With several labels controls, ``layer`` (``--layer NAME``) chooses one by
  its ``from_name`` (else the file is refused); the other controls' regions are counted too.
- ``JSON-MIN``: an array with one object per annotation: the task's data fields (``text``), ``id``
  (the task), ``annotator``, ``annotation_id`` and the spans under the name of the labels control
  (``"label": [{"start", "end", "text", "labels": [...]}]``); ``layer`` chooses among several
  controls by that name, as above.

Each line of a task's text is one sentence unit (as brat's), cut at every line break that no
span of the task's annotations crosses (so a three-paragraph task is three units, not one long
"sentence"); units are keyed ``TASK line N`` then.

A span with several labels counts once per label. A region's ``text`` must be the text at its
offsets (as brat's covered text must): shifted offsets are an error naming the task and annotation,
with ``--offsets`` suggested when another unit fits. Tasks align across annotators (and files) by
their ``id``. Offsets count code points unless ``--offsets`` says otherwise; tokens come from
the tokenizer. One annotator with two annotations of one task is an error naming the task.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..annotated_text import char_offset, warn_widened
from .base import (
    Reader,
    ReadOptions,
    annotate_text,
    first_array_item,
    first_json_value,
    group_by_annotator,
    json_document,
    read_text,
    split_at_line_breaks,
    unit_of,
    warn_skipped,
)


def _first_task(head: bytes):
    """The first element of the array the file holds (``file_head`` reads it whole), if an object."""
    item = first_array_item(head.decode("utf-8-sig", errors="replace"))
    return item if isinstance(item, dict) else None


_READINGS = ("annotations", "completions", "predictions")  # what a task holds besides its data


def _is_task(item) -> bool:
    return isinstance(item, dict) and "data" in item and any(key in item for key in _READINGS)


def _resembles(head: bytes, path: Path) -> bool:
    """One task object where the export has an array of them (Label Studio 0.x keeps one task per
    file in ``completions/``): refused by ``_tasks`` with what to do."""
    text = head.decode("utf-8-sig", errors="replace").lstrip()
    if not text.startswith("{"):
        return False
    task = first_json_value(text)
    if task is not None:
        return _is_task(task)
    return '"data"' in text and any(f'"{key}"' in text for key in _READINGS)  # longer than the head


def _sniff_json(head: bytes, path: Path) -> bool:
    return _is_task(_first_task(head))


def _sniff_min(head: bytes, path: Path) -> bool:
    item = _first_task(head)
    return item is not None and ("annotator" in item or "annotation_id" in item) and not _is_task(item)


def _tasks(path: Path) -> list:
    try:
        tasks = json_document(path)
    except ValueError:
        if not _is_task(first_json_value(read_text(path))):
            raise
        raise ValueError(f"{path}: Label Studio tasks one per line (JSON Lines), not an export's array of tasks; "
                         f"export the project from Label Studio as JSON, or put the tasks into one array (jq -s . "
                         f"{path.name} > tasks.json)") from None
    if _is_task(tasks):
        old = "completions" in tasks and "annotations" not in tasks
        raise ValueError(f"{path}: one Label Studio task (a JSON object), not an export's array of tasks"
                         f"{' (a Label Studio 0.x completions file: one task per file)' if old else ''}; export "
                         f"the project from Label Studio as JSON, or put the tasks into one array (jq -s . "
                         f"{'completions/*.json' if old else 'FILES'} > tasks.json)")
    if not isinstance(tasks, list) or not all(isinstance(task, dict) for task in tasks):
        raise ValueError(f"{path}: expected a JSON array of Label Studio tasks (objects)")
    return tasks


def _objects(value, what: str, where: str) -> list:
    """``value`` as a list of objects (``null``: none), else a ValueError naming ``where``."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ValueError(f"{where}: {what} must be a list of objects, got {_short(value)}")
    return value


def _task_id(value, where: str):
    """A task id (a number or a string; None when there is none), else a ValueError."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float, str))):
        raise ValueError(f"{where}: the task id {_short(value)} is not a number or a string")
    return value


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _text_of(fields: dict, where: str) -> str:
    if not isinstance(fields, dict):
        raise ValueError(f"{where}: the task data must be an object with a 'text' field, got {_short(fields)}")
    if isinstance(fields.get("text"), str):
        return fields["text"]
    strings = [key for key, value in fields.items() if isinstance(value, str)]
    raise ValueError(f"{where}: no 'text' field in the task data (string fields: {strings})")


def _char_spans(items, where: str) -> tuple[list, list]:
    """The spans ``(start, end, label, where)`` of the regions ``items`` (one per label), and what
    each region says it covers (its ``text``, else None) for ``check_covered``."""
    spans, covered = [], []
    for item in items:
        value = item.get("value", item) if isinstance(item, dict) else None
        if not isinstance(value, dict) or not isinstance(value.get("labels"), list):
            raise ValueError(f"{where}: span {item!r} needs a value with start, end and labels")
        start = char_offset(value.get("start"), f"{where}: span {value!r}")
        end = char_offset(value.get("end"), f"{where}: span {value!r}")
        for label in value["labels"]:
            if not isinstance(label, str) or not label:
                raise ValueError(f"{where}: span {value!r} has a label that is not a non-empty string")
            spans.append((start, end, label, where))
            covered.append(value["text"] if isinstance(value.get("text"), str) else None)
    return spans, covered


def _annotator(person) -> str | None:
    if person is None:
        return None
    if isinstance(person, dict):
        return str(person.get("email") or person.get("id"))
    return str(person)


def _unit(text: str, items, where: str, key, options: ReadOptions):
    spans, covered = _char_spans(items, where)
    return annotate_text(text, None, spans, where, options, covered=covered), None if key is None else str(key)


def _collect(path: Path, entries, options: ReadOptions):
    """``group_by_annotator`` of ``(annotator, text, span items, key, where)`` entries, refusing
    two annotations of one task by one annotator."""
    read, texts = [], []
    seen: dict = {}
    for annotator, text, items, key, where in entries:
        if (annotator, key) in seen and key is not None:
            raise ValueError(f"{where}: annotator {annotator} annotated task {key} twice (also {seen[annotator, key]})")
        seen[annotator, key] = where
        annotated, unit_key = _unit(text, items, where, key, options)
        texts.append(annotated)
        read.append((annotator, unit_key))
    if not read:
        raise ValueError(f"{path}: no annotations")
    warn_widened(texts, str(path))
    tasks: dict = {}  # the annotations of each task, cut at the same line breaks
    for index, (_, unit_key) in enumerate(read):
        tasks.setdefault(("task", unit_key) if unit_key is not None else ("annotation", index), []).append(index)
    pieces: dict = {}
    for indices in tasks.values():
        pieces.update(zip(indices, split_at_line_breaks([texts[i] for i in indices]), strict=True))
    records = [(annotator, unit_of(piece, unit_key if line is None or unit_key is None else f"{unit_key} line {line}"))
               for index, (annotator, unit_key) in enumerate(read) for line, piece in pieces[index]]
    return group_by_annotator(records, str, str(path), path.stem)


def _tally(counts: Counter) -> str:
    return ", ".join(f"{name} ({count})" for name, count in counts.items())


def _control(path: Path, regions, options: ReadOptions):
    """The labels control whose regions are read, from ``regions`` (the ``(span type, control
    name)`` of every span region of the file): ``options.layer`` (``--layer``) when given, else the
    file's one labels control. Regions left out (other span types such as ``hypertextlabels``,
    other controls) are counted in one warning; a file of span regions none of which is read, or
    with several labels controls and none chosen, is refused."""
    controls = Counter(name for kind, name in regions if kind == "labels")
    if options.layer is not None and controls and options.layer not in controls:
        raise ValueError(f"{path}: no labels control named {options.layer!r}; the file's labels controls are "
                         f"{_tally(controls) or 'none'}")
    if options.layer is None and len(controls) > 1:
        raise ValueError(f"{path}: text spans of {len(controls)} labels controls, {_tally(controls)} regions: "
                         f"choose one with --layer NAME")
    chosen = options.layer if options.layer is not None else next(iter(controls), None)
    left = Counter(kind if kind != "labels" else f"labels control {name}" for kind, name in regions
                   if (kind, name) != ("labels", chosen))
    if left and chosen is None:
        raise ValueError(f"{path}: no text span to read: the file's span regions are of other types, "
                         f"{_tally(left)}; this reader reads 'labels' regions of a text (Labels on Text)")
    warn_skipped(str(path), sum(left.values()), f"span regions of other types or controls ({_tally(left)})")
    return chosen


def _kind(result: dict) -> tuple:
    """``(span type, control name)`` of a result (a result without a type is a ``labels`` one)."""
    return str(result.get("type", "labels")), result.get("from_name")


def _span_results(annotation: dict, where: str) -> list:
    """The results of an annotation that are span regions (their type ends in ``labels``)."""
    return [r for r in _objects(annotation.get("result"), "the result", where) if _kind(r)[0].endswith("labels")]


def _read_json(path: Path, options: ReadOptions):
    kept, cancelled, predictions = [], 0, 0
    for index, task in enumerate(_tasks(path)):
        where = f"{path} task {_short(task.get('id', index))}"
        key, text = _task_id(task.get("id"), where), _text_of(task.get("data") or {}, where)
        predictions += len(task["predictions"]) if isinstance(task.get("predictions"), list) else 0
        for annotation in _objects(task.get("annotations", task.get("completions")), "annotations", where):
            if annotation.get("was_cancelled"):
                cancelled += 1
                continue
            annotation_where = f"{where} annotation {_short(annotation.get('id'))}"
            kept.append((annotation, text, key, annotation_where, _span_results(annotation, annotation_where)))
    if not kept and predictions:
        raise ValueError(f"{path}: no annotations, only predictions ({predictions}: a model's pre-annotations, "
                         f"which are not read as an annotator's); annotate the tasks (or accept the predictions) "
                         f"in Label Studio and export again")
    control = _control(path, [_kind(r) for *_, results in kept for r in results], options)
    entries = ((_annotator(annotation.get("completed_by")), text,
                [r for r in results if _kind(r) == ("labels", control)], key, where)
               for annotation, text, key, where, results in kept)
    annotators = _collect(path, entries, options)
    warn_skipped(str(path), cancelled, "cancelled (skipped) annotations")
    return annotators


def _region_kind(value) -> str | None:
    """The span type of a JSON-MIN field: ``labels`` (text regions), another ``...labels`` type,
    or None (not a list of span regions). A list is regions when any of its objects is one (has a
    ``...labels`` key, or ``start`` and ``end``): a malformed region among them is then an error
    naming the item, never a reason to leave the whole list out."""
    regions = [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
    kinds = {key for v in regions for key in v if key.endswith("labels")}
    if "labels" in kinds or (not kinds and any("start" in v and "end" in v for v in regions)):
        return "labels"
    return min(kinds, default=None)


def _read_min(path: Path, options: ReadOptions):
    items = _tasks(path)
    fields = [{key: kind for key, value in item.items() if (kind := _region_kind(value))} for item in items]
    control = _control(path, [(kind, key) for item, kinds in zip(items, fields, strict=True)
                              for key, kind in kinds.items() for _ in item[key]], options)

    def entries():
        for index, (item, kinds) in enumerate(zip(items, fields, strict=True)):
            where = f"{path} item {index + 1} (task {item.get('id')}, annotation {item.get('annotation_id')})"
            regions = item[control] if kinds.get(control) == "labels" else []
            key = _task_id(item.get("id"), where)
            yield _annotator(item.get("annotator")), _text_of(item, where), regions, key, where

    return _collect(path, entries(), options)


READERS = (
    Reader("label-studio", "Label Studio JSON export (a task array with annotations[].completed_by and "
                           "result[].value start/end/labels)", _sniff_json, _read_json, resembles=_resembles,
           near_misses=("one Label Studio task object, such as a Label Studio 0.x completions file",)),
    Reader("label-studio-min", "Label Studio JSON-MIN export (one object per annotation: text, annotator, "
                               "spans with start/end/labels)", _sniff_min, _read_min),
)

__all__ = ["READERS"]
