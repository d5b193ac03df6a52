"""Agreement coefficients of a two-annotator contingency table.

Formulas of the gene-renaming agreement paper ("prevalence paper",
``shared/papers/prevalence_coefficients_gene_renaming.txt``; sections cited below), which uses
the notation of Artstein & Poesio (2008). ``table[i][j]`` counts the items that the reference
annotator (rows, the paper's A2) put in category i and the other annotator (columns, A1) in
category j; N = the sum of the table, r_i and c_j its row and column sums, q the number of
categories.

- observed agreement (section 3.1): A_o = sum_i n_ii / N
- S, pi, kappa (section 3.1): (A_o - A_e) / (1 - A_e) with
  A_e^S = 1/q (Bennett et al. 1954), A_e^pi = sum_k ((r_k + c_k) / 2N)^2 (Scott 1955),
  A_e^kappa = sum_k r_k c_k / N^2 (Cohen 1960)
- Finn's R (section 3.2): R = 1 - observed variance / expected variance, categories coded
  1..q in ``finn_order``; observed variance = mean over items of the two codes' sample variance
  ((x - y)^2 / 2, as irr ``finn``), expected variance = (q^2 - 1)/12 (uniform discrete)
- weighted kappa and alpha (section 3.3, distances d): 1 - D_o/D_e with
  D_o = sum_ij n_ij d_ij / N; D_e^kappa_w = sum_ij r_i c_j d_ij / N^2 (Cohen 1968);
  D_e^alpha = sum_ij n_i n_j d_ij / (2N (2N - 1)), n_k = r_k + c_k (Krippendorff, two coders)
- F-measure, F', SER (section 3.4), with C = agreements on the categories other than Nothing,
  S = substitutions between them, D + I = items one annotator put in Nothing and the other not:
  F = 2C / (2C + 2S + D + I) (alpha = 1), F' = (2C + S) / (2C + 2S + D + I),
  SER = (0.5 S + D + I) / (0.5 (n_1 + n_2)), n_a = items annotator a put outside Nothing
  (the symmetric divisor of the paper); ``slot_error_rate_full`` uses cost 1 for S.
- category probabilities (section 4.2, Table 7): P(C2|C1) = (n_{C1,C2} + n_{C2,C1}) /
  (r_C1 + c_C1); similarities (Table 8): Sim(C1, C2) = (P(C2|C1) + P(C1|C2)) / 2.

Undefined values are ``None`` with the reason in ``warnings``; every number is a Python float.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..chance.corrected_f1 import chance_f1
from ..spans.validation import as_items
from .contingency_table import check_category_count, contingency
from .table_coefficients import Table, coefficient_names, get_coefficient
from .unitizing import unitizing_alpha

# the coefficients besides observed agreement and the kappa family of ``table_coefficients``
_OTHER_COEFFICIENTS = ("finn_r", "f_measure", "f_prime", "slot_error_rate", "slot_error_rate_full")


def check_table(table, categories) -> tuple[np.ndarray, list[str]]:
    try:
        array = np.asarray(table, dtype=float)
    except (TypeError, ValueError) as error:
        raise ValueError("the contingency table must be a numeric square matrix") from error
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ValueError(
            f"the contingency table must be square (categories x categories), got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise ValueError("the contingency table contains NaN or infinite counts")
    if np.any(array < 0):
        raise ValueError("the contingency table has negative counts")
    if categories is None:
        categories = [str(i) for i in range(array.shape[0])]
    else:
        categories = [str(c) for c in categories]
        if len(categories) != array.shape[0]:
            raise ValueError(
                f"{len(categories)} categories given for a {array.shape[0]} x {array.shape[1]} table"
            )
        if len(set(categories)) != len(categories):
            raise ValueError(f"duplicate category names in {categories!r}")
    return array, categories


def distance_matrix(distance, categories: Sequence[str]) -> np.ndarray:
    """Validate ``distance`` and return it as a matrix in the order of ``categories``.

    Accepts a q x q matrix (rows/columns in the order of ``categories``), a dict of dicts
    ``{c1: {c2: d}}`` or a dict keyed by pairs ``{(c1, c2): d}``. In the dict forms a missing
    diagonal is 0 and a pair given in one direction only is mirrored.
    """
    q = len(categories)
    index = {c: i for i, c in enumerate(categories)}
    if isinstance(distance, Mapping):
        entries: dict[tuple[str, str], float] = {}
        for key, value in distance.items():
            if isinstance(value, Mapping):
                for key2, d in value.items():
                    entries[(str(key), str(key2))] = d
            elif isinstance(key, tuple) and len(key) == 2:
                entries[(str(key[0]), str(key[1]))] = value
            else:
                raise ValueError(
                    f"distance key {key!r}: give a dict of dicts {{c1: {{c2: d}}}} or a dict "
                    "keyed by (c1, c2) pairs"
                )
        matrix = np.full((q, q), np.nan)
        for (c1, c2), d in entries.items():
            for c in (c1, c2):
                if c not in index:
                    raise ValueError(
                        f"distance names unknown category {c!r}; categories are {list(categories)!r}"
                    )
            try:
                matrix[index[c1], index[c2]] = float(d)
            except (TypeError, ValueError) as error:
                raise ValueError(f"distance ({c1!r}, {c2!r}) = {d!r} is not a number") from error
        for i in range(q):
            if np.isnan(matrix[i, i]):
                matrix[i, i] = 0.0
            for j in range(q):
                if np.isnan(matrix[i, j]) and not np.isnan(matrix[j, i]):
                    matrix[i, j] = matrix[j, i]
        missing = np.argwhere(np.isnan(matrix))
        if len(missing):
            i, j = missing[0]
            raise ValueError(
                f"distance has no value for the pair ({categories[i]!r}, {categories[j]!r})"
            )
    else:
        matrix = square_distance_matrix(distance, categories, "or a dict")
    return check_distance_values(matrix, categories)


def square_distance_matrix(distance, categories, other_forms: str = "", hint: str = "") -> np.ndarray:
    """``distance`` as a numeric q x q float matrix for the q ``categories``, or a ValueError
    naming the other accepted forms and the expected shape (values are not checked here)."""
    q = len(categories)
    try:
        matrix = np.asarray(distance, dtype=float)
    except (TypeError, ValueError) as error:
        raise ValueError(f"distance must be a numeric matrix {other_forms}".rstrip()) from error
    if matrix.shape != (q, q):
        raise ValueError(
            f"distance matrix has shape {matrix.shape}, expected {(q, q)} for the categories "
            f"{list(categories)!r}{hint}"
        )
    return matrix


def check_distance_values(matrix: np.ndarray, categories) -> np.ndarray:
    """A category distance is finite, non-negative, symmetric and 0 on the diagonal; the error
    names the first pair of categories that breaks this."""
    if not np.all(np.isfinite(matrix)):
        raise ValueError("distance contains NaN or infinite values")
    if np.any(matrix < 0):
        i, j = np.argwhere(matrix < 0)[0]
        raise ValueError(
            f"distance must be non-negative: d({categories[i]!r}, {categories[j]!r}) = {matrix[i, j]}"
        )
    asymmetric = np.argwhere(~np.isclose(matrix, matrix.T))
    if len(asymmetric):
        i, j = asymmetric[0]
        raise ValueError(
            f"distance must be symmetric, and is not symmetric: d({categories[i]!r}, {categories[j]!r}) "
            f"= {matrix[i, j]} but d({categories[j]!r}, {categories[i]!r}) = {matrix[j, i]}"
        )
    diagonal = np.flatnonzero(~np.isclose(np.diag(matrix), 0.0))
    if len(diagonal):
        i = diagonal[0]
        raise ValueError(
            f"distance must be zero between a category and itself, 0 on the diagonal: "
            f"d({categories[i]!r}, {categories[i]!r}) = "
            f"{matrix[i, i]}"
        )
    return matrix


def _ratio(numerator: float, denominator: float, name: str, reason: str, warnings: list[str]):
    if denominator <= 0:
        warnings.append(f"{name}: {reason}, undefined")
        return None
    return float(numerator / denominator)


def _finn_codes(finn_order, categories: list[str]) -> np.ndarray:
    """Code 1..q of each category (in ``categories`` order) following ``finn_order``."""
    if finn_order is None:
        return np.arange(1, len(categories) + 1, dtype=float)
    if isinstance(finn_order, str):
        raise ValueError("finn_order must be a sequence of category names, not a string")
    order = [str(c) for c in finn_order]
    if sorted(order) != sorted(categories):
        raise ValueError(
            f"finn_order {order!r} must list each of the categories {categories!r} exactly once"
        )
    position = {c: i + 1 for i, c in enumerate(order)}
    return np.array([position[c] for c in categories], dtype=float)


def coefficients(
    table,
    categories: Sequence[str] | None = None,
    *,
    distance=None,
    finn_order: Sequence[str] | None = None,
    nothing: str = "O",
) -> dict[str, Any]:
    r"""Compute every agreement coefficient of a two-annotator contingency table.

    Parameters
    ----------
    table : array-like
        q x q non-negative counts: ``table[i][j]`` items the reference annotator (rows) put in
        category ``i`` and the other (columns) in category ``j``.
    categories : sequence of str, optional
        The names of the rows and columns (default ``"0"``, ``"1"``, ...).
    distance : array-like or dict, optional
        Distances between categories, for ``weighted_kappa`` and ``krippendorff_alpha``: a q x q
        matrix in the order of ``categories``, a dict of dicts ``{c1: {c2: d}}`` or a dict keyed by
        pairs ``{(c1, c2): d}`` (a missing diagonal is 0, a pair given one way is mirrored).
    finn_order : sequence of str, optional
        The coding order of the categories for Finn's R (default: ``categories``' order); R treats
        the codes as numbers, so it depends on this order.
    nothing : str, default "O"
        The category that is the paper's Nothing for F, F' and SER; if absent, every category is
        meaningful (D = I = 0).

    Returns
    -------
    dict
        JSON-serialisable: ``observed_agreement``, ``bennett_s``, ``scott_pi``, ``cohen_kappa``,
        ``gwet_ac1`` (and any coefficient registered in ``two_rater_coefficients``), ``finn_r``,
        with ``distance`` also ``weighted_kappa`` and ``krippendorff_alpha``; ``f_measure``,
        ``f_prime``, ``slot_error_rate``, ``slot_error_rate_full``; ``n_items``, ``categories``,
        ``expected_agreement`` (the :math:`A_e` of S, pi and kappa by name),
        ``category_probabilities`` (Table 7), ``category_similarity`` (Table 8) and ``warnings``.
        An undefined value is None, its reason in ``warnings``.

    Raises
    ------
    ValueError
        A table that is not square, negative or non-finite counts, categories (duplicated, or not one
        per row) or a distance that do not match it, a ``finn_order`` that does not list each category
        once, or more than 2,000 categories.

    See Also
    --------
    contingency : The table of two tag annotations.
    coefficient_intervals : Intervals for the kappa family.

    Notes
    -----
    In Artstein and Poesio's (2008) notation, as the prevalence paper uses it (section 3), with
    :math:`N` items, :math:`n_{ij}` the cells, :math:`r_k` and :math:`c_k` the row and column sums:

    .. math::

        A_o = \frac{1}{N} \sum_k n_{kk}, \qquad
        \mathrm{coefficient} = \frac{A_o - A_e}{1 - A_e}, \qquad
        A_e^{S} = \frac{1}{q}, \quad
        A_e^{\pi} = \sum_k \left(\frac{r_k + c_k}{2N}\right)^2, \quad
        A_e^{\kappa} = \sum_k \frac{r_k c_k}{N^2}.

    Finn's R (section 3.2) is :math:`1 - s^2_{obs} / s^2_{exp}` with the codes :math:`1..q` of
    ``finn_order`` and :math:`s^2_{exp} = (q^2 - 1)/12`. The weighted coefficients (section 3.3) are
    :math:`1 - D_o/D_e` with :math:`D_o = \sum_{ij} n_{ij} d_{ij} / N`,
    :math:`D_e^{\kappa_w} = \sum_{ij} r_i c_j d_{ij} / N^2` and
    :math:`D_e^{\alpha} = \sum_{ij} n_i n_j d_{ij} / (2N (2N - 1))`, :math:`n_k = r_k + c_k`. With
    :math:`C` agreements outside Nothing, :math:`S` substitutions between them and :math:`D + I` items
    only one annotator put in Nothing (section 3.4),

    .. math::

        F = \frac{2C}{2C + 2S + D + I}, \qquad
        F' = \frac{2C + S}{2C + 2S + D + I}, \qquad
        \mathrm{SER} = \frac{0.5\, S + D + I}{0.5\, (n_1 + n_2)}.

    Undefined cases, as in scikit-learn's ``cohen_kappa_score``: :math:`A_e = 1` (one category used
    by both) leaves pi and kappa undefined (S, with :math:`A_e = 1/q`, stays defined); an empty
    table leaves every coefficient undefined; no item outside Nothing leaves F, F' and SER
    undefined. Each is None, with the reason in ``warnings``, never NaN.

    The example is the prevalence paper's Table 1 (rows annotator A2, columns A1), which gives its
    Table 6 exactly: :math:`A_o` 0.99611 (0.9961163, which the paper truncates), S 0.99417, pi
    0.8012, kappa 0.80121, F 0.74667, SER 0.33867; statsmodels' ``cohens_kappa`` gives the same
    kappa. With the Table 2 distances
    (Former-New 0.5, others 1) weighted kappa and alpha are 0.82920 (the paper truncates to 0.8291
    and 0.8292), and Finn's R with Former coded between the others is the paper's 0.9943713.

    References
    ----------
    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    *Computational Linguistics* 34(4). The prevalence paper: a study of inter-annotator coefficients on
    sparse gene-renaming annotations (``prevalence_coefficients_gene_renaming.txt``; its title page is
    missing from our copy).

    Examples
    --------
    >>> table = [[71, 13, 23], [8, 69, 15], [7, 8, 18840]]
    >>> result = coefficients(table, ["Former", "New", "Nothing"], nothing="Nothing")
    >>> [round(result[key], 5) for key in ("observed_agreement", "bennett_s", "scott_pi", "cohen_kappa")]
    [0.99612, 0.99417, 0.8012, 0.80121]
    >>> round(result["f_measure"], 5), round(result["f_prime"], 5), round(result["slot_error_rate"], 5)
    (0.74667, 0.80267, 0.33867)
    >>> weighted = coefficients(table, ["Former", "New", "Nothing"], nothing="Nothing",
    ...                         distance={("Former", "New"): 0.5, ("Former", "Nothing"): 1, ("New", "Nothing"): 1},
    ...                         finn_order=["New", "Former", "Nothing"])
    >>> round(weighted["weighted_kappa"], 5), round(weighted["krippendorff_alpha"], 5), round(weighted["finn_r"], 7)
    (0.8292, 0.8292, 0.9943713)

    A single category leaves the chance-corrected coefficients undefined:

    >>> undefined = coefficients([[5, 0], [0, 0]], ["PER", "O"])
    >>> undefined["cohen_kappa"] is None, undefined["observed_agreement"], undefined["bennett_s"]
    (True, 1.0, 1.0)
    >>> undefined["warnings"][1]
    'cohen_kappa: chance agreement is 1 (a single category), undefined'
    """
    n, categories = check_table(table, categories)
    check_category_count(len(categories), "the table")
    codes = _finn_codes(finn_order, categories)
    delta = distance_matrix(distance, categories) if distance is not None else None
    warnings: list[str] = []
    result = _empty_result(categories, delta is not None, warnings)
    with np.errstate(over="ignore"):
        original_total = float(n.sum())
    if not math.isfinite(original_total):
        raise ValueError("the contingency table's counts are too large: their sum overflows a float")
    result["n_items"] = original_total
    if original_total == 0:
        warnings.append("the contingency table is empty (no items): every coefficient is undefined")
        return result
    counts = Table(n)
    result["observed_agreement"] = float(np.sum(np.diag(counts.n)) / counts.total)
    result["expected_agreement"] = _expected_agreements(counts)
    for coefficient in (get_coefficient(name) for name in coefficient_names()):
        if coefficient.unweighted:
            result[coefficient.name] = coefficient.value(counts)
            if result[coefficient.name] is None:
                warnings.append(f"{coefficient.name}: chance agreement is 1 (a single category), undefined")
    result["finn_r"] = _finn_r(counts, codes, warnings)
    if delta is not None:
        weighted = Table(n, delta)
        for key, name in (("weighted_kappa", "cohen_kappa"), ("krippendorff_alpha", "krippendorff_alpha")):
            result[key] = get_coefficient(name).value(weighted)
            if result[key] is None:
                warnings.append(f"{key}: expected disagreement is 0, undefined")
    result.update(_slot_errors(counts, categories, nothing, warnings))
    _category_probabilities(result, n, categories, warnings)
    return result


def _empty_result(categories: list[str], weighted: bool, warnings: list[str]) -> dict[str, Any]:
    """Every key of ``coefficients``' result, the coefficients None."""
    names = ["observed_agreement"] + [name for name in coefficient_names() if get_coefficient(name).unweighted]
    result: dict[str, Any] = dict.fromkeys(names + list(_OTHER_COEFFICIENTS))
    result.update({"n_items": None, "categories": list(categories), "expected_agreement": {},
                   "category_probabilities": {}, "category_similarity": {}, "warnings": warnings})
    if weighted:
        result["weighted_kappa"] = None
        result["krippendorff_alpha"] = None
    return result


def _expected_agreements(counts: Table) -> dict[str, float]:
    """A_e of S, pi and kappa (section 3.1), as reported."""
    rows, cols, total = counts.rows, counts.cols, counts.total
    return {
        "bennett_s": 1.0 / counts.q,
        "scott_pi": float(np.sum(((rows + cols) / (2 * total)) ** 2)),
        "cohen_kappa": float(np.sum(rows * cols) / (total * total)),
    }


def _finn_r(counts: Table, codes: np.ndarray, warnings: list[str]):
    """Finn's R: 1 - (mean sample variance of the two codes per item) / ((q^2 - 1)/12)."""
    expected_variance = (counts.q**2 - 1) / 12.0
    observed_variance = float(np.sum(counts.n * (codes[:, None] - codes[None, :]) ** 2 / 2.0) / counts.total)
    return _ratio(expected_variance - observed_variance, expected_variance, "finn_r",
                  "a single category has no expected variance", warnings)


def _slot_errors(counts: Table, categories: list[str], nothing: str, warnings: list[str]) -> dict[str, float]:
    """F, F' and the slot error rates of section 3.4 (empty when no item is outside Nothing)."""
    n, rows, cols = counts.n, counts.rows, counts.cols
    meaningful = np.array([c != nothing for c in categories])
    inner = n[np.ix_(meaningful, meaningful)]
    correct = float(np.trace(inner))
    substitutions = float(inner.sum() - correct)
    if meaningful.all():
        deletions_insertions = 0.0
    else:
        k = categories.index(nothing)
        deletions_insertions = float(n[k, meaningful].sum() + n[meaningful, k].sum())
    f_denominator = 2 * correct + 2 * substitutions + deletions_insertions
    if f_denominator == 0:
        warnings.append(
            "f_measure, f_prime, slot_error_rate, slot_error_rate_full: no item is outside the "
            "Nothing category for either annotator, undefined"
        )
        return {}
    # symmetric divisor: the mean number of annotated items, 0.5 (n_1 + n_2) = f_denominator / 2
    divisor = 0.5 * float(rows[meaningful].sum() + cols[meaningful].sum())
    return {"f_measure": float(2 * correct / f_denominator),
            "f_prime": float((2 * correct + substitutions) / f_denominator),
            "slot_error_rate": float((0.5 * substitutions + deletions_insertions) / divisor),
            "slot_error_rate_full": float((substitutions + deletions_insertions) / divisor)}


def _category_probabilities(result: dict, original: np.ndarray, categories: list[str], warnings: list[str]) -> None:
    """P(C2|C1) (Table 7) and Sim(C1, C2) (Table 8) into ``result``, from the unscaled counts.

    Whole-array float64 operations, the same IEEE operations as one cell at a time:
    P(C2|C1) = (n_12 + n_21) / used_1 and Sim = (P(C2|C1) + P(C1|C2)) / 2, None where a used is 0."""
    used = original.sum(axis=1) + original.sum(axis=0)  # unscaled: a tiny count is not lost
    defined = used > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        p = (original + original.T) / np.where(defined, used, 1.0)[:, None]
    similarity = (p + p.T) / 2.0
    p_rows, s_rows = p.tolist(), similarity.tolist()
    undefined = [c for c, d in zip(categories, defined.tolist(), strict=True) if not d]
    if undefined:
        warnings.append(
            f"category_probabilities: categories {undefined!r} are never used, so P(.|C) is undefined"
        )
        for i in np.flatnonzero(~defined).tolist():
            p_rows[i] = [None] * len(categories)
            s_rows[i] = [None] * len(categories)
            for row in s_rows:
                row[i] = None
    result["category_probabilities"] = {c: dict(zip(categories, row, strict=True))
                                        for c, row in zip(categories, p_rows, strict=True)}
    result["category_similarity"] = {c: dict(zip(categories, row, strict=True))
                                     for c, row in zip(categories, s_rows, strict=True)}


_PLAIN = (str, int, bool, type(None))  # already plain (a float too, unless NaN): kept as it is


def _plain_values(values) -> list:
    """``plain`` of each value; the ones already plain (str, int, None, a float other than NaN), the
    bulk of a large table, are kept without a call."""
    return [v if type(v) in _PLAIN or (type(v) is float and v == v) else plain(v) for v in values]


REPORT_VIEWS = ("all", "markables", "entities", "grouped")


def plain(value):
    """numpy scalars/arrays, tuples and nested containers as plain JSON-serialisable Python."""
    if isinstance(value, dict):
        return dict(zip(map(str, value), _plain_values(value.values()), strict=True))
    if isinstance(value, (list, tuple)):
        return _plain_values(value)
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return None if np.isnan(value) else float(value)
    return value


def _restrict(matrix: np.ndarray | None, all_categories: list[str], categories: list[str]):
    """The sub-matrix of ``matrix`` for ``categories`` (None if one is not among ``all_categories``)."""
    if matrix is None or not set(categories) <= set(all_categories):
        return None
    index = [all_categories.index(c) for c in categories]
    return matrix[np.ix_(index, index)]


def agreement_report(
    predictions,
    references,
    *,
    distance=None,
    finn_order=None,
    views=("all",),
    markables=None,
    scheme=None,
    mode=None,
    suffix: bool = False,
) -> dict[str, Any]:
    r"""Everything the coefficients metric returns, for two annotations of the same tokens.

    Parameters
    ----------
    predictions, references : list of list of str
        Per sentence, the two annotations' tags (the references are the first annotator).
    distance : matrix, optional
        A category x category distance for the weighted coefficients, over the categories of the
        "all" view (sorted entity types, then "O"); each view uses its restriction to its own
        categories (the grouped view has no distance).
    finn_order : sequence, optional
        The category order of Finn's r, over the same categories.
    views : tuple of str, default ("all",)
        ``"all"``: case 1; ``"markables"``: case 2, needs ``markables``; ``"entities"``: case 3;
        ``"grouped"``: case 4 (prevalence paper, section 4.1).
    markables : list of list of bool, optional
        Per sentence and token, whether the token is a markable (the ``"markables"`` view).
    scheme, mode, suffix
        seqeval's options, as in ``chance_f1``.

    Returns
    -------
    dict
        Per view, the ``coefficients`` of its ``contingency`` table plus the table itself
        (``contingency`` = ``{"categories": [...], "table": [[...]]}``); then ``unitizing_alpha``
        (``u_alpha`` and ``mu_alpha``, references as first annotator) and ``chance_f1`` (token
        level).

    Raises
    ------
    ValueError
        Bad input (naming the sentence), an unknown view, or ``"markables"`` without markables.

    Notes
    -----
    Every coefficient of a view is read from its contingency table :math:`n_{ck}` (tokens with
    category :math:`c` in the references and :math:`k` in the predictions, :math:`N` tokens): with
    :math:`P_o = \sum_c n_{cc} / N`, Cohen's kappa and Scott's pi are

    .. math::

        \kappa = \frac{P_o - \sum_c p_{c\cdot}\, p_{\cdot c}}{1 - \sum_c p_{c\cdot}\, p_{\cdot c}},
        \qquad
        \pi = \frac{P_o - \sum_c \bar p_c^{\,2}}{1 - \sum_c \bar p_c^{\,2}},

    with :math:`p_{c\cdot}`, :math:`p_{\cdot c}` the two annotators' proportions and
    :math:`\bar p_c` their mean; undefined coefficients (a zero denominator) are None, with a
    warning in ``warnings``.

    References
    ----------
    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    *Computational Linguistics* 34(4). The prevalence paper (sections 3 and 4.1; see
    :func:`coefficients`).

    Examples
    --------
    >>> references = [["B-PER", "I-PER", "O", "B-LOC", "O", "O", "B-ORG", "O"], ["O", "B-LOC", "O", "O", "B-PER", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "O", "O", "O", "B-ORG", "I-ORG"],
    ...                ["O", "B-LOC", "O", "B-ORG", "B-PER", "O"]]
    >>> report = agreement_report(predictions, references)
    >>> sorted(report)
    ['all', 'chance_f1', 'unitizing_alpha']
    >>> {name: round(report["all"][name], 4) for name in ("observed_agreement", "cohen_kappa", "scott_pi")}
    {'observed_agreement': 0.7857, 'cohen_kappa': 0.6667, 'scott_pi': 0.6627}
    >>> report["all"]["contingency"]["categories"]
    ['LOC', 'ORG', 'PER', 'O']
    """

    views = _checked_views(views, markables)
    options = dict(scheme=scheme, mode=mode, suffix=suffix)
    full_table, full_categories = contingency(predictions, references, view="all", **options)
    matrix = distance_matrix(distance, full_categories) if distance is not None else None
    order = None
    if finn_order is not None:
        order = [str(c) for c in _check_order(finn_order, full_categories)]
    report: dict[str, Any] = {}
    for view in views:
        if view == "all":
            table, categories = full_table, full_categories
        elif view == "markables":
            table, categories = contingency(predictions, references, view="all", markables=markables, **options)
        else:
            table, categories = contingency(predictions, references, view=view, **options)
        report[view] = _view_coefficients(view, table, categories, matrix, full_categories, order)
    annotations = [[list(ref), list(pred)] for ref, pred in zip(references, predictions, strict=True)]
    report["unitizing_alpha"] = {
        variant: unitizing_alpha(as_items(annotations), variant=variant, **options)
        for variant in ("u_alpha", "mu_alpha")
    }
    report["chance_f1"] = chance_f1(predictions, references, **options)
    return plain(report)


def _checked_views(views, markables) -> list[str]:
    if isinstance(views, str):
        views = (views,)
    views = list(views)
    if not views:
        raise ValueError(f"views is empty: give one or more of {REPORT_VIEWS}")
    unknown = [v for v in views if v not in REPORT_VIEWS]
    if unknown:
        raise ValueError(f"unknown views {unknown!r}; views must be among {REPORT_VIEWS}")
    if "markables" in views and markables is None:
        raise ValueError("the 'markables' view needs markables= (one boolean mask per sentence)")
    if markables is not None and "markables" not in views:
        raise ValueError("markables= is only used by the 'markables' view: add it to views")
    return views


def _view_coefficients(view: str, table, categories, matrix, full_categories, order) -> dict[str, Any]:
    """``coefficients`` of one view's table, the distance and Finn order restricted to its categories."""
    view_distance = _restrict(matrix, full_categories, categories)
    view_order = [c for c in order if c in categories] if order is not None else None
    if view_order is not None and len(view_order) != len(categories):
        view_order = None
    result = coefficients(table, categories, distance=view_distance, finn_order=view_order)
    if matrix is not None and view_distance is None:
        result["weighted_kappa"] = None
        result["krippendorff_alpha"] = None
        result["warnings"].append(
            f"weighted_kappa, krippendorff_alpha: the distance does not cover the {view!r} "
            f"view's categories {categories!r}"
        )
    result["contingency"] = {"categories": list(categories), "table": table.tolist()}
    return result


def _check_order(finn_order, categories: list[str]) -> list[str]:
    _finn_codes(finn_order, categories)
    return list(finn_order)


__all__ = [
    "REPORT_VIEWS",
    "agreement_report",
    "check_distance_values",
    "check_table",
    "coefficients",
    "distance_matrix",
    "plain",
    "square_distance_matrix",
]
