"""Entity spans from tag sequences, exactly as seqeval finds them.

Two modes, as in seqeval:

- default (``mode=None``): the conlleval-compatible chunker of ``seqeval.metrics.get_entities``
  (an ``I-`` after ``O`` starts an entity). Re-implemented here as one tight loop; tags must be
  ``O`` or carry a ``B``/``I``/``E``/``S`` prefix (suffix with ``suffix=True``), anything else is a
  ValueError (seqeval only warns and then chunks garbage).
- ``mode="strict"``: seqeval's own scheme automaton (``seqeval.scheme.Tokens``) for IOB1, IOB2,
  IOE1, IOE2, IOBES or BILOU; the scheme is auto-detected from the references when not given.

Spans are ``(entity_type, start, end)`` with ``end`` exclusive.
"""

from __future__ import annotations

from typing import Sequence

SCHEMES = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU")
_PREFIXES = frozenset("BIES")

Span = tuple[str, int, int]


def resolve_scheme(scheme):
    """seqeval scheme class for a name (``"IOB2"``) or class; ``None`` stays ``None``."""
    if scheme is None:
        return None
    import seqeval.scheme

    if isinstance(scheme, str):
        if scheme not in SCHEMES:
            raise ValueError(f"Scheme should be one of [{', '.join(SCHEMES)}], got {scheme!r}")
        return getattr(seqeval.scheme, scheme)
    if isinstance(scheme, type) and issubclass(scheme, seqeval.scheme.Token):
        return scheme
    raise ValueError(f"Scheme should be one of [{', '.join(SCHEMES)}], got {scheme!r}")


def check_mode(mode):
    if mode not in (None, "strict"):
        raise ValueError(f"mode should be None (conlleval-compatible) or 'strict', got {mode!r}")
    return mode


def _lenient_spans(tags: Sequence[str], suffix: bool) -> list[Span]:
    spans = []
    prev_tag, prev_type, begin = "O", "", 0
    for i, chunk in enumerate(list(tags) + ["O"]):
        if chunk == "O":
            tag, type_ = "O", "_"
        else:
            tag = chunk[-1] if suffix else chunk[0]
            sep_ok = len(chunk) == 1 or (chunk[-2] if suffix else chunk[1]) == "-"
            if tag not in _PREFIXES or not sep_ok:
                where = "suffix" if suffix else "prefix"
                raise ValueError(
                    f"invalid tag {chunk!r} at position {i}: expected 'O' or a B-, I-, E- or S- "
                    f"{where} (for BILOU or IOB1 use mode='strict' with scheme=...)"
                )
            type_ = (chunk[:-2] if suffix else chunk[2:]) or "_"
        if prev_tag != "O" and (
            prev_tag in "ES" or (tag in "BSO") or prev_type != type_
        ):
            spans.append((prev_type, begin, i))
        if tag != "O" and (
            tag in "BS" or prev_tag in "ESO" or prev_type != type_
        ):
            begin = i
        prev_tag, prev_type = tag, type_
    return spans


def _strict_spans(tags: Sequence[str], scheme, suffix: bool) -> list[Span]:
    from seqeval.scheme import Tokens

    try:
        entities = Tokens(list(tags), scheme=scheme, suffix=suffix).entities
    except KeyError as error:  # an unknown prefix letter
        raise ValueError(
            f"invalid tag: prefix {error.args[0]!r} is not one of the {scheme.__name__} prefixes"
        ) from None
    except ValueError as error:
        raise ValueError(str(error)) from None
    return [(entity.tag, entity.start, entity.end) for entity in entities]


def detect_scheme(sequences: Sequence[Sequence[str]], suffix: bool = False):
    """seqeval's auto-detection (IOB2, IOE2, IOBES or BILOU) over all sequences."""
    from seqeval.scheme import auto_detect

    try:
        return auto_detect([list(s) for s in sequences], suffix)
    except (ValueError, KeyError) as error:
        raise ValueError(f"cannot detect the tagging scheme of the references: {error}") from None


def spans_from_tags(tags: Sequence[str], scheme=None, mode=None, suffix: bool = False) -> list[Span]:
    """Entities of one tag sequence as ``(entity_type, start, end)``, ``end`` exclusive.

    For the same arguments this finds exactly the entities seqeval finds: the conlleval chunker
    by default, the ``scheme`` automaton with ``mode="strict"`` (scheme auto-detected if None).
    """
    check_mode(mode)
    scheme = resolve_scheme(scheme)
    if mode == "strict":
        return _strict_spans(tags, scheme or detect_scheme([tags], suffix), suffix)
    return _lenient_spans(tags, suffix)


def corpus_spans(sequences, role: str, scheme=None, mode=None, suffix: bool = False) -> list[list[Span]]:
    """Spans of every sentence; errors name ``role`` and the sentence index."""
    out = []
    for index, tags in enumerate(sequences):
        try:
            out.append(_strict_spans(tags, scheme, suffix) if mode == "strict" else _lenient_spans(tags, suffix))
        except ValueError as error:
            raise ValueError(f"{role}[{index}]: {error}") from None
    return out


def effective_scheme(sequences, scheme=None, mode=None, suffix: bool = False):
    """The scheme class to chunk with after checking ``mode``: in strict mode without a scheme,
    the one seqeval detects on ``sequences`` (the references, or every annotator's tags)."""
    check_mode(mode)
    resolved = resolve_scheme(scheme)
    if mode == "strict" and resolved is None:
        resolved = detect_scheme(sequences, suffix)
    return resolved


def paired_spans(predictions, references, scheme=None, mode=None, suffix: bool = False):
    """``(prediction spans, reference spans)`` per sentence, after ``check_pairs``; as seqeval,
    strict mode without a scheme detects it from the references."""
    check_pairs(predictions, references)
    resolved = effective_scheme(references, scheme, mode, suffix)
    return (
        corpus_spans(predictions, "predictions", resolved, mode, suffix),
        corpus_spans(references, "references", resolved, mode, suffix),
    )


def check_pairs(predictions, references) -> None:
    """Same number of sentences, the same length sentence by sentence, and at least one token."""
    if isinstance(predictions, str) or isinstance(references, str):
        raise ValueError("predictions and references must be lists of tag sequences, not strings")
    if len(predictions) != len(references):
        raise ValueError(
            f"got {len(predictions)} prediction sequences but {len(references)} reference sequences"
        )
    if len(references) == 0:
        raise ValueError("empty input: no sentences were given")
    for index, (pred, ref) in enumerate(zip(predictions, references)):
        if isinstance(pred, str) or isinstance(ref, str):
            raise ValueError(f"sentence {index}: expected a list of tags, got a string")
        if len(pred) != len(ref):
            raise ValueError(
                f"sentence {index}: the prediction has {len(pred)} tags but the reference has {len(ref)}"
            )
    if not any(len(ref) for ref in references):
        raise ValueError("empty input: every sentence has zero tokens")
