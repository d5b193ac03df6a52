"""Chance-corrected F1 for sequence labelling: seqeval's scores plus observed, chance and
chance-corrected F1 under a random annotation model. The computation lives in the
``chance_agreement`` package; this script only declares the inputs. Configurations: "default"
(seqeval's nested per-type dicts) and "flat" (``evaluate.load(path, "flat")``: the same result
through ``chance_agreement.ecosystem.flat.flatten``, ``{type}_{stat}`` keys, floats only),
"spans" (per sentence a list of ``{"start", "end", "label"}`` token spans, half-open, plus
``lengths=``: ``span_chance_f1``) and "nested_spans" (the same input, spans may nest:
``nested_chance_f1``, pooled and per-depth scores)."""

import datasets
import evaluate

from chance_agreement.chance.corrected_f1 import chance_f1
from chance_agreement.chance.nested_f1 import nested_chance_f1
from chance_agreement.chance.span_f1 import span_chance_f1
from chance_agreement.ecosystem.flat import flatten
from chance_agreement.ecosystem.metric_docs import CHANCE_F1_CITATION, CHANCE_F1_DESCRIPTION, CHANCE_F1_KWARGS


_SPAN = {"start": datasets.Value("int64"), "end": datasets.Value("int64"), "label": datasets.Value("string")}


@evaluate.utils.file_utils.add_start_docstrings(CHANCE_F1_DESCRIPTION, CHANCE_F1_KWARGS)
class ChanceF1(evaluate.Metric):
    CONFIG_NAMES = ("default", "flat", "spans", "nested_spans")

    def _info(self):
        if self.config_name not in self.CONFIG_NAMES:
            raise ValueError(f"unknown configuration {self.config_name!r}: use one of {list(self.CONFIG_NAMES)}")
        return evaluate.MetricInfo(
            description=CHANCE_F1_DESCRIPTION,
            citation=CHANCE_F1_CITATION,
            inputs_description=CHANCE_F1_KWARGS,
            features=datasets.Features(
                {
                    "predictions": datasets.Sequence(datasets.Value("string", id="label"), id="sequence"),
                    "references": datasets.Sequence(datasets.Value("string", id="label"), id="sequence"),
                }
                if self.config_name in ("default", "flat")
                else {"predictions": [_SPAN], "references": [_SPAN]}  # a list of span records per sentence
            ),
            codebase_urls=["https://github.com/chakki-works/seqeval"],
        )

    def _compute(
        self,
        predictions,
        references,
        suffix=False,
        scheme=None,
        mode=None,
        sample_weight=None,
        zero_division="warn",
        model="non_overlapping",
        level="token",
        return_sentence_scores=False,
        lengths=None,
        confidence_level=None,
        n_resamples=1000,
        random_state=None,
    ):
        if self.config_name in ("spans", "nested_spans"):
            if lengths is None:
                raise ValueError(f"the {self.config_name!r} configuration needs lengths= (tokens per sentence)")
            if self.config_name == "nested_spans":
                return nested_chance_f1(predictions, references, lengths, zero_division=zero_division,
                                        model=model, level=level)
            return span_chance_f1(predictions, references, lengths, zero_division=zero_division, model=model,
                                  level=level, return_sentence_scores=return_sentence_scores,
                                  confidence_level=confidence_level, n_resamples=n_resamples,
                                  random_state=random_state)
        if lengths is not None:
            raise ValueError("lengths= belongs to the 'spans' and 'nested_spans' configurations (tags carry their lengths)")
        result = chance_f1(
            predictions,
            references,
            suffix=suffix,
            scheme=scheme,
            mode=mode,
            sample_weight=sample_weight,
            zero_division=zero_division,
            model=model,
            level=level,
            return_sentence_scores=return_sentence_scores,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            random_state=random_state,
        )
        return flatten(result) if self.config_name == "flat" else result
