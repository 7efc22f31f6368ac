"""The RECYCLE dialects real files use, their keywords, and detection from content."""
from __future__ import annotations

import re
from dataclasses import dataclass

V0510 = "0.5.10"
V050 = "0.5.0"
V03 = "0.3"
DIALECTS = (V0510, V050, V03)

_COMMON = frozenset(
    "game setup scoring min max stage player team end choice create players teams deck "
    "set inc dec cycle next current previous move remember forget shuffle turn pass "
    "top bottom actual using owner vloc iloc mem sto size sum score and or not any all".split()
)
_V05 = _COMMON | frozenset(
    "declare do let repeat points hloc str cardatt range other sort union intersect "
    "disjunction filter tuples partition tri fib random".split()
)
KEYWORDS = {
    V0510: _V05 | frozenset("oloc faro new run runs largest subsets".split()),
    V050: _V05,
    V03: _COMMON | frozenset("comp initialize points each where none union tuples cardatt".split()),
}


@dataclass(frozen=True)
class Detection:
    """Which dialect a text is written in, and the evidence."""

    dialect: str
    reason: str


COMMENT = re.compile(r";;[^\n]*")   # a `;;` comment, to the end of its line
# Each pattern starts with '(' or a letter of a mark word, never '\b', so the regex engine
# skips ahead to candidate characters instead of trying every position; `_whole` then
# checks that a mark word starts a word.
_V03_MARKS = re.compile(r"\(\s*comp\b|(?:where|initialize\s+points|each)\b|\(\s*\(\s*(?:all|any)\s+(?:player|team)\s*\)"
                        r"|\(\s*\(\s*(?:current|next|previous)\s+(?:player|team)\s*\)\s*player\s*\)")
_V0510_MARKS = re.compile(
    r"(?:oloc|faro|subsets|runs)\b|\(\s*run\s|\(\s*[A-Z]+\s*:|\(\s*partition\s+[A-Z']|\(\s*(?:top|bottom)\s+\d"
)
_V050_MARKS = re.compile(r"\(\s*\(\s*[A-Z]+\s*\(\s*(?:[A-Z]+\s*\)|cardatt)|\(\s*partition\s+\(")


def _whole(marks: re.Pattern, body: str) -> re.Match | None:
    """The first match of `marks` that does not start inside a word."""
    for m in marks.finditer(body):
        at = m.start()
        if body[at] == "(" or at == 0 or not (body[at - 1].isalnum() or body[at - 1] == "_"):
            return m
    return None


def strip_comments(text: str) -> str:
    """The text without its `;;` comments: a comment runs to the end of its line, so no token moves."""
    return COMMENT.sub("", text)


def detect(text: str, body: str | None = None) -> Detection:
    """Guess the dialect from distinctive constructs (the file extension never decides).

    `body` is the text already stripped of its comments (`strip_comments`), when known."""
    if body is None:
        body = strip_comments(text)  # marks in comments do not count
    m = _whole(_V03_MARKS, body)
    if m:
        return Detection(V03, f"v0.3 construct {m.group().strip()!r}")
    m = _whole(_V0510_MARKS, body)
    if m:
        return Detection(V0510, f"v0.5.10 construct {m.group().strip()!r}")
    m = _whole(_V050_MARKS, body)
    if m:
        return Detection(V050, f"v0.5.0 construct {m.group().strip()!r}")
    return Detection(V0510, "no dialect-specific construct; read as the current dialect")
