"""How deep the readers let parentheses nest.

Every walk over a term or an expression recurses (the frozen ASTs' hashing and equality,
printing, the checker, the translators, clingo's terms), so the readers bound the nesting
once, at the text, instead of each walk guarding itself. Real games nest less than 40 deep
(CardStock's corpus, the GGP games here).
"""
from __future__ import annotations

import re

MAX_DEPTH = 100

_PAREN_OR_COMMENT = re.compile(r";[^\n]*|[()]")


def first_too_deep(text: str, limit: int = MAX_DEPTH) -> int | None:
    """The offset of the first '(' that opens level `limit + 1` (';' comments aside), or None."""
    if text.count("(") <= limit:
        return None
    depth = 0
    for match in _PAREN_OR_COMMENT.finditer(text):
        char = match.group()
        if char == "(":
            depth += 1
            if depth > limit:
                return match.start()
        elif char == ")" and depth:
            depth -= 1   # an unmatched ')' is the parser's to report
    return None


def line_col(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of an offset."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1
