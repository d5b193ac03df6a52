"""Span files at scale (issue 38 item 3c): the crossing rule and the layered-unit check sweep the
spans of a unit once (they copied the tail for every span: 10^5 spans of one unit took 85 s), and
the brat reader finds each span's line by bisection (it scanned every span per line: 40,000 lines
took 35 s). Same results as the quadratic definitions, checked against them on random units."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chance_agreement import read_annotators
from chance_agreement.spans.annotators import _resolve_same_type, _types_share_tokens
from chance_agreement.spans.readers.brat import read_brat


class Unit:
    where = "unit 1"
    tokens = [f"t{i}" for i in range(40)]


def quadratic_resolution(spans, flat):
    """The definition: while some span meets a later one of its type (crossing, or nested too when
    flat), leave out the first later span meeting the first such span. Returns what is kept and
    the pairs (first span, span left out) in that order."""
    kept = sorted(spans, key=lambda s: (s[0], -s[1], s[2]))
    pairs = []
    while True:
        pair = next(((a, b) for i, a in enumerate(kept) for b in kept[i + 1:]
                     if b[0] < a[1] and a[2] == b[2] and (flat or b[1] > a[1])), None)
        if pair is None:
            return kept, pairs
        pairs.append(pair)
        kept.remove(pair[1])


def quadratic_share(spans, only_crossing):
    return any(a[2] != b[2] and b[0] < a[1] and (not only_crossing or b[1] > a[1])
               for a in spans for b in spans if (a[0], -a[1], a[2]) <= (b[0], -b[1], b[2]) and a is not b)


span = st.tuples(st.integers(0, 30), st.integers(1, 9), st.sampled_from("ABC")).map(lambda s: (s[0], s[0] + s[1], s[2]))


@settings(max_examples=400, deadline=None)
@given(st.lists(span, max_size=14), st.booleans())
def test_the_sweep_keeps_and_names_what_the_definition_does(spans, flat):
    skipped = []
    kept = _resolve_same_type(spans, Unit(), flat, "skip", skipped)
    expected, pairs = quadratic_resolution(spans, flat)
    assert kept == expected and len(skipped) == len(pairs)
    for message, (a, b) in zip(skipped, pairs, strict=True):
        assert message.startswith(f"unit 1: span {b!r} ") and f"left out: it and {a!r} " in message
    if pairs:
        a, b = pairs[0]
        with pytest.raises(ValueError, match=re.escape(f"unit 1: spans {a!r} and {b!r} of type {a[2]!r} ")):
            _resolve_same_type(spans, Unit(), flat, "error", [])
    else:
        assert _resolve_same_type(spans, Unit(), flat, "error", []) == kept
    assert _types_share_tokens(kept, only_crossing=not flat) == quadratic_share(kept, only_crossing=not flat)


def test_a_hundred_thousand_spans_of_one_unit(tmp_path):
    n = 100_000
    words = [f"w{i}" for i in range(n + 1)]
    starts = [0]
    for word in words[:-1]:
        starts.append(starts[-1] + len(word) + 1)
    text = " ".join(words)
    # a ladder: every span crosses the next one, so the rule keeps every other span (left out: n/2)
    ladder = [{"start": starts[i], "end": starts[i + 1] + len(words[i + 1]), "label": "PER"} for i in range(n)]
    first = tmp_path / "ladder.jsonl"
    first.write_text(json.dumps({"id": 1, "text": text, "spans": ladder}) + "\n", encoding="utf-8")
    team = read_annotators([str(first), str(first)])
    tokens, tags = team.flat(crossing="skip")
    assert len(team.skipped) == 2 * (n // 2)  # both annotators
    assert team.skipped[0].endswith("left out: it and (0, 2, 'PER') cross")
    assert tags[0][0][:5] == ["B-PER", "I-PER", "B-PER", "I-PER", "B-PER"]


def test_brat_reader_is_linear_in_lines(tmp_path):
    lines = [f"Line {i} mentions Paris and John Smith ." for i in range(40_000)]
    (tmp_path / "doc.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    annotations, position = [], 0
    for line in lines:
        at = position + line.index("Paris")
        annotations.append(f"T{len(annotations) + 1}\tLOC {at} {at + 5}\tParis")
        at = position + line.index("John")
        annotations.append(f"T{len(annotations) + 1}\tPER {at} {at + 10}\tJohn Smith")
        position += len(line) + 1
    (tmp_path / "doc.ann").write_text("\n".join(reversed(annotations)) + "\n", encoding="utf-8")
    units = read_brat(tmp_path / "doc.ann")
    assert len(units) == 40_000
    assert sorted(units[-1].spans) == [(3, 4, "LOC"), (5, 7, "PER")]
