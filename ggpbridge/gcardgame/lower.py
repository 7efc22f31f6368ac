"""Lowering of a checked G_cardgame syntax tree into the one IR (docs/gcardgame.md,
"Lowering to the IR").

Each G_cardgame stage becomes a RECYCLE player stage in which one pass is one rule
played by the current player; a player whose turn goes on queues themself as the next
player (`cycle next current`), as a RECYCLE game does for a player who plays again.
`play` and ranking plays in `have` use the IR extension PlayValue, a sum over cards with
two values the IR extension BestSum.
"""
from __future__ import annotations

from .. import ir
from ..errors import NOPOS, Pos, UnsupportedConstructError
from . import syntax as s
from .lower_exprs import (DONE, NEXT, OUT, PLAYING, RANKS, SUITS, against_best, best_card_sum, both, card_loc,
                          card_locs, card_relation, card_sum, cmp, compare_sides, cur, deck, either, game, hand,
                          hand_down, hand_up, has, letters, lit, live, loc, play_value, points, seat, status, sto,
                          table, token, when)


# Game storages counting Table 5's two units of a "turn" (decision 22), present only in a
# lowering asked to count (`lower(g, count=True)`): a counter makes every state new, which
# would defeat the simulator's cycle proofs and the exhaustive queries, and grow translations.
RULES, TURNS = "RULES", "TURNS"
# the declared constants sizing the deck (`--set` shrinks it): the highest number, the suits
NUMBERS, SUIT_COUNT = "NUMBERS", "SUITS"
# the values they work with (`Loaded.bounds`): the trim can only put cards aside, and a deck
# without a number or a suit has no card to deal
DECK_BOUNDS = {NUMBERS: (1, len(RANKS), "the highest card number of the deck"),
               SUIT_COUNT: (1, len(SUITS), "the suits of the deck: clubs, diamonds, hearts, spades")}


def lower(g: s.Game, count: bool = False) -> ir.Game:
    """The IR of a G_cardgame game that the checker passed. With `count`, the game also keeps
    the game storages RULES (rules played by players: each chosen rule and each mandatory
    rule, `com` rules excluded) and TURNS (player turns, ended by next, done, out, win or end),
    for the simulator's Table 5 statistics; the play is otherwise the same, draw for draw."""
    return _Lowering(g, count).game()


def tallies() -> dict:
    """What a counting lowering lets the simulator read at the end of a play: label -> expression."""
    return {"rules": sto(game(), RULES), "turns": sto(game(), TURNS)}


class _Lowering:
    def __init__(self, g: s.Game, count: bool = False):
        self.g = g
        self.count = count
        self.flags = 0
        # every `com` amount is a declared constant, so that `--set` can shrink a game (the
        # lockstep check's and the queries' tables grow with token amounts and hand sizes)
        self.declares: list = []
        self.gives: list = []   # (declared name, players it goes to)
        values = {e.number: e.values for e in g.ranking if isinstance(e, s.RankCard)}
        self.two_valued = {n for n, v in values.items() if len(v) > 1}
        # a card counts its lowest value, and its highest when that keeps a sum within the bound
        self.values = {n: min(v) for n, v in values.items()}
        self.raised = {n: max(v) for n, v in values.items()}

    # ------------------------------------------------------------ game
    def game(self) -> ir.Game:
        g = self.g
        attrs = (ir.AttrNode(("RANK",), (ir.AttrNode(RANKS, ()),)), ir.AttrNode(("SUIT",), (ir.AttrNode(SUITS, ()),)))
        setup = ir.Setup(lit(g.players), None, (ir.CreateDeck(None, deck(), ir.Deck(attrs)),), pos=g.pos)
        start = ir.Do((self.point_map("NUMBER", lambda n: n), self.point_map("HIGH", lambda n: ir.ACE_HIGH if n == 1 else n),
                       self.point_map("VALUE", lambda n: self.values.get(n, n)))
                      + self.raised_map() + (*self.trim(), ir.Shuffle(deck())))
        body = [start]
        for stage in g.stages:
            body.extend(self.stage(stage))
        return ir.Game(tuple(self.declares), setup, tuple(body), self.scoring(), pos=g.pos)

    def trim(self) -> tuple:
        """The deck's size as declared constants, NUMBERS (the highest card number, 13) and
        SUITS (4): `--set NUMBERS=3 --set SUITS=2` plays with the six cards 1-3 of clubs and
        diamonds, so that the queries can search a small game whole. The cards beyond them
        are put aside (a location nobody sees or uses) before the shuffle; with the paper's
        deck none is, and the play is the same draw for draw."""
        self.declares += [ir.Declare(lit(len(RANKS)), NUMBERS), ir.Declare(lit(len(SUITS)), SUIT_COUNT)]
        suit_no = ir.SetPoints(points("SUITNUM"), tuple(ir.Award(((ir.Name("SUIT"), ir.Name(x)),), lit(i + 1))
                                                         for i, x in enumerate(SUITS)))
        c = ir.Var("C")
        beyond = ir.BoolOp("or", (cmp(">", ir.Score(c, points("NUMBER")), ir.Var(NUMBERS)),
                                  cmp(">", ir.Score(c, points("SUITNUM")), ir.Var(SUIT_COUNT))))
        aside = ir.Filter(deck(), "C", beyond)
        put = ir.Repeat(ir.Size(aside), ir.Move(ir.CardAt("top", aside), ir.CardAt("top", loc(game(), "hloc", "ASIDE"))))
        return suit_no, put

    @staticmethod
    def point_map(name: str, score) -> ir.SetPoints:
        awards = tuple(ir.Award(((ir.Name("RANK"), ir.Name(r)),), lit(score(i + 1))) for i, r in enumerate(RANKS))
        return ir.SetPoints(points(name), awards)

    def raised_map(self) -> tuple:
        """The point map RAISED (each card's highest value), when some card has two values."""
        if not self.two_valued:
            return ()
        return (self.point_map("RAISED", lambda n: self.raised.get(n, n)),)

    def sum_bound(self) -> int:
        """The largest number a `sum` rule compares with (decision 15); without one, a total
        no set of cards reaches, so that every two-valued card counts high."""
        nums = [x.value for st in self.g.stages for r in st.rules if isinstance(r.antecedent, s.SumCond)
                for x in (r.antecedent.left, r.antecedent.right) if isinstance(x, s.Number)]
        return max(nums) if nums else len(SUITS) * sum(self.raised.get(n, n) for n in range(1, len(RANKS) + 1))

    def scoring(self) -> ir.Scoring:
        """token × (stash + bet) + not-out × (1 if not out) + a `win` above any of these (decision 13)."""
        w = self.g.winning or s.Winning(0, 0)
        me = cur()
        tokens = ir.Arith("+", sto(me, "STASH"), sto(me, "BET"))
        not_out = ir.Arith("-", lit(1), ir.Arith("//", status(me), lit(OUT)))   # 1 unless STATUS is 3
        base = ir.Arith("+", ir.Arith("*", lit(w.per_token), tokens), ir.Arith("*", lit(w.not_out), not_out))
        big = lit(w.not_out + 1)
        if w.per_token and self.gives:
            # every token given (no player can hold more), as declared: one point above it
            given = [ir.Arith("*", ir.Var(name), lit(count)) for name, count in self.gives]
            total = given[0]
            for x in given[1:]:
                total = ir.Arith("+", total, x)
            big = ir.Arith("+", ir.Arith("*", lit(w.per_token), total), big)
        return ir.Scoring("max", ir.Arith("+", base, ir.Arith("*", big, sto(me, "WON"))))

    def amount(self, kind: str, value: int, pos) -> ir.Var:
        """A fresh declared constant for a `com` amount: DEALA, DEALB, ... or GIVEA, ..."""
        name = kind + letters(sum(1 for d in self.declares if d.var.startswith(kind)))
        self.declares.append(ir.Declare(lit(value, pos), name, pos=pos))
        return ir.Var(name, pos=pos)

    # ------------------------------------------------------------ stages
    def stage(self, st: s.Stage) -> list:
        """The stage's commands, the status reset, and the loop of passes (one rule each)."""
        q = ir.Var("Q")
        going = both(cmp("==", sto(game(), "OVER"), lit(0)), ir.Quantified("any", ir.AllOf("player"), "Q", live(q)))
        coms = [self.command(r.consequent) for r in st.rules if r.kind == "com"]
        reset = ir.ForAll(ir.AllOf("player"), "Q", when(live(q), ir.SetInt(status(q), lit(PLAYING))))
        out = [ir.Do((when(going, ir.Do(tuple(coms) + (reset,))),), pos=st.pos)]
        rules = [r for r in st.rules if r.kind != "com"]
        if not rules:
            return out   # every player is done at once: no pass to play
        # A choice may stand only directly in a stage, so a pass is a sequence of stage items,
        # and the choices carry their guards in their options: a choice whose guard fails
        # offers the one option `turn pass` (a forced choice, which plays nothing).
        mandatory = self.group([self.mandatory(r) for r in rules if r.kind == "mandatory"])
        options = [self.option(r) for r in rules if r.kind in ("optional", "once")]
        on = self.on()
        me = status(cur())
        items = [ir.Do((when(cmp("==", me, lit(NEXT)), ir.SetInt(me, lit(PLAYING))),))]
        items += mandatory
        pass_ = when(ir.Not(on), ir.TurnPass())
        if not options:
            items.append(ir.Do((when(on, self.counted_stmt(TURNS, ir.SetInt(me, lit(DONE)))),)))
        else:
            playable = either(*(cond for cond, _ in options))
            rule_opts = tuple(when(on, opt) for _, opt in options)
            done = () if playable is None else (
                when(both(on, ir.Not(playable)), self.counted_stmt(TURNS, ir.SetInt(me, lit(DONE)))),)
            items.append(ir.Choice(rule_opts + done + (pass_,), pos=st.pos))
        items += mandatory
        items.append(ir.Do((when(on, ir.Cycle("next", "current")),)))
        end = ir.BoolOp("or", (cmp("==", sto(game(), "OVER"), lit(1)),
                               ir.Quantified("all", ir.AllOf("player"), "Q", cmp(">=", status(q), lit(DONE)))))
        out.append(ir.Stage("player", end, tuple(items), pos=st.pos))
        return out

    def counted(self, kind: str, *stmts) -> tuple:
        """The statements, preceded by one more of the counter `kind` when counting."""
        return ((ir.Inc(sto(game(), kind), lit(1)),) if self.count else ()) + stmts

    def counted_stmt(self, kind: str, stmt, pos: Pos = NOPOS):
        """One statement, counted as `kind` when counting (without counting, the statement as it is)."""
        if not self.count:
            return stmt
        return ir.Do(self.counted(kind, stmt), pos=pos)

    @staticmethod
    def group(items: list) -> list:
        """Consecutive plain statements joined into one `do`; choices stay stage items."""
        out: list = []
        for x in items:
            if isinstance(x, ir.Choice) or not out or isinstance(out[-1], ir.Choice):
                out.append(x if isinstance(x, ir.Choice) else ir.Do((x,)))
            else:
                out[-1] = ir.Do(out[-1].items + (x,))
        return out

    @staticmethod
    def on():
        """The current player's turn goes on: playing, and nobody has ended the game."""
        return both(cmp("==", status(cur()), lit(PLAYING)), cmp("==", sto(game(), "OVER"), lit(0)))

    def flag(self):
        """A fresh per-player storage marking a `once`/`mandatory` rule as played (one per rule
        of the game, so no reset between stages is needed)."""
        self.flags += 1
        return sto(cur(), "FLAG" + letters(self.flags - 1))

    # ------------------------------------------------------------ rules
    def mandatory(self, r: s.Rule):
        """Played once, as soon as its antecedent holds during the player's turns (decision 5).
        A consequent with a parameter (a bet amount, a shown card) is a choice; when its guard
        holds and no value is possible, no option is enabled: a game error (decision 6)."""
        flag = self.flag()
        cond, pre = self.antecedent(r.antecedent)
        guard = both(self.on(), cmp("==", flag, lit(0)), cond)
        mark = self.counted(RULES, ir.SetInt(flag, lit(1)))
        binder = self.binder(r.consequent, r.antecedent)
        if binder is None:
            body = ir.Do(mark + pre + (self.consequent(r.consequent),), pos=r.pos)
            return when(guard, body, pos=r.pos)
        coll, var, elem_cond, act = binder
        opt = ir.AnyOf(coll, var, when(both(guard, elem_cond), ir.Do(mark + pre + (act,))), pos=r.pos)
        return ir.Choice((opt, when(ir.Not(guard), ir.TurnPass())), pos=r.pos)

    def option(self, r: s.Rule):
        """(the condition under which the rule is playable, None for always; its choice option)."""
        flag = self.flag() if r.kind == "once" else None
        cond, pre = self.antecedent(r.antecedent)
        guard = both(cmp("==", flag, lit(0)) if flag is not None else None, cond)
        mark = self.counted(RULES, *((ir.SetInt(flag, lit(1)),) if flag is not None else ()))
        c = r.consequent
        binder = self.binder(c, r.antecedent)
        if binder is None:
            possible = self.possible(c)
            body = ir.Do(mark + pre + (self.consequent(c),), pos=r.pos)
            full = both(guard, possible)
            return full, when(full, body, pos=r.pos)
        coll, var, elem_cond, act = binder
        opt = ir.AnyOf(coll, var, when(elem_cond, ir.Do(mark + pre + (act,)), pos=r.pos), pos=r.pos)
        exists = (cmp(">", ir.Size(coll), lit(0), r.pos) if elem_cond is None
                  else ir.Quantified("any", coll, var, elem_cond, pos=r.pos))
        # the rule's own guard does not depend on the element: tested once, outside the `any`
        return both(guard, exists), (opt if guard is None else when(guard, opt, pos=r.pos))

    def binder(self, c, ante):
        """(collection, variable, condition per element, action) for a consequent the player
        plays with a parameter, else None."""
        if isinstance(c, s.Bet):
            n = ir.Var("N", pos=c.pos)
            me = cur(c.pos)
            cond = None if c.rel is None else self.bet_condition(c, ir.Arith("+", sto(me, "BET"), n))
            move = ir.Do((ir.Dec(sto(me, "STASH"), n), ir.Inc(sto(me, "BET"), n)), pos=c.pos)
            return ir.Range(lit(1), sto(me, "STASH"), pos=c.pos), "N", cond, move
        if isinstance(c, s.PlayIt):
            shown = ir.Var("S", pos=c.pos)
            return self.shown(ante), "S", None, ir.Move(shown, ir.CardAt("top", card_locs(ante.loc), pos=ante.loc.pos),
                                                        pos=c.pos)
        if isinstance(c, s.Puin):
            self.single_puin(c)
            card = ir.Var("S", pos=c.pos)
            return self.puin_cards(c), "S", None, ir.Move(card, ir.CardAt("top", put_dest(c), pos=c.loc.pos), pos=c.pos)
        return None

    def bet_condition(self, c: s.Bet, after) -> ir.Node:
        """The bet after the move, compared with the target (decisions 9, 10)."""
        t = c.target
        if isinstance(t, s.TokenLoc) and t.owner == "A":
            return against_best(after, c.rel, lambda q: token(t, q), c.pos)
        return cmp(c.rel, after, token(t), c.pos)

    def shown(self, ante: s.Show):
        """The hand cards a `show` may pick (decision 17)."""
        c = ir.Var("C", pos=ante.pos)
        top = ir.CardAt("top", card_locs(ante.loc), pos=ante.pos)
        where = card_locs(ante.loc)
        # an empty location has no top card to compare with (a missing card reads as "" in
        # the simulator, whose score 0 every card would beat)
        cond = both(cmp(">", ir.Size(where), lit(0), ante.pos), card_relation(ante.rel, c, top, ante.pos))
        return ir.Filter(hand(cur(ante.pos), ante.pos), "C", cond, pos=ante.pos)

    def puin_cards(self, c: s.Puin):
        """The hand cards a `puin` may put (decision 18): any, when R is λ or LA is empty."""
        h = hand(cur(c.pos), c.pos)
        if c.rel is None:
            return h
        dest = card_loc(c.loc)
        rel = card_relation(c.rel, ir.Var("C"), ir.CardAt("top", dest, pos=c.loc.pos), c.pos)
        return ir.Filter(h, "C", ir.BoolOp("or", (cmp("==", ir.Size(dest), lit(0)), rel)), pos=c.pos)

    @staticmethod
    def single_puin(c: s.Puin) -> None:
        """Refuse a `puin` of several cards, at its position."""
        if c.amount != 1:
            raise UnsupportedConstructError(f"'puin' of {c.amount} cards: each card after the first is chosen "
                                            f"from a hand the first move changed, not lowered yet", c.pos)

    def possible(self, c):
        """The condition under which an optional consequent can be carried out (decision 6)."""
        if isinstance(c, s.Pifr):
            return cmp(">=", ir.Size(card_loc(c.loc)), lit(c.amount), c.pos)
        return None

    # ------------------------------------------------------------ antecedents
    def antecedent(self, a):
        """(condition or None, statements run before the consequent)."""
        if isinstance(a, s.Unconditional):
            return None, ()
        if isinstance(a, s.Tokens):
            return compare_sides(a.left, a.op, a.right, token, token, "tokens", a.pos), ()
        if isinstance(a, s.SumCond):
            total = card_sum
            if self.two_valued:
                bound = self.sum_bound()

                def total(cs, other=None):
                    return best_card_sum(cs, bound, other)
            return compare_sides(a.left, a.op, a.right, total, total, "sum", a.pos), ()
        if isinstance(a, s.Have):
            return has(a.combination, a.pos), ()
        if isinstance(a, s.Draw):
            return self.draw(a)
        if isinstance(a, s.Show):
            return cmp(">", ir.Size(self.shown(a), pos=a.pos), lit(0), a.pos), ()
        if isinstance(a, s.Play):
            return self.play(a), ()
        raise UnsupportedConstructError(f"'{type(a).__name__.lower()}' is not lowered yet", a.pos)

    def play(self, a: s.Play):
        """`play LA R LB`: the two sides' values through the ranking (decisions 10, 14)."""
        ranking = tuple((e.play, lit(e.score, e.pos)) for e in self.g.ranking if isinstance(e, s.RankPlay))
        return compare_sides(a.left, a.op, a.right, lambda x: play_value(card_locs(x), ranking, x.pos),
                             lambda x, q: play_value(card_locs(x, q), ranking, x.pos), "play", a.pos)

    def draw(self, a: s.Draw):
        """`draw` (decisions 7, 8): the deck's top card into the hand, while the deck has one."""
        take = ir.Move(ir.CardAt("top", deck(a.pos)), ir.CardAt("top", hand_down(cur(a.pos))), pos=a.pos)
        return cmp(">", ir.Size(deck(a.pos)), lit(0), a.pos), (take,)

    # ------------------------------------------------------------ consequents
    def consequent(self, c) -> ir.Node:
        """The statement of a consequent without a parameter (see `binder` for the others)."""
        me = cur(c.pos)
        if isinstance(c, s.Pifr):
            dest = hand_up(me) if c.face == "up" else hand_down(me)
            take = ir.CardAt("top", card_loc(c.loc), pos=c.loc.pos)
            return ir.Repeat(lit(c.amount), ir.Move(take, ir.CardAt("top", dest), pos=c.pos), pos=c.pos)
        if isinstance(c, s.Gain):
            return self.gain(c)
        # next, done, out, win and end each end the player's turn
        if isinstance(c, s.Status):
            st = ir.SetInt(status(me, c.pos), lit({"next": NEXT, "done": DONE, "out": OUT}[c.which]), pos=c.pos)
            return self.counted_stmt(TURNS, st, c.pos)
        if isinstance(c, s.Win):
            return ir.Do(self.counted(TURNS, ir.SetInt(sto(me, "WON"), lit(1)), ir.SetInt(sto(game(), "OVER"), lit(1))),
                         pos=c.pos)
        if isinstance(c, s.End):
            end = ir.SetInt(sto(game(), "OVER", c.pos), lit(1), pos=c.pos)
            return self.counted_stmt(TURNS, end, c.pos)
        raise UnsupportedConstructError(f"'{type(c).__name__.lower()}' is not lowered yet", c.pos)

    def gain(self, c: s.Gain) -> ir.Node:
        """Move every token of the location to the current player's stash (decision 11); the
        amount is bound before the source is emptied, so gaining one's own stash keeps it."""
        stash = sto(cur(c.pos), "STASH")

        def take(src):
            return ir.Let(src, "G", ir.Do((ir.SetInt(src, lit(0)), ir.Inc(stash, ir.Var("G")))), pos=c.pos)

        if c.loc.owner == "A":
            q = ir.Var("Q")
            return ir.ForAll(ir.Other("player"), "Q", take(token(c.loc, q)), pos=c.pos)
        return take(token(c.loc))

    def command(self, c) -> ir.Node:
        """A computer command (decision 20): deals go one card at a time round the players."""
        q = ir.Var("Q")
        top_deck = ir.CardAt("top", deck(c.pos), pos=c.pos)
        if isinstance(c, s.Give):
            n = self.amount("GIVE", c.amount, c.pos)
            ps = c.players
            self.gives.append((n.name, self.g.players if isinstance(ps, s.AllPlayers) else len(ps.seats)))

            def give(owner):
                return ir.Inc(sto(owner, "STASH"), n)
            if isinstance(c.players, s.AllPlayers):
                return ir.ForAll(ir.AllOf("player"), "Q", give(q), pos=c.pos)
            return ir.Do(tuple(give(seat(j)) for j in c.players.seats), pos=c.pos)
        t = c.target
        # the moves carry the rule's position: a deal from an empty deck is a game error there
        if isinstance(t, s.AllPlayers):
            one = ir.ForAll(ir.AllOf("player"), "Q", ir.Move(top_deck, ir.CardAt("top", hand_down(q)), pos=c.pos))
        elif isinstance(t, s.SomePlayers):
            one = ir.Do(tuple(ir.Move(top_deck, ir.CardAt("top", hand_down(seat(j))), pos=c.pos) for j in t.seats))
        elif t.kind == "T":
            one = ir.Move(top_deck, ir.CardAt("top", table(t.which, t.pos)), pos=c.pos)
        else:
            one = ir.Move(top_deck, ir.CardAt("top", hand_down(seat(t.which, t.pos))), pos=c.pos)
        return ir.Repeat(self.amount("DEAL", c.amount, c.pos), one, pos=c.pos)


def put_dest(c: s.Puin) -> ir.Node:
    """Where a `puin` puts a card: LA, or for another player's hand its face-down or face-up
    part as FACE says. A hand is a union of the two, and a card has to go to one place."""
    if c.loc.kind == "H":
        owner = seat(c.loc.which, c.loc.pos)
        return hand_up(owner, c.loc.pos) if c.face == "up" else hand_down(owner, c.loc.pos)
    return card_loc(c.loc)
