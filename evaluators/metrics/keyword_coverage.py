"""Keyword coverage: how many of a question's keywords the retrieved texts contain."""

from __future__ import annotations

from collections.abc import Sequence

from testgen.text import contains_keyword, normalize


def keyword_coverage(texts: Sequence[str], keywords: Sequence[str]) -> float:
    """Coverage = (keywords found in the concatenated texts) / (number of keywords).

    Formula: ``|{kw ∈ keywords : kw occurs in normalize("\\n".join(texts))}| / |keywords|``, matching with
    :func:`testgen.text.contains_keyword`: NFKC, case-folded, whitespace-collapsed substring match, with word
    boundaries where the keyword starts/ends with a Latin letter or digit (``"art"`` is not in ``"start"``)
    and plain substring matching for CJK (``"하늘여행"`` is in ``"하늘여행은"``: Korean particles attach with no
    space). Pass the top-K chunk texts to get Coverage@K. Not a trec_eval measure; it is the hand-written
    evaluation's "keywords in retrieved context" check.

    Texts are joined with a line break (a space once normalised), so a keyword is not glued to the next
    chunk's first word. Keywords are counted as given (a repeated keyword counts each time).

    Edge cases: no texts → 0.0. Raises ``ValueError`` on empty ``keywords`` (the question cannot be scored),
    on a keyword that is blank after normalisation, or when a single string is passed for either argument.
    Inputs are not modified.
    """
    if isinstance(texts, str) or isinstance(keywords, str):
        raise ValueError("texts and keywords must be sequences of strings, not a single string")
    if not keywords:
        raise ValueError("keywords is empty: a question without keywords cannot be scored for coverage")
    for keyword in keywords:
        if not normalize(keyword):
            raise ValueError(f"keyword {keyword!r} is blank after normalisation")
    haystack = normalize("\n".join(texts))
    found = sum(1 for keyword in keywords if contains_keyword(haystack, keyword))
    return found / len(keywords)
