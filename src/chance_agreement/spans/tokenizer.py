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

Han ideographs, hiragana and katakana are written without spaces between words: each is a token
of its own (with its extenders), so that ``"艾达在伦敦"`` gives five tokens. Other scripts written
without spaces (Thai, Khmer, Lao, Burmese) stay one word per run: ``characters`` (``--tokenizer
characters``) makes every non-space grapheme cluster a token, and a span that cuts such a run
says so.

``align_tokens`` finds the offsets of a file's own token strings in its text, in order.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# Combining marks live in planes 0 and 1 and in the variation selectors supplement (U+E0100..).
_MARK_PLANES = (range(0x20000), range(0xE0000, 0xE0200))


# Scripts written without spaces between words whose characters are each one token: Han
# ideographs (with the iteration marks), hiragana and katakana (their combining sound marks,
# U+3099-309A, and the halfwidth ones, U+FF9E-FF9F, extend the character before them).
_OWN_TOKEN = ("\u3005-\u3007\u3041-\u3096\u309b-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
              "\uff66-\uff9d\U00020000-\U0003ffff")
_HAS_OWN_TOKEN = re.compile(f"[{_OWN_TOKEN}]")
_FLAG = "[\U0001F1E6-\U0001F1FF]"  # regional indicators: two make one flag


@functools.cache
def _extenders() -> str:
    """The characters that extend the one before them (a regex class body): combining marks,
    ZWNJ, ZWJ, emoji modifiers, halfwidth sound marks.

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
    return f"{marks}\u200c\u200d\U0001F3FB-\U0001F3FF\uff9e\uff9f"


@functools.cache
def _token_pattern(own_tokens: bool = False) -> re.Pattern:
    """Words with their extenders, flags, and other characters with theirs (see module docstring);
    ``own_tokens``: the characters of ``_OWN_TOKEN`` are each a token (with their extenders), not
    part of a word (the pattern for texts that hold some: slower)."""
    extenders = _extenders()
    other = rf"[^\w\s][{extenders}]*"
    word = rf"(?:[^\W{_OWN_TOKEN}]|[{extenders}])+|[{_OWN_TOKEN}][{extenders}]*" if own_tokens else rf"[\w{extenders}]+"
    return re.compile(rf"(?=\S)(?:{word}|{_FLAG}{{1,2}}[{extenders}]*|{other}(?:(?<=\u200d){other})*)")


@functools.cache
def _character_pattern() -> re.Pattern:
    """One user-perceived character (a flag, a ZWJ sequence, a character and its extenders)."""
    extenders = _extenders()
    return re.compile(rf"(?=\S)(?:{_FLAG}{{1,2}}|\S)[{extenders}]*(?:(?<=\u200d)\S[{extenders}]*)*")


def characters(text: str) -> list[tuple[int, int]]:
    """Character offsets of every non-space character of ``text``, each a token (grapheme clusters
    kept whole): the tokenizer for texts without word separators (Thai, Khmer, Lao, Burmese).

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    list of (int, int)
        ``(start, end)`` of each token, end exclusive.

    Raises
    ------
    TypeError
        ``text`` is not a string.

    Examples
    --------
    >>> text = "ภาษา ไทย"
    >>> [text[a:b] for a, b in characters(text)]
    ['ภ', 'า', 'ษ', 'า', 'ไ', 'ท', 'ย']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    return [match.span() for match in _character_pattern().finditer(text)]


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
    pattern = _token_pattern(_HAS_OWN_TOKEN.search(text) is not None)
    return [match.span() for match in pattern.finditer(text)]


# The tokenizers for texts without tokens, by the name ``--tokenizer`` takes: ``words`` (the default)
TOKENIZERS = {"words": tokenize, "characters": characters}


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


__all__ = ["TOKENIZERS", "align_tokens", "characters", "tokenize"]
