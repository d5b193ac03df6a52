"""Text in the HTML report and its figures: escaped, and names that cannot turn the page around.

An annotator's name comes from the files (a user id, an e-mail, a file name) and may hold
explicit bidirectional formatting characters: an unterminated right-to-left override (U+202E)
reverses everything after it on its line, the report's header and table rows included. ``escape``
drops those characters (U+202A-U+202E, U+2066-U+2069) from every text it escapes, and ``isolated_name``
puts a name in ``<bdi>`` (so that a right-to-left name does not reorder what follows it either),
wrapped within a column of its own width, with the full name as its tooltip.
"""

from __future__ import annotations

import html
import re

__all__ = ["escape", "isolated_name"]

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
