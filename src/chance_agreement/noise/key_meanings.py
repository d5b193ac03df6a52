"""What each number of a noise report means, in one plain sentence: the words every report (text,
Markdown, JSON, HTML, the Hub Space) prints beside ``noise_report``'s rows, written once here.

The model (Beigman Klebanov and Beigman 2009): each instance is easy or hard; annotators agree on
easy ones and guess on hard ones. ``p`` is footnote 3's estimate of the chance that guessing
annotators agree anyway, so "footnote 3's estimate of p" in a report's notes is that row.
"""

from __future__ import annotations

NOISE_MEANINGS = {
    "instances": "the items compared: every token, or (entity column) every span any annotator proposed",
    "agreed": "the instances every annotator labelled alike (the agreed subset a gold standard would keep)",
    "disagreed": "the instances on which the annotators gave different labels",
    "p": "how likely annotators who guess on a hard instance still give it the same label, estimated from the "
         "labels they gave the disagreed instances (footnote 3's estimate of p)",
    "t0": "the most hard instances the data allow with the stated confidence, disagreed ones included",
    "noise_bound": "with the stated confidence, at most this share of the agreed instances are hard ones the "
                   "annotators agreed on by luck, i.e. noise in a gold standard built from them",
    "noisy_items": "the same bound as a count: at most this many agreed instances are such lucky agreements",
    "confidence_level": "the confidence level of the noise bound",
    "kappa": "Siegel and Castellan's kappa on the same instances, for comparison with the other coefficients",
    "kappa_noise_estimate": "the share of hard instances that kappa alone suggests (section 3.3), a rough "
                            "cross-check of the bound",
    "tolerable_disagreements": "the most disagreements that still keep the noise bound at or under the chosen "
                               "maximum noise (\"-\" or null: none, even full agreement would not)",
    "max_noise": "the maximum noise the tolerable disagreements keep to",
    "chance_difference": "how many answers two equally good systems may differ by on the agreed gold standard "
                         "through its noise alone; a smaller gap between two systems is not a real difference",
    "chance_difference_fraction": "that chance difference as a share of the agreed instances",
    "p_least_favourable": "the largest p the annotators' overall label proportions allow (every annotator "
                          "guessing with one shared coin): a cautious p to use when footnote 3's is doubtful",
    "noise_bound_least_favourable": "the noise bound computed with that cautious p; quote it when it differs "
                                    "much from noise_bound",
}


def noise_meaning(key: str) -> str:
    """The one-sentence meaning of a noise report's ``key``.

    Parameters
    ----------
    key : str
        A key of ``noise_report``'s result (``"p"``, ``"noise_bound"``, ...).

    Returns
    -------
    str

    Raises
    ------
    KeyError
        For a key that is not a noise report's.

    Examples
    --------
    >>> noise_meaning("p_least_favourable")[:40]
    "the largest p the annotators' overall la"
    """
    return NOISE_MEANINGS[key]


__all__ = ["NOISE_MEANINGS", "noise_meaning"]
