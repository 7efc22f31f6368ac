"""Comparing games up to names: bound variables and literal names renamed canonically."""
from __future__ import annotations

from dataclasses import fields

from . import ir

_BINDERS = (ir.ForAll, ir.AnyOf, ir.Quantified, ir.Filter, ir.AggCards, ir.Let, ir.IntSum)


def up_to_names(game: ir.Game) -> ir.Game:
    """The game with variables renamed by binding order and names by first use (alpha-equivalence)."""
    names: dict[str, str] = {}
    counter = [0]

    def name(s: str) -> str:
        return names.setdefault(s, f"N{len(names)}")

    def walk(x, env: dict):
        if isinstance(x, ir.Var):
            return ir.Var(env.get(x.name, "free:" + x.name))
        if isinstance(x, ir.Name):
            return ir.Name(name(x.value))
        if isinstance(x, ir.AttrNode):
            return ir.AttrNode(tuple(name(a) if isinstance(a, str) else walk(a, env) for a in x.names),
                               tuple(walk(s, env) for s in x.subs))
        if isinstance(x, ir.NameList):
            return ir.NameList(tuple(name(a) for a in x.names))
        if isinstance(x, ir.Node):
            inner = env
            kw = {}
            if isinstance(x, _BINDERS):
                counter[0] += 1
                inner = {**env, x.var: f"V{counter[0]}"}
            for f in fields(x):
                if f.name == "pos":
                    continue
                v = getattr(x, f.name)
                if f.name == "var":
                    kw[f.name] = inner[v]
                elif f.name in ("body", "cond") and isinstance(x, _BINDERS):
                    kw[f.name] = walk(v, inner)
                else:
                    kw[f.name] = walk(v, env)
            return type(x)(**kw)
        if isinstance(x, tuple):
            return tuple(walk(v, env) for v in x)
        return x

    env: dict = {}
    decls = []
    for d in game.declares:
        counter[0] += 1
        env = {**env, d.var: f"D{counter[0]}"}
        decls.append(ir.Declare(walk(d.value, env), env[d.var]))
    return ir.Game(tuple(decls), walk(game.setup, env), walk(game.body, env), walk(game.scoring, env))
