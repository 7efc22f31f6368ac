"""Reading a TOML file (`.dbk` game modules, `evolve --config`) with its errors at file:line:col.

tomllib reports a syntax error as `... (at line L, column C)` and keeps no positions for what it
reads; `key_pos` finds where a key is written, so that a bad key or value can be shown with its
line and a caret.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from .errors import Pos, PositionedError, Source
from .textfiles import NotUtf8, decode_utf8


def read_source(path: str | Path, error: type[PositionedError]) -> Source:
    """The file's text as a Source; bytes that are not UTF-8 are `error` at the first bad byte."""
    try:
        return Source(str(path), decode_utf8(Path(path).read_bytes()))
    except NotUtf8 as e:
        raise error(str(e), Pos(e.line, e.col), Source(str(path), e.text)) from None


def loads(source: Source, error: type[PositionedError]) -> dict:
    """The TOML text of `source`; a syntax error is `error` at its line:col."""
    try:
        return tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        pos = Pos(int(m.group(1)), int(m.group(2))) if m else Pos()
        raise error(re.sub(r" \(at line.*\)", "", str(e)), pos, source) from None


def key_pos(text: str, name: str, section: str | None = None) -> Pos:
    """Where `name = …` is written (within `[section]` when one is given; the section's header when
    the key is not found there; 1:1 when neither is)."""
    header = re.compile(r"\s*\[\s*([^\]]*?)\s*\]")
    inside = section is None
    found = Pos(1, 1)
    for n, line in enumerate(text.split("\n"), 1):
        h = header.match(line)
        if h and section is not None:
            inside = h.group(1) == section
            if inside:
                found = Pos(n, line.index("[") + 1)
            continue
        if inside and re.match(rf"\s*{re.escape(name)}\s*=", line):
            return Pos(n, line.index(name) + 1)
    return found
