"""IR to JSON-ready data and back: one object per node, named by its class."""
from __future__ import annotations

from dataclasses import fields

from . import ir
from .errors import Pos


def to_data(x, positions: bool = True):
    """A JSON-ready view of an IR value (nodes become {"node": Class, ...})."""
    if isinstance(x, ir.Node):
        d = {"node": type(x).__name__}
        for f in fields(x):
            if f.name != "pos":
                d[f.name] = to_data(getattr(x, f.name), positions)
        if positions and x.pos:
            d["pos"] = [x.pos.line, x.pos.col]
        return d
    if isinstance(x, tuple):
        return [to_data(v, positions) for v in x]
    return x


def from_data(d):
    """Rebuild an IR value from `to_data` output."""
    if isinstance(d, dict):
        cls = getattr(ir, d["node"], None)
        if not (isinstance(cls, type) and issubclass(cls, ir.Node)):
            raise ValueError(f"unknown IR node {d['node']!r}")
        kw = {f.name: from_data(d[f.name]) for f in fields(cls) if f.name != "pos" and f.name in d}
        p = d.get("pos")
        return cls(**kw, pos=Pos(*p) if p else Pos())
    if isinstance(d, list):
        return tuple(from_data(v) for v in d)
    return d
