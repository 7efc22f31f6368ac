"""Semantic checks over the IR: scopes, types, choice points, point maps, player ranges.

Types are small strings: 'int', 'str', 'bool', 'card', 'cards' (a card collection),
'player', 'team', 'game', 'points', and 'coll:X' for a collection of X. Unknown is None
and never reported (it comes only from an earlier, already reported error).
"""
from __future__ import annotations

import difflib

from .. import ir
from ..errors import Diagnostic, Source

INT, STR, BOOL, CARD, CARDS, PLAYER, TEAM, GAME, POINTS = "int str bool card cards player team game points".split()

_FIXED = {
    ir.IntLit: INT, ir.Arith: INT, ir.Tri: INT, ir.Fib: INT, ir.Random: INT, ir.Size: INT, ir.Sum: INT, ir.IntSum: INT,
    ir.Score: INT, ir.IntStorage: INT,
    ir.BestSum: INT, ir.PlayValue: INT,   # IR extensions, which RECYCLE does not spell
    ir.Name: STR, ir.StrStorage: STR, ir.CardAtt: STR,
    ir.CardAt: CARD, ir.Extreme: CARD, ir.Actual: CARD,
    ir.Location: CARDS, ir.SetOp: CARDS, ir.Sort: CARDS, ir.Sequence: CARDS, ir.RunSequence: CARDS,
    ir.MemberOf: CARDS, ir.AggCards: CARDS,
    ir.NameList: "coll:str", ir.Range: "coll:int",
    ir.Tuples: "coll:cards", ir.Partition: "coll:cards", ir.Subsets: "coll:cards", ir.Runs: "coll:cards",
    ir.PlayerRef: PLAYER, ir.OwnerOf: PLAYER, ir.TeamRef: TEAM, ir.TeamOf: TEAM, ir.GameOwner: GAME,
    ir.BoolOp: BOOL, ir.Not: BOOL, ir.Compare: BOOL, ir.Quantified: BOOL, ir.TrueCond: BOOL,
    ir.PointsRef: POINTS,
}
_NAMES = {INT: "an integer", STR: "a name", BOOL: "a condition", CARD: "a card", CARDS: "a card collection",
          PLAYER: "a player", TEAM: "a team", GAME: "the game", POINTS: "a point map"}


def describe(t: str | None) -> str:
    """A type in words."""
    if t is None:
        return "unknown"
    if t.startswith("coll:"):
        return f"a collection of {describe(t[5:]).split(' ', 1)[-1]}s"
    return _NAMES.get(t, t)


def element(t: str | None) -> str | None:
    """The element type of a collection type (None when not a collection)."""
    if t == CARDS:
        return CARD
    if t == TEAM:
        return PLAYER
    if t and t.startswith("coll:"):
        return t[5:]
    return None


def player_count(game: ir.Game) -> int | None:
    """The number of players when it is a constant (literal or declared)."""
    p = game.setup.players
    if isinstance(p, ir.Var):
        p = next((d.value for d in game.declares if d.var == p.name), None)
    return p.value if isinstance(p, ir.IntLit) else None


def check(game: ir.Game, source: Source | None = None) -> list[Diagnostic]:
    """All semantic errors and warnings of a game, in source order."""
    return analyse(game, source).diags


def analyse(game: ir.Game, source: Source | None = None) -> "_Checker":
    """Run the checks and keep what they learnt (locations, storages with owner types)."""
    c = _Checker(game, source)
    c.run()
    c.diags.sort(key=lambda d: (d.pos.line, d.pos.col, d.severity))
    return c


class _Checker:
    def __init__(self, game: ir.Game, source: Source | None):
        self.game = game
        self.source = source
        self.diags: list[Diagnostic] = []
        self.nplayers = player_count(game)
        self.nteams = len(game.setup.teams.teams) if game.setup.teams else self.nplayers
        self.used_vars: set[str] = set()
        self.points_set: dict[str, ir.Node] = {}
        self.points_used: list[tuple[str, ir.Node]] = []
        self.locations: dict[tuple, ir.Node] = {}   # (owner type, vis, name) -> first use
        self.storages: dict[tuple, ir.Node] = {}    # (owner type, kind, name) -> first use

    def err(self, msg: str, n: ir.Node) -> None:
        self.diags.append(Diagnostic("error", msg, n.pos, self.source))

    def warn(self, msg: str, n: ir.Node) -> None:
        self.diags.append(Diagnostic("warning", msg, n.pos, self.source))

    # ------------------------------------------------------------ driver
    def run(self) -> None:
        g = self.game
        env: dict[str, str | None] = {}
        for d in g.declares:
            if d.var in env:
                self.warn(f"'{d.var} is declared twice", d)
            env[d.var] = self.expr(d.value, env)
        self.expect(g.setup.players, INT, env, "the number of players")
        if self.nplayers is not None and self.nplayers < 1:
            self.err("a game needs at least one player", g.setup.players)
        if g.setup.teams:
            self.teams(g.setup.teams)
        for s in g.setup.decks:
            self.stmt(s, env, in_choice=False)
        for s in g.body:
            self.stmt(s, env, in_choice=False)
        self.expect(g.scoring.value, INT, env, "the scoring value")
        self.points_report()
        for d in g.declares:
            if d.var not in self.used_vars:
                self.warn(f"'{d.var} is declared but never used", d)

    def teams(self, t: ir.CreateTeams) -> None:
        seen: set[int] = set()
        for team in t.teams:
            for p in team:
                if self.nplayers is not None and not 0 <= p < self.nplayers:
                    self.err(f"team member {p} is out of range: players are 0..{self.nplayers - 1}", t)
                if p in seen:
                    self.err(f"player {p} is in two teams", t)
                seen.add(p)

    def points_report(self) -> None:
        for name, use in self.points_used:
            first = self.points_set.get(name)
            if first is None:
                near = difflib.get_close_matches(name, list(self.points_set), n=1)
                hint = f" (did you mean {near[0]}?)" if near else ""
                self.warn(f"point map {name} is used but never set: every card scores 0 in it{hint}", use)

    # ------------------------------------------------------------ statements
    def stmt(self, s: ir.Node, env: dict, in_choice: bool) -> None:
        m = getattr(self, "_s_" + type(s).__name__, None)
        if m is None:
            self.err(f"{type(s).__name__} is not an action", s)
            return
        m(s, env, in_choice)

    def _s_Stage(self, s, env, in_choice):
        self.expect(s.end, BOOL, env, "a stage's end condition")
        for b in s.body:
            self.stmt(b, env, in_choice)

    def _s_Choice(self, s, env, in_choice):
        if not s.options:
            self.err("a choice with no options can never be played", s)
        for o in s.options:
            self.stmt(o, env, True)

    def _s_Do(self, s, env, in_choice):
        for i in s.items:
            self.stmt(i, env, in_choice)

    def _s_CondAct(self, s, env, in_choice):
        self.expect(s.cond, BOOL, env, "a condition")
        self.stmt(s.body, env, in_choice)

    def _s_ForAll(self, s, env, in_choice):
        self.stmt(s.body, self.bind(s, s.coll, s.var, env), in_choice)

    def _s_AnyOf(self, s, env, in_choice):
        if not in_choice:
            self.err("'any' offers the player a choice, but no choice encloses it: use 'all', or put it in a choice", s)
        self.stmt(s.body, self.bind(s, s.coll, s.var, env), in_choice)

    def _s_Let(self, s, env, in_choice):
        t = self.expr(s.value, env)
        self.stmt(s.body, {**env, s.var: t}, in_choice)

    def _s_Move(self, s, env, _):
        self.expect(s.src, CARD, env, "the card to move")
        self.expect(s.dst, CARD, env, "where the card goes")
        if self.loc_vis(s.dst) == "mem" or self.loc_vis(s.src) == "mem":
            self.err("cards cannot be moved from or to a mem location: use remember/forget", s)

    def _s_Remember(self, s, env, _):
        self.expect(s.src, CARD, env, "the card to remember")
        self.expect(s.dst, CARD, env, "where it is remembered")
        if self.loc_vis(s.dst) not in ("mem", None):
            self.err("remember copies a card into a mem location", s.dst)

    def _s_Forget(self, s, env, _):
        self.expect(s.card, CARD, env, "the card to forget")

    def _s_Shuffle(self, s, env, _):
        self.expect(s.target, CARDS, env, "what to shuffle")

    def _s_Faro(self, s, env, _):
        self.expect(s.first, CARDS, env, "a faro shuffle's first half")
        self.expect(s.second, CARDS, env, "a faro shuffle's second half")

    def _s_SetInt(self, s, env, _):
        self.expr(s.target, env)
        self.expect(s.value, INT, env, "the value set")

    _s_Inc = _s_Dec = _s_SetInt

    def _s_SetStr(self, s, env, _):
        self.expr(s.target, env)
        self.expect(s.value, STR, env, "the string set")

    def _s_SetPoints(self, s, env, _):
        self.expr(s.target.owner, env)
        self.expect(s.target.name, STR, env, "a point map's name")
        name = self.points_name(s.target)
        if name is not None:
            self.points_set.setdefault(name, s)
        for a in s.awards:
            for k, v in a.conds:
                self.expect(k, STR, env, "an attribute name")
                self.expect(v, STR, env, "an attribute value")
            self.expect(a.value, INT, env, "the points awarded")

    def _s_CreateTeams(self, s, env, _):
        self.teams(s)

    def _s_CreateDeck(self, s, env, _):
        if s.name is not None:
            self.expect(s.name, STR, env, "a deck's name")
        self.expr(s.location, env)
        for a in s.deck.walk():
            if isinstance(a, ir.Var):
                self.expect(a, STR, env, "an attribute value")

    def _s_Cycle(self, s, env, _):
        if not isinstance(s.target, str):
            self.expect(s.target, PLAYER, env, "who plays next")

    def _s_TurnPass(self, s, env, _):
        pass

    def _s_Repeat(self, s, env, in_choice):
        self.expect(s.count, INT, env, "a repeat count")
        self.stmt(s.body, env, in_choice)

    def _s_RepeatAll(self, s, env, in_choice):
        self.stmt(s.body, env, in_choice)

    # ------------------------------------------------------------ expressions
    def bind(self, n: ir.Node, coll: ir.Node, var: str, env: dict) -> dict:
        t = self.expr(coll, env)
        e = element(t)
        if t is not None and e is None:
            self.err(f"expected a collection to range over, found {describe(t)}", coll)
        return {**env, var: e}

    def expect(self, n: ir.Node, want: str, env: dict, what: str) -> None:
        t = self.expr(n, env)
        if t is None or t == want:
            return
        if want == CARDS and t == TEAM:
            return
        self.err(f"type error: {what} must be {describe(want)}, found {describe(t)}", n)

    def expr(self, n: ir.Node, env: dict) -> str | None:
        """Check an expression and return its type."""
        if isinstance(n, ir.Var):
            self.used_vars.add(n.name)
            if n.name not in env:
                self.err(f"unbound variable '{n.name}", n)
                return None
            return env[n.name]
        m = getattr(self, "_e_" + type(n).__name__, None)
        if m is not None:
            r = m(n, env)
            if r is not None:
                return r
        else:
            for c in n.children():
                self.expr(c, env)
        return _FIXED.get(type(n))

    def _e_Arith(self, n, env):
        self.expect(n.left, INT, env, f"an operand of {n.op}")
        self.expect(n.right, INT, env, f"an operand of {n.op}")
        if n.op in ("//", "%") and isinstance(n.right, ir.IntLit) and n.right.value == 0:
            self.err("division by zero", n.right)

    def _e_Tri(self, n, env):
        self.expect(n.arg, INT, env, "tri's argument")

    def _e_Fib(self, n, env):
        self.expect(n.arg, INT, env, "fib's argument")

    def _e_Random(self, n, env):
        self.expect(n.lo, INT, env, "random's lower bound")
        self.expect(n.hi, INT, env, "random's upper bound")
        if isinstance(n.lo, ir.IntLit) and isinstance(n.hi, ir.IntLit) and n.lo.value > n.hi.value:
            self.err(f"random range {n.lo.value}..{n.hi.value} is empty", n)

    def _e_Size(self, n, env):
        t = self.expr(n.coll, env)
        if t is not None and element(t) is None:
            self.err(f"size takes a collection, found {describe(t)}", n.coll)

    def _e_Sum(self, n, env):
        self.expect(n.cards, CARDS, env, "the cards summed")
        self.use_points(n.points, env)

    def _e_BestSum(self, n, env):
        self.expect(n.cards, CARDS, env, "the cards summed")
        self.use_points(n.low, env)
        self.use_points(n.high, env)
        self.expect(n.bound, INT, env, "the best sum's bound")

    def _e_IntSum(self, n, env):
        self.expect(n.body, INT, self.bind(n, n.coll, n.var, env), "the integer summed")

    def _e_Score(self, n, env):
        self.expect(n.card, CARD, env, "the card scored")
        self.use_points(n.points, env)

    def _e_PlayValue(self, n, env):
        self.expect(n.cards, CARDS, env, "the cards valued")
        self.use_points(n.points, env)
        self.expect(n.suit, STR, env, "the suit attribute")
        for play, score in n.ranking:
            if play not in ir.PLAYS:
                self.err(f"unknown play {play!r} in a play ranking (known: {', '.join(ir.PLAYS)})", n)
            self.expect(score, INT, env, f"the score of {play!r}")

    def _e_IntStorage(self, n, env):
        t = self.owner(n.owner, env)
        self.expect(n.key, STR, env, "a storage name")
        self.record(self.storages, (t, "sto" if isinstance(n, ir.IntStorage) else "str", n.key), n)

    _e_StrStorage = _e_IntStorage

    def _e_CardAtt(self, n, env):
        self.expect(n.attr, STR, env, "an attribute name")
        self.expect(n.card, CARD, env, "the card read")

    def _e_CardAt(self, n, env):
        if not isinstance(n.where, str):
            self.expect(n.where, INT, env, "a card index")
        self.expect(n.source, CARDS, env, "where the card is taken from")

    def _e_Extreme(self, n, env):
        self.expect(n.source, CARDS, env, f"the cards {n.kind} looks at")
        self.use_points(n.points, env)

    def _e_Actual(self, n, env):
        self.expect(n.card, CARD, env, "a remembered card")

    def _e_Location(self, n, env):
        self.record(self.locations, (self.owner(n.owner, env), n.vis, n.name), n)
        if not isinstance(n.name, str):
            t = self.expr(n.name, env)
            if t not in (None, STR, INT):
                self.err(f"a location name must be a name, found {describe(t)}", n.name)

    def _e_SetOp(self, n, env):
        for a in n.args:
            self.expect(a, CARDS, env, f"an argument of {n.op}")

    def _e_AggCards(self, n, env):
        self.expect(n.body, CARDS, self.bind(n, n.coll, n.var, env), "the cards gathered")

    def _e_Sort(self, n, env):
        self.expect(n.source, CARDS, env, "the cards sorted")
        self.use_points(n.points, env)

    def _e_Filter(self, n, env):
        inner = self.bind(n, n.coll, n.var, env)
        self.expect(n.cond, BOOL, inner, "a filter's condition")
        t = self.expr(n.coll, env)
        if t == TEAM:   # a filtered team is a list of its players, no longer a team
            return "coll:player"
        return t if element(t) else None

    def _e_Sequence(self, n, env):
        self.expect(n.count, INT, env, "how many cards")
        self.expect(n.source, CARDS, env, "where the cards are taken from")

    def _e_RunSequence(self, n, env):
        self._e_Sequence(n, env)
        self.use_points(n.points, env)

    def _e_MemberOf(self, n, env):
        if not isinstance(n.where, str):
            self.expect(n.where, INT, env, "an index")
        t = self.expr(n.source, env)
        if t not in (None, "coll:cards"):
            self.err(f"expected a collection of card collections (tuples, partition, ...), found {describe(t)}", n.source)

    def _e_Tuples(self, n, env):
        self.expect(n.n, INT, env, "the tuple size")
        self.expect(n.source, CARDS, env, "the cards grouped")
        self.use_points(n.points, env)

    def _e_Runs(self, n, env):
        self._e_Tuples(n, env)

    def _e_Subsets(self, n, env):
        self.expect(n.source, CARDS, env, "the cards")

    def _e_Partition(self, n, env):
        self.expect(n.attr, STR, env, "the attribute partitioned on")
        for s in n.sources:
            self.expect(s, CARDS, env, "the cards partitioned")

    def _e_Range(self, n, env):
        self.expect(n.lo, INT, env, "a range bound")
        self.expect(n.hi, INT, env, "a range bound")

    def _e_AllOf(self, n, env):
        return f"coll:{n.kind}"

    _e_Other = _e_AllOf

    def _e_PlayerRef(self, n, env):
        self.who(n, self.nplayers, "player", env)

    def _e_TeamRef(self, n, env):
        self.who(n, self.nteams, "team", env)

    def _e_OwnerOf(self, n, env):
        self.expect(n.card, CARD, env, "the card whose owner is asked")

    def _e_TeamOf(self, n, env):
        self.expect(n.player, PLAYER, env, "the player whose team is asked")

    def _e_Compare(self, n, env):
        a, b = self.expr(n.left, env), self.expr(n.right, env)
        if n.op in ("<", ">", "<=", ">="):
            for side, t in ((n.left, a), (n.right, b)):
                if t not in (None, INT):
                    self.err(f"type error: '{n.op}' compares integers, found {describe(t)}", side)
        elif a and b and a != b:
            self.err(f"type error: '{n.op}' compares {describe(a)} with {describe(b)}", n)

    def _e_Quantified(self, n, env):
        self.expect(n.cond, BOOL, self.bind(n, n.coll, n.var, env), "a quantified condition")

    def _e_BoolOp(self, n, env):
        for a in n.args:
            self.expect(a, BOOL, env, f"an argument of {n.op}")

    def _e_Not(self, n, env):
        self.expect(n.arg, BOOL, env, "the argument of not")

    def _e_PointsRef(self, n, env):
        self.record(self.storages, (self.owner(n.owner, env), "points", n.name), n)
        self.expect(n.name, STR, env, "a point map's name")

    # ------------------------------------------------------------ helpers
    def owner(self, o: ir.Node, env: dict) -> str | None:
        t = self.expr(o, env)
        if t not in (None, GAME, PLAYER, TEAM):
            self.err(f"type error: an owner must be the game, a player or a team, found {describe(t)}", o)
        return t

    @staticmethod
    def record(table: dict, key: tuple, n: ir.Node) -> None:
        owner, kind, name = key
        label = name if isinstance(name, str) else name.value if isinstance(name, (ir.Name, ir.IntLit)) else None
        if label is not None:
            table.setdefault((owner, kind, str(label)), n)

    def who(self, n, count: int | None, kind: str, env: dict) -> None:
        if isinstance(n.which, str):
            return
        self.expect(n.which, INT, env, f"a {kind} index")
        if isinstance(n.which, ir.IntLit) and count is not None and not 0 <= n.which.value < count:
            self.err(f"{kind} {n.which.value} is out of range: there are {count} {kind}s (0..{count - 1})", n)

    def points_name(self, p: ir.PointsRef) -> str | None:
        return p.name.value if isinstance(p.name, ir.Name) else None

    def use_points(self, p: ir.Node, env: dict) -> None:
        self.expect(p, POINTS, env, "a point map")
        if isinstance(p, ir.PointsRef):
            name = self.points_name(p)
            if name is not None:
                self.points_used.append((name, p))

    def loc_vis(self, card: ir.Node) -> str | None:
        if isinstance(card, ir.CardAt) and isinstance(card.source, ir.Location):
            return card.source.vis
        return None
