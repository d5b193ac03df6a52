"""Any number of annotators from any mix of files, aligned unit by unit.

``read_annotators(["alice.jsonl", "team.json", "carl.conll"])`` reads every file through the
reader registry (``spans.readers``): a file may hold one annotator or several (Label Studio,
Prodigy, a multi-column CoNLL file), each named by its id in the file, else by the file's name.
The annotators' units are aligned by key (document id and sentence) when every unit has one, else
by text when every unit has one, else by order; then each aligned unit must have the same tokens.
A difference is a ValueError naming both files and the document (or line).

Overlapping spans (``Team.flat`` for the tag-based commands, ``Team.nested`` for nested scoring):

- spans of one type that cross (share tokens, neither inside the other): an error naming the
  file, the document and both spans by default; with ``crossing="skip"`` the later one is left
  out, counted and listed in ``Team.skipped``. The flat (tag) view cannot hold a span of one type
  inside another of the same type either: such a span is treated the same way there.
- spans of different types that share tokens: in the flat view the unit is scored with each type
  in its own layer (one copy of the unit per type, holding that type's spans only), as the flat
  scores treat every type as a separate layer anyway; in the nested view only types that cross
  are split so (a span inside another of another type stays its child). ``Team.layered`` counts
  the units split so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .conll import check_same_tokens, check_tag_columns, column_scheme, lines_named, parse_column_spec
from .nested import tags_from_spans
from .readers import read_file
from .readers.base import CROSSING, Annotator, ReadOptions, Unit
from .tags import spans_from_tags


@dataclass
class Team:
    """Aligned annotators: ``units[a][u]`` is annotator a's unit u (same tokens for every a)."""

    names: list
    sources: list
    units: list
    annotators: list = field(default_factory=list, repr=False)
    skipped: list = field(default_factory=list)  # crossing spans left out (crossing="skip"), one line each
    layered: int = 0  # units scored one layer per type
    left_out: list = field(default_factory=list)  # partial coverage: (where, annotator index) of units one holds
    origins: list = field(default_factory=list)  # origins[a]: the index in ``specs`` annotator a was read from
    redacted: bool = False  # token text replaced by positions (``redact``)

    @property
    def tokens(self) -> list:
        return [_present(units).tokens for units in zip(*self.units, strict=True)]

    def coverage(self) -> dict:
        """How many units each annotator holds and each pair shares (``units[a][u]`` None: not held),
        counting the units left out because only one annotator holds them (``left_out``).

        Returns
        -------
        dict
            ``{"units": n, "per_annotator": {name: count}, "pairs": {(name_a, name_b): count}}``.

        Examples
        --------
        >>> team = read_annotators(["tests/data/partial/doccano/alice.jsonl", "tests/data/partial/doccano/bob.jsonl"],
        ...                        partial=True)
        >>> team.coverage()
        {'units': 4, 'per_annotator': {'alice': 3, 'bob': 3}, 'pairs': {('alice', 'bob'): 2}}
        """
        held = [[unit is not None for unit in units] for units in self.units]
        pairs = {(self.names[a], self.names[b]): sum(x and y for x, y in zip(held[a], held[b], strict=True))
                 for a in range(len(held)) for b in range(a + 1, len(held))}
        alone = [sum(index == a for _, index in self.left_out) for a in range(len(held))]
        return {"units": (len(held[0]) if held else 0) + len(self.left_out),
                "per_annotator": {name: sum(row) + extra
                                  for name, row, extra in zip(self.names, held, alone, strict=True)},
                "pairs": pairs}

    def documents(self, tokens=None) -> list[str]:
        """The name of each unit's document, or with ``tokens`` (``flat``'s, whose layered copies
        share their unit's token list) of each of those sentences: what a report writes next to a
        sentence number.

        A unit keyed ``document:sentence`` (brat) or ``document#sentence`` (INCEpTION) belongs to
        that document; a unit with another key is a document of its own, named where the first
        annotator holding it has it (a Label Studio task, a doccano, Prodigy or JSONL line, without
        the annotator's own annotation id); a sentence of a column file (CoNLL, WebAnno TSV) belongs
        to its file.

        Parameters
        ----------
        tokens : list of list, optional
            ``flat()``'s tokens.

        Returns
        -------
        list of str

        Examples
        --------
        >>> team = read_annotators(["tests/data/formats/brat/alice", "tests/data/formats/brat/bob"])
        >>> team.documents()
        ['doc.ann', 'doc.ann']
        >>> read_annotators(["examples/anna.conll", "examples/ben.conll"]).documents()[:2]
        ['examples/anna.conll', 'examples/anna.conll']
        """
        names = [_document_of(_present(units)) for units in zip(*self.units, strict=True)]
        if tokens is None:
            return names
        position = {id(_present(units).tokens): u for u, units in enumerate(zip(*self.units, strict=True))}
        return [names[position[id(sentence)]] for sentence in tokens]

    def redact(self) -> None:
        """Replace the text of every token by its 0-based position in its unit ("0", "1", ...) and
        drop the units' texts, for reports that may not hold the annotated text (``--redact``):
        whatever is built from the team afterwards (``flat``'s tokens, the notes on spans left
        out) holds offsets, labels and ids only. Spans, tags and keys are kept.

        Examples
        --------
        >>> team = read_annotators(["examples/anna.conll", "examples/ben.conll"])
        >>> team.redact()
        >>> team.flat()[0][0][:4], team.redacted
        (['0', '1', '2', '3'], True)
        """
        for units in self.units:
            for unit in units:
                if unit is not None:
                    unit.tokens = [str(position) for position in range(len(unit.tokens))]
                    unit.text = None
        self.redacted = True

    def flat(self, *, scheme=None, mode=None, suffix=False, crossing="error") -> tuple[list, list]:
        """``(tokens, tags)`` with ``tags[a][s]`` annotator a's tags of (layered) sentence s."""
        return _flat(self, scheme, mode, suffix, crossing)

    def nested(self, *, scheme=None, mode=None, suffix=False, crossing="error") -> tuple[list, list]:
        """``(spans, lengths)``: ``spans[a][s]`` annotator a's token spans of (layered) sentence s."""
        return _nested(self, scheme, mode, suffix, crossing)


def read_annotators(specs, *, input_format=None, column=None, columns=None, names=None, widen=False, tokenizer=None,
                    offsets=None, layer=None, feature=None, typesystem=None, partial=False) -> Team:
    """Read annotators from files of any supported format, aligned sentence by sentence.

    The format of each file is detected from its content (CoNLL columns, JSONL, brat, Label
    Studio, doccano, Prodigy, INCEpTION); a file holding several annotators gives them all.

    Parameters
    ----------
    specs : list of str or pathlib.Path
        The files; ``FILE:COLUMN`` picks a tag column of a column file.
    input_format : str, optional
        A reader's name (``file_readers.names()``) instead of detection.
    column : int, optional
        The tag column of column files (None: every tag column of a file given alone, else the
        last).
    columns : list of int, optional
        One default column per spec instead of ``column``.
    names : list of str, optional
        New names for the annotators, in order (default: the ids in the files, else file names).
    widen : bool, default False
        Widen character spans off token boundaries to whole tokens (else an error).
    tokenizer : callable, optional
        Token offsets of texts without tokens (default ``tokenize``).
    offsets : {"codepoint", "utf16", "grapheme"}, optional
        How character offsets count (None: the format's own default).
    layer, feature : str, optional
        The annotation layer and label feature of INCEpTION files.
    typesystem : str, optional
        The UIMA type system file of INCEpTION XMI files.
    partial : bool, default False
        Annotators may hold different documents (each pair is scored on those both hold).

    Returns
    -------
    Team
        ``names``, ``sources``, ``units[a][u]`` (annotator a's unit u, the same tokens for every
        annotator); ``flat()`` gives ``(tokens, tags)`` and ``nested()`` ``(spans, lengths)``.

    Raises
    ------
    ValueError
        An unreadable record or units whose tokens differ between annotators, naming the file and
        line.
    FileNotFoundError
        A file that does not exist.

    See Also
    --------
    team_chance_f1 : Score the team.

    Examples
    --------
    >>> from pathlib import Path
    >>> from chance_agreement import by_item, examples_path, team_chance_f1
    >>> folder = Path(examples_path())
    >>> team = read_annotators([folder / "anna.conll", folder / "ben.conll"])
    >>> team.names
    ['anna', 'ben']
    >>> tokens, tags = team.flat()
    >>> round(team_chance_f1(by_item(tags), names=team.names)["overall_corrected_f1"], 4)
    0.7731
    """
    specs = [str(spec) for spec in specs]
    annotators, origins = [], []
    for index, spec in enumerate(specs):
        path, chosen = parse_column_spec(spec)
        default = columns[index] if columns is not None else column
        options = ReadOptions(widen=widen, tokenizer=tokenizer, offsets=offsets, layer=layer, feature=feature,
                              typesystem=typesystem, column=chosen if chosen is not None else default,
                              all_columns=len(specs) == 1 and chosen is None and default is None)
        read = read_file(path, input_format, options)
        if chosen is not None:
            for annotator in read:
                annotator.name = (f"{annotator.name}:{annotator.column}" if annotator.column is not None
                                  else annotator.name)
        annotators += read
        origins += [index] * len(read)
    left_out: list = []
    units = align(annotators, partial=partial, left_out=left_out)
    return Team(_names(annotators, names), [a.source for a in annotators], units, annotators, left_out=left_out,
                origins=origins)


def _names(annotators: list[Annotator], names) -> list[str]:
    if names is not None:
        names = list(names)
        if len(names) != len(annotators):
            raise ValueError(f"{len(names)} names for {len(annotators)} annotators")
        if len(set(names)) < len(names):
            raise ValueError(f"two annotators are named alike in {names}")
        return names
    given = [a.name for a in annotators]
    labels = list(given)
    for index, annotator in enumerate(annotators):
        if annotator.named_by_file and given.count(annotator.name) > 1:
            labels[index] = _distinct_path(annotator, annotators)
    if len(set(labels)) < len(labels):
        labels = [f"{label}#{i + 1}" if labels.count(label) > 1 else label for i, label in enumerate(labels)]
    return labels


def _distinct_path(annotator: Annotator, annotators: list[Annotator]) -> str:
    """The shortest trailing part of the annotator's path that no other annotator's path ends in."""
    own = Path(annotator.source.rsplit(":", 1)[0] if annotator.column is not None else annotator.source)
    others = [Path(a.source) for a in annotators if a is not annotator]
    parts = own.with_suffix("").parts
    for size in range(1, len(parts) + 1):
        label = "/".join(parts[-size:])
        if not any("/".join(other.with_suffix("").parts[-size:]) == label for other in others):
            return label + (f":{annotator.column}" if annotator.column is not None else "")
    return annotator.name


# --- alignment -------------------------------------------------------------------------------------


def align(annotators: list[Annotator], *, partial: bool = False, left_out: list | None = None) -> list[list]:
    """The annotators' units in the first one's order (see the module docstring).

    With ``partial`` the annotators may hold different documents (matched by key or text; a team
    project where not everyone annotated everything): the units are every document anyone holds
    (the first annotator's order, then the others' further ones), ``None`` where an annotator does
    not hold it; a document fewer than two annotators hold is left out, its ``where`` appended
    to ``left_out`` with the index of the annotator holding it. Files aligned by order alone must
    still hold the same units."""
    if not annotators:
        raise ValueError("no annotators")
    every = [unit for a in annotators for unit in a.units]
    aligned, problem = None, None
    if all(unit.key is not None for unit in every):
        aligned, problem = _by(annotators, lambda unit: unit.key, "document", partial)
    if aligned is None and all(unit.text is not None for unit in every):
        aligned, text_problem = _by(annotators, lambda unit: unit.text, "text", partial)
        problem = problem or text_problem
    if problem is not None and aligned is None:
        raise ValueError(problem)
    if aligned is None:
        aligned = _by_order(annotators)
    if partial and len(annotators) > 1:
        shared = [sum(unit is not None for unit in units) >= 2 for units in zip(*aligned, strict=True)]
        if left_out is not None:
            left_out += [(_present(units).where, next(a for a, unit in enumerate(units) if unit is not None))
                         for units, kept in zip(zip(*aligned, strict=True), shared, strict=True) if not kept]
        aligned = [[unit for unit, kept in zip(units, shared, strict=True) if kept] for units in aligned]
    for position in range(len(aligned[0])):
        _same_tokens([(a, units[position]) for a, units in zip(annotators, aligned, strict=True)
                      if units[position] is not None])
    return aligned


def _document_of(unit: Unit) -> str:
    """The document a unit belongs to (``Team.documents``)."""
    key = unit.key or ""
    for separator in (":", "#"):
        if separator in key:
            return key.rpartition(separator)[0]
    tail = " line " if unit.token_lines is not None else " annotation "  # a column file's sentence: its file
    head, found, number = unit.where.rpartition(tail)
    return head if found and number.isdigit() else unit.where


def _present(units):
    """The first unit that is there (an aligned position's tokens and place)."""
    return next(unit for unit in units if unit is not None)


def _by(annotators, key_of, what: str, partial: bool = False):
    """``(units matched by key_of, None)``, or ``(None, the difference)`` when the keys differ
    (with ``partial``, never: a unit an annotator lacks is None)."""
    first = annotators[0]
    tables = []
    for annotator in annotators:
        table: dict = {}
        for unit in annotator.units:
            table.setdefault(key_of(unit), []).append(unit)
        tables.append(table)
    for annotator, table in zip(annotators[1:], tables[1:], strict=True):
        problem = None if partial else _difference(first, annotator, tables[0], table, what)
        if problem is not None:
            return None, problem
    order: dict = {}  # (key, occurrence) in the first annotator's order, then the others'
    for annotator in annotators:
        seen: dict = {}
        for unit in annotator.units:
            key = key_of(unit)
            seen[key] = seen.get(key, -1) + 1
            order.setdefault((key, seen[key]), None)
    aligned = [[table[key][n] if n < len(table.get(key, ())) else None for key, n in order] for table in tables]
    return aligned, None


def _difference(first: Annotator, other: Annotator, first_table: dict, table: dict, what: str) -> str | None:
    """The message naming both files and the first document one has and the other has not."""
    for _, table_a, lacking, table_b in ((first, first_table, other, table), (other, table, first, first_table)):
        for key, units in table_a.items():
            if len(table_b.get(key, [])) < len(units):
                shown = key if what == "document" else repr(_short(key))
                return (f"{first.source} and {other.source} hold different documents: the {what} {shown} "
                        f"({units[len(table_b.get(key, []))].where}) is not in {lacking.source}")
    return None


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _by_order(annotators):
    first = annotators[0]
    for annotator in annotators[1:]:
        if annotator.column_file is not None and first.column_file is not None:
            if annotator.column_file is not first.column_file:
                check_same_tokens(first.column_file, annotator.column_file)  # names both files and lines
        elif len(annotator.units) != len(first.units):
            raise ValueError(f"{first.source} has {len(first.units)} sentence units and {annotator.source} has "
                             f"{len(annotator.units)}, and the files have no ids or texts to match them by")
    return [a.units for a in annotators]


def _same_tokens(pairs) -> None:
    (_, unit), rest = pairs[0], pairs[1:]
    for _, other in rest:
        if other.tokens != unit.tokens:
            at = next((i for i, (a, b) in enumerate(zip(unit.tokens, other.tokens, strict=False)) if a != b),
                      min(len(unit.tokens), len(other.tokens)))
            mine = repr(unit.tokens[at]) if at < len(unit.tokens) else "the end"
            theirs = repr(other.tokens[at]) if at < len(other.tokens) else "the end"
            raise ValueError(f"different tokens for the same document: {unit.where} has {mine} and {other.where} has "
                             f"{theirs} at token {at + 1} ({len(unit.tokens)} and {len(other.tokens)} tokens)")


# --- flat and nested views -------------------------------------------------------------------------


def _unit_spans(team: Team, annotator: int, unit: Unit, scheme, mode, suffix) -> list:
    if unit.spans is not None:
        return list(unit.spans)
    tags = unit.tags  # a unit has spans or tags
    return [(start, end, label) for label, start, end in spans_from_tags(tags, scheme=scheme, mode=mode, suffix=suffix)]  # type: ignore[arg-type]


def check_tags(team: Team, scheme=None, mode=None, suffix: bool = False):
    """Chunk every tag column the team was read from, line by line (``conll.check_tag_columns``):
    the first bad tag is a ValueError naming its file, line and column. Returns the scheme to chunk
    with (``column_scheme``)."""
    resolved = scheme
    checked = set()
    for annotator in team.annotators:
        if annotator.column_file is not None and (id(annotator.column_file), annotator.column) not in checked:
            checked.add((id(annotator.column_file), annotator.column))
            resolved = check_tag_columns(annotator.column_file, [annotator.column], resolved, mode, suffix)
    return resolved


def _column_scheme(team: Team, scheme, mode, suffix):
    """``check_tags``' scheme without chunking: detected in strict mode from the first tag column."""
    first = next((a for a in team.annotators if a.column_file is not None), None)
    return scheme if first is None else column_scheme(first.column_file, first.column, scheme, mode, suffix)


def _span_order(span) -> tuple:
    return span[0], -span[1], span[2]


def _first_conflicts(spans: list, flat: bool) -> list:
    """``(a, b)`` index pairs into ``spans`` (sorted by ``_span_order``), in the order of ``a`` then
    ``b``: every span ``b`` that cannot stay beside an earlier kept span of its type (crossing it, or
    also nested in it in the flat view), with ``a`` the earliest such span; a span is kept unless it
    meets one. Repeatedly leaving out the first later span that meets the first span meeting one
    keeps exactly these (what stays before a span is final), so one sweep does it: in the flat view
    the kept spans of a type are disjoint and only the last can meet ``b``; in the nested view they
    are laminar, the open ones a chain of decreasing ends, and ``b`` crosses those ending before it
    does. O(n log n)."""
    found = []
    open_by_type: dict = {}  # per type, its open kept spans as (index, end), outermost first
    for index, (start, end, label) in enumerate(spans):
        chain = open_by_type.setdefault(label, [])
        while chain and chain[-1][1] <= start:
            chain.pop()  # ends before this span starts: it meets no later span either
        if not chain or (not flat and chain[-1][1] >= end):
            chain.append((index, end))
            continue
        low, high = 0, len(chain) - 1  # nested: the outermost open span ending before this one
        while low < high:
            middle = (low + high) // 2
            if chain[middle][1] < end:
                high = middle
            else:
                low = middle + 1
        found.append((chain[low][0], index))
    return sorted(found)


def _resolve_same_type(spans: list, unit: Unit, flat: bool, crossing: str, skipped: list) -> list:
    if crossing not in CROSSING:
        raise ValueError(f"crossing must be one of {list(CROSSING)}, got {crossing!r}")
    kept = sorted(spans, key=_span_order)
    conflicts = _first_conflicts(kept, flat)
    for first, later in conflicts:
        a, b = kept[first], kept[later]
        relation = "cross" if b[1] > a[1] else "nest (a flat layer cannot hold both)"
        if crossing == "error":
            raise ValueError(f"{unit.where}: spans {a!r} and {b!r} of type {a[2]!r} {relation}; give --crossing skip "
                             f"(crossing='skip') to leave the later one out")
        skipped.append(f"{unit.where}: span {b!r} {' '.join(unit.tokens[b[0]:b[1]])!r} left out: it and {a!r} "
                       f"{relation.split(' (')[0]}")
    left_out = {later for _, later in conflicts}
    return [span for index, span in enumerate(kept) if index not in left_out]


def _types_share_tokens(spans: list, only_crossing: bool) -> bool:
    """Whether two spans of different types overlap (``only_crossing``: cross). The spans of one
    type do not (``_resolve_same_type`` first), so while no two types do either, the open spans are
    a chain of decreasing ends and the next span meets the innermost, or none. O(n log n)."""
    chain: list = []  # the open spans, outermost first
    for start, end, label in sorted(spans, key=_span_order):
        while chain and chain[-1][0] <= start:
            chain.pop()
        if chain and (not only_crossing or chain[-1][0] < end):
            return True  # it meets a span of another type
        chain.append((end, label))
    return False


def _views(team: Team, scheme, mode, suffix, crossing, flat: bool, check: bool = True):
    """Per unit, every annotator's spans after the crossing rule, and whether the unit is layered
    (None instead of the spans for a flat unit whose annotators all have tags: tags never overlap);
    ``check``: the tag columns first checked line by line (``check_tags``)."""
    scheme = check_tags(team, scheme, mode, suffix) if check else _column_scheme(team, scheme, mode, suffix)
    team.skipped, team.layered = [], 0
    rows: list[tuple[int, list | None, bool]] = []
    for position in range(len(team.units[0])):
        present = [units[position] for units in team.units if units[position] is not None]
        if flat and all(unit.tags is not None for unit in present):
            rows.append((position, None, False))
            continue
        per_annotator = [None if units[position] is None else  # not annotated by this annotator
                         _resolve_same_type(_unit_spans(team, a, units[position], scheme, mode, suffix),
                                            units[position], flat, crossing, team.skipped)
                         for a, units in enumerate(team.units)]
        layered = any(_types_share_tokens(spans, only_crossing=not flat)
                      for spans in per_annotator if spans is not None)
        team.layered += layered
        rows.append((position, per_annotator, layered))
    return scheme, rows


def _layers(per_annotator: list) -> list[str]:
    return sorted({label for spans in per_annotator if spans is not None for _, _, label in spans})


def flat_units(team: Team, *, scheme=None, mode=None, suffix=False, crossing="error",
               check: bool = True) -> tuple[list, list, object]:
    """The flat view before any tag is written: ``(tokens, sentences, scheme)`` with
    ``sentences[a][s]`` annotator a's tag list of (layered) sentence s, or its span list
    ``(start, end, label)`` as a tuple (a unit read with spans, or a layer), or None (not
    annotated); ``scheme``: the one to chunk the column files' tags with. ``check=False``: the
    tag columns are not checked line by line first (the caller chunks them once, under
    ``conll.lines_named(lambda: check_tags(team, ...))``)."""
    scheme, rows = _views(team, scheme, mode, suffix, crossing, flat=True, check=check)
    tokens: list = []
    sentences: list[list] = [[] for _ in team.units]
    for position, per_annotator, layered in rows:
        unit_tokens = _present(units[position] for units in team.units).tokens
        if per_annotator is None:  # every annotator's own tags (None: not annotated)
            tokens.append(unit_tokens)
            for a, units in enumerate(team.units):
                sentences[a].append(None if units[position] is None else list(units[position].tags))
            continue
        for label in (_layers(per_annotator) if layered else [None]):
            tokens.append(unit_tokens)
            for a, spans in enumerate(per_annotator):
                sentences[a].append(None if spans is None else
                                    tuple(s for s in spans if label is None or s[2] == label))
    return tokens, sentences, scheme


def _flat(team: Team, scheme, mode, suffix, crossing):
    tokens, sentences, _ = flat_units(team, scheme=scheme, mode=mode, suffix=suffix, crossing=crossing)
    tags = [[tags_from_spans([unit], [len(words)], role=name)[0] if isinstance(unit, tuple) else unit
             for unit, words in zip(units, tokens, strict=True)] for name, units in zip(team.names, sentences,
                                                                                         strict=True)]
    return tokens, tags


def _nested(team: Team, scheme, mode, suffix, crossing):
    with lines_named(lambda: check_tags(team, scheme, mode, suffix)):  # every tag unit chunked here, once
        _, rows = _views(team, scheme, mode, suffix, crossing, flat=False, check=False)
    lengths: list[int] = []
    spans: list[list] = [[] for _ in team.units]
    for position, per_annotator, layered in rows:
        for label in (_layers(per_annotator) if layered else [None]):
            lengths.append(len(_present(units[position] for units in team.units).tokens))
            for a, annotator_spans in enumerate(per_annotator):
                spans[a].append(None if annotator_spans is None else
                                [s for s in annotator_spans if label is None or s[2] == label])
    return spans, lengths


__all__ = ["Team", "align", "check_tags", "flat_units", "read_annotators"]
