"""Text in the HTML report and its figures: escaped, and names that cannot turn the page around.

An annotator's name comes from the files (a user id, an e-mail, a file name) and may hold
explicit bidirectional formatting characters: an unterminated right-to-left override (U+202E)
reverses everything after it on its line, the report's header and table rows included. ``escape``
drops those characters (U+202A-U+202E, U+2066-U+2069) from every text it escapes, and ``isolated_name``
puts a name in ``<bdi>`` (so that a right-to-left name does not reorder what follows it either),
wrapped within a column of its own width, with the full name as its tooltip. ``short_name``
shortens a name for a figure around an ellipsis, so that names differing only at the end stay apart.
"""

from __future__ import annotations

import html
import re

__all__ = ["escape", "isolated_name", "short_name", "short_names"]

_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def escape(text) -> str:
    """``text`` escaped for HTML content and attribute values (also inside SVG), without explicit
    bidirectional formatting characters.

    Parameters
    ----------
    text : object
        The text (``str()`` of anything else).

    Returns
    -------
    str
        The escaped text.

    Examples
    --------
    >>> escape("\u202eevil <b>")
    'evil &lt;b&gt;'
    """
    return html.escape(_BIDI_CONTROLS.sub("", str(text)), quote=True)


def isolated_name(text) -> str:
    """An annotator's (or system's) name in HTML content: isolated in ``<bdi>``, wrapping within
    the name column (``bdi.name`` in the report's style), the full name as its tooltip.

    Parameters
    ----------
    text : object
        The name.

    Returns
    -------
    str
        The HTML of the name.

    Examples
    --------
    >>> isolated_name("\u202eevil")
    '<bdi class="name" title="evil">evil</bdi>'
    """
    shown = escape(text)
    return f'<bdi class="name" title="{shown}">{shown}</bdi>'


def short_name(name, limit: int) -> str:
    """``name`` in at most ``limit`` characters: its start and end around an ellipsis, so that
    names that differ only at the end (``team-a-annotator-1``, ``...-2``) stay apart.

    Parameters
    ----------
    name : object
        An annotator's name (``str()`` of anything else).
    limit : int
        The most characters shown.

    Returns
    -------
    str
        The name, shortened when longer than ``limit``.

    Examples
    --------
    >>> short_name("alice", 20)
    'alice'
    >>> short_name("annotation-team-berlin-annotator-01", 20)
    'annotation…otator-01'
    """
    name = str(name)
    if len(name) <= limit:
        return name
    tail = (limit - 1) // 2
    return f"{name[:limit - 1 - tail]}\u2026{name[-tail:]}"


def short_names(names, limit: int) -> list[str]:
    """``short_name`` of every name, at the smallest length from ``limit`` up that keeps names
    that differ apart (e-mails that differ only before a shared domain, say).

    Parameters
    ----------
    names : list
        The names (``str()`` of anything else).
    limit : int
        The fewest characters a shortened name shows.

    Returns
    -------
    list of str
        The names, shortened alike.

    Examples
    --------
    >>> short_names(["team-annotator-01@example.org", "team-annotator-02@example.org"], 12)
    ['team-annotato…1@example.org', 'team-annotato…2@example.org']
    """
    names = [str(name) for name in names]
    for size in range(limit, max(map(len, names), default=0)):
        shown = [short_name(name, size) for name in names]
        if len(set(shown)) == len(set(names)):
            return shown
    return names
