"""Statements of the generated playout function: Python source running each IR action."""
from __future__ import annotations

from .. import ir
from .actions import static_points
from .codegen_exprs import Unsupported, has_chance
from .machine import _PRIMITIVE


class Statements:
    """The statement part of the generator (`codegen._Gen`, a mixin)."""

    def s(self, n, env, ind: str) -> list[str]:
        """Source lines executing statement n, indented by ind."""
        m = getattr(self, "s_" + type(n).__name__, None)
        if m is None:
            raise Unsupported(type(n).__name__)
        lines = m(n, env, ind)
        if self.counting and isinstance(n, _PRIMITIVE):
            lines.append(f"{ind}acted += 1")
        return lines

    def s_Do(self, n, env, ind):
        out = []
        for i in n.items:
            out += self.s(i, env, ind)
        return out or [ind + "pass"]

    def s_CondAct(self, n, env, ind):
        cond = "True" if n.cond is None else self.x(n.cond, env)
        return [f"{ind}if {cond}:"] + self.s(n.body, env, ind + "    ")

    def s_ForAll(self, n, env, ind):
        ev = self.every(n.coll)
        if ev is not None:
            out = []
            for p in ev:
                out += self.s(n.body, self.bind(n.coll, n.var, env, str(p)), ind)
            return out or [ind + "pass"]
        v = self.tmp("v")
        return ([f"{ind}for {v} in list({self.coll(n.coll, env)}):"]
                + self.s(n.body, self.bind(n.coll, n.var, env, v), ind + "    "))

    def s_AnyOf(self, n, env, ind):
        # outside a choice an `any` takes its first element (Runtime.branch with no path);
        # in a general option form the branch driver says which
        v, items = self.tmp("v"), self.tmp("t")
        pick = f"{items}[br(len({items}))]" if self.counting else f"{items}[0]"
        return ([f"{ind}{items} = list({self.coll(n.coll, env)})", f"{ind}if {items}:",
                 f"{ind}    {v} = {pick}"] + self.s(n.body, self.bind(n.coll, n.var, env, v), ind + "    "))

    def s_Let(self, n, env, ind):
        v = self.tmp("v")
        t = self.ty(n.value, env)
        return [f"{ind}{v} = _copy({self.x(n.value, env)})"] + self.s(n.body, {**env, n.var: (t, v)}, ind)

    def s_Repeat(self, n, env, ind):
        return [f"{ind}for _ in range({self.x(n.count, env)}):"] + self.s(n.body, env, ind + "    ")

    def s_RepeatAll(self, n, env, ind):
        plan = ir.repeat_all_plan(n)
        if plan is None:
            raise Unsupported("repeat all")
        return self.s(plan, env, ind)

    def take(self, n, env, ind, physical=True) -> tuple[list[str], list[str], str]:
        """Lines evaluating the designated card's operands, lines removing it, and the name
        holding it (actions.taker)."""
        card = self.tmp("k")
        if isinstance(n, ir.CardAt) and isinstance(n.source, ir.Location):
            if not isinstance(n.source.name, ir.Name):
                raise Unsupported("computed location name")
            lst = self.tmp("l")
            prep = [f"{ind}{lst} = F[{self.loc_index(n.source, env)}]"]
            if n.where == "top":
                lines = [f"{ind}{card} = {lst}.pop()"]
            elif n.where == "bottom":
                lines = [f"{ind}{card} = {lst}.pop(0)"]
            else:
                # a position outside the location is an error, as in actions.taker (pop(-1)
                # would quietly take the top card)
                i = self.tmp("i")
                prep.append(f"{ind}{i} = {self.x(n.where, env)}")
                lines = [f"{ind}if not 0 <= {i} < len({lst}):", f"{ind}    raise _RuleError('card index')",
                         f"{ind}{card} = {lst}.pop({i})"]
            if physical:
                lines.append(f"{ind}where[{card}] = None")
            return prep, lines, card
        if not physical:
            raise Unsupported("take")
        if isinstance(n, ir.CardAt) and isinstance(n.source, ir.Var):
            # a card taken from a variable's collection leaves that collection too (actions.taker)
            lst = self.tmp("l")
            return ([f"{ind}{card} = {self.x(n, env)}", f"{ind}{lst} = {self.x(n.source, env)}"],
                    [f"{ind}if isinstance({lst}, list) and {card} in {lst}:",
                     f"{ind}    {lst}.remove({card})",
                     f"{ind}_take(F, where, {card})"], card)
        return [f"{ind}{card} = {self.x(n, env)}"], [f"{ind}_take(F, where, {card})"], card

    def put(self, n, env, ind, card, physical=True) -> tuple[list[str], list[str]]:
        """Lines evaluating the destination's operands, and lines inserting the card there."""
        if not (isinstance(n, ir.CardAt) and isinstance(n.source, ir.Location)
                and isinstance(n.source.name, ir.Name)):
            raise Unsupported("put")
        idx = self.loc_index(n.source, env)
        prep = []
        if not idx.isdigit():   # compute a dynamic index once
            prep.append(f"{ind}{(idx := self.tmp('i'))} = {self.loc_index(n.source, env)}")
        if n.where == "top":
            lines = [f"{ind}F[{idx}].append({card})"]
        elif n.where == "bottom":
            lines = [f"{ind}F[{idx}].insert(0, {card})"]
        else:
            prep.append(f"{ind}{(j := self.tmp('i'))} = {self.x(n.where, env)}")
            lines = [f"{ind}F[{idx}].insert({j}, {card})"]
        if physical and n.source.vis != "mem":
            lines.append(f"{ind}where[{card}] = {idx}")
        return prep, lines

    def s_Move(self, n, env, ind):
        # every operand first, source then destination, as CardStock creates a move before it
        # executes it (actions.s_Move)
        prep_src, take, card = self.take(n.src, env, ind)
        prep_dst, put = self.put(n.dst, env, ind, card)
        return prep_src + prep_dst + take + put

    def s_Remember(self, n, env, ind):
        card = self.tmp("k")
        prep, put = self.put(n.dst, env, ind, card, physical=False)
        return [f"{ind}{card} = {self.x(n.src, env)}"] + prep + put

    def s_Forget(self, n, env, ind):
        prep, take, _ = self.take(n.card, env, ind, physical=False)
        return prep + take

    def s_Shuffle(self, n, env, ind):
        return [f"{ind}_shuffle({self.coll(n.target, env)}, rng, NC)"]

    def s_SetInt(self, n, env, ind):
        return [f"{ind}{self.x_IntStorage(n.target, env)} = {self.x(n.value, env)}"]

    def s_Inc(self, n, env, ind):
        return self._add(n, env, ind, "+=")

    def s_Dec(self, n, env, ind):
        return self._add(n, env, ind, "-=")

    def _add(self, n, env, ind, op):
        # the value before the storage, as the closure engine (and the translation) draw them:
        # `T[o] += v` would evaluate the storage's owner first
        value = self.x(n.value, env)
        if not (has_chance(n.value) and has_chance(n.target)):
            return [f"{ind}{self.x_IntStorage(n.target, env)} {op} {value}"]
        v = self.tmp("v")
        return [f"{ind}{v} = {value}", f"{ind}{self.x_IntStorage(n.target, env)} {op} {v}"]

    def s_SetStr(self, n, env, ind):
        return [f"{ind}{self.x_StrStorage(n.target, env)} = str({self.x(n.value, env)})"]

    def s_SetPoints(self, n, env, ind):
        # literal awards are summed once here; the others at run time (actions.static_points)
        base, dyn = static_points(self.lay, n.awards)
        t, ncards = self.tmp("t"), len(self.lay.cards)
        lines = [f"{ind}{t} = {self.const(base, 'B')}[:]"]
        ix = self.const(self.lay.attr_index, "IX")
        for a in dyn:
            pts, k = self.tmp("p"), self.tmp("k")
            conds = ", ".join(f"({self.x(k_, env)}, {self.x(v_, env)})" for k_, v_ in a.conds)
            lines += [f"{ind}{pts} = {self.x(a.value, env)}",
                      f"{ind}for {k} in _matching({ix}, [{conds}], {ncards}):",
                      f"{ind}    {t}[{k}] += {pts}"]
        lines.append(f"{ind}{self.points(n.target, env)} = {t}")
        return lines

    def s_Cycle(self, n, env, ind):
        t = n.target
        who = self.who(ir.PlayerRef(which=t), env, "cyc", self.n) if isinstance(t, str) else self.x(t, env)
        return [f"{ind}cyc[-1][{1 if n.when == 'next' else 0}] = {who}"]

    def s_TurnPass(self, n, env, ind):
        return [ind + "pass"]

    def s_CreateDeck(self, n, env, ind):
        blocks = self.const(self.prog.deck_cards[id(n)], "DK")
        b, k = self.tmp("b"), self.tmp("k")
        idx = self.loc_index(n.location, env)
        return [f"{ind}for {b} in {blocks}:",
                f"{ind}    if where[{b}[0]] is None:",
                f"{ind}        for {k} in {b}:",
                f"{ind}            F[{idx}].append({k})",
                f"{ind}            where[{k}] = {idx}" if n.location.vis != "mem" else f"{ind}            pass",
                f"{ind}        break",
                f"{ind}else:",
                f"{ind}    raise _RuleError('deck created too often')"]

