"""Input rules shared by every tag-taking entry point: corpus shape, tag values, type names.

- A corpus is a list (or tuple, or array) of sentences; each sentence a list of tags. ``None``,
  a string, a dict or a generator (read more than once, and of unknown length) is refused, and so
  is a ``None`` or string sentence.
- A tag is a non-empty string. ``None``, numbers (NaN included) and other objects are a
  :class:`TagTypeError`; the empty string is a ValueError (seqeval cannot take either).
- An entity type may not be named ``"O"`` (the no-entity category of every contingency table,
  token label and noise instance) or like a top-level result key (:data:`RESERVED_TYPE_NAMES`,
  or any name starting with one of :data:`RESERVED_PREFIXES`: ``chance_f1`` puts types next to
  ``overall_f1``, and flat results join ``{type}_{stat}``, so a type ``overall`` would give
  ``overall_f1`` too). Tags, span lists and span files all follow this rule
  (:func:`refuse_reserved_type`).

Errors name the role (``predictions``, ``references``, ...), the sentence (0-based, as in
``predictions[3]``) and the 0-based position in it.
"""

from __future__ import annotations

from collections.abc import Mapping

NOTHING = "O"

# Top-level keys that results put next to the per-type entries: chance_f1's ``sentence_scores``,
# nested_chance_f1's ``depths``, team_chance_f1's ``annotators`` and ``per_annotator`` (and its
# ``pairwise_*`` matrices), the span command's ``pairs``, ``skipped_spans`` and ``layered_units``;
# "overall*" (every function's pooled scores) and "pairwise_*" are refused as prefixes.
RESERVED_TYPE_NAMES = frozenset({NOTHING, "sentence_scores", "depths", "annotators", "per_annotator", "pairs",
                                 "skipped_spans", "layered_units"})
RESERVED_PREFIX = "overall"
RESERVED_PREFIXES = (RESERVED_PREFIX, "pairwise_")


class TagTypeError(TypeError, ValueError):
    """Signal a tag, sentence or corpus of the wrong type.

    A TypeError, and also a ValueError, which is what callers of seqeval-style metrics catch for
    bad input; the message names the sentence and position.

    See Also
    --------
    spans_from_tags : One of the functions raising it.

    Examples
    --------
    >>> from chance_agreement import spans_from_tags
    >>> try:
    ...     spans_from_tags(["B-PER", 7])
    ... except ValueError as error:
    ...     print(type(error).__name__, "-", error)
    TagTypeError - position 1: the tag is an int (7), not a string
    """


def where(role: str | None, sentence: int, position: int | None = None) -> str:
    """``predictions[3], position 5``; with no role (one sequence given alone) ``position 5``."""
    parts = [f"{role}[{sentence}]"] if role is not None else []
    if position is not None:
        parts.append(f"position {position}")
    return ", ".join(parts)


def describe_value(value) -> str:
    """``an int (1)``, ``None``, ``NaN``: how error messages name a value of the wrong kind."""
    if value is None:
        return "None"
    if isinstance(value, float) and value != value:
        return "NaN"
    name = type(value).__name__
    article = "an" if name[:1].lower() in "aeiou" else "a"
    text = repr(value)
    return f"{article} {name} ({text if len(text) <= 40 else text[:37] + '...'})"


def _container_kind(value) -> str:
    if value is None:
        return "None"
    if isinstance(value, (str, bytes)):
        return "a string"
    if isinstance(value, Mapping):
        return f"a {type(value).__name__} (a mapping)"
    if hasattr(value, "__next__"):
        return f"a {type(value).__name__} (an iterator: give a list, it is read more than once)"
    if hasattr(value, "__iter__"):
        return f"a {type(value).__name__} (not indexable: give a list)"
    return describe_value(value)


def _is_sequence(value) -> bool:
    return (
        hasattr(value, "__len__")
        and hasattr(value, "__getitem__")
        and not isinstance(value, (str, bytes, Mapping))
    )


def check_corpus(sequences, role: str = "predictions") -> None:
    """Refuse a corpus that is not a list of tag lists; errors name ``role`` and the sentence."""
    if not _is_sequence(sequences):
        raise TagTypeError(
            f"{role} must be a list of sentences, each a list of tags; got {_container_kind(sequences)}"
        )
    if set(map(type, sequences)) <= {list, tuple}:
        return
    for index, sentence in enumerate(sequences):
        if not _is_sequence(sentence):
            raise TagTypeError(f"{where(role, index)}: expected a list of tags, got {_container_kind(sentence)}")


def check_items(annotations, role: str = "annotations") -> None:
    """Refuse multi-annotator input (items, each a list of the annotators' tag lists) whose
    containers are not sequences: ``None`` as a whole, a generator, a dict, a set, a number at
    any level. Errors name ``annotations[i]`` or ``annotations[i][a]``. Strings, and ``None``
    for an item or an annotator, are left to the entry point, which says what a missing
    annotator means there."""

    def refuse(value) -> bool:
        return value is not None and not isinstance(value, (str, bytes)) and not _is_sequence(value)

    if annotations is None or refuse(annotations):
        raise TagTypeError(
            f"{role} must be a list of items, each a list of the annotators' tag sequences; "
            f"got {_container_kind(annotations)}"
        )
    if isinstance(annotations, (str, bytes)):
        return
    for index, item in enumerate(annotations):
        if refuse(item):
            raise TagTypeError(
                f"{role}[{index}]: expected a list of the annotators' tag sequences, got {_container_kind(item)}"
            )
        if item is None or isinstance(item, (str, bytes)):
            continue
        for annotator, tags in enumerate(item):
            if refuse(tags):
                raise TagTypeError(f"{role}[{index}][{annotator}]: expected a list of tags, "
                                   f"got {_container_kind(tags)}")


def check_tag_list(tags) -> None:
    """Refuse one tag sequence that is not a list (None, a string, a dict, a generator, ...)."""
    if not _is_sequence(tags):
        raise TagTypeError(f"expected a list of tags, got {_container_kind(tags)}")


def tag_problem(tag):
    """``(exception class, why)`` if ``tag`` is not a tag, else None."""
    if not isinstance(tag, str):
        return TagTypeError, f"the tag is {describe_value(tag)}, not a string"
    if not tag:
        return ValueError, "the tag is an empty string"
    return None


def raise_bad_tag(sequences, role: str | None) -> None:
    """Find the first bad tag (in sentence order) and raise naming its sentence and position."""
    for index, sentence in enumerate(sequences):
        for position, tag in enumerate(sentence):
            problem = tag_problem(tag)
            if problem:
                error, why = problem
                raise error(f"{where(role, index, position)}: {why}")
    raise AssertionError("raise_bad_tag found no bad tag")  # pragma: no cover - callers check first


def reserved_type(name: str) -> bool:
    """True for a type name that would be merged with "O" or collide with a result key."""
    return name in RESERVED_TYPE_NAMES or name.startswith(RESERVED_PREFIXES)


def refuse_reserved_type(name: str, place: str) -> None:
    """Raise a ValueError naming ``place`` (file and line, or sentence and position) when the entity
    type ``name`` is reserved (see the module docstring); every entry point calls this rule."""
    if not reserved_type(name):
        return
    if name == NOTHING:
        why = "'O' is the no-entity category"
    else:
        why = "it would collide with a result key (overall*, pairwise_*, " + ", ".join(
            sorted(RESERVED_TYPE_NAMES - {NOTHING})) + ")"
    raise ValueError(f"{place}: an entity type is named {name!r}, which is reserved: {why}; rename the type")


def check_type_names(spans_per_sentence, role: str | None, names=None) -> None:
    """Refuse a reserved entity type (see module docstring), naming it and its first sentence.

    ``names``: the distinct types of the spans if the caller knows them (saves a scan).
    """
    if names is None:
        names = {name for spans in spans_per_sentence for name, _, _ in spans}
    bad = [name for name in names if reserved_type(name)]
    if not bad:
        return
    for index, spans in enumerate(spans_per_sentence):
        for name, start, _ in spans:
            if name in bad:
                refuse_reserved_type(name, where(role, index, start))


# --- several annotators: one shape for the whole API ---------------------------------------------
#
# Every function that takes several annotators' tags takes them per sentence (item-major):
# ``annotations[s][a]`` is annotator ``a``'s tag sequence of sentence ``s`` (``None``: ``a`` did not
# annotate ``s``), the layout of an items-by-raters table and of evaluate's one row per sentence.
# A list of per-annotator lists reads the same way when every tag sequence has one length; such
# input is refused (never guessed) with a message saying how to pass it: ``by_item(annotators)``
# turns per-annotator lists into this layout, ``as_items(annotations)`` confirms it.


class ItemMajor(list):
    """A list of sentences, each the annotators' tag sequences, whose layout the caller stated
    (``as_items``, ``by_item``): taken as it is, even when every sequence has one length."""


def problem(function: str, argument: str, text: str, sentence: int | None = None, annotator: int | None = None,
            position: int | None = None, name: str | None = None) -> str:
    """The one message template for several annotators' input:
    ``team_chance_f1: annotations[3][1] (annotator bob), position 5: the tag is None``."""
    place = (argument + (f"[{sentence}]" if sentence is not None else "")
             + (f"[{annotator}]" if annotator is not None else ""))
    if name is not None:
        place += f" (annotator {name})"
    if position is not None:
        place += f", position {position}"
    return f"{function}: {place}: {text}"


def as_items(annotations) -> ItemMajor:
    """Mark several annotators' tags as given per sentence (item-major), the API's layout.

    A list that reads both ways (as many annotators as sentences, every sequence of one length)
    is refused by the several-annotator functions unless marked with ``as_items`` or ``by_item``.

    Parameters
    ----------
    annotations : list of list
        Per sentence ``s``, annotator ``a``'s tags ``annotations[s][a]``, or ``None`` if ``a`` did
        not annotate ``s``.

    Returns
    -------
    ItemMajor
        The same list, marked (a ``list`` subclass).

    Raises
    ------
    TagTypeError
        Not a list of sentences.

    See Also
    --------
    by_item : The same layout from one list per annotator.

    Examples
    --------
    >>> from chance_agreement import team_chance_f1
    >>> items = as_items([[["B-PER", "O"], ["B-PER", "O"]], [["O", "B-LOC"], ["O", "O"]]])
    >>> round(team_chance_f1(items, zero_division=0)["overall_observed_f1"], 4)
    0.6667
    """
    if isinstance(annotations, (str, bytes)) or not _is_sequence(annotations):
        raise TagTypeError(f"as_items takes a list of sentences, each a list of the annotators' tag sequences; "
                           f"got {_container_kind(annotations)}")
    return ItemMajor(annotations)


def complete_items(items) -> tuple[list[int], ItemMajor]:
    """The items (per sentence, the annotators' tag sequences) that every annotator annotated
    (no ``None``), and their indices: the input of the measures that need every annotator on
    every item (the noise model, gamma).

    Parameters
    ----------
    items : list
        Per sentence, the annotators' tag sequences, ``None`` for an annotator who did not annotate it.

    Returns
    -------
    (list of int, ItemMajor)

    Examples
    --------
    >>> complete_items([[["B-PER"], ["O"]], [["O"], None]])
    ([0], [[['B-PER'], ['O']]])
    """
    indices = [s for s, item in enumerate(items) if all(tags is not None for tags in item)]
    return indices, ItemMajor([items[s] for s in indices])


def pair_shared(first, second) -> tuple[list, list]:
    """The sentences two annotators both annotated: ``(first's tags, second's tags)`` without the
    sentences where either is ``None``.

    Parameters
    ----------
    first, second : list
        Per sentence a tag sequence or ``None``.

    Returns
    -------
    (list, list)

    Examples
    --------
    >>> pair_shared([["B-PER"], ["O"], None], [["O"], None, ["O"]])
    ([['B-PER']], [['O']])
    """
    kept = [(a, b) for a, b in zip(first, second, strict=True) if a is not None and b is not None]
    return [a for a, _ in kept], [b for _, b in kept]


def by_item(annotators, items=None) -> ItemMajor:
    """Turn one list per annotator (``annotators[a][s]``) into the API's layout, per sentence (``[s][a]``).

    Parameters
    ----------
    annotators : list of list
        Per annotator, per sentence a tag sequence, or ``None`` for a sentence not annotated
        (``None`` stays ``None``).
    items : None
        Must be None: the two forms are alternatives (a guard against giving both).

    Returns
    -------
    ItemMajor
        Per sentence, the annotators' tag sequences.

    Raises
    ------
    TagTypeError
        Not a list of per-annotator lists.
    ValueError
        Annotators with different numbers of sentences, or ``items`` given too.

    See Also
    --------
    by_annotator : The inverse.
    as_items : Tags already per sentence.

    Examples
    --------
    >>> by_item([[["B-PER", "O"], ["O"]], [["B-PER", "B-LOC"], None]])
    [[['B-PER', 'O'], ['B-PER', 'B-LOC']], [['O'], None]]
    """
    if items is not None:
        raise ValueError("give exactly one of annotations (per sentence, the annotators' tag sequences) "
                         "or annotators= (per annotator, a list of tag sequences)")
    if isinstance(annotators, (str, bytes)) or not _is_sequence(annotators):
        raise TagTypeError(f"annotators must be a list with one list of tag sequences per annotator; "
                           f"got {_container_kind(annotators)}")
    rows = [list(a) if a is not None and not isinstance(a, (str, bytes)) else a for a in annotators]
    for a, sentences in enumerate(rows):
        if sentences is None or isinstance(sentences, (str, bytes)):
            raise TagTypeError(f"annotators[{a}] must be a list of tag sequences (None per missing sentence)")
    if len({len(sentences) for sentences in rows}) > 1:  # type: ignore[arg-type]  # lists, checked above
        raise ValueError(f"annotators have different numbers of sentences: {[len(s) for s in rows]}")  # type: ignore[arg-type]
    return ItemMajor(list(sentence) for sentence in zip(*rows, strict=True))


def by_annotator(items) -> list[list]:
    """Turn the API's layout (``items[s][a]``) into one list per annotator (``[a][s]``).

    Parameters
    ----------
    items : list of list
        Per sentence, the annotators' tag sequences (``None`` stays ``None``).

    Returns
    -------
    list of list
        Per annotator, per sentence a tag sequence or ``None``.

    Raises
    ------
    ValueError
        Sentences with different numbers of annotators, bad tags (naming sentence and annotator).

    See Also
    --------
    by_item : The inverse.

    Examples
    --------
    >>> by_annotator([[["B-PER", "O"], ["B-PER", "B-LOC"]], [["O"], None]])
    [[['B-PER', 'O'], ['O']], [['B-PER', 'B-LOC'], None]]
    """
    rows = check_annotations(as_items(items), function="by_annotator", argument="items", min_annotators=1)
    return [[row[a] for row in rows] for a in range(len(rows[0]))]


def _lengths(row) -> set:
    return {len(tags) for tags in row if tags is not None and not isinstance(tags, (str, bytes))}


def _ambiguous(rows: list) -> bool:
    """Every row has the same number of slots, there are two or more of each, and every given tag
    sequence has one length: the transposed list reads as well."""
    return (len(rows) >= 2 and len(rows[0]) >= 2 and len({len(row) for row in rows}) == 1
            and len(set().union(*map(_lengths, rows))) == 1)


def check_annotations(annotations, *, function: str, argument: str = "annotations", min_annotators: int = 2) -> list:
    """Several annotators' tags checked in the API's one layout (``annotations[s][a]``, see
    above); returns the rows as lists. Errors follow ``problem``'s template."""
    check_items(annotations, argument)
    if isinstance(annotations, (str, bytes)):
        raise TagTypeError(problem(function, argument, "expected a list of sentences, each a list of the annotators' "
                                   "tag sequences; got a string"))
    if not len(annotations):
        raise ValueError(problem(function, argument, "expected a non-empty list of sentences, each a list of the "
                                 "annotators' tag sequences"))
    rows: list[list] = []
    for s, row in enumerate(annotations):
        if row is None or isinstance(row, (str, bytes)):
            raise ValueError(problem(function, argument, "expected a list of the annotators' tag sequences", s))
        row = list(row)
        if len(row) != len(rows[0] if rows else row):
            raise ValueError(problem(function, argument, f"{len(row)} annotator slots but sentence 0 has "
                                     f"{len(rows[0])}: give every sentence one slot per annotator (None for a "
                                     "missing one)", s))
        for a, tags in enumerate(row):
            if isinstance(tags, (str, bytes)):
                raise ValueError(problem(function, argument, "an annotation is a string, expected a list of tags",
                                         s, a))
        rows.append(row)
    if len(rows[0]) < min_annotators:
        raise ValueError(problem(function, argument, f"need at least {min_annotators} annotators per sentence, "
                                 f"sentence 0 has {len(rows[0])}"))
    _check_lengths(rows, function, argument)
    if not isinstance(annotations, ItemMajor) and _ambiguous(rows):
        raise ValueError(problem(function, argument, _AMBIGUOUS.format(
            rows=len(rows), columns=len(rows[0]), length=next(iter(_lengths(rows[0]))), function=function)))
    return rows


_AMBIGUOUS = ("{rows} x {columns} tag sequences, all {length} tokens long, read both as {rows} sentences x {columns} "
              "annotators (the layout every function takes: annotations[sentence][annotator]) and as {rows} "
              "annotators x {columns} sentences, so the layout is not guessed. Say which: "
              "{function}(by_item(annotators)) for one list per annotator, or {function}(as_items(annotations)) "
              "for one list per sentence (both from chance_agreement)")


def _check_lengths(rows: list, function: str, argument: str) -> None:
    """The annotators' tag sequences of one sentence have one length; when they do not, but the
    input reads per annotator, the message says so."""
    for s, row in enumerate(rows):
        lengths = [len(tags) for tags in row if tags is not None]
        if len(set(lengths)) > 1:
            hint = ""
            columns = [[row[a] for row in rows] for a in range(len(rows[0]))]
            if len(rows) >= 2 and all(len(_lengths(column)) <= 1 for column in columns):
                hint = (f"; the input reads as one list per annotator ({argument}[annotator][sentence]): "
                        f"pass {function}(by_item({argument}))")
            raise ValueError(problem(function, argument, f"the annotators' tag sequences have different lengths "
                                     f"{lengths}{hint}", s))


__all__ = [
    "NOTHING",
    "RESERVED_PREFIX",
    "RESERVED_PREFIXES",
    "RESERVED_TYPE_NAMES",
    "ItemMajor",
    "TagTypeError",
    "as_items",
    "by_annotator",
    "by_item",
    "check_annotations",
    "check_corpus",
    "check_items",
    "check_tag_list",
    "check_type_names",
    "complete_items",
    "describe_value",
    "pair_shared",
    "problem",
    "raise_bad_tag",
    "refuse_reserved_type",
    "reserved_type",
    "tag_problem",
    "where",
]
