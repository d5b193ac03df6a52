"""Token offsets for texts that come without tokens.

``tokenize`` is the documented default: a token is a maximal run of word characters (Unicode
letters, digits and ``_``, regex ``\\w+``) or a single other non-space character (punctuation,
symbols), so ``"Dr. Smith's"`` gives ``Dr``, ``.``, ``Smith``, ``'``, ``s``. Whitespace separates
tokens and belongs to none. Offsets are ``(start, end)`` character positions, end exclusive.

No token ends inside a user-perceived character (a grapheme cluster, Unicode UAX #29): a
combining mark (categories Mn, Mc, Me: Devanagari vowel signs and virama, NFD accents, variation
selectors, the keycap), a zero-width (non-)joiner or an emoji skin-tone modifier extends the token
before it, and a word goes on after such an extender ("हिन्दी" and NFD "Café" are one token
each); a non-space, non-word character after a zero-width joiner joins too (emoji sequences),
and two regional indicators make one flag. An extender after whitespace starts a token (a word
may follow it).

``align_tokens`` finds the offsets of a file's own token strings in its text, in order.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["align_tokens", "tokenize"]

# Combining marks live in planes 0 and 1 and in the variation selectors supplement (U+E0100..).
_MARK_PLANES = (range(0x20000), range(0xE0000, 0xE0200))


@functools.cache
def _token_pattern() -> re.Pattern:
    """Words with their extenders, flags, and other characters with theirs (see module docstring).

    Built once, on first use (about 0.1 s): ``re`` has no class for Unicode's categories.
    """
    ranges: list[list[int]] = []
    for plane in _MARK_PLANES:
        for code in plane:
            if unicodedata.category(chr(code))[0] == "M":
                if ranges and ranges[-1][1] == code - 1:
                    ranges[-1][1] = code
                else:
                    ranges.append([code, code])
    marks = "".join(f"{chr(low)}-{chr(high)}" for low, high in ranges)
    extenders = f"{marks}\u200c\u200d\U0001F3FB-\U0001F3FF"  # marks, ZWNJ, ZWJ, emoji modifiers
    flag = "[\U0001F1E6-\U0001F1FF]"  # regional indicators: two make one flag
    other = rf"[^\w\s][{extenders}]*"
    return re.compile(rf"(?=\S)(?:[\w{extenders}]+|{flag}{{1,2}}[{extenders}]*|{other}(?:(?<=\u200d){other})*)")


def tokenize(text: str) -> list[tuple[int, int]]:
    """Split a text into tokens: the character offsets of its words and punctuation marks.

    Grapheme clusters are kept whole (an accent or emoji sequence is never split).

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    list of tuple of int
        ``(start, end)`` character offsets, end exclusive, in order.

    See Also
    --------
    read_jsonl : Uses it when the file gives no tokens.

    Examples
    --------
    >>> text = "Dr. Ada's café."
    >>> [text[start:end] for start, end in tokenize(text)]
    ['Dr', '.', 'Ada', "'", 's', 'café', '.']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    return [match.span() for match in _token_pattern().finditer(text)]


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
