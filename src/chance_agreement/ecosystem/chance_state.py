"""One small, engine-free state of a chance-corrected F1 evaluation: update, merge, JSON, result.

Every score of ``chance_f1`` is a ratio of sums, over sentences and entity types, of additive
statistics (``chance.corrected_f1.ChanceStatistics``: per type the counts as integers and the two
expectations as exact sums with their partials; correct and total tokens). A ``ChanceF1State``
holds that total and the options it was computed with, nothing else, so its size depends on the
number of entity types, never on the number of sentences:

    state = ChanceF1State(level="token")
    for predictions, references in batches:            # a Trainer loop, a stream, a shard
        state.update(predictions, references)
    state.result()       # == chance_f1(all_predictions, all_references, level="token"), bit for bit

``a.merge(b)`` adds two states exactly (in any order and grouping: counts are integers and the
expectations exact sums, ``chance.exact_sum``), and ``to_json`` / ``from_json`` carry a state
between processes or machines as strict JSON that names its format and options; ``from_json``
checks everything it reads (``ChanceStatistics.from_dict``). The Trainer batch mode
(``ecosystem.trainer``) and the spaCy scorer keep their running totals in this one object, whose
statistics are the sharded rows of ``ecosystem.sharding``.

Formula (chance-F1 paper, Proposition 1 and the micro average of its Section 4): with
``S = sum over sentences s and types t`` of the statistics,
``observed = 2 S[overlap] / S[a1 + a2]``, ``chance = 2 S[E overlap] / S[a1 + a2]`` (token level) or
``2 S[tp] / S[k1 + k2]`` and ``2 S[E matches] / S[k1 + k2]`` (entity level), and
``corrected = (observed - chance) / (1 - chance)``; ``result`` evaluates them with
``scores_from_statistics``, the same code ``chance_f1`` uses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..chance.corrected_f1 import LEVELS, MODELS, ChanceStatistics, corpus_total, scores_from_statistics
from ..spans.tags import resolve_scheme

STATE_FORMAT = "chance_agreement.ChanceF1State/1"
MODES = (None, "default", "strict")


def _scheme_name(scheme) -> str | None:
    """The seqeval scheme's name (``"IOB2"``), so the state's JSON names it; ``None`` stays."""
    resolved = resolve_scheme(scheme)
    return None if resolved is None else resolved.__name__


@dataclass
class ChanceF1State:
    """Running total of a chance-corrected F1 evaluation (options keyword-only).

    ``level``, ``model``, ``scheme``, ``mode`` and ``suffix`` are ``chance_f1``'s options. In strict
    mode give ``scheme``: detecting it batch by batch could disagree with the whole corpus, so that
    raises ValueError. ``sentences`` counts the sentences added (statistics of an empty sentence
    are zero, so the count is all that records them).
    """

    level: str = "token"
    model: str = "non_overlapping"
    scheme: str | None = None
    mode: str | None = None
    suffix: bool = False
    statistics: ChanceStatistics = field(default_factory=ChanceStatistics, repr=False)
    sentences: int = 0

    def __post_init__(self):
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {list(LEVELS)}, got {self.level!r}")
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {list(MODELS)}, got {self.model!r}")
        if self.mode not in MODES:
            raise ValueError(f"mode must be None, 'default' or 'strict', got {self.mode!r}")
        if not isinstance(self.suffix, bool):
            raise ValueError(f"suffix must be True or False, got {self.suffix!r}")
        self.scheme = _scheme_name(self.scheme)
        if self.mode == "strict" and self.scheme is None:
            raise ValueError("strict mode needs an explicit scheme (e.g. scheme='IOB2') when a corpus is scored in "
                             "parts: the scheme detected from one part could differ from the whole corpus's")
        if not isinstance(self.statistics, ChanceStatistics):
            raise ValueError(f"statistics must be ChanceStatistics, got {type(self.statistics).__name__}")

    def options(self) -> dict:
        """The options as ``chance_f1`` takes them."""
        return {"level": self.level, "model": self.model, "scheme": self.scheme, "mode": self.mode,
                "suffix": self.suffix}

    def update(self, predictions, references) -> "ChanceF1State":
        """Add a batch of sentences (tag sequences, as ``chance_f1`` takes them); returns ``self``.

        Bad input raises ValueError naming the sentence within the batch; the state is unchanged then.
        """
        predictions, references = list(predictions), list(references)
        if len(predictions) != len(references):
            raise ValueError(f"{len(predictions)} predicted and {len(references)} reference sentences: "
                             "they must be as many")
        if not references:
            return self
        total = corpus_total(predictions, references, scheme=self.scheme, mode=self.mode, suffix=self.suffix,
                             model=self.model, levels=(self.level,))
        self.statistics = self.statistics + total
        self.sentences += len(references)
        return self

    def merge(self, other: "ChanceF1State") -> "ChanceF1State":
        """A new state holding the exact sum of two states of the same options."""
        if not isinstance(other, ChanceF1State):
            raise ValueError(f"can merge only ChanceF1State, got {type(other).__name__}")
        if self.options() != other.options():
            raise ValueError(f"cannot merge states of different options: {self.options()} and {other.options()}")
        return ChanceF1State(**self.options(), statistics=self.statistics + other.statistics,
                             sentences=self.sentences + other.sentences)

    def reset(self) -> None:
        """Forget every sentence added (the options stay)."""
        self.statistics = ChanceStatistics()
        self.sentences = 0

    def result(self, *, zero_division="warn") -> dict:
        """``chance_f1``'s result (without sentence scores or intervals) of everything added."""
        if self.sentences == 0:
            raise ValueError("no sentences were added: nothing to score")
        return scores_from_statistics(self.statistics, self.level, zero_division)

    def to_dict(self) -> dict:
        """Strict-JSON form: format, options, sentence count and the statistics' own dict."""
        return {"format": STATE_FORMAT, "options": self.options(), "sentences": self.sentences,
                "statistics": self.statistics.to_dict()}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), allow_nan=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data) -> "ChanceF1State":
        """Inverse of ``to_dict``; every part is checked (ValueError naming the problem)."""
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"not a {STATE_FORMAT} state (format {found!r})")
        missing = {"options", "sentences", "statistics"} - set(data)
        if missing:
            raise ValueError(f"state lacks {sorted(missing)}")
        options = data["options"]
        if not isinstance(options, dict) or set(options) != {"level", "model", "scheme", "mode", "suffix"}:
            raise ValueError(f"options must name exactly level, model, scheme, mode and suffix, got {options!r}")
        sentences = data["sentences"]
        if isinstance(sentences, bool) or not isinstance(sentences, int) or sentences < 0:
            raise ValueError(f"sentences must be a non-negative integer, got {sentences!r}")
        try:
            statistics = ChanceStatistics.from_dict(data["statistics"])
        except ValueError as error:
            raise ValueError(f"state statistics: {error}") from None
        state = cls(**options, statistics=statistics, sentences=sentences)
        state._check_statistics_match_options()
        return state

    @classmethod
    def from_json(cls, text) -> "ChanceF1State":
        return cls.from_dict(strict_json(text, "state"))

    def _check_statistics_match_options(self) -> None:
        stats = self.statistics
        if stats.model is not None and stats.model != self.model:
            raise ValueError(f"statistics computed with model {stats.model!r}, options say {self.model!r}")
        if stats.levels is not None and self.level not in stats.levels:
            raise ValueError(f"statistics computed for levels {list(stats.levels)}, options say {self.level!r}")


def _reject_constant(name: str):
    raise ValueError(f"not strict JSON: {name} is not a number")


def strict_json(text, what: str | None = None):
    """``json.loads`` refusing NaN and Infinity; ValueError (naming ``what``) on bad JSON."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise ValueError(f"{what + ': ' if what else ''}not valid JSON ({error})") from None


__all__ = ["STATE_FORMAT", "ChanceF1State", "strict_json"]
