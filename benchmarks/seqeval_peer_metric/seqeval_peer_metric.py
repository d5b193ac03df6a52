"""A local stand-in for evaluate's seqeval module (the benchmark's peer; nothing from the Hub).

Same inputs as evaluate's seqeval script and the same work: seqeval's ``classification_report``
as a dict, reshaped into per-type and overall scores, plus ``accuracy_score``.
"""

import datasets
import evaluate
from seqeval.metrics import accuracy_score, classification_report


class SeqevalPeer(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description="seqeval scores, computed the way evaluate's seqeval module computes them",
            citation="",
            inputs_description="predictions and references: lists of tag sequences",
            features=datasets.Features(
                {
                    "predictions": datasets.Sequence(datasets.Value("string", id="label"), id="sequence"),
                    "references": datasets.Sequence(datasets.Value("string", id="label"), id="sequence"),
                }
            ),
        )

    def _compute(self, predictions, references, suffix=False, scheme=None, mode=None, sample_weight=None,
                 zero_division="warn"):
        report = classification_report(y_true=references, y_pred=predictions, suffix=suffix, output_dict=True,
                                       scheme=scheme, mode=mode, sample_weight=sample_weight,
                                       zero_division=zero_division)
        report.pop("macro avg")
        report.pop("weighted avg")
        overall = report.pop("micro avg")
        scores = {name: {"precision": values["precision"], "recall": values["recall"], "f1": values["f1-score"],
                         "number": values["support"]} for name, values in report.items()}
        scores["overall_precision"] = overall["precision"]
        scores["overall_recall"] = overall["recall"]
        scores["overall_f1"] = overall["f1-score"]
        scores["overall_accuracy"] = accuracy_score(y_true=references, y_pred=predictions)
        return scores
