"""The several-rater family of Gwet (2014), "Handbook of Inter-Rater Reliability", 4th ed., with his
analytic standard errors (the values irrCAC's ``*.raw`` and ``*.dist`` functions print).

Notation: ``n`` items (subjects), ``r`` raters, ``q`` categories, ``r_ik`` raters putting item ``i``
in category ``k``, ``r_i = sum_k r_ik`` (missing ratings allowed), weights ``w_kl``
(``weights.py``), ``r*_ik = sum_l w_kl r_il``, ``n2`` the items with ``r_i >= 2``::

    p_a = 1/n2 sum_{r_i >= 2} sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))          (Gwet 2014, eq. 2.1.7)
    pi_k = 1/n sum_i r_ik / r_i
    coefficient = (p_a - p_e) / (1 - p_e)

with chance agreement ``p_e``:

- percent agreement: ``0``;
- Brennan-Prediger (Randolph's free-marginal kappa): ``sum_kl w_kl / q^2``;
- Gwet's AC1 (identity weights) / AC2 (any weights): ``sum_kl w_kl / (q (q - 1)) * sum_k pi_k (1 - pi_k)``;
- Fleiss' kappa (weighted with weights): ``sum_kl w_kl pi_k pi_l``;
- Conger's kappa: ``sum_kl w_kl (pbar_k pbar_l - s2_kl / r)`` with ``p_gk`` rater ``g``'s
  proportion in category ``k``, ``pbar_k`` their mean over raters and ``s2_kl`` their covariance;
- Krippendorff's alpha (Gwet's form): ``p_a = (1 - eps) p'_a + eps`` with ``p'_a`` using the
  mean ``rbar`` of ``r_i`` over the pairable items, ``eps = 1 / sum r_i``, ``pi_k = 1/n sum r_ik / rbar``.

Fleiss' kappa and Krippendorff's alpha are reported in the form ``1 - D_o / D_e`` (from
non-negative terms; alpha from its coincidence matrix), which is the value above in exact
arithmetic and the bits of ``fleiss_kappa`` and ``krippendorff_alpha``: each coefficient is one
class in ``rater_coefficients/`` (its ``value`` computed in one place, its ``result`` adding Gwet's
standard error, ``rater_coefficients/base.py``), and this module's functions are thin calls into
them; ``multi_rater_agreement`` reports every coefficient of ``several_rater_coefficients``.

Computation: from the nonzero cells ``(i, k, r_ik)`` of the count table (``Ratings``), never the
items x categories table itself, so work and memory grow with items x raters whatever the number
of categories (483,000 tokens x 3 raters x 222 labels: 127 MB peak). Every per-item sum over
categories replays numpy's row order on the nonzero terms (``exact_sum.sparse_row_sums``), so
percent agreement, Brennan-Prediger, Gwet's AC1/AC2, (weighted) Fleiss' kappa and alpha's
inference are the dense table's bits; Fleiss' kappa per category (one pass for all categories,
sums over items by ``math.fsum``, the value as ``1 - D_o / D_e``) and Light's jackknife (each
deletion in closed form, exact with identity weights) add in another order: their values are within
1e-14 relative or 1e-15 absolute of exact fractions, closer than the dense path, which loses digits
where ``p_a`` and ``p_e`` are both near 1. The ``q x q`` arrays (weights, Conger's rater
covariances) limit ``q`` to ``sqrt(MAX_COUNT_CELLS)`` = 10,000 labels, checked up front.

Items nobody rated are dropped (``n_items`` counts the others); raters who rated nothing are
left out of Conger's and Light's kappa. Undefined values (a single category, chance agreement 1,
no item with two ratings) are ``None`` with the reason in ``warnings``; a standard error of an
undefined coefficient or from one item is ``None``.
"""

from __future__ import annotations

import inspect
import math
import textwrap

import numpy as np

from ..chance.chance_corrected import has_room
from .benchmark_scales import benchmark
from .rater_coefficients import several_rater_coefficients
from .rater_coefficients.base import NO_PAIRS, ONE_CATEGORY, check_level, result_dict
from .rater_coefficients.ratings import MAX_COUNT_CELLS, Ratings

# the built-in coefficients (``rater_coefficients``), in the order ``multi_rater_agreement`` reports them
COEFFICIENTS = several_rater_coefficients.names()


# --------------------------------------------------------------------------- shared docstring parts

# the family's parameters, described once: ``_family_doc`` writes each function's Parameters section
# from its own signature (so the section always matches it)
_PARAMETER_DOCS = {
    "ratings": ("array-like", "Items x raters labels; None or NaN marks a missing rating."),
    "counts": ("array-like", "Instead of ``ratings``: items x categories numbers of raters (Fleiss 1971's "
               "layout); give exactly one of the two."),
    "weights": ("str or array-like", "Agreement weights :math:`w_{kl}`: a name of :func:`agreement_weights` "
                "(``\"identity\"``, ``\"linear\"``, ``\"quadratic\"``, ...) or a q x q matrix in [0, 1] with ones "
                "on the diagonal."),
    "categories": ("sequence", "The categories in order (default: the labels found, sorted); ordered weights "
                   "follow this order."),
    "confidence_level": ("float", "The level of the two-sided confidence interval, in (0, 1)."),
    "population_size": ("int", "The number of items in the population, for the finite-population correction "
                        ":math:`1 - n/N` of the variance; None: infinite."),
    "benchmark_scale": ("str", "``\"landis_koch\"``, ``\"fleiss\"`` or ``\"altman\"``: give each coefficient "
                        "with a standard error a ``benchmark`` (:func:`benchmark`)."),
}

_RESULT_DOC = """dict
    ``value`` (None when undefined), ``observed_agreement`` :math:`p_a`, ``expected_agreement``
    :math:`p_e`, ``standard_error``, ``confidence_interval`` (:math:`c \\pm t_{n-1} \\mathrm{se}`,
    the upper end capped at 1), ``p_value`` (two-sided t test of :math:`c = 0`, :math:`n - 1`
    degrees of freedom), ``n_items`` (items with a rating) and ``warnings`` (why a value is None)."""

_RAISES_DOC = """ValueError
    No ratings (or both ``ratings`` and ``counts``), a malformed table or weights matrix, an
    option out of range, or more than 10,000 categories (the q x q weights)."""


def _parameter_doc(parameter: inspect.Parameter) -> str:
    kind, text = _PARAMETER_DOCS[parameter.name]
    if parameter.default is None:
        kind += ", optional"
    elif parameter.default is not inspect.Parameter.empty:
        default = f'"{parameter.default}"' if isinstance(parameter.default, str) else repr(parameter.default)
        kind += f", default {default}"
    return f"{parameter.name} : {kind}\n" + textwrap.fill(text, 96, initial_indent="    ", subsequent_indent="    ")


_SECTION_ORDER = ("Parameters", "Returns", "Raises", "Warns", "See Also", "Notes", "References", "Examples")


def _family_doc(function):
    """Add the family's sections to ``function``'s docstring where it has none of its own: Parameters
    (written from its signature, so they always match it), Returns (the result dict) and Raises; the
    sections end in numpydoc's order. Nothing to do under -OO."""
    if function.__doc__ is None:
        return function
    lines = function.__doc__.splitlines()
    starts = [i for i in range(1, len(lines) - 1)
              if lines[i].strip() in _SECTION_ORDER and set(lines[i + 1].strip()) == {"-"}]
    indent = lines[starts[0]][: len(lines[starts[0]]) - len(lines[starts[0]].lstrip())]
    sections = {lines[start].strip(): lines[start:end]
                for start, end in zip(starts, [*starts[1:], len(lines)], strict=True)}
    family = {
        # a parameter without a description is left out: tests/test_docstrings.py then names it
        "Parameters": "\n".join(_parameter_doc(parameter)
                                 for parameter in inspect.signature(function).parameters.values()
                                 if parameter.name in _PARAMETER_DOCS),
        "Returns": _RESULT_DOC,
        "Raises": _RAISES_DOC,
    }
    for header, text in family.items():
        if header not in sections:
            sections[header] = [indent + line if line else line
                                for line in [header, "-" * len(header), *text.splitlines(), ""]]
    ordered = [line for header in _SECTION_ORDER for line in sections.get(header, [])]
    function.__doc__ = "\n".join(lines[: starts[0]] + ordered)
    return function


def _check_categories(q: int) -> None:
    """The family's category-by-category arrays (weights, Conger's rater covariances, Light's pair
    tables) have ``q^2`` cells: beyond ``MAX_COUNT_CELLS`` a clear error before any work."""
    if q * q > MAX_COUNT_CELLS:
        raise ValueError(
            f"{q:,} distinct labels: the several-rater family needs {q:,} x {q:,} category tables "
            f"({q * q:,} cells, limit {MAX_COUNT_CELLS:,}) for its weights, Conger's and Light's kappa; "
            "score fewer labels at once (e.g. per entity type) or merge rare labels; fleiss_kappa counts "
            "such nominal data sparsely and has no limit")


def _ratings(ratings, counts, categories, weights, confidence_level, population_size, coded=None) -> Ratings:
    """The checked options and ``Ratings`` of the family's public functions."""
    check_level(confidence_level, population_size)
    data = Ratings(ratings, counts, categories, weights, coded=coded)
    if data.n == 0:
        raise ValueError("no item has a rating")
    largest = float(data.r_i.max())
    if not math.isfinite(largest * largest):
        raise ValueError(f"counts are too large: an item has {largest:g} ratings, and r_i (r_i - 1) in Gwet's "
                         "p_a overflows a float; divide the counts by a common factor (fleiss_kappa takes them as "
                         "they are)")
    _check_categories(data.q)
    return data


def _coefficient(name, ratings, counts, weights, categories, confidence_level, population_size):
    data = _ratings(ratings, counts, categories, weights, confidence_level, population_size)
    return several_rater_coefficients.get(name).result(data, confidence_level, population_size)


@_family_doc
def percent_agreement(ratings=None, *, counts=None, weights="identity", categories=None,
                      confidence_level=0.95, population_size=None) -> dict:
    r"""Compute the (weighted) percent agreement of several raters with Gwet's standard error.

    See Also
    --------
    multi_rater_agreement : Every coefficient of the family at once.

    Notes
    -----
    With :math:`n` items, :math:`r_{ik}` the raters who put item :math:`i` in category :math:`k`,
    :math:`r_i = \sum_k r_{ik}`, :math:`r^*_{ik} = \sum_l w_{kl} r_{il}` and :math:`n_2` the items
    with :math:`r_i \ge 2` (Gwet 2014, equation 2.1.7),

    .. math::

        p_a = \frac{1}{n_2} \sum_{i : r_i \ge 2} \sum_k \frac{r_{ik} (r^*_{ik} - 1)}{r_i (r_i - 1)}.

    Its chance agreement :math:`p_e` is 0, so the value is :math:`p_a`. The standard error is Gwet's
    linearised one (2014, section 5.5), :math:`(1 - f) / (n (n - 1)) \sum_i (c_i - c)^2` with
    :math:`f = n/N`. Items with one rating count in :math:`n` only. With no item rated twice the
    value is undefined: None, the reason in ``warnings``.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. Advanced Analytics.

    Examples
    --------
    Six items, three raters, one rating missing:

    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> result = percent_agreement(ratings)
    >>> round(result["value"], 4), round(result["standard_error"], 4), result["n_items"]
    (0.7778, 0.1405, 6)
    >>> round(percent_agreement(ratings, weights="quadratic")["value"], 4)  # b is half-way between a and c
    0.9444
    """
    return _coefficient("percent_agreement", ratings, counts, weights, categories, confidence_level, population_size)


@_family_doc
def brennan_prediger(ratings=None, *, counts=None, weights="identity", categories=None,
                     confidence_level=0.95, population_size=None) -> dict:
    r"""Compute the Brennan-Prediger coefficient (Randolph's free-marginal kappa) of several raters.

    See Also
    --------
    multi_rater_agreement : Every coefficient of the family at once.

    Notes
    -----
    Chance agreement with every category equally likely, whatever the raters used:

    .. math::

        p_e = \frac{1}{q^2} \sum_{k,l} w_{kl}, \qquad
        \mathrm{BP} = \frac{p_a - p_e}{1 - p_e},

    with :math:`p_a` the percent agreement (:func:`percent_agreement`) and :math:`q` the number of
    categories; with identity weights :math:`p_e = 1/q`, for two raters the S of Bennett et al.
    (1954) in Artstein and Poesio's (2008) notation (:func:`coefficients`). The categories count
    even when nobody used them: give ``categories`` for a category absent from the data.

    The example's value, standard error and interval are irrCAC's (``bp.coeff.raw``, the Python port,
    given the three categories): 0.66667, 0.21082, (0.12474, 1).

    References
    ----------
    Brennan, R. L. and Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and
    alternatives. *Educational and Psychological Measurement* 41(3). Gwet, K. L. (2014). *Handbook of
    Inter-Rater Reliability*, 4th ed. Advanced Analytics.

    Examples
    --------
    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> result = brennan_prediger(ratings)
    >>> round(result["value"], 4), round(result["expected_agreement"], 4), round(result["standard_error"], 5)
    (0.6667, 0.3333, 0.21082)
    >>> [round(end, 5) for end in result["confidence_interval"]]
    [0.12474, 1.0]
    """
    return _coefficient("brennan_prediger", ratings, counts, weights, categories, confidence_level, population_size)


@_family_doc
def gwet_ac1(ratings=None, *, counts=None, categories=None, confidence_level=0.95, population_size=None) -> dict:
    r"""Compute Gwet's AC1 of several raters, with its standard error.

    See Also
    --------
    gwet_ac2 : The weighted form.

    Notes
    -----
    With :math:`\pi_k = \frac{1}{n} \sum_i r_{ik} / r_i` the mean share of category :math:`k` and
    :math:`p_a` the percent agreement (:func:`percent_agreement`),

    .. math::

        p_e = \frac{1}{q - 1} \sum_k \pi_k (1 - \pi_k), \qquad
        \mathrm{AC}_1 = \frac{p_a - p_e}{1 - p_e}.

    Unlike kappa, AC1's chance agreement falls as one category dominates, so it does not collapse under
    high prevalence (the effect the prevalence paper studies on sparse annotations). With a single
    category (:math:`q = 1`) it is undefined: None, the reason in ``warnings``.

    The example's value and standard error are irrCAC's (``gwet.ac1.raw``, the Python port, given the
    three categories): 0.67123 and 0.21141.

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence of high
    agreement. *British Journal of Mathematical and Statistical Psychology* 61(1). Gwet, K. L. (2014).
    *Handbook of Inter-Rater Reliability*, 4th ed. Advanced Analytics.

    Examples
    --------
    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> result = gwet_ac1(ratings)
    >>> round(result["value"], 5), round(result["expected_agreement"], 5), round(result["standard_error"], 5)
    (0.67123, 0.32407, 0.21141)
    """
    return _coefficient("gwet_ac", ratings, counts, "identity", categories, confidence_level, population_size)


@_family_doc
def gwet_ac2(ratings=None, *, counts=None, weights="quadratic", categories=None,
             confidence_level=0.95, population_size=None) -> dict:
    r"""Compute Gwet's AC2 (weighted AC1) of several raters, with its standard error.

    See Also
    --------
    gwet_ac1 : The unweighted form.
    agreement_weights : The named weights.

    Notes
    -----
    With weights :math:`w_{kl}`, :math:`\pi_k` the mean share of category :math:`k` and :math:`p_a`
    the weighted percent agreement (:func:`percent_agreement`),

    .. math::

        p_e = \frac{\sum_{k,l} w_{kl}}{q (q - 1)} \sum_k \pi_k (1 - \pi_k), \qquad
        \mathrm{AC}_2 = \frac{p_a - p_e}{1 - p_e}.

    Identity weights give AC1. The example's value and standard error are irrCAC's (``gwet.ac1.raw``
    with quadratic weights, the Python port): 0.84211 and 0.10937.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. Advanced Analytics.

    Examples
    --------
    The categories a < b < c with quadratic weights (the default), b half-way between the others:

    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> result = gwet_ac2(ratings, categories=["a", "b", "c"])
    >>> round(result["value"], 5), round(result["observed_agreement"], 5), round(result["standard_error"], 5)
    (0.84211, 0.94444, 0.10937)
    """
    return _coefficient("gwet_ac", ratings, counts, weights, categories, confidence_level, population_size)


@_family_doc
def weighted_fleiss_kappa(ratings=None, *, counts=None, weights="identity", categories=None,
                          confidence_level=0.95, population_size=None) -> dict:
    r"""Compute Fleiss' kappa of several raters, optionally weighted, with Gwet's standard error.

    See Also
    --------
    fleiss_kappa : The value alone (or with its parts), counted sparsely.
    fleiss_kappa_per_category : Kappa of each category against the rest.

    Notes
    -----
    With :math:`\pi_k` the mean share of category :math:`k` and :math:`p_a` the weighted percent
    agreement (:func:`percent_agreement`),

    .. math::

        p_e = \sum_{k,l} w_{kl} \pi_k \pi_l, \qquad
        \kappa = \frac{p_a - p_e}{1 - p_e}.

    With identity weights this is Fleiss' (1971) kappa, the K of Siegel and Castellan (equation 2 of
    Beigman Klebanov and Beigman 2009), computed as :math:`1 - D_o / D_e`. Missing ratings are handled
    as in irrCAC's ``fleiss.kappa.raw``. :math:`p_e = 1` (one category) leaves kappa undefined: None,
    the reason in ``warnings``.

    The example's value, standard error and interval are irrCAC's (the Python port): 0.65714,
    0.21363, (0.10798, 1); with quadratic weights, 0.84.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. *Psychological
    Bulletin* 76(5). Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.

    Examples
    --------
    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> result = weighted_fleiss_kappa(ratings)
    >>> round(result["value"], 5), round(result["standard_error"], 5)
    (0.65714, 0.21363)
    >>> [round(end, 5) for end in result["confidence_interval"]]
    [0.10798, 1.0]
    >>> round(weighted_fleiss_kappa(ratings, weights="quadratic", categories=["a", "b", "c"])["value"], 4)
    0.84
    """
    return _coefficient("fleiss_kappa", ratings, counts, weights, categories, confidence_level, population_size)


@_family_doc
def fleiss_kappa_per_category(ratings=None, *, counts=None, categories=None, confidence_level=0.95,
                              population_size=None) -> dict:
    r"""Compute Fleiss' kappa of each category against all the others, with standard errors.

    Returns
    -------
    dict
        ``{category: result}``, each result the dict of :func:`weighted_fleiss_kappa` for the ratings
        dichotomised into the category and the rest.

    See Also
    --------
    weighted_fleiss_kappa : The kappa over all categories.

    Notes
    -----
    Fleiss (1971, equation 11): with :math:`n_2` the items with :math:`r_i \ge 2` and :math:`\pi_k`
    the mean share of category :math:`k`,

    .. math::

        \kappa_k = 1 - \frac{\frac{1}{n_2} \sum_i \frac{r_{ik} (r_i - r_{ik})}{r_i (r_i - 1)}}
                            {\pi_k (1 - \pi_k)},

    which is Fleiss' kappa of the ratings recoded as "k" or "not k" (the example checks it). A
    category nobody or everybody used leaves its kappa undefined: None, the reason in ``warnings``.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. *Psychological
    Bulletin* 76(5).

    Examples
    --------
    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> per_category = fleiss_kappa_per_category(ratings)
    >>> {category: round(result["value"], 4) for category, result in per_category.items()}
    {'a': 0.775, 'b': 0.4462, 'c': 0.7231}
    >>> from chance_agreement import fleiss_kappa
    >>> recoded = [[None if label is None else label == "a" for label in row] for row in ratings]
    >>> round(fleiss_kappa(recoded), 4)
    0.775
    """
    data = _ratings(ratings, counts, categories, "identity", confidence_level, population_size)
    return _per_category(data, data.warnings, population_size, confidence_level)


class _Groups:
    """Correctly rounded sums per group (``math.fsum``), the values sorted by group once."""

    def __init__(self, groups: np.ndarray, size: int):
        self.order = np.argsort(groups, kind="stable")
        self.bounds = np.searchsorted(groups[self.order], np.arange(size + 1)).tolist()
        self.size = size

    def fsum(self, values, extra=None, chosen=None) -> np.ndarray:
        """``out[j] = fsum(values[groups == j (and chosen)] + extra[j])``."""
        ordered = np.asarray(values, dtype=float)[self.order]
        if chosen is not None:
            ordered = np.where(chosen[self.order], ordered, 0.0)
        ordered = ordered.tolist()
        rows = [[]] * self.size if extra is None else np.asarray(extra, dtype=float).reshape(self.size, -1).tolist()
        return np.array([math.fsum(ordered[self.bounds[j]:self.bounds[j + 1]] + rows[j]) for j in range(self.size)])


def _per_category(data, warnings, population_size, confidence_level) -> dict:
    """``fleiss_kappa_per_category``: every category's "k" / "not k" Fleiss kappa (``FleissKappa``'s
    variance on the table ``[r_ik, r_i - r_ik]``) from one pass over the nonzero cells. An item without ``k`` has
    ``p_a|i = 1`` (if ``r_i >= 2``), ``p_e|i = r_i pi'_k / r_i`` with ``pi'_k`` the "not k"
    proportion, and so an item term fixed by ``r_i``: such items enter every sum as (number of
    them per ``r_i``) x term. Each item's terms are the dense table's bits; the sums over items
    are correctly rounded (``math.fsum``) instead of numpy's order (values within 1e-14 of the
    dense path where that is well conditioned); the value as ``1 - D_o / D_e``, Fleiss' form."""
    n, q, r_i = data.n, data.q, data.r_i
    sizes, size_of = np.unique(r_i, return_inverse=True)  # classes of items by r_i
    outside = np.bincount(size_of, minlength=sizes.size)[None, :] - np.bincount(
        data.cells * sizes.size + size_of[data.items], minlength=q * sizes.size).reshape(q, sizes.size)
    k, c, r = data.cells, data.values, r_i[data.items]
    groups = _Groups(k, q)
    pi_in = groups.fsum(c / r) / n
    pi_out = groups.fsum((r - c) / r, outside.sum(axis=1)) / n
    pe = pi_in * pi_in + pi_out * pi_out  # quadratic_form(pi, I, pi): a sum of two rounded squares
    pairable, n2 = r >= 2, int((r_i >= 2).sum())
    pa_cell = np.where(pairable, _binary_pa(c, r), 0.0)
    pa = groups.fsum(pa_cell, outside[:, sizes >= 2].sum(axis=1), pairable) / max(n2, 1)
    # kappa_k = 1 - D_o / D_e (Fleiss 1971, eq. 11) from non-negative terms: no cancellation of p_a and
    # p_e near 1 (rare categories), where (p_a - p_e) / (1 - p_e) would lose digits
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = groups.fsum(2 * c * (r - c) / (r * (r - 1)), chosen=pairable)
    defined = has_room(pe) & (n2 > 0) & (pi_in * pi_out > 0)
    value = np.where(defined, 1 - (observed / max(n2, 1)) / np.where(defined, 2 * pi_in * pi_out, 1.0), 0.0)

    def deviation(pa_i, pe_i, rows, category):  # (c*_i - c)^2 of base.linearised_variance
        room = np.where(defined, 1 - pe, 1.0)[category]
        terms = (n / max(n2, 1)) * (pa_i - pe[category] * rows) / room
        return (terms - 2 * (1 - value[category]) * (pe_i - pe[category]) / room - value[category]) ** 2

    cell_pe = (c * pi_in[k] + (r - c) * pi_out[k]) / r
    cell_terms = deviation(pa_cell, cell_pe, pairable, k)
    class_terms = deviation((sizes >= 2) * 1.0, (sizes[None, :] * pi_out[:, None]) / sizes[None, :], sizes >= 2,
                            np.arange(q)[:, None])
    total = groups.fsum(cell_terms, outside * class_terms)
    return _per_category_results(data, warnings, (pa, pe, value, total, n2, defined), population_size,
                                 confidence_level)


def _per_category_results(data, warnings, arrays, population_size, confidence_level) -> dict:
    """``{category: result dict}`` from ``_per_category``'s arrays, as ``ChanceCorrected.result`` gives them."""
    pa, pe, value, total, n2, defined = arrays
    n = data.n
    fraction = 0.0 if population_size is None else n / population_size
    out = {}
    for j, category in enumerate(data.categories):
        if n2 == 0 or not defined[j]:
            reason = NO_PAIRS if n2 == 0 else ONE_CATEGORY
            result = result_dict(None, None if n2 == 0 else float(pa[j]), float(pe[j]), None, n, confidence_level,
                                 [reason])
        else:
            variance = (1 - fraction) / (n * (n - 1)) * float(total[j]) if n > 1 else None
            result = result_dict(float(value[j]), float(pa[j]), float(pe[j]), variance, n, confidence_level, [])
        result["warnings"] = list(warnings) + result["warnings"]
        out[category] = result
    return out


def _binary_pa(c, r):
    """An item's ``p_a|i`` of the "k" / "not k" table, ``(c (c - 1) + (r - c)(r - c - 1)) / (r (r - 1))``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (c * (c - 1) + (r - c) * (r - c - 1)) / (r * (r - 1))


@_family_doc
def conger_kappa(ratings, *, weights="identity", categories=None, confidence_level=0.95,
                 population_size=None) -> dict:
    r"""Compute Conger's kappa of several raters, with Gwet's standard error.

    See Also
    --------
    light_kappa : The mean of the pairwise Cohen kappas.

    Notes
    -----
    Conger (1980) generalises Cohen's kappa: each rater keeps their own category proportions. With
    :math:`p_{gk}` rater :math:`g`'s share of category :math:`k`, :math:`\bar p_k` its mean over the
    :math:`r` raters and :math:`s^2_{kl}` the covariance of :math:`p_{gk}` and :math:`p_{gl}` over
    raters,

    .. math::

        p_e = \sum_{k,l} w_{kl} \left(\bar p_k \bar p_l - \frac{s^2_{kl}}{r}\right), \qquad
        \kappa_C = \frac{p_a - p_e}{1 - p_e},

    the mean of the pairwise Cohen chance agreements. It needs each rater's ratings, so it takes no
    ``counts``. Raters who rated nothing are left out.

    The example's value, standard error and interval are irrCAC's (``conger.kappa.raw``, the Python
    port): 0.66667, 0.20438, (0.1413, 1).

    References
    ----------
    Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
    *Psychological Bulletin* 88(2). Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed.

    Examples
    --------
    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> result = conger_kappa(ratings)
    >>> round(result["value"], 5), round(result["standard_error"], 5)
    (0.66667, 0.20438)
    """
    return _coefficient("conger_kappa", ratings, None, weights, categories, confidence_level, population_size)


@_family_doc
def krippendorff_alpha_inference(ratings=None, *, counts=None, weights="identity", categories=None,
                                 confidence_level=0.95, population_size=None) -> dict:
    r"""Compute Krippendorff's alpha of several raters with Gwet's standard error.

    See Also
    --------
    krippendorff_alpha : The value with any of the four distances.

    Notes
    -----
    The value is :func:`krippendorff_alpha`'s, bit for bit, with the distance :math:`1 - w_{kl}`:

    .. math::

        \alpha = 1 - \frac{D_o}{D_e}, \qquad
        D_o = \frac{1}{n} \sum_{c,k} o_{ck} \delta_{ck}, \qquad
        D_e = \frac{1}{n (n - 1)} \sum_{c,k} n_c n_k \delta_{ck},

    with :math:`o_{ck}` the coincidence matrix. ``observed_agreement`` and ``expected_agreement``
    are Gwet's (2014, section 2.4) :math:`p_a = (1 - \epsilon) p'_a + \epsilon` and :math:`p_e`, whose
    :math:`(p_a - p_e)/(1 - p_e)` is alpha. The standard error is Gwet's, linearised as irrCAC's
    ``krippen.alpha.raw`` for ratings and ``krippen.alpha.dist`` for counts, so the same data give
    slightly different standard errors in the two forms.

    The example's value is the ``krippendorff`` package's and irrCAC's: 0.6631578947...

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Gwet, K. L. (2014).
    *Handbook of Inter-Rater Reliability*, 4th ed., section 2.4.

    Examples
    --------
    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> result = krippendorff_alpha_inference(ratings)
    >>> round(result["value"], 6), round(result["observed_agreement"], 5), round(result["expected_agreement"], 5)
    (0.663158, 0.77855, 0.34256)
    """
    return _coefficient("krippendorff_alpha", ratings, counts, weights, categories, confidence_level, population_size)


@_family_doc
def light_kappa(ratings, *, weights="identity", categories=None, confidence_level=0.95) -> dict:
    r"""Compute Light's kappa, the mean of Cohen's kappa over every pair of raters.

    Returns
    -------
    dict
        ``value`` (None when undefined), ``standard_error`` (jackknife), ``confidence_interval``,
        ``p_value`` (t with :math:`n - 1` degrees of freedom), ``n_items``, ``pairwise`` (r x r list of
        the pairs' kappas, the diagonal and undefined pairs None), ``n_pairs`` (the pairs averaged) and
        ``warnings``.

    See Also
    --------
    conger_kappa : One kappa from all raters' proportions.

    Notes
    -----
    Light (1971): each pair of raters :math:`g < h` gets Cohen's (weighted) kappa
    :math:`\kappa_{gh}` on the items both rated, and

    .. math::

        L = \frac{2}{r (r - 1)} \sum_{g < h} \kappa_{gh}.

    Gwet's family has no analytic variance for it: the standard error is the delete-one-item
    jackknife, :math:`\mathrm{var} = \frac{n - 1}{n} \sum_i (L_{(i)} - \bar L_{(\cdot)})^2`. A pair
    with no common item, or with chance agreement 1, is left out of the mean (named in ``warnings``).

    The example's pairwise kappas are scikit-learn's ``cohen_kappa_score`` on the pairs' common items
    (0.75 for raters 0 and 1, 0.41176 for raters 1 and 2).

    References
    ----------
    Light, R. J. (1971). Measures of response agreement for qualitative data: some generalizations
    and alternatives. *Psychological Bulletin* 76(5).

    Examples
    --------
    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> result = light_kappa(ratings)
    >>> round(result["value"], 4), result["n_pairs"]
    (0.6225, 3)
    >>> [[None if kappa is None else round(kappa, 4) for kappa in row] for row in result["pairwise"]]
    [[None, 0.75, 0.7059], [0.75, None, 0.4118], [0.7059, 0.4118, None]]
    """
    return _coefficient("light_kappa", ratings, None, weights, categories, confidence_level, None)


@_family_doc
def multi_rater_agreement(ratings=None, *, counts=None, weights="identity", categories=None,
                          confidence_level=0.95, population_size=None, benchmark_scale=None) -> dict:
    r"""Compute every several-rater coefficient at once, each with its standard error and interval.

    Returns
    -------
    dict
        One result dict (as :func:`percent_agreement`'s) per coefficient of
        ``several_rater_coefficients``: ``percent_agreement``, ``brennan_prediger``, ``gwet_ac1``
        (``gwet_ac2`` with weights), ``fleiss_kappa`` (weighted with ``weights``),
        ``krippendorff_alpha``, and with ``ratings`` also ``conger_kappa`` and ``light_kappa``;
        ``fleiss_kappa_per_category`` (unweighted); ``categories``, ``n_items``, ``n_raters`` (None
        for counts) and ``weights``.

    See Also
    --------
    multi_rater_report : The same from tag sequences.

    Notes
    -----
    All of Gwet's family share the form

    .. math::

        c = \frac{p_a - p_e}{1 - p_e}

    with the weighted percent agreement :math:`p_a` (Gwet 2014, equation 2.1.7) and each its own
    chance agreement :math:`p_e` (see each function). Undefined values are None with the reason in the
    result's ``warnings``, never NaN.

    References
    ----------
    Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. Advanced Analytics.

    Examples
    --------
    >>> ratings = [["a", "a", "a"], ["a", "b", "a"], ["b", "b", "b"],
    ...            ["c", "c", "b"], ["a", "a", None], ["c", "c", "c"]]
    >>> report = multi_rater_agreement(ratings)
    >>> names = ("percent_agreement", "brennan_prediger", "gwet_ac1", "fleiss_kappa", "krippendorff_alpha",
    ...          "conger_kappa", "light_kappa")
    >>> [round(report[name]["value"], 4) for name in names]
    [0.7778, 0.6667, 0.6712, 0.6571, 0.6632, 0.6667, 0.6225]
    >>> report["categories"], report["n_items"], report["n_raters"]
    (['a', 'b', 'c'], 6, 3)
    >>> scaled = multi_rater_agreement(ratings, benchmark_scale="landis_koch")
    >>> scaled["fleiss_kappa"]["benchmark"]["most_likely"]["label"]
    'Substantial'
    """

    data = _ratings(ratings, counts, categories, weights, confidence_level, population_size)
    return _agreement(data, confidence_level, population_size, benchmark_scale)


def multi_rater_agreement_of_codes(codes, categories, *, weights="identity", confidence_level=0.95,
                                   population_size=None, benchmark_scale=None) -> dict:
    """``multi_rater_agreement`` of ratings already coded by ``rater_coefficients.ratings.rating_codes``
    (``codes``: items x raters category indices, -1 missing; ``categories``: their labels), so a
    caller that also needs the bare coefficients codes the labels once."""
    data = _ratings(None, None, categories, weights, confidence_level, population_size,
                    coded=(np.asarray(codes), list(categories)))
    return _agreement(data, confidence_level, population_size, benchmark_scale)


def _agreement(data, confidence_level, population_size, benchmark_scale) -> dict:
    """``multi_rater_agreement`` of ``Ratings``: every registered coefficient (those that need each
    rater's ratings only when they were given)."""
    out = {coefficient.key(data): coefficient.result(data, confidence_level, population_size)
           for coefficient in several_rater_coefficients.entries().values()
           if data.raw is not None or not coefficient.per_rater}
    if benchmark_scale is not None:
        for result in out.values():
            if result.get("standard_error") is not None:
                result["benchmark"] = benchmark(result["value"], result["standard_error"], scale=benchmark_scale)
    out["fleiss_kappa_per_category"] = {
        str(category): result for category, result in
        _per_category(data, [], population_size, confidence_level).items()
    }
    out["categories"] = [c if isinstance(c, (str, int, float)) else str(c) for c in data.categories]
    out["n_items"] = int(data.n)
    out["n_raters"] = None if data.raw is None else int(data.raw.shape[1])
    out["weights"] = data.weights_name
    return out


__all__ = [
    "COEFFICIENTS",
    "brennan_prediger",
    "conger_kappa",
    "fleiss_kappa_per_category",
    "gwet_ac1",
    "gwet_ac2",
    "krippendorff_alpha_inference",
    "light_kappa",
    "multi_rater_agreement",
    "multi_rater_agreement_of_codes",
    "percent_agreement",
    "weighted_fleiss_kappa",
]
