"""Token offsets for texts that come without tokens.

``tokenize`` is the documented default: a token is a maximal run of word characters (Unicode
letters, digits and ``_``, regex ``\\w+``) with the combining marks inside or after them
(``"Café"`` written with a combining accent, Devanagari ``"हिन्दी"``: one token each), or a single
other non-space character (punctuation, symbols), so ``"Dr. Smith's"`` gives ``Dr``, ``.``,
``Smith``, ``'``, ``s``. Whitespace separates
tokens and belongs to none. Offsets are ``(start, end)`` character positions, end exclusive.

``align_tokens`` finds the offsets of a file's own token strings in its text, in order.
"""

from __future__ import annotations

import re
import unicodedata

_TOKEN = re.compile(r"\w+|[^\w\s]")


def _mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def tokenize(text: str) -> list[tuple[int, int]]:
    """Character offsets of the whitespace-and-punctuation tokens of ``text``."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    tokens: list[tuple[int, int]] = []
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        joins = tokens and tokens[-1][1] == start and (_mark(text[start]) or (
            _mark(text[start - 1]) and match.group()[0].isalnum()))
        if joins and (_mark(text[start]) or text[tokens[-1][0]].isalnum() or text[tokens[-1][0]] == "_"):
            tokens[-1] = (tokens[-1][0], end)
        else:
            tokens.append((start, end))
    return tokens


def align_tokens(text: str, tokens, where: str) -> list[tuple[int, int]]:
    """Offsets of the token strings ``tokens`` found in ``text`` one after another.

    Only whitespace may lie between (or around) them; anything else is a ValueError naming
    ``where`` and the token.
    """
    offsets = []
    position = 0
    for index, token in enumerate(tokens):
        if not isinstance(token, str) or not token:
            raise ValueError(f"{where}: token {index} must be a non-empty string, got {token!r}")
        found = text.find(token, position)
        if found < 0 or text[position:found].strip():
            raise ValueError(f"{where}: token {index} {token!r} is not the next word of the text "
                             f"after character {position}")
        offsets.append((found, found + len(token)))
        position = found + len(token)
    if text[position:].strip():
        raise ValueError(f"{where}: the text goes on after the last token (character {position})")
    return offsets


__all__ = ["tokenize", "align_tokens"]
