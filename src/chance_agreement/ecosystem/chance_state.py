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
expectations exact sums, ``_numerics.exact_sum``), and ``to_json`` / ``from_json`` carry a state
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

Beyond the point scores, a state can also carry (options, all off by default):

- ``levels=("token", "entity")``: the expectations of both levels, so ``result(level=...)`` gives
  either from one pass over the data;
- ``confidence_level`` with ``resampling="poisson"`` (and ``n_resamples``, ``random_state``): the
  Poisson bootstrap's per-resample sums (``chance.poisson_bootstrap.PoissonSums``), whose weights
  depend only on each sentence's document id (``update(..., document_ids=...)``; default: its
  position in the order added) and the seed, so merged states give ``chance_f1(...,
  resampling="poisson")``'s intervals bit for bit, however the corpus was split;
- ``contingency_views``: agreement_report's token contingency tables ("all", "entities",
  "grouped"), as counts per (reference category, predicted category); ``contingency_report()``
  gives each view's coefficients and table as ``agreement_report`` does (without a distance).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..chance.bootstrap_intervals import check_confidence_level, check_resamples, put_intervals
from ..chance.corrected_f1 import corpus_statistics, corpus_total, scores_from_statistics
from ..chance.poisson_bootstrap import PoissonSums, check_resampling, document_keys, poisson_seed
from ..chance.random_models import RandomModel, get_model
from ..chance.statistics import LEVELS, ChanceStatistics
from ..reliability.agreement_coefficients import coefficients, plain
from ..reliability.contingency_table import NOTHING, contingency
from ..spans.annotation_set import AnnotationSet, as_pair, pair_set
from ..spans.tags import resolve_scheme
from ..spans.validation import check_corpus
from .arrow_stream import arrow_sentences

STATE_FORMAT = "chance_agreement.ChanceF1State/2"
OLD_FORMATS = ("chance_agreement.ChanceF1State/1",)  # read: options without the bootstrap and tables
MODES = (None, "default", "strict")
CONTINGENCY_VIEWS = ("all", "entities", "grouped")  # agreement_report's views that need no markables
BASIC_OPTIONS = ("level", "model", "scheme", "mode", "suffix")
OPTIONS = (*BASIC_OPTIONS, "levels", "confidence_level", "n_resamples", "random_state", "resampling",
           "contingency_views")


def _scheme_name(scheme) -> str | None:
    """The seqeval scheme's name (``"IOB2"``), so the state's JSON names it; ``None`` stays."""
    resolved = resolve_scheme(scheme)
    return None if resolved is None else resolved.__name__


def _checked_levels(level: str, levels) -> tuple[str, ...]:
    if levels is None:
        return (level,)
    if isinstance(levels, str) or not all(x in LEVELS for x in levels) or level not in levels:
        raise ValueError(f"levels must be a tuple of {list(LEVELS)} holding level {level!r}, got {levels!r}")
    return tuple(x for x in LEVELS if x in levels)


def _checked_views(views) -> tuple[str, ...]:
    if isinstance(views, str) or any(view not in CONTINGENCY_VIEWS for view in views):
        raise ValueError(f"contingency_views must be a tuple of {list(CONTINGENCY_VIEWS)}, got {views!r}")
    return tuple(view for view in CONTINGENCY_VIEWS if view in views)


@dataclass(kw_only=True)
class ChanceF1State:
    r"""Keep the running total of a chance-corrected F1 evaluation (options keyword-only).

    Add batches with ``update``, combine states with ``merge``, carry them between processes or
    machines with ``to_json`` / ``from_json``, and read the scores with ``result``: they equal
    ``chance_f1`` on all the sentences added, bit for bit, whatever the split and order.

    Parameters
    ----------
    level : {"token", "entity"}, default "token"
        ``"token"``: the paper's token-overlap F1; ``"entity"``: exact span match.
    model : str or RandomModel, default "non_overlapping"
        The random annotation model: ``"non_overlapping"`` (the paper's), ``"overlapping"``,
        another name registered in ``random_models``, or a ``RandomModel`` instance.
    scheme : str, optional
        As in seqeval: the scheme of strict mode (``"IOB2"``, ``"IOBES"``, ...).
        In strict mode give ``scheme``: detecting it batch by batch could disagree with the whole
        corpus, so that raises ValueError.
    mode : {None, "strict"}, optional
        As in seqeval: None (conlleval-compatible) or ``"strict"``.
    suffix : bool, default False
        As in seqeval: tags with the type first (``"PER-B"``).
    levels : tuple of str, optional
        ``("token", "entity")``: keep both levels' expectations, so ``result(level=...)`` gives
        either from one pass.
    confidence_level : float, optional
        None (default): no intervals. Otherwise Poisson-bootstrap intervals (``resampling="poisson"``
        is then required), merged exactly.
    n_resamples : int, default 1000
        Bootstrap resamples.
    random_state : int, optional
        The bootstrap's seed; ``None`` with intervals draws a seed now and keeps it, so give one to
        states that will be merged.
    resampling : {"multinomial", "poisson"}, default "multinomial"
        How ``chance_f1`` resamples; a state's intervals need ``"poisson"``.
    contingency_views : tuple of str, default ()
        The ``agreement_report`` token contingency tables to keep (``"all"``, ``"entities"``,
        ``"grouped"``); ``contingency_report()`` gives their coefficients.
    statistics : ChanceStatistics
        The summed statistics (leave the running totals to ``update``, ``merge`` and ``from_json``).
    sentences : int, default 0
        The sentences added (statistics of an empty sentence are zero, so the count is all that
        records them).
    bootstrap : PoissonSums, optional
        The summed bootstrap replicates, with intervals.
    tables : dict
        The summed contingency tables of ``contingency_views``.

    Raises
    ------
    ValueError
        An unknown option value, strict mode without ``scheme``, or (``merge``) states of
        different options.

    See Also
    --------
    chance_f1 : The same scores from all the sentences at once.

    Notes
    -----
    With :math:`S` the sum over sentences and entity types of the additive statistics (counts as
    integers, expectations as exact sums),

    .. math::

        \mathrm{observed} = \frac{2 S[\mathrm{overlap}]}{S[a_1 + a_2]}, \qquad
        \mathrm{chance} = \frac{2 S[E\,\mathrm{overlap}]}{S[a_1 + a_2]}, \qquad
        \mathrm{corrected} = \frac{\mathrm{observed} - \mathrm{chance}}{1 - \mathrm{chance}}

    at token level (exact matches and span counts at entity level): Proposition 1 of [1]_ and the
    micro average of its Section 4. A 0/0 score (no entity added on either side) takes
    ``result``'s ``zero_division``, never NaN. The state's size depends on the number
    of entity types (and resamples), never on the number of sentences.

    References
    ----------
    .. [1] D. Li, C. Rosé, A. Yuan, C. Zhou. Estimating Agreement by Chance for Sequence Annotation. ACL 2024.

    Examples
    --------
    >>> references = [["B-PER", "I-PER", "O", "B-LOC", "O", "O", "B-ORG", "O"], ["O", "B-LOC", "O", "O", "B-PER", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "O", "O", "O", "B-ORG", "I-ORG"],
    ...                ["O", "B-LOC", "O", "B-ORG", "B-PER", "O"]]
    >>> from chance_agreement import chance_f1
    >>> first, second = ChanceF1State(), ChanceF1State()
    >>> _ = first.update(predictions[:1], references[:1])
    >>> _ = second.update(predictions[1:], references[1:])
    >>> merged = ChanceF1State.from_json(second.merge(first).to_json())
    >>> merged.sentences
    2
    >>> merged.result()["overall_corrected_f1"] == chance_f1(predictions, references)["overall_corrected_f1"]
    True
    """

    level: str = "token"
    model: str | RandomModel = "non_overlapping"
    scheme: str | None = None
    mode: str | None = None
    suffix: bool = False
    levels: tuple | None = None
    confidence_level: float | None = None
    n_resamples: int = 1000
    random_state: int | None = None
    resampling: str = "multinomial"
    contingency_views: tuple = ()
    statistics: ChanceStatistics = field(default_factory=ChanceStatistics, repr=False)
    sentences: int = 0
    bootstrap: PoissonSums | None = field(default=None, repr=False)
    tables: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self._check_basic_options()
        self.levels = _checked_levels(self.level, self.levels)
        self.contingency_views = _checked_views(self.contingency_views)
        self.tables = {view: self.tables.get(view) or _Table(view) for view in self.contingency_views}
        check_resampling(self.resampling)
        self.n_resamples = check_resamples(self.n_resamples)
        if self.confidence_level is not None:
            self.confidence_level = check_confidence_level(self.confidence_level)
            if self.resampling != "poisson":
                raise ValueError("a state's intervals need resampling='poisson' (the sentence bootstrap draws from "
                                 "every sentence at once; the Poisson one adds up across batches and shards)")
            self.random_state = poisson_seed(self.random_state)
            if self.bootstrap is None:
                self.bootstrap = self._empty_bootstrap()
        if not isinstance(self.statistics, ChanceStatistics):
            raise ValueError(f"statistics must be ChanceStatistics, got {type(self.statistics).__name__}")

    def _check_basic_options(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {list(LEVELS)}, got {self.level!r}")
        self.model = get_model(self.model)  # a registered name or a RandomModel, held as the model
        if self.mode not in MODES:
            raise ValueError(f"mode must be None, 'default' or 'strict', got {self.mode!r}")
        if not isinstance(self.suffix, bool):
            raise ValueError(f"suffix must be True or False, got {self.suffix!r}")
        self.scheme = _scheme_name(self.scheme)
        if self.mode == "strict" and self.scheme is None:
            raise ValueError("strict mode needs an explicit scheme (e.g. scheme='IOB2') when a corpus is scored in "
                             "parts: the scheme detected from one part could differ from the whole corpus's")

    def _empty_bootstrap(self) -> PoissonSums:
        return PoissonSums(seed=self.random_state, n_resamples=self.n_resamples, levels=self.levels)

    def options(self) -> dict:
        """The options, as ``chance_f1`` takes them (plus ``levels`` and ``contingency_views``)."""
        return {name: getattr(self, name) for name in OPTIONS}

    def _tag_options(self) -> dict:
        return {"scheme": self.scheme, "mode": self.mode, "suffix": self.suffix}

    def update(self, predictions, references=None, *, document_ids=None) -> ChanceF1State:
        """Add a batch of sentences: tag sequences as ``chance_f1`` takes them, or their ``AnnotationSet``.

        Tags are chunked once, here (the batch's set); a set is read as it is, and gives the state
        the same bits as its tags.

        Parameters
        ----------
        predictions : list of list of str, or AnnotationSet
            The predicted tags of each sentence; or a two-annotator ``AnnotationSet`` given alone
            (annotator 0 the references, 1 the predictions, over the sentences both annotated),
            chunked with the state's ``scheme``, ``mode`` and ``suffix``.
        references : list of list of str, optional
            The reference tags of each sentence (None with a set).
        document_ids : list of int or str, optional
            One per sentence: the Poisson bootstrap's keys (needs ``confidence_level``); default,
            the sentences' positions in the order added (``self.sentences``, ...).

        Returns
        -------
        ChanceF1State
            ``self``, holding the batch.

        Raises
        ------
        ValueError
            Bad input, naming the sentence within the batch (the state is unchanged then); a set
            chunked with other options than the state's.

        Examples
        --------
        >>> from chance_agreement import AnnotationSet
        >>> references = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG"]]
        >>> predictions = [["B-PER", "O", "O", "B-LOC"], ["O", "B-ORG", "O"]]
        >>> by_tags = ChanceF1State(level="entity").update(predictions, references)
        >>> by_set = ChanceF1State(level="entity").update(AnnotationSet.from_tags([references, predictions]))
        >>> by_set.to_json() == by_tags.to_json(), by_set.sentences
        (True, 2)
        """
        pair = self._batch_set(predictions, references, document_ids)
        if pair is None:  # nothing to score (the sentences without tokens are counted)
            return self
        options = {"model": self.model, "levels": self.levels}
        if self.bootstrap is None:
            total, bootstrap = corpus_total(pair, None, **options), None
        else:
            total, sentences = corpus_statistics(pair, None, **options)
            bootstrap = self.bootstrap + self._empty_bootstrap().add_sentences(
                sentences, self._keys(pair.n_items, document_ids))
        tables = {view: _Table.of(view, *contingency(pair, view=view)) for view in self.contingency_views}
        self.statistics = self.statistics + total
        self.bootstrap = bootstrap
        for view, table in tables.items():
            self.tables[view] = self.tables[view] + table
        self.sentences += pair.n_items
        return self

    def _batch_set(self, predictions, references, document_ids) -> AnnotationSet | None:
        """``update``'s batch as one two-annotator set, the one conversion of its tags (None when no
        sentence has a token: those are counted here)."""
        if isinstance(predictions, AnnotationSet):
            self._check_document_ids(document_ids)
            if predictions.n_annotators == 2 and not predictions.lengths[predictions.shared_items(0, 1)].any():
                self._add_empty_sentences(len(predictions.shared_items(0, 1)), document_ids)
                return None
            strict = self.mode if self.mode == "strict" else None  # the mode test below covers the others
            pair = as_pair(predictions, references, self.scheme, strict, self.suffix, function="ChanceF1State.update")
            if (pair.mode == "strict", pair.suffix) != (self.mode == "strict", self.suffix):
                raise ValueError(f"ChanceF1State.update: the annotation set was chunked with mode={pair.mode!r}, "
                                 f"suffix={pair.suffix!r}, the state's are mode={self.mode!r}, suffix={self.suffix!r}: "
                                 "build the set with the state's options")
            return pair
        predictions, references = list(predictions), list([] if references is None else references)
        if len(predictions) != len(references):
            raise ValueError(f"{len(predictions)} predicted and {len(references)} reference sentences: "
                             "they must be as many")
        self._check_document_ids(document_ids)
        if not references:
            return None
        if not any(map(len, references)):  # a batch of empty sentences: nothing to score, but they count
            check_corpus(predictions, "predictions")
            check_corpus(references, "references")
            for index, prediction in enumerate(predictions):
                if len(prediction):
                    raise ValueError(f"sentence {index}: the prediction has {len(prediction)} tags but the reference "
                                     "has 0")
            self._add_empty_sentences(len(references), document_ids)
            return None
        return pair_set(predictions, references, **self._tag_options())

    def _check_document_ids(self, document_ids) -> None:
        if document_ids is not None and self.bootstrap is None:
            raise ValueError("document_ids choose the Poisson bootstrap's weights: give the state a confidence_level")

    def _keys(self, count: int, document_ids) -> np.ndarray:
        """The Poisson bootstrap's keys of ``count`` new sentences (``update``'s ``document_ids``)."""
        if document_ids is None:
            return np.arange(self.sentences, self.sentences + count, dtype=np.uint64)
        return document_keys(document_ids, count)

    @classmethod
    def from_arrow(cls, source, *, predictions: str = "predictions", references: str = "references",
                   document_ids: str | None = None, **options) -> ChanceF1State:
        """A state holding every row of an Arrow stream, read one record batch at a time.

        Parameters
        ----------
        source : object with ``__arrow_c_stream__``
            A DuckDB relation, a polars or pandas (>= 2.2) DataFrame, a pyarrow Table or
            RecordBatchReader, or any other Arrow PyCapsule stream.
        predictions, references : str
            The columns of each sentence's predicted and reference tags (Arrow ``list<string>``).
        document_ids : str, optional
            A column of integer or string document ids: the Poisson bootstrap's keys (needs
            ``confidence_level``); default, each row's position in the stream.
        **options
            The state's options (``level``, ``model``, ``scheme``, ``confidence_level``, ...).

        Returns
        -------
        ChanceF1State
            ``result()`` equals ``chance_f1`` on all the rows with the same options, bit for bit,
            whatever the engine's batch sizes (the statistics are added exactly).

        Raises
        ------
        TypeError
            ``source`` is not an Arrow stream, or a column is not of the type it needs.
        ValueError
            A column is missing (the message lists the stream's columns), a row holds a null
            sentence or tag (named by its row, counted from 0), or a sentence's tags are bad
            (named by its batch's first row and, as ``update`` does, its place in the batch).

        Examples
        --------
        >>> import pyarrow as pa
        >>> table = pa.table({"predictions": [["B-PER", "I-PER", "O"], ["O", "B-LOC"]],
        ...                   "references": [["B-PER", "I-PER", "O"], ["B-LOC", "O"]]})
        >>> state = ChanceF1State.from_arrow(table.to_reader(max_chunksize=1), level="entity")
        >>> state.sentences
        2
        >>> from chance_agreement import chance_f1
        >>> state.result() == chance_f1(table["predictions"].to_pylist(), table["references"].to_pylist(),
        ...                             level="entity")
        True
        """
        state = cls(**options)
        first_row = 0
        for predicted, reference, ids in arrow_sentences(source, predictions=predictions, references=references,
                                                         document_ids=document_ids):
            try:
                state.update(predicted, reference, document_ids=ids)
            except ValueError as error:
                raise ValueError(f"the record batch from row {first_row} of the stream: {error}") from None
            first_row += len(reference)
        return state

    def _add_empty_sentences(self, count: int, document_ids) -> None:
        """``update`` of ``count`` sentences without tokens: zero statistics, counted as sentences (and
        as documents of the bootstrap, as ``chance_f1`` counts them)."""
        if self.bootstrap is not None:
            empty = ChanceStatistics({}, 0, 0, self.model.name, self.levels)
            self.bootstrap = self.bootstrap + self._empty_bootstrap().add_sentences([empty] * count,
                                                                                    self._keys(count, document_ids))
        self.sentences += count

    def merge(self, other: ChanceF1State) -> ChanceF1State:
        """A new state holding the exact sum of two states of the same options."""
        if not isinstance(other, ChanceF1State):
            raise ValueError(f"can merge only ChanceF1State, got {type(other).__name__}")
        if self.options() != other.options():
            raise ValueError(f"cannot merge states of different options: {self.options()} and {other.options()}")
        bootstrap = None if self.bootstrap is None else self.bootstrap + other.bootstrap
        tables = {view: self.tables[view] + other.tables[view] for view in self.contingency_views}
        return ChanceF1State(**self.options(), statistics=self.statistics + other.statistics,
                             sentences=self.sentences + other.sentences, bootstrap=bootstrap, tables=tables)

    def reset(self) -> None:
        """Forget every sentence added (the options stay)."""
        self.statistics = ChanceStatistics()
        self.sentences = 0
        self.bootstrap = None if self.bootstrap is None else self._empty_bootstrap()
        self.tables = {view: _Table(view) for view in self.contingency_views}

    def result(self, *, zero_division="warn", level: str | None = None) -> dict:
        """``chance_f1``'s result (without sentence scores) of everything added, at ``level`` (default
        the state's ``level``; any of ``levels``), with the intervals when ``confidence_level`` is set."""
        level = self.level if level is None else level
        if level not in self.levels:
            raise ValueError(f"this state computed the levels {list(self.levels)}, not {level!r}")
        if self.sentences == 0:
            raise ValueError("no sentences were added: nothing to score")
        if self.statistics.total_tokens == 0:
            raise ValueError("empty input: every sentence added has zero tokens")
        result = scores_from_statistics(self.statistics, level, zero_division)
        if self.bootstrap is not None:
            put_intervals(result, self.bootstrap.intervals(level, self.confidence_level, zero_division))
        return result

    def contingency_report(self) -> dict:
        """For each of ``contingency_views``: ``coefficients`` of its table plus ``contingency``
        (``{"categories", "table"}``), as ``agreement_report`` gives them without a distance."""
        if not self.contingency_views:
            raise ValueError("this state counts no contingency table: give it contingency_views")
        if self.sentences == 0:
            raise ValueError("no sentences were added: nothing to score")
        if self.statistics.total_tokens == 0:
            raise ValueError("empty input: every sentence added has zero tokens")
        report = {}
        for view in self.contingency_views:
            table, categories = self.tables[view].array()
            report[view] = {**coefficients(table, categories),
                            "contingency": {"categories": categories, "table": table.tolist()}}
        return plain(report)

    def to_dict(self) -> dict:
        """Strict-JSON form: format, options, sentence count, the statistics' own dict, the
        bootstrap sums (or None) and the contingency tables (categories and ``[reference, predicted,
        count]`` rows)."""
        options = dict(self.options(), model=self.model.name, levels=list(self.levels),
                       contingency_views=list(self.contingency_views))
        return {"format": STATE_FORMAT, "options": options, "sentences": self.sentences,
                "statistics": self.statistics.to_dict(),
                "bootstrap": None if self.bootstrap is None else self.bootstrap.to_dict(),
                "contingency": {view: table.to_dict() for view, table in self.tables.items()}}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), allow_nan=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data) -> ChanceF1State:
        """Inverse of ``to_dict``; every part is checked (ValueError naming the problem, also for
        parts of the wrong kind or size that a check did not foresee)."""
        try:
            return cls._from_checked_dict(data)
        except (TypeError, KeyError, IndexError, OverflowError, RecursionError, AttributeError) as error:
            raise ValueError(f"not a valid {STATE_FORMAT} state ({type(error).__name__}: {error})") from None

    @classmethod
    def _from_checked_dict(cls, data) -> ChanceF1State:
        old = _check_format(data)
        sentences = data["sentences"]
        if isinstance(sentences, bool) or not isinstance(sentences, int) or sentences < 0:
            raise ValueError(f"sentences must be a non-negative integer, got {sentences!r}")
        try:
            statistics = ChanceStatistics.from_dict(data["statistics"])
        except ValueError as error:
            raise ValueError(f"state statistics: {error}") from None
        options = _options_from_dict(data["options"], old)
        if not old and (options["confidence_level"] is None) != (data["bootstrap"] is None):
            raise ValueError("bootstrap sums must be there exactly when options.confidence_level is set")
        bootstrap = None if old or data["bootstrap"] is None else PoissonSums.from_dict(data["bootstrap"])
        tables = {} if old else _tables_from_dict(data["contingency"], options.get("contingency_views", ()))
        state = cls(**options, statistics=statistics, sentences=sentences, bootstrap=bootstrap, tables=tables)
        state._check_parts_match_options()
        return state

    @classmethod
    def from_json(cls, text) -> ChanceF1State:
        return cls.from_dict(strict_json(text, "state"))

    def _check_parts_match_options(self) -> None:
        stats = self.statistics
        if stats.model is not None and stats.model != self.model.name:
            raise ValueError(f"statistics computed with model {stats.model!r}, options say {self.model.name!r}")
        if stats.levels is not None and not set(self.levels) <= set(stats.levels):
            raise ValueError(f"statistics computed for levels {list(stats.levels)}, options say {list(self.levels)!r}")
        if self.bootstrap is not None and self.bootstrap.options() != self._empty_bootstrap().options():
            raise ValueError(f"bootstrap sums of {self.bootstrap.options()} do not match the options")
        if self.bootstrap is not None and self.bootstrap.documents != self.sentences:
            raise ValueError(f"bootstrap sums of {self.bootstrap.documents} sentences in a state of {self.sentences}")


def _check_format(data) -> bool:
    """True for a state of an older format (five options, no bootstrap or tables)."""
    if not isinstance(data, dict) or data.get("format") not in (STATE_FORMAT, *OLD_FORMATS):
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"not a {STATE_FORMAT} state (format {found!r})")
    old = data["format"] in OLD_FORMATS
    missing = {"options", "sentences", "statistics"} - set(data) if old else \
        {"options", "sentences", "statistics", "bootstrap", "contingency"} - set(data)
    if missing:
        raise ValueError(f"state lacks {sorted(missing)}")
    return old


def _options_from_dict(options, old: bool) -> dict:
    names = BASIC_OPTIONS if old else OPTIONS
    if not isinstance(options, dict) or set(options) != set(names):
        raise ValueError(f"options must name exactly {', '.join(names)}, got {options!r}")
    options = dict(options)
    for name in ("levels", "contingency_views"):
        if name in options:
            if not isinstance(options[name], list):
                raise ValueError(f"options.{name} must be a list, got {options[name]!r}")
            options[name] = tuple(options[name])
    return options


def _tables_from_dict(data, views) -> dict:
    if not isinstance(data, dict) or set(data) != set(views):
        raise ValueError(f"contingency must hold exactly the views {list(views)}")
    return {view: _Table.from_dict(table, view) for view, table in data.items()}


@dataclass
class _Table:
    """One view's contingency table as its categories (in ``contingency``'s order) and the
    non-zero counts per (reference category, predicted category); tables add by category name."""

    view: str
    categories: list = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)

    @classmethod
    def of(cls, view: str, table: np.ndarray, categories: list[str]) -> _Table:
        rows, columns = np.nonzero(table)
        return cls(view, list(categories), Counter({(categories[r], categories[c]): int(table[r, c])
                                              for r, c in zip(rows.tolist(), columns.tolist(), strict=True)}))

    def __add__(self, other: _Table) -> _Table:
        return _Table(self.view, _merged_categories(self.view, self.categories, other.categories),
                      self.counts + other.counts)

    def array(self) -> tuple[np.ndarray, list[str]]:
        index = {name: i for i, name in enumerate(self.categories)}
        table = np.zeros((len(index), len(index)), dtype=np.int64)
        for (reference, predicted), n in self.counts.items():
            table[index[reference], index[predicted]] = n
        return table, list(self.categories)

    def to_dict(self) -> dict:
        return {"categories": list(self.categories), "counts": [[r, p, n] for (r, p), n in sorted(self.counts.items())]}

    @classmethod
    def from_dict(cls, data, view: str) -> _Table:
        if not isinstance(data, dict) or set(data) != {"categories", "counts"} or not isinstance(data["counts"], list) \
                or not isinstance(data["categories"], list) or not all(isinstance(c, str) for c in data["categories"]):
            raise ValueError(f"contingency[{view!r}] must hold categories (strings) and counts")
        counts: Counter = Counter()
        for row in data["counts"]:
            if not (isinstance(row, list) and len(row) == 3 and all(x in data["categories"] for x in row[:2])
                    and type(row[2]) is int and row[2] > 0 and (row[0], row[1]) not in counts):
                raise ValueError(f"contingency[{view!r}] counts must be distinct [reference, predicted, count > 0] "
                                 f"rows over its categories, got {row!r}")
            counts[row[0], row[1]] = row[2]
        return cls(view, list(data["categories"]), counts)


def _merged_categories(view: str, first: list[str], second: list[str]) -> list[str]:
    """The union in ``contingency``'s order: sorted entity types, then O ("all"); sorted entity
    types ("entities"); always ``[ENTITY, O]`` ("grouped")."""
    if view == "grouped" or not first or not second:
        return list(first or second)
    types = sorted((set(first) | set(second)) - {NOTHING})
    return [*types, NOTHING] if view == "all" else types


def _reject_constant(name: str):
    raise ValueError(f"not strict JSON: {name} is not a number")


def strict_json(text, what: str | None = None):
    """``json.loads`` refusing NaN and Infinity; ValueError (naming ``what``) on bad JSON."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise ValueError(f"{what + ': ' if what else ''}not valid JSON ({error})") from None
    except RecursionError:
        raise ValueError(f"{what + ': ' if what else ''}JSON nested too deeply") from None


__all__ = ["CONTINGENCY_VIEWS", "STATE_FORMAT", "ChanceF1State", "strict_json"]
