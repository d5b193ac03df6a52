"""Prodigy's ``db-out`` export of a NER dataset (``prodigy db-out DATASET > file.jsonl``).

One JSON object per line as the ``ner_manual`` interface saves it: ``text``, Prodigy's own
``tokens`` (``{"text", "start", "end", "id", "ws"}``), ``spans`` (``{"start", "end",
"token_start", "token_end", "label"}``, ``token_end`` inclusive), ``answer`` and the hashes
``_input_hash``/``_task_hash``, and with several annotators ``_annotator_id`` and ``_session_id``.

- Annotators: one per ``_annotator_id`` (``dataset-alice``), else per ``_session_id``, else the file.
- ``answer`` ``reject`` or ``ignore``: the record is left out, and one warning gives the count.
- Tokens are Prodigy's; a span is placed by its token indices (its character offsets must agree
  with them), or by its character offsets when it has no token indices.
- Records of one input align across annotators by ``_input_hash``.
- Binary ``ner.teach`` records (view ``ner``: one span the model suggested, answered accept or
  reject; without a view id, one span with the model's ``score``) are not full annotations: the
  file is refused, naming the record and what to do.
"""

from __future__ import annotations

from pathlib import Path

from ..annotated_text import char_offset, warn_widened
from .base import Reader, ReadOptions, annotate_text, group_by_annotator, json_lines, unit_of, warn_skipped
from .jsonl import first_object, record_spans

LEFT_OUT = ("reject", "ignore")
HASH_KEYS = ("_input_hash", "_task_hash", "_annotator_id", "_session_id", "_view_id")


def _sniff(head: bytes, path: Path) -> bool:
    record = first_object(head)
    if record is None or not isinstance(record.get("text"), str):
        return False
    spans = record.get("spans") or []
    return any(key in record for key in HASH_KEYS) or any(isinstance(s, dict) and "token_start" in s for s in spans)


def _binary(record) -> bool:
    """A binary ``ner.teach`` record: view ``ner`` (one span the model suggested, answered accept
    or reject), or, without a view id, one span carrying the model's ``score``/``rank``."""
    if not isinstance(record, dict):
        return False
    if "_view_id" in record:
        return record["_view_id"] == "ner"
    spans = record.get("spans")
    return (isinstance(spans, list) and len(spans) == 1 and isinstance(spans[0], dict)
            and ("score" in spans[0] or "rank" in spans[0]))


def _token_offsets(record: dict, text: str, where: str) -> list | None:
    tokens = record.get("tokens")
    if tokens is None:
        return None
    if not isinstance(tokens, list) or not all(isinstance(token, dict) for token in tokens):
        raise ValueError(f"{where}: 'tokens' must be a list of objects with start and end")
    return [(char_offset(t.get("start"), f"{where}: token {t!r}"), char_offset(t.get("end"), f"{where}: token {t!r}"))
            for t in tokens]


def _placed(record: dict, tokens: list | None, where: str) -> list:
    """Character spans ``(start, end, label, where)`` of the spans, from their token indices."""
    _, char_spans = record_spans(record, where)
    placed = []
    for item, (start, end, label, _) in zip(record.get("spans") or [], char_spans, strict=False):
        if not isinstance(item, dict) or "token_start" not in item or tokens is None:
            placed.append((start, end, label, where))
            continue
        first = char_offset(item["token_start"], f"{where}: span {item!r}")
        last = char_offset(item.get("token_end"), f"{where}: span {item!r}")
        if not 0 <= first <= last < len(tokens):
            raise ValueError(f"{where}: span {item!r}: tokens {first} to {last} are not tokens of the record "
                             f"({len(tokens)} tokens)")
        if (tokens[first][0], tokens[last][1]) != (start, end):
            raise ValueError(f"{where}: span {item!r}: its characters {start}-{end} are not its tokens {first} to "
                             f"{last} (characters {tokens[first][0]}-{tokens[last][1]})")
        placed.append((start, end, label, where))
    return placed


def _read(path: Path, options: ReadOptions):
    records, texts, left_out = [], [], 0
    for number, record in json_lines(path):
        where = f"{path} line {number}"
        if _binary(record):
            raise ValueError(f"{where}: a binary ner.teach record (one span the model suggested, answered "
                             f"{record.get('answer', 'accept or reject')}), not a full annotation of the text; read "
                             f"the records of ner.manual or ner.correct (view 'ner_manual'), or make full annotations "
                             f"of the binary answers first (prodigy ner.silver-to-gold)")
        if isinstance(record, dict) and record.get("answer") in LEFT_OUT:
            left_out += 1
            continue
        text, _ = record_spans(record, where)
        tokens = _token_offsets(record, text, where)
        annotated = annotate_text(text, tokens, _placed(record, tokens, where), where, options)
        texts.append(annotated)
        annotator = record.get("_annotator_id", record.get("_session_id"))
        key = record.get("_input_hash")
        records.append((annotator, unit_of(annotated, None if key is None else str(key))))
    warn_skipped(str(path), left_out, "records answered 'reject' or 'ignore'")
    if not records:
        raise ValueError(f"{path}: no accepted records")
    warn_widened(texts, str(path))
    return group_by_annotator(records, str, str(path), path.stem)


READERS = (Reader("prodigy", "Prodigy db-out JSONL (tokens, spans with token_start/token_end, answer; "
                  "annotators by _annotator_id or _session_id)", _sniff, _read),)

__all__ = ["LEFT_OUT", "READERS"]
