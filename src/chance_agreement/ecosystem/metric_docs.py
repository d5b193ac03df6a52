"""The metric cards (``hub_cards/<name>.md``) and the evaluate modules' own texts, written once.

Each metric's text is here once, as the Markdown of its card. :func:`metric_card` renders the card
that ``hub_cards/`` holds (``python -m chance_agreement.ecosystem.metric_docs hub_cards`` writes them;
``tests/test_hub_cards.py`` checks the committed cards equal it), and :func:`module_docs` gives each
module script its ``description`` (the card's summary), ``citation`` (the card's BibTeX) and
``inputs_description`` (the card's How to use, Inputs, Output values and Examples sections), so the
examples ``evaluate`` shows are the card's, and a change here shows up in both.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

# the Hub Space's settings of every card (its front matter, before the metric's title and description)
_SPACE = """\
sdk: gradio
sdk_version: 6.31.0
app_file: app.py
pinned: false
tags:
- evaluate
- metric
"""

# the sections of a card that describe how to call the module: evaluate shows them as its docstring
MODULE_SECTIONS = ("How to use", "Inputs", "Output values", "Examples")


@dataclass(frozen=True)
class MetricText:
    """One metric's card: its Space's look (emoji and colours), its summary and its Markdown sections."""

    name: str
    emoji: str
    color_from: str
    color_to: str
    summary: str
    body: str


@dataclass(frozen=True)
class ModuleDocs:
    """What an evaluate module script declares in its ``MetricInfo``, from its card."""

    description: str
    citation: str
    inputs_description: str


CHANCE_F1 = MetricText(
    name="chance_f1",
    emoji="🎲",
    color_from="indigo",
    color_to="green",
    summary="""\
Chance-corrected F1 for sequence labelling (named-entity recognition and other span tasks).
Returns every score of the seqeval metric, with the same keys and values, plus the observed,
chance and chance-corrected F1, overall and per entity type. Chance agreement comes from a
random annotation model that keeps the number and lengths of each annotator's segments and
places them uniformly at random in the sentence.
""",
    body="""\
## Metric description

F1 between two span annotations (a system and the gold standard, or two human annotators) is not
zero when the two annotations are unrelated: in a short sentence where a long entity covers most
tokens, any placement of a predicted segment of similar length overlaps it. This metric says how
much of the F1 chance alone explains and removes it, as Cohen's kappa does for classification.

For each sentence, entity type and annotator, the random annotation model keeps the segments'
number and lengths and places them uniformly at random (without overlap by default); the two
annotators are randomised independently. At token level (the default, the paper's measure),
F1 = 2 * overlap / (a1 + a2), where a1 and a2 are the annotated tokens of each side; a1 + a2 does
not change under the model, so chance F1 = 2 * sum_t c1(t) c2(t) / (a1 + a2), where c(t) is the
probability that token t is covered. Over a corpus, the overlaps, expected overlaps and a1 + a2
are summed over sentences and types (micro average), and

    corrected F1 = (observed F1 - chance F1) / (1 - chance F1)

At entity level (exact span match, seqeval's F1), the expected number of exact matches comes from
the start distributions of segments of equal length.

### Intervals

With `confidence_level`, the metric adds a sentence-level bootstrap interval to every observed,
chance and corrected F1, overall and per type. The sentences are resampled, not tokens or
entities: the random model places segments within a sentence, so a sentence's scores depend on
each other and the sentences are the independent units of a test set. Every score is a ratio of
per-sentence sums, so a resample is a count vector times the (sentences x statistics) matrix and
the random model is never recomputed (1,000 resamples take about 0.1 s on the CoNLL-2003 test
set). The interval is the percentile interval (the (1 - level)/2 and (1 + level)/2 quantiles of
the resampled scores); BCa is available in the Python API (`bootstrap_scores(..., method="bca")`)
and differs by less than 0.002 on CoNLL-2003 systems. In a simulation from a known model, the 95%
interval covered the population corrected F1 in 94.8% of 1,000 corpora of 200 sentences. A
resample with no entity on either side, or with chance F1 equal to 1, gives the score the
`zero_division` value, as the point estimate does (without a warning per resample). To compare two
systems on the same gold, use `chance_agreement.compare_systems` (paired bootstrap interval of the
difference and an approximate randomization p-value), not the overlap of two intervals.

The result also contains every key of evaluate's `seqeval` metric with the same values, so the
module replaces seqeval without changing downstream code.

## How to use

The metric takes the same arguments as seqeval. From a clone of the repository, load the module
folder by its local path; after `pip install`, `evaluate.load(chance_agreement.module_path("chance_f1"))`
(on the Hub, use the Space's id instead):

```python
>>> import evaluate
>>> chance_f1 = evaluate.load("./chance_f1_metric")
>>> references = [["O", "O", "O", "B-PER", "I-PER", "O", "O", "O", "B-LOC", "O"]]
>>> predictions = [["O", "O", "O", "B-PER", "I-PER", "I-PER", "O", "O", "B-LOC", "O"]]
>>> results = chance_f1.compute(predictions=predictions, references=references)
>>> round(results["overall_f1"], 4), round(results["overall_observed_f1"], 4)
(0.5, 0.8571)
>>> round(results["overall_chance_f1"], 4), round(results["overall_corrected_f1"], 4)
(0.2111, 0.8189)
```

The same computation without `evaluate`: `chance_agreement.chance_f1(predictions, references, ...)`.

A flat form for tools that need scalar values (`evaluate.save`, `push_to_hub`, the evaluator's
bootstrap, `radar_plot`, Trainer logging): `evaluate.load("./chance_f1_metric", "flat")` returns the
same numbers with `{type}_{stat}` keys (`PER_corrected_f1`, `overall_f1`, ...).

## Inputs

- **predictions** (`list` of `list` of `str`): the predicted tags, one list per sentence.
- **references** (`list` of `list` of `str`): the reference tags, one list per sentence, each as long
  as the matching prediction.
- **suffix** (`bool`, default `False`): the B/I/E/S marker is a suffix of the tag (`PER-B`).
- **scheme** (`str`, default `None`): `IOB1`, `IOB2`, `IOE1`, `IOE2`, `IOBES` or `BILOU`; used with
  `mode="strict"` (detected from the references when not given).
- **mode** (`str`, default `None`): `None` reads spans as conlleval does (an `I-` after `O` starts a
  span); `"strict"` accepts only the tags valid in the scheme.
- **sample_weight**: accepted for compatibility with seqeval; as in seqeval it has no effect.
- **zero_division** (`"warn"`, `0` or `1`, default `"warn"`): the value of a 0/0 score (`"warn"`
  gives 0.0 with an `UndefinedMetricWarning`).
- **model** (`str`, default `"non_overlapping"`): how random segments are placed:
  `"non_overlapping"` (segments of one annotator and type never overlap; the paper's experiments)
  or `"overlapping"`.
- **level** (`str`, default `"token"`): `"token"` for token-overlap F1 (the paper's measure) or
  `"entity"` for exact span match (its observed F1 equals `overall_f1`).
- **return_sentence_scores** (`bool`, default `False`): add `sentence_scores`, one dict per sentence.
- **confidence_level** (`float`, default `None`): `None` adds nothing; a level such as `0.95` adds
  sentence-bootstrap percentile intervals of observed, chance and corrected F1 (see Intervals).
- **n_resamples** (`int`, default `1000`): the number of bootstrap resamples.
- **random_state** (`int`, `numpy.random.Generator` or `None`, default `None`): the bootstrap's seed,
  through `numpy.random.default_rng` (never numpy's global state); the same seed gives the same
  intervals, `None` draws fresh entropy.
- **resampling** (`str`, default `"multinomial"`): `"multinomial"` draws sentences with replacement;
  `"poisson"` gives each sentence Poisson(1) weights that depend only on its document id and the
  seed, so sharded and streamed evaluations (`ChanceF1State`, the Ray adapter, evaluate's
  multi-process mode) give the same intervals bit for bit.
- **document_ids** (`list` of `int` or `str`, default the positions 0, 1, ...): with
  `resampling="poisson"` only, one id per sentence; sentences sharing an id are resampled together.

Span input: `evaluate.load("./chance_f1_metric", "spans")` takes `predictions` and `references`
as per sentence lists of `{"start": int, "end": int, "label": str}` token spans (half-open: tokens
`start .. end - 1`) and **lengths** (`list` of `int`, tokens per sentence); the result is the one
of the spans' IOB2 tags. The `"nested_spans"` configuration takes the same input with spans inside
spans (crossing spans are an error) and scores them layer by layer.

Configuration `"multi"` (m >= 2 annotators, `evaluate.load("./chance_f1_metric", "multi")`):

- **annotations** (per sentence, the list of the m annotators' tag sequences, `None` for an
  annotator who did not annotate it; the form `coefficients_metric`'s `"multi"` takes), or
  **annotators** (per annotator, its tag sequences of every sentence, `None` likewise).
- **names** (list of `str`, default `annotator_1`, `annotator_2`, `annotator_3`, ...): the
  annotators' names (the keys of `per_annotator`).
- **suffix**, **scheme**, **mode**, **zero_division**, **model**, **level**,
  **return_sentence_scores** (a sentence's scores pool all its pairs): as above. A missing
  annotator (`None`) is left out of that sentence's pairs; all-`O` tags are an annotation with no
  entities, which is not the same.

Tags seqeval accepts with a warning (`X`, a bare `PER`, `B_PER`, `b-per`, `O-PER`, `U-PER`, ...)
give seqeval's result, with one warning per distinct tag. Bad input (sequences of different
lengths, a tag that is `None`, a number or empty, a tag not valid in the scheme in strict mode, an
entity type named `O` or like a result key, an unknown scheme, empty input) raises a `ValueError`
that names the sentence and position.

## Output values

A dictionary. Overall, at top level:

- `overall_precision`, `overall_recall`, `overall_f1`: seqeval's micro-averaged exact-span
  precision, recall and F1, between 0.0 and 1.0.
- `overall_accuracy`: seqeval's token accuracy (tags equal), between 0.0 and 1.0.
- `overall_observed_f1`: the observed F1 at the chosen `level` (token overlap by default; equal to
  `overall_f1` at entity level), between 0.0 and 1.0.
- `overall_chance_f1`: the F1 expected under the random annotation model, between 0.0 and 1.0
  under the default non-overlapping model. Under `"overlapping"` it is the expected additive
  overlap and can exceed 1 (random segments may stack); it is never clipped, and corrected F1 is
  then undefined and takes the `zero_division` value.
- `overall_corrected_f1`: (observed - chance) / (1 - chance), at most 1.0; 0.0 means no agreement
  beyond chance and negative values mean less than chance.

Per entity type, one dictionary under the type's name (e.g. `PER`, `LOC`, `ORG`, `MISC`) with:

- `precision`, `recall`, `f1`, `number`: seqeval's exact-span scores and the number of reference
  spans of the type.
- `observed_f1`, `chance_f1`, `corrected_f1`: the same three scores for this type alone.

With `confidence_level`, intervals as `[low, high]` lists of floats: `overall_observed_f1_ci`,
`overall_chance_f1_ci`, `overall_corrected_f1_ci` at top level and `observed_f1_ci`,
`chance_f1_ci`, `corrected_f1_ci` in each type's dict. The flat configuration gives them as
`overall_corrected_f1_ci_low` / `overall_corrected_f1_ci_high` (and `PER_corrected_f1_ci_low`, ...).

With `return_sentence_scores=True`, `sentence_scores` is a list with one dict per sentence:
`observed_f1` and `chance_f1` (both `None` when the sentence has no entity on either side) and
`denominator` (a1 + a2 at token level, the number of spans on both sides at entity level). A test
set can then be split by chance level, as the paper's Table 10 does (see `chance-agreement
leaderboard --split`).

With the `"nested_spans"` configuration the top-level keys are the pooled scores (the sums of every
depth) and `depths` is a list with a dict of the same keys for each depth, outermost first:
depth-d spans of the predictions are compared with depth-d spans of the references only.
Configuration `"multi"`: the pairwise micro average over every sentence, type and pair (i, j) of
annotators present in the sentence, observed = sum 2 overlap_ij / sum (a_i + a_j), chance likewise
with the expected overlap of independently randomised annotators (exact matches and span counts
at entity level); with two annotators it equals the default configuration bit for bit.

- `overall_observed_f1`, `overall_chance_f1`, `overall_corrected_f1`, and per entity type
  `observed_f1`, `chance_f1`, `corrected_f1`, for the whole team.
- `annotators`: the names, in input order (default `annotator_1`, `annotator_2`, `annotator_3`, ...).
- `per_annotator`: `{name: {observed_f1, chance_f1, corrected_f1}}`, the annotator against all
  the others pooled (the micro average over its pairs); `None` if it shares no sentence.
- `pairwise_observed_f1`, `pairwise_chance_f1`, `pairwise_corrected_f1`: m x m lists of lists,
  symmetric, `None` on the diagonal and for pairs that never annotated the same sentence.

Every value is a plain Python number (safe for `json.dump` and `evaluate.save`); a 0/0 score takes
the `zero_division` value, never NaN.

### Values from popular papers

The paper's simulations (token level, non-overlapping model) give observed, chance and corrected
F1 of 0.8571, 0.5335 and 0.6938 (Sim1 A) and 0.8571, 0.1830 and 0.8251 (Sim3 A): the same observed
F1, very different agreement beyond chance. On the CoNLL-2003 English test set, the paper reports
corrected F1 2 to 6 points below the observed F1 of eleven NER systems (its Table 10, e.g. 0.923
observed and 0.901 corrected for model A), with rank changes on subsets split by chance level.

## Examples

A long entity in a short sentence: most of the observed token agreement is chance (the module is
loaded as in How to use).

```python
>>> references = [["B-ORG", "I-ORG", "I-ORG", "I-ORG", "O"]]
>>> predictions = [["B-ORG", "I-ORG", "I-ORG", "O", "O"]]
>>> results = chance_f1.compute(predictions=predictions, references=references)
>>> print({key: round(value, 4) for key, value in results["ORG"].items()})
{'precision': 0.0, 'recall': 0.0, 'f1': 0.0, 'number': 1, 'observed_f1': 0.8571, 'chance_f1': 0.7619, 'corrected_f1': 0.4}
```

Exact-span level: the observed F1 is seqeval's `overall_f1`.

```python
>>> references = [["O", "O", "O", "B-PER", "I-PER", "O", "O", "O", "B-LOC", "O"]]
>>> predictions = [["O", "O", "O", "B-PER", "I-PER", "I-PER", "O", "O", "B-LOC", "O"]]
>>> results = chance_f1.compute(predictions=predictions, references=references, level="entity")
>>> print({key: round(value, 4) for key, value in results.items() if key.startswith("overall")})
{'overall_precision': 0.5, 'overall_recall': 0.5, 'overall_f1': 0.5, 'overall_accuracy': 0.9, 'overall_observed_f1': 0.5, 'overall_chance_f1': 0.05, 'overall_corrected_f1': 0.4737}
```

The two random models differ once a type has several segments in a sentence.

```python
>>> references = [["B-PER", "I-PER", "O", "B-PER", "O", "O"]]
>>> predictions = [["B-PER", "I-PER", "O", "O", "B-PER", "O"]]
>>> for model in ("non_overlapping", "overlapping"):
...     results = chance_f1.compute(predictions=predictions, references=references, model=model)
...     print(model, round(results["overall_chance_f1"], 4), round(results["overall_corrected_f1"], 4))
non_overlapping 0.51 0.3197
overlapping 0.5178 0.3088
```

Per-sentence scores (a sentence without entities has no chance level):

```python
>>> references = [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "O", "O"]]
>>> predictions = [["B-PER", "I-PER", "O", "O", "O", "O"], ["O", "O", "O"]]
>>> results = chance_f1.compute(predictions=predictions, references=references, return_sentence_scores=True, zero_division=0)
>>> for sentence in results["sentence_scores"]:
...     print({key: value if value is None else round(value, 4) for key, value in sentence.items()})
{'observed_f1': 0.8, 'chance_f1': 0.288, 'denominator': 5.0}
{'observed_f1': None, 'chance_f1': None, 'denominator': 0.0}
```

Sentence-bootstrap intervals (seeded; 1,000 resamples of the 4 sentences by default):

```python
>>> references = [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "B-ORG", "I-ORG", "I-ORG", "O"],
...               ["B-LOC", "O", "O", "B-PER", "I-PER", "O", "O"], ["B-ORG", "O", "B-PER", "O"]]
>>> predictions = [["B-PER", "I-PER", "O", "O", "O", "O"], ["O", "B-ORG", "I-ORG", "O", "O"],
...                ["B-LOC", "O", "O", "B-PER", "O", "O", "B-LOC"], ["B-ORG", "O", "B-PER", "I-PER"]]
>>> results = chance_f1.compute(predictions=predictions, references=references, confidence_level=0.9, random_state=0)
>>> round(results["overall_corrected_f1"], 4), [round(bound, 4) for bound in results["overall_corrected_f1_ci"]]
(0.6491, [0.5859, 0.7167])
>>> [round(bound, 4) for bound in results["PER"]["corrected_f1_ci"]]
[0.5, 1.0]
```

Four sentences give wide intervals; a PER interval reaching 1.0 says that some resamples hold only
sentences where PER agrees perfectly.

A team of three annotators (`"multi"` configuration): one list of tag sequences per annotator,
`None` where an annotator did not annotate the sentence. `per_annotator` scores each annotator
against all the others pooled: here `cy` agrees least beyond chance.

```python
>>> team = evaluate.load("./chance_f1_metric", "multi")
>>> annotators = [
...     [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "B-ORG", "I-ORG", "O"]],
...     [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["O", "B-ORG", "O", "O"]],
...     [["B-PER", "O", "O", "B-LOC", "I-LOC", "O"], None],
... ]
>>> results = team.compute(annotators=annotators, names=["ann", "bob", "cy"])
>>> print(round(results["overall_observed_f1"], 4), round(results["overall_chance_f1"], 4), round(results["overall_corrected_f1"], 4))
0.7619 0.259 0.6787
>>> print({name: round(scores["corrected_f1"], 4) for name, scores in results["per_annotator"].items()})
{'ann': 0.7246, 'bob': 0.7246, 'cy': 0.5714}
>>> print([[None if value is None else round(value, 4) for value in row] for row in results["pairwise_corrected_f1"]])
[[None, 0.8394, 0.5714], [0.8394, None, 0.5714], [0.5714, 0.5714, None]]
```

## Limitations and bias

- The random model places segments uniformly within a sentence, independently for each entity
  type and annotator. Real annotators are not uniform (entities cluster at capitalised tokens), so
  chance F1 is a reference point for "agreement that says nothing", not a model of real errors.
- Chance is computed per sentence: sentence segmentation matters. Two systems can be compared only
  on the same sentences, at the same `level` and with the same `model`.
- Corrected F1 is micro-averaged over sentences and types, so frequent types and long sentences
  weigh most. Per-type corrected F1 of a rare type is noisy.
- When both annotators cover every token of a sentence, chance F1 is 1 and corrected F1 is 0/0
  (it takes the `zero_division` value); nothing is left to agree on beyond chance.
- Corrected F1 is a descriptive score, not a significance test: it does not say whether the
  difference between two systems is larger than chance. Use `compare_systems` (paired tests on
  the same sentences) or the `noise` metric (noise in the gold standard). The bootstrap intervals
  cover sampling variation of the sentences only, not annotation noise in the gold standard, and
  assume the sentences are independent (documents with many related sentences make them too narrow).
- Tags are read as seqeval reads them (`mode`, `scheme`, `suffix`); the same caveats about IOB
  variants apply.

## Citation

```bibtex
@misc{chance_agreement_sequence_annotation,
  title  = {Estimating Agreement by Chance for Sequence Annotation},
  author = {Anonymous},
  note   = {ACL submission},
}
```

```bibtex
@misc{seqeval,
  title  = {{seqeval}: A Python framework for sequence labeling evaluation},
  author = {Hiroki Nakayama},
  year   = {2018},
  url    = {https://github.com/chakki-works/seqeval},
}
```

## Further references

- [seqeval on GitHub](https://github.com/chakki-works/seqeval) and evaluate's `seqeval` metric card:
  the scores this metric extends.
- The `coefficients` metric of this package: kappa, pi, alpha and unitizing alphas on the same inputs.
- The `noise` metric of this package: how much of an agreed gold standard may still be noise.
""",
)

COEFFICIENTS = MetricText(
    name="coefficients",
    emoji="🤝",
    color_from="yellow",
    color_to="indigo",
    summary="""\
Chance-corrected agreement coefficients for sequence annotation on seqeval BIO tags: observed
agreement, Bennett's S, Scott's pi, Cohen's kappa, Finn's R, weighted kappa and Krippendorff's
alpha, F-measure, F' and slot error rates, for several views of the token contingency table
(all tokens, markables, entity tokens only, types grouped), side by side with the unitizing
alphas and the chance-corrected F1. Further configurations give Fleiss' kappa and
Krippendorff's alpha for k annotators, and Krippendorff's alpha for segmentations.
""",
    body="""\
## Metric description

Annotation teams check how well two or more annotators agree; modellers compare a system with the
gold standard. For classification this is done with kappa-like coefficients,
(observed - expected) / (1 - expected), which remove the agreement expected by chance. For
sequence annotation the numbers depend on what counts as an item, so this metric computes the
classical coefficients for each *view* of the token-level contingency table (rows: references,
columns: predictions; categories: the entity types plus `O`, the "Nothing" category), following
the prevalence paper's section 4.1:

- `all`: every token (case 1);
- `markables`: tokens both annotators leave as `O` count only where a per-sentence mask says the
  token is a markable (case 2);
- `entities`: only tokens that both annotators labelled with some type (case 3);
- `grouped`: all types merged into one `ENTITY` category against `O` (case 4).

For each view: observed agreement A_o; Bennett's S (A_e = 1/q), Scott's pi (pooled marginals) and
Cohen's kappa (each annotator's marginals), all (A_o - A_e) / (1 - A_e); Finn's R (1 - observed /
expected variance of the category codes); with a category distance, weighted kappa and
two-annotator Krippendorff's alpha (1 - D_o / D_e); the F-measure, F' (substitutions count half)
and slot error rates, where `O` plays Nothing; and the category probabilities P(C2 | C1) and
similarities of the paper's Tables 7 and 8. The same call adds the unitizing alphas u-alpha and
mu-alpha (Krippendorff 1995/2004 and 2016) and the token-level chance-corrected F1 of the
`chance_f1` metric, so one call shows every family side by side.

Configurations: `"default"` (two annotators), `"multi"` (k annotators, token-level Fleiss' kappa
and nominal Krippendorff's alpha, missing annotators allowed) and `"segmentation"` (Krippendorff's
alpha for segmentations given as boundary vectors).

## How to use

From a clone of the repository, load the module folder by its local path; after `pip install`,
`evaluate.load(chance_agreement.module_path("coefficients"))` (on the Hub, use the
Space's id):

```python
>>> import evaluate
>>> coefficients = evaluate.load("./coefficients_metric")
>>> references = [["B-PER", "I-PER", "O", "O", "B-LOC", "O", "O", "B-ORG", "O", "O"],
...               ["O", "B-ORG", "I-ORG", "O", "O", "O", "B-PER", "O"]]
>>> predictions = [["B-PER", "I-PER", "O", "O", "B-ORG", "O", "O", "B-ORG", "O", "O"],
...                ["O", "B-ORG", "O", "O", "O", "O", "B-PER", "B-LOC"]]
>>> results = coefficients.compute(predictions=predictions, references=references, views=["all", "entities", "grouped"])
>>> print(results["all"]["contingency"])
{'categories': ['LOC', 'ORG', 'PER', 'O'], 'table': [[0, 1, 0, 0], [0, 2, 0, 1], [0, 0, 3, 0], [1, 0, 0, 10]]}
```

The core functions are also available without `evaluate`: `chance_agreement.contingency`,
`chance_agreement.coefficients`, `chance_agreement.fleiss_kappa`,
`chance_agreement.krippendorff_alpha`, `chance_agreement.unitizing_alpha` and
`chance_agreement.segmentation_alpha`.

A flat form for tools that need scalar values (`evaluate.save`, `push_to_hub`, bootstraps,
Trainer logging): `evaluate.load("./coefficients_metric", "flat")` returns the default result with
`{view}_{coefficient}` keys (`all_cohen_kappa`, `unitizing_alpha_u_alpha_alpha`, ...), numbers only.

## Inputs

Configuration `"default"`:

- **predictions** (`list` of `list` of `str`): the other annotator's (or the system's) tags, one
  list per sentence; the table's columns.
- **references** (`list` of `list` of `str`): the reference annotator's tags; the table's rows.
- **views** (list of `str`, default `("all",)`): any of `"all"`, `"markables"`, `"entities"`,
  `"grouped"`.
- **markables** (one list of `bool` per sentence, default `None`): required by the `"markables"`
  view and only used by it.
- **distance** (default `None`): a distance between categories (a matrix over the `all` view's
  categories, i.e. sorted entity types then `O`; a dict of dicts; or a dict keyed by pairs). Adds
  `weighted_kappa` and `krippendorff_alpha`.
- **finn_order** (list of category names, default: the order of the categories): the coding
  1..q used by Finn's R, which depends on it.
- **scheme**, **mode**, **suffix**: how tags are read, as in seqeval.
- **confidence_level** (`float`, default `None`): add `intervals` (standard errors, intervals and
  p-values of the table coefficients) to each view.

Configuration `"multi"`: **annotations**, per sentence the list of the k annotators' tag sequences
(`None` for a missing annotator), or per item the list of the k raters' labels (strings or
numbers, `None` for a missing one; an items-by-annotators array); **unit** (`"token"`, the
default: every token is an item; `"entity"`: every span proposed by anyone is an item, rated with
its type or `O`); **weights** (`"identity"`, the default, `"linear"`, `"quadratic"`, `"ordinal"`,
`"radical"`, `"ratio"`, `"circular"`, `"bipolar"` as irrCAC defines them, or a matrix);
**categories** (their order, and categories nobody used); **confidence_level** (default 0.95);
**population_size** (default `None`, infinite: the finite population correction);
**benchmark_scale** (`None`, `"landis_koch"`, `"fleiss"` or `"altman"`); **scheme**, **mode**,
**suffix**.

Configuration `"segmentation"`: **items**, per item the list of the annotators' boundary-value
vectors (all of one item's vectors have the same length); **distance**, `"d2"` (default) or `"d1"`.

Configuration `"gamma"`: **annotations**, per sentence the k >= 2 annotators' tag sequences;
**sampler**, `"statistical"` (default, pygamma-agreement's), `"shuffle"` or `"random_model"` (the
random annotation model of `chance_f1`); **n_samples** (default 30); **precision_level** (`None`, a
number or `"high"`/`"medium"`/`"low"`); **random_state** (default 0); **annotators** (names);
**scheme**, **mode**, **suffix**.

Bad input (mismatched lengths, an unknown category in `distance`, a non-symmetric or negative
distance matrix, boundary vectors of inconsistent lengths) raises a `ValueError` saying what is
wrong.

## Output values

Configuration `"default"` returns one dictionary per requested view, under its name (`all`,
`markables`, `entities`, `grouped`), each with:

- `observed_agreement`: A_o, the share of tokens in the same category, between 0 and 1.
- `bennett_s`, `scott_pi`, `cohen_kappa`: chance-corrected agreement, at most 1 (0: chance level).
- `expected_agreement`: the A_e behind them, keyed `bennett_s`, `scott_pi`, `cohen_kappa`.
- `finn_r`: Finn's R, at most 1; it depends on `finn_order`.
- `weighted_kappa`, `krippendorff_alpha`: only when a `distance` is given; at most 1.
- `f_measure`, `f_prime`: agreement on the categories other than `O`, between 0 and 1.
- `slot_error_rate` (substitution cost 0.5) and `slot_error_rate_full` (cost 1): errors per
  annotated item, 0 or more.
- `category_probabilities`: P(C2 | C1), a dict of dicts over the categories; and
  `category_similarity`: (P(C2 | C1) + P(C1 | C2)) / 2. Their keys are the view's categories:
  the entity types (e.g. `LOC`, `ORG`, `PER`), `O`, and `ENTITY` in the grouped view.
- `n_items`: the number of tokens counted; `categories`: the view's categories in table order.
- `contingency`: the table itself, a dict with `categories` (row and column names) and `table`
  (nested lists of counts; rows are the references, columns the predictions).
- `warnings`: a list of reasons for every value that is `None` (undefined for this table, e.g.
  a single category), never a crash.
- `intervals` (only with `confidence_level=0.95` or another level): Gwet's (2014) analytic
  inference from the view's table, as the R package irrCAC's `*.table` functions print it, for
  `observed_agreement`, `cohen_kappa`, `scott_pi`, `gwet_ac1`, `bennett_s` (Brennan-Prediger) and
  `krippendorff_alpha` (unweighted); each a dict with `value`, `standard_error`, `ci` (`[low, high]`,
  t distribution with n - 1 degrees of freedom, the upper bound capped at 1) and `p_value` (two-sided
  t test of 0); plus `n_items`, `confidence_level` and `warnings`. The flat configuration gives
  `all_intervals_cohen_kappa_ci_low` / `..._ci_high`.

Then, for the whole input:

- `unitizing_alpha`: `u_alpha` and `mu_alpha`, each with `alpha`, `observed_disagreement`,
  `expected_disagreement`, `per_type` (the same three values per entity type) and `warnings`.
- `chance_f1`: the token-level output of the `chance_f1` metric (seqeval's `precision`, `recall`,
  `f1`, `number` per type and `overall_precision`, `overall_recall`, `overall_f1`,
  `overall_accuracy`; `observed_f1`, `chance_f1`, `corrected_f1` per type and
  `overall_observed_f1`, `overall_chance_f1`, `overall_corrected_f1`).

Configuration `"multi"`: `fleiss_kappa` (Siegel & Castellan's K) and `krippendorff_alpha`
(nominal), with `observed_agreement`, `expected_agreement`, `observed_disagreement`,
`expected_disagreement`, `n_items` (`n_tokens` too for token items from tags), `n_annotators`,
`categories`, `unit` and `warnings`; and `multi_rater`, the several-rater family of Gwet (2014,
irrCAC's `*.raw`/`*.dist` functions):

- `percent_agreement`, `brennan_prediger` (Randolph's free-marginal kappa), `gwet_ac1` (named
  `gwet_ac2` with weights), `fleiss_kappa` (weighted with the weights), `krippendorff_alpha`
  (Gwet's form; the weights give its distance), and for labels per rater `conger_kappa`; each a
  dict with `value`, `observed_agreement` (p_a), `expected_agreement` (p_e), `standard_error`,
  `confidence_interval` ([low, high], t with n - 1 degrees of freedom, the upper end capped at 1),
  `p_value` (two-sided t test of 0), `n_items` and `warnings`; with `benchmark_scale` also
  `benchmark`: `scale`, `levels` (each with `label`, `lower`, `upper`,
  `membership_probability`, `cumulative_probability`), `most_likely` and `retained` (each with
  `label` and `probability`; `retained` is Gwet's rule: the highest level whose cumulative
  probability reaches 0.95).
- `light_kappa`: the mean pairwise Cohen's kappa, with the same keys as above except p_a and
  p_e, plus `pairwise` (r x r, `None` on the diagonal) and `n_pairs`; its standard error is the
  delete-one-item jackknife (Gwet's family has no analytic one for it).
- `fleiss_kappa_per_category`: per category (keyed by its label as a string, e.g. `1`, `2`,
  `3` for numeric ratings), Fleiss' kappa of "this category or not", each as above.
- `categories`, `n_items`, `n_raters`, `weights` (the name).

A value that is undefined (a single category, no item with two ratings) is `None` with the reason
in `warnings`.

Configuration `"segmentation"`: `alpha` (`None` when the between variance is 0),
`within_variance`, `between_variance`, `n_items`, `n_annotations` and `warnings`.

### Values from popular papers

The prevalence paper's Table 6 (gene renaming, two annotators): Cohen's kappa 0.80121 on all
tokens, 0.77571 on markables, 0.73934 on entity tokens only and 0.85727 with types grouped: the
same annotation, four kappas. The repository's tests rebuild those tables from BIO tags and check
every column through this metric.

## Examples

How the view changes the numbers (same data as above), and the other coefficient families:

```python
>>> for view in ("all", "entities", "grouped"):
...     print(view, [round(results[view][key], 4) for key in ("observed_agreement", "scott_pi", "cohen_kappa", "f_measure")])
all [0.8333, 0.7065, 0.7065, 0.7143]
entities [0.8333, 0.7073, 0.7143, 0.8333]
grouped [0.8889, 0.7662, 0.7662, 0.8571]
>>> print({variant: round(value["alpha"], 4) for variant, value in results["unitizing_alpha"].items()})
{'u_alpha': 0.7432, 'mu_alpha': 0.716}
>>> print(round(results["chance_f1"]["overall_corrected_f1"], 4))
0.667
```

With a distance between categories (LOC and ORG are close), weighted kappa and alpha:

```python
>>> distance = {"LOC": {"ORG": 0.5, "PER": 1, "O": 1}, "ORG": {"PER": 1, "O": 1}, "PER": {"O": 1}}
>>> results = coefficients.compute(predictions=predictions, references=references, distance=distance)
>>> print([round(results["all"][key], 4) for key in ("cohen_kappa", "weighted_kappa", "krippendorff_alpha")])
[0.7065, 0.7514, 0.7583]
```

Three annotators, one of them missing on the second sentence (`"multi"` configuration):

```python
>>> multi = evaluate.load("./coefficients_metric", "multi")
>>> annotations = [[["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "I-PER", "O", "O"], ["B-PER", "O", "O", "B-LOC"]],
...                [["O", "B-ORG", "I-ORG"], ["O", "B-ORG", "I-ORG"], None]]
>>> results = multi.compute(annotations=annotations)
>>> print(round(results["fleiss_kappa"], 4), round(results["krippendorff_alpha"], 4), results["n_tokens"], results["n_annotators"])
0.7308 0.7043 7 3
```

The several-rater family with Gwet's (2014) standard errors and t intervals (under `multi_rater`):

```python
>>> family = results["multi_rater"]
>>> for name in ("percent_agreement", "brennan_prediger", "gwet_ac1", "fleiss_kappa", "krippendorff_alpha", "conger_kappa"):
...     print(name, round(family[name]["value"], 4), round(family[name]["standard_error"], 4), [round(x, 3) for x in family[name]["confidence_interval"]])
percent_agreement 0.8095 0.123 [0.509, 1.0]
brennan_prediger 0.746 0.1639 [0.345, 1.0]
gwet_ac1 0.7507 0.164 [0.349, 1.0]
fleiss_kappa 0.7308 0.164 [0.33, 1.0]
krippendorff_alpha 0.7043 0.1822 [0.259, 1.0]
conger_kappa 0.7377 0.1642 [0.336, 1.0]
```

An items-by-annotators array (Krippendorff's C data, irrCAC's `cac.raw4raters`: 12 units, 4
raters, `None` where a rater is missing), benchmarked on the Landis-Koch scale: AC1 is most
likely "substantial" (probability 0.49) and, by Gwet's 95% rule, at least "moderate".

```python
>>> ratings = [[1, 1, None, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
...            [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [None, 5, 5, 5], [None, None, 1, 1], [None, None, 3, None]]
>>> results = multi.compute(annotations=ratings, benchmark_scale="landis_koch")
>>> ac1 = results["multi_rater"]["gwet_ac1"]
>>> print(round(ac1["value"], 5), round(ac1["expected_agreement"], 7), round(ac1["standard_error"], 5), round(ac1["p_value"], 6))
0.77544 0.1903212 0.14295 0.000209
>>> most_likely, retained = ac1["benchmark"]["most_likely"], ac1["benchmark"]["retained"]
>>> print(most_likely["label"], round(most_likely["probability"], 2), "| at least", retained["label"], round(retained["probability"], 3))
Substantial 0.49 | at least Moderate 0.995
```

Segmentations as boundary vectors, one per annotator and item (`"segmentation"` configuration):

```python
>>> segmentation = evaluate.load("./coefficients_metric", "segmentation")
>>> results = segmentation.compute(items=[[[1, 0, 0, 1, 0], [1, 0, 0, 0, 1]], [[0, 1, 0], [0, 1, 0], [1, 0, 0]]])
>>> print([round(results[key], 4) for key in ("alpha", "within_variance", "between_variance")])
[0.064, 0.2111, 0.2256]
```

## Limitations and bias

- **Prevalence.** Kappa and pi depend on how many unannotated tokens are counted: adding
  sentences where both annotators see no entity raises the observed agreement and the `O`
  prevalence and moves kappa, although the annotation of the entities did not change. Always
  report the view (and the markables) used and the contingency table.
- Token-level coefficients treat tokens as independent items; entity boundaries and lengths enter
  only through the unitizing alphas and the chance-corrected F1.
- Finn's R depends on the numeric coding of the categories (`finn_order`); weighted kappa and
  alpha depend on the distance chosen.
- With a single category in a view, or an empty table, several coefficients are undefined: they
  are `None`, with the reason in `warnings`.
- The unitizing alphas count agreement on unannotated stretches too, which most information
  extraction tasks do not care about; compare them with the chance-corrected F1 in the same result.

## Citation

```bibtex
@article{artstein2008intercoder,
  title   = {Inter-Coder Agreement for Computational Linguistics},
  author  = {Artstein, Ron and Poesio, Massimo},
  journal = {Computational Linguistics},
  volume  = {34},
  number  = {4},
  pages   = {555--596},
  year    = {2008},
}
```

```bibtex
@article{fleiss1971measuring,
  title   = {Measuring nominal scale agreement among many raters},
  author  = {Fleiss, Joseph L.},
  journal = {Psychological Bulletin},
  volume  = {76},
  number  = {5},
  pages   = {378--382},
  year    = {1971},
}
```

```bibtex
@book{krippendorff2004content,
  title     = {Content Analysis: An Introduction to Its Methodology},
  author    = {Krippendorff, Klaus},
  edition   = {2},
  publisher = {Sage},
  year      = {2004},
}
```

## Further references

- Artstein and Poesio (2008), the notation used for S, pi and kappa.
- The `chance_f1` metric of this package: chance-corrected F1 under a random annotation model.
- The `noise` metric of this package: how much of the agreed subset may still be noise.
- Krippendorff's alpha for segmentations: the supplement whose algorithms the `"segmentation"`
  configuration follows.
""",
)

NOISE = MetricText(
    name="noise",
    emoji="🪙",
    color_from="gray",
    color_to="blue",
    summary="""\
Noise level of a gold standard built from the instances where annotators agree, for sequence
annotation on seqeval BIO tags: an upper bound on the share of agreed instances that may still
be coin-flip noise (Beigman Klebanov and Beigman 2009), the kappa-based estimate, the number of
disagreements a corpus can tolerate, and how many correct answers two equally good systems may
differ by chance on the agreed subset.
""",
    body="""\
## Metric description

A common way to build a gold standard is to keep only the instances on which all annotators agree.
Agreement does not mean the instance is easy: on a hard instance, annotators who each flip their
own coin still agree sometimes, and those instances enter the gold standard with an arbitrary
label. This metric bounds how much of the agreed subset may be such noise.

The model: every instance is either easy (all annotators agree) or hard (each annotator labels it
at random). From `n` instances, `d` disagreed ones and the probability `p` that all annotators agree
on a hard instance (estimated from each annotator's category proportions on the disagreed
instances), equation 1 of the noise paper with a uniform prior on the number of hard instances
gives `t0`, the number of hard instances not exceeded with the given confidence. At most `t0 - d`
hard instances hide among the agreed ones, so the noise bound of the agreed subset is
gamma = (t0 - d) / (n - d).

The metric also reports Siegel and Castellan's kappa and the noise it implies (kappa estimates the
share of easy instances), the largest number of disagreements that keeps gamma within
`max_noise`, and the chance difference: how many correct answers two equally good systems can
differ by on the agreed gold standard because of its noisy items.

Instances: with `unit="token"` every token is an instance whose category is its entity type or
`O`; with `unit="entity"` every span proposed by any annotator is an instance whose category, per
annotator, is the type it gave that exact span, or `O`.

## How to use

From a clone of the repository, load the module folder by its local path; after `pip install`,
`evaluate.load(chance_agreement.module_path("noise"))` (on the Hub, use the
Space's id). Two annotators are `predictions` and `references`:

```python
>>> import evaluate
>>> noise = evaluate.load("./noise_metric")
```

The core functions are also available without `evaluate`: `chance_agreement.noise_bound(n, d, p)`,
`chance_agreement.hard_agreement_probability`, `chance_agreement.tolerable_disagreements` and
`chance_agreement.chance_difference`.

A flat form for tools that need scalar values: `evaluate.load("./noise_metric", "flat")` returns
the default result with numbers only (values that are undefined, None in the default form, are left out).

## Inputs

- **predictions** (`list` of `list` of `str`, configuration `"default"`): one annotator's tags,
  one list per sentence.
- **references** (`list` of `list` of `str`, configuration `"default"`): the other annotator's
  tags, the same lengths.
- **annotations** (configuration `"multi"`): per sentence, the list of the k >= 2 annotators' tag
  sequences, all of the same length; every annotator annotates every sentence.
- **confidence_level** (`float`, default `0.95`): the confidence level of the bound, in (0, 1)
  (`confidence`, its old name, still works in this release with a `FutureWarning`).
- **unit** (`str`, default `"token"`): `"token"` or `"entity"` instances.
- **max_noise** (`float`, default `0.05`): the noise level for `tolerable_disagreements`.
- **scheme**, **mode**, **suffix**: how tags are read, as in seqeval.

Bad input (a disagreement count above the number of instances, `p` or `confidence_level` outside (0, 1),
fewer than two annotators, sequences of different lengths) raises a `ValueError` saying what is
wrong.

## Output values

A dictionary (the same keys in both configurations):

- `instances`: the number of instances `n`; `agreed` and `disagreed`: how many all annotators
  agree on, and the others (`d`).
- `p`: the probability that all annotators agree on a hard instance (from all instances when none
  is disagreed).
- `t0`: the bound on the number of hard instances at the given confidence; `noisy_items`:
  `t0 - disagreed`, the hard instances that may hide among the agreed ones.
- `noise_bound`: gamma = (t0 - d) / (n - d), between 0 and 1.
- `confidence_level`: the confidence level used.
- `kappa`: Siegel and Castellan's kappa (`None` when every label is the same);
  `kappa_noise_estimate`: the noise of the agreed subset implied by kappa's estimate of the easy
  instances (`None` with kappa).
- `tolerable_disagreements`: the largest number of disagreements whose bound stays within
  `max_noise` (`None` when even 0 disagreements exceed it); `max_noise`: the level used.
- `chance_difference`: the number of correct answers by which two equally good systems may differ
  by chance on the agreed gold standard (Chebyshev bound); `chance_difference_fraction`: the same
  as a share of the agreed instances.
- `p_least_favourable`: the largest p the pooled category proportions of the disagreed instances
  allow (every annotator flipping one coin with those proportions; never below `p`, equal to it
  when the annotators' proportions are alike); `noise_bound_least_favourable`: the bound under it.
  When every disagreement goes one way (each annotator keeps to its own category there) footnote
  3's `p` is 0 and `noise_bound` 0 by construction; a `NoiseModelWarning` says so, and
  `noise_bound_least_favourable` is the number to quote.

### Values from popular papers

Beigman Klebanov and Beigman (2009): with 1,000 instances, 100 disagreements and p = 0.5, up to
125 of the 900 agreed instances may be hard (13.9% noise at 95% confidence); only 33 disagreements
keep the bound within 5%; and two equally good systems may differ by up to 35 correct answers
(3.9%) on the 900 agreed instances. The first example below reproduces these numbers from tags.

## Examples

The noise paper's scenario as tags: 1,000 tokens, 100 disagreements split evenly (p = 0.5).

```python
>>> references = [["B-PER" if i % 10 == 5 and s % 2 == 0 else "O" for i in range(100)] for s in range(10)]
>>> predictions = [["B-PER" if i % 10 == 5 and s % 2 == 1 else "O" for i in range(100)] for s in range(10)]
>>> out = noise.compute(predictions=predictions, references=references)
>>> print(out["instances"], out["agreed"], out["disagreed"], out["p"], out["t0"], out["noisy_items"], round(out["noise_bound"], 4))
1000 900 100 0.5 225 125 0.1389
>>> print(out["tolerable_disagreements"], out["chance_difference"], round(out["chance_difference_fraction"], 4))
33 35 0.0389
>>> out = noise.compute(predictions=predictions, references=references, confidence_level=0.99)
>>> print(out["t0"], round(out["noise_bound"], 4))
236 0.1511
```

Entity instances: every span proposed by either annotator.

```python
>>> references = [["B-PER", "I-PER", "O", "B-LOC", "O", "B-ORG", "I-ORG", "O"]]
>>> predictions = [["B-PER", "I-PER", "O", "B-ORG", "O", "B-ORG", "O", "O"]]
>>> out = noise.compute(predictions=predictions, references=references, unit="entity")
>>> print(out["instances"], out["agreed"], out["disagreed"])
4 1 3
```

Three annotators (`"multi"` configuration):

```python
>>> multi = evaluate.load("./noise_metric", "multi")
>>> annotations = [[["B-PER", "O", "B-LOC", "O"], ["B-PER", "O", "B-LOC", "O"], ["B-PER", "O", "O", "O"]],
...                [["O", "B-ORG", "I-ORG", "O"], ["O", "B-ORG", "I-ORG", "O"], ["O", "B-ORG", "I-ORG", "O"]]]
>>> out = multi.compute(annotations=annotations)
>>> print(out["instances"], out["agreed"], out["disagreed"], round(out["kappa"], 4))
8 7 1 0.8659
```

## Limitations and bias

- The bound rests on the paper's model: instances are either easy or hard, hard instances are
  independent coin flips with the annotators' own category proportions. Systematic disagreements
  (one annotator consistently labelling differently) are not coin flips; the bound then describes
  the model, not the data.
- `p` is estimated from the disagreed instances; with few of them the estimate is rough, and with
  none it falls back to all instances.
- Small corpora give loose bounds (a few dozen tokens can give a bound of 1 and no tolerable number
  of disagreements).
- Token instances are not independent (tokens of one entity move together); entity instances
  depend on which spans the annotators proposed.
- The chance difference uses Chebyshev's inequality, which holds for any distribution and is
  therefore conservative.

## Citation

```bibtex
@article{beigmanklebanov2009noise,
  title   = {From Annotator Agreement to Noise Models},
  author  = {Beigman Klebanov, Beata and Beigman, Eyal},
  journal = {Computational Linguistics},
  volume  = {35},
  number  = {4},
  pages   = {495--503},
  year    = {2009},
}
```

## Further references

- [From Annotator Agreement to Noise Models](https://doi.org/10.1162/coli.2009.35.4.35402),
  Computational Linguistics 35(4), 2009.
- The `coefficients` metric of this package: kappa, pi and alpha on the same inputs.
- The `chance_f1` metric of this package: chance-corrected F1 for comparing systems.
""",
)

METRIC_TEXTS = {text.name: text for text in (CHANCE_F1, COEFFICIENTS, NOISE)}


def _text(name: str) -> MetricText:
    if name not in METRIC_TEXTS:
        raise ValueError(f"unknown metric {name!r}; choose from {sorted(METRIC_TEXTS)}")
    return METRIC_TEXTS[name]


def card_sections(name: str) -> dict[str, str]:
    """The card's ``## Heading`` -> its Markdown (up to the next ``## `` heading), in order.

    Parameters
    ----------
    name : str
        ``"chance_f1"``, ``"coefficients"`` or ``"noise"``.

    Returns
    -------
    dict of str to str

    Raises
    ------
    ValueError
        For another name.

    Examples
    --------
    >>> list(card_sections("noise"))[:3]
    ['Metric description', 'How to use', 'Inputs']
    """
    parts = re.split(r"^## (.+?)\n", _text(name).body, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def metric_card(name: str) -> str:
    """The metric card of ``name``, as ``hub_cards/<name>.md`` holds it and a Hub Space shows it.

    Parameters
    ----------
    name : str
        ``"chance_f1"``, ``"coefficients"`` or ``"noise"``.

    Returns
    -------
    str
        YAML front matter (the Space's settings and the summary), the title, then the sections.

    Raises
    ------
    ValueError
        For another name.

    Examples
    --------
    >>> metric_card("noise").splitlines()[:2]
    ['---', 'title: noise']
    """
    text = _text(name)
    summary = "".join(f"  {line}\n" for line in text.summary.splitlines())
    return (f"---\ntitle: {name}\nemoji: {text.emoji}\ncolorFrom: {text.color_from}\ncolorTo: {text.color_to}\n"
            f"{_SPACE}description: >-\n{summary}---\n\n# Metric Card for {name}\n\n{text.body}")


def module_docs(name: str) -> ModuleDocs:
    """The ``description``, ``citation`` and ``inputs_description`` of the module ``name``, from its card.

    Parameters
    ----------
    name : str
        ``"chance_f1"``, ``"coefficients"`` or ``"noise"``.

    Returns
    -------
    ModuleDocs
        The summary; the BibTeX entries of the card's Citation section; its How to use, Inputs,
        Output values and Examples sections (with every example the card shows, as doctest lines).

    Raises
    ------
    ValueError
        For another name.

    Examples
    --------
    >>> docs = module_docs("noise")
    >>> "Beigman Klebanov" in docs.citation, docs.inputs_description.count("noise.compute(") >= 3
    (True, True)
    """
    sections = card_sections(name)
    citation = "".join(re.findall(r"```bibtex\n(.*?)```", sections["Citation"], flags=re.S))
    inputs = "".join(f"## {heading}\n{sections[heading]}" for heading in MODULE_SECTIONS)
    # a docstring's examples are doctest lines ended by a blank line, not fenced blocks
    inputs = re.sub(r"```python\n(.*?)```\n", lambda block: block.group(1) + "\n", inputs, flags=re.S)
    return ModuleDocs(description=_text(name).summary, citation=citation, inputs_description=inputs)


def write_metric_cards(folder: str | Path) -> list[Path]:
    """Write every metric card to ``folder/<name>.md`` (the repository's ``hub_cards/``).

    Parameters
    ----------
    folder : str or pathlib.Path
        An existing folder.

    Returns
    -------
    list of pathlib.Path
        The files written.

    Raises
    ------
    FileNotFoundError
        When ``folder`` is not a folder.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     [path.name for path in write_metric_cards(folder)]
    ['chance_f1.md', 'coefficients.md', 'noise.md']
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a folder: give the repository's hub_cards/ folder")
    written = []
    for name in METRIC_TEXTS:
        path = folder / f"{name}.md"
        path.write_text(metric_card(name), encoding="utf-8")
        written.append(path)
    return written


__all__ = [
    "CHANCE_F1",
    "COEFFICIENTS",
    "METRIC_TEXTS",
    "MODULE_SECTIONS",
    "NOISE",
    "MetricText",
    "ModuleDocs",
    "card_sections",
    "metric_card",
    "module_docs",
    "write_metric_cards",
]

if __name__ == "__main__":  # python -m chance_agreement.ecosystem.metric_docs hub_cards
    for written in write_metric_cards(sys.argv[1] if len(sys.argv) > 1 else "hub_cards"):
        print(written)
