"""Renamed keywords: the old spelling keeps working for one release, with a FutureWarning.

One name per idea across the package: ``confidence_level`` (never ``confidence``) and
``random_state`` (never ``rng`` or ``seed``). ``renamed_keywords`` is applied once, at the public
boundary (the public functions, the evaluate modules' ``_compute``), so that code written for the
old names still runs, warns with the new name, and gives the same bits.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["renamed_keywords", "renamed_message"]

F = TypeVar("F", bound=Callable[..., Any])


def renamed_message(old: str, new: str, what: str = "keyword argument") -> str:
    """The FutureWarning's text for ``old`` renamed ``new``.

    Parameters
    ----------
    old, new : str
        The old and the new spelling.
    what : str, default "keyword argument"
        What was renamed (``"option"`` on the command line).

    Returns
    -------
    str
        The message, naming the new spelling.

    Examples
    --------
    >>> print(renamed_message("confidence", "confidence_level"))
    the keyword argument 'confidence' is renamed 'confidence_level'; the old name will stop working in the next release
    """
    return f"the {what} {old!r} is renamed {new!r}; the old name will stop working in the next release"


def renamed_keywords(**old_to_new: str) -> Callable[[F], F]:
    """Decorate a function so that each old keyword still works, with a FutureWarning.

    The call goes on with the value under the new name; the decorated function's signature (what
    ``inspect.signature`` and evaluate see) stays the new one. The mapping is kept on the wrapper as
    ``renamed_keywords`` (the Trainer hook's option check accepts the old names too).

    Parameters
    ----------
    **old_to_new : str
        Each old keyword and its new name.

    Returns
    -------
    callable
        The decorator.

    Raises
    ------
    TypeError
        At call time, when both the old and the new name are given.

    Warns
    -----
    FutureWarning
        At call time, for each old name given, naming the new one.

    Examples
    --------
    >>> import warnings
    >>> @renamed_keywords(confidence="confidence_level")
    ... def bound(n, *, confidence_level=0.95):
    ...     return n * confidence_level
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     bound(10, confidence=0.5)
    5.0
    >>> caught[0].category.__name__
    'FutureWarning'
    """

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{function.__name__}() got both {old!r} and its new name {new!r}; "
                                        f"pass {new!r} only")
                    warnings.warn(renamed_message(old, new), FutureWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        wrapper.renamed_keywords = dict(old_to_new)  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate
