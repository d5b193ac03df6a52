"""A torchmetrics ``Metric`` for Lightning: chance-corrected F1 over an evaluation loop, on every rank.

torchmetrics has no NER metric. ``ChanceF1Metric(label_list, **options)`` takes, batch by batch, a
token-classification model's logits (or predicted ids) and the labels (``-100`` where a position is
not scored: special tokens, word-piece continuations, padding), exactly as the Trainer hook
(``ecosystem.trainer``) does, and keeps a ``ChanceF1State``: the additive statistics per entity
type. ``compute()`` returns the Trainer hook's flat float scores (``corrected_f1``, ``chance_f1``,
``observed_f1``, ``precision``, ``recall``, ``f1``, ``accuracy``, ``{TYPE}_{stat}``), equal to it bit for
bit, whatever the batches.

Across ranks the statistics must stay exact: summing float tensors would round them. So the metric
state is the ``ChanceF1State``'s strict JSON, one line per state, stored as a tensor of byte values
(small integers, exact in every float type Lightning may cast a metric to) with ``dist_reduce_fx="cat"``:
torchmetrics gathers every rank's bytes, and ``compute`` parses each line and adds the states with
``ChanceF1State.merge`` (integer counts and exact sums). ``merge_state`` works the same way.

torchmetrics and Lightning need torch; they are not dependencies of the package. Without
torchmetrics this module imports, and ``ChanceF1Metric`` raises ImportError saying how to install it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .chance_state import ChanceF1State
from .flat import flatten
from .trainer import IGNORE_INDEX, as_numpy, batch_state_options, batch_tags, checked_label_list, without_prefix

try:  # torchmetrics (and torch) are optional
    import torch
    from torchmetrics import Metric
except ImportError:  # pragma: no cover - exercised only without torchmetrics
    torch = Metric = None

__all__ = ["ChanceF1Metric"]

_LINE = 10  # b"\n": strict JSON (json.dumps) holds no raw newline, so lines separate the states


def _encoded(state: ChanceF1State, keyed: bool):
    """A state's line as a float tensor of its byte values: ``K`` (bootstrap keyed by document ids)
    or ``P`` (by positions), then its JSON."""
    line = (b"K" if keyed else b"P") + state.to_json().encode("utf-8") + b"\n"
    return torch.from_numpy(np.frombuffer(line, dtype=np.uint8).astype(np.float32))


def _decoded(values) -> list[tuple[ChanceF1State, bool]]:
    """``(state, keyed)`` of each line of a tensor (or list of tensors) of byte values."""
    parts = values if isinstance(values, list) else [values]
    data = b"".join(bytes(part.detach().to("cpu", torch.float32).numpy().astype(np.uint8)) for part in parts)
    return [(ChanceF1State.from_json(line[1:].decode("utf-8")), line[:1] == b"K") for line in data.split(b"\n") if line]


if Metric is not None:

    class ChanceF1Metric(Metric):
        """Chance-corrected F1 of a token-classification model, as a ``torchmetrics.Metric``.

        Parameters
        ----------
        label_list : sequence of str
            The tag of each class id, e.g. ``["O", "B-PER", "I-PER"]``.
        zero_division : "warn", 0 or 1
            As in ``chance_f1`` (undefined scores are left out of the flat result).
        **options
            ``ChanceF1State``'s options that add up batch by batch: ``level``, ``model``, ``scheme``,
            ``mode``, ``suffix``, and Poisson intervals (``confidence_level``, ``resampling="poisson"``,
            ``n_resamples``, an int ``random_state``); and torchmetrics' own keyword arguments
            (``sync_on_compute``, ``process_group``, ``dist_sync_fn``, ...).

        Raises
        ------
        ValueError
            An option that needs every sentence at once, or a bad ``label_list``; in ``update``, bad
            shapes, ids outside ``label_list`` or NaN logits, named by sequence and position.

        Notes
        -----
        ``compute()`` is ``flatten(chance_f1(...))`` without the ``overall_`` prefix on all the
        sequences of every rank: the chance-F1 paper's Proposition 1 summed over sentences and types
        (see ``ChanceF1State``).

        Examples
        --------
        >>> import torch
        >>> metric = ChanceF1Metric(["O", "B-PER", "I-PER"], level="entity")
        >>> labels = torch.tensor([[1, 2, 0, -100], [0, 1, 0, 0]])
        >>> metric.update(torch.tensor([[1, 2, 0, 0], [0, 1, 1, 0]]), labels)  # predicted ids (or logits)
        >>> scores = metric.compute()  # seqeval's f1, then observed, chance and corrected F1
        >>> [round(scores[key], 4) for key in ("f1", "observed_f1", "chance_f1", "corrected_f1")]
        [0.8, 0.8, 0.4, 0.6667]
        """

        states: list[Any]  # the JSON lines' byte values (torchmetrics' state, registered in __init__)
        is_differentiable = False
        higher_is_better = True
        full_state_update = False
        _TORCHMETRICS_OPTIONS = ("compute_on_cpu", "dist_sync_on_step", "process_group", "dist_sync_fn",
                                 "distributed_available_fn", "sync_on_compute", "compute_with_cache")

        def __init__(self, label_list: Sequence[str], *, zero_division="warn", **options: Any):
            metric_options = {k: options.pop(k) for k in list(options) if k in self._TORCHMETRICS_OPTIONS}
            super().__init__(**metric_options)
            self.label_list = checked_label_list(label_list)
            state_options, refusal = batch_state_options(options)
            if state_options is None:
                raise ValueError(f"ChanceF1Metric adds its statistics batch by batch: {refusal}")
            self._state_options = ChanceF1State(**state_options).options()  # checked once; a drawn seed is kept
            self.zero_division = zero_division
            self.add_state("states", default=[], dist_reduce_fx="cat")

        def update(self, preds, target, document_ids=None) -> None:
            """Add a batch: ``preds`` logits ``(batch, length, classes)`` or ids ``(batch, length)``,
            ``target`` label ids ``(batch, length)`` with ``-100`` where a position is not scored.

            ``document_ids`` (one int or str per sequence, e.g. the dataset's row indices) key the
            Poisson bootstrap's weights; without them a sequence's key is its position in the
            order added, which only one metric instance on one rank knows (``compute`` refuses
            intervals from merged or synchronised states keyed by position).
            """
            predicted, reference = batch_tags(preds, target, self.label_list)
            if document_ids is not None:
                ids = document_ids.tolist() if hasattr(document_ids, "tolist") else list(document_ids)
                if len(ids) != len(target):
                    raise ValueError(f"{len(ids)} document_ids for a batch of {len(target)} sequences")
                labelled = (as_numpy(target) != IGNORE_INDEX).any(axis=1)
                document_ids = [key for key, keep in zip(ids, labelled, strict=True) if keep]
            if not reference:
                return
            decoded = _decoded(self.states)
            state, keyed = decoded[0] if decoded else (ChanceF1State(**self._state_options), document_ids is not None)
            if keyed != (document_ids is not None) and state.sentences:
                raise ValueError("give document_ids with every batch or with none")
            state.update(predicted, reference, document_ids=document_ids)
            self.states = [_encoded(state, document_ids is not None).to(self.device)]

        def chance_state(self) -> ChanceF1State:
            """The merged ``ChanceF1State`` of every batch added (on this rank, or of every rank
            inside ``compute``)."""
            decoded = _decoded(self.states)
            if self._state_options["confidence_level"] is not None and len(decoded) > 1 and \
                    not all(keyed for _, keyed in decoded):
                raise ValueError("intervals of several ranks or merged metrics need document_ids in update(): "
                                 "the positions of each part's sequences are not their positions in the whole set")
            merged = ChanceF1State(**self._state_options)
            for state, _ in decoded:
                merged = merged.merge(state)
            return merged

        def compute(self) -> dict[str, float]:
            """The flat scores of every batch added on every rank (the Trainer hook's keys)."""
            state = self.chance_state()
            if state.sentences == 0:
                raise ValueError(f"no labelled position was added (every label is {IGNORE_INDEX} or no batch): "
                                 "nothing to score")
            return without_prefix(flatten(state.result(zero_division=self.zero_division)), "overall_")

else:  # pragma: no cover - exercised only without torchmetrics

    class ChanceF1Metric:  # type: ignore[no-redef]
        """Needs torchmetrics (and torch): ``pip install torchmetrics``."""

        def __init__(self, *args: Any, **kwargs: Any):
            raise ImportError("ChanceF1Metric needs torchmetrics (and torch): pip install torchmetrics")
