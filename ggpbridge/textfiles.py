"""Reading a game file's bytes as text: UTF-8, and where it stops being so (ground layer).

Each reader (RECYCLE, G_cardgame, KIF) turns `NotUtf8` into its own positioned error; the
position and the bad byte are found once, here.
"""
from __future__ import annotations


class NotUtf8(ValueError):
    """Bytes that are not UTF-8 text. `text`: what decodes before the first bad byte; `byte`: that
    byte; `offset`: its offset in the bytes; `line`, `col`: its 1-based position in the text."""

    def __init__(self, text: str, byte: int, offset: int):
        self.text, self.byte, self.offset = text, byte, offset
        self.line = text.count("\n") + 1
        self.col = len(text) - (text.rfind("\n") + 1) + 1
        super().__init__(f"not UTF-8 text: byte 0x{byte:02x} (offset {offset}) cannot be decoded")


def decode_utf8(data: bytes, strip_bom: bool = True) -> str:
    """The text of a file's bytes; a leading byte-order mark dropped when `strip_bom`. NotUtf8 at
    the first byte that does not decode."""
    codec = "utf-8-sig" if strip_bom else "utf-8"
    try:
        return data.decode(codec)
    except UnicodeDecodeError as e:
        raise NotUtf8(data[:e.start].decode(codec), data[e.start], e.start) from None
