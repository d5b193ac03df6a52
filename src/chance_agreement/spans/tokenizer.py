"""Token offsets for texts that come without tokens.

``tokenize`` is the documented default: a token is a maximal run of word characters (Unicode
letters, digits and ``_``, regex ``\\w+``) or a single other non-space character (punctuation,
symbols), so ``"Dr. Smith's"`` gives ``Dr``, ``.``, ``Smith``, ``'``, ``s``. Whitespace separates
tokens and belongs to none. Offsets are ``(start, end)`` character positions, end exclusive.

``align_tokens`` finds the offsets of a file's own token strings in its text, in order.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokenize(text: str) -> list[tuple[int, int]]:
    """Character offsets of the whitespace-and-punctuation tokens of ``text``."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    return [match.span() for match in _TOKEN.finditer(text)]


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


__all__ = ["align_tokens", "tokenize"]
