"""Semantic checks of a G_cardgame syntax tree: what the grammar cannot see.

The grammar accepts `H5` in a three-player game, `T2` with two table locations, a `playit`
with nothing shown and stages numbered out of order; the paper's axioms make each of these
meaningless, so each is an error positioned at the offending token. Things that are
legal but surely not meant (a location a rule ignores, a bet restriction without a
location, an empty stage) are warnings. Decisions cited as "decision N" are those of
docs/gcardgame.md.
"""
from __future__ import annotations

from ..errors import Diagnostic, Pos, Source
from . import syntax as s

_NUMBERS = range(1, 14)   # the French deck's numbers, jokers excluded
_MOST = 52                # players or table locations: one per card of the deck


def check(game: s.Game, source: Source | None = None) -> list[Diagnostic]:
    """Every error and warning of the game, sorted by position."""
    c = _Checker(game, source)
    c.run()
    return sorted(c.out, key=lambda d: (d.pos.line, d.pos.col))


class _Checker:
    def __init__(self, game: s.Game, source: Source | None):
        self.game = game
        self.source = source
        self.out: list[Diagnostic] = []
        self.players = game.players
        self.tables = game.tables if game.tables is not None else 0

    def error(self, msg: str, pos: Pos) -> None:
        self.out.append(Diagnostic("error", msg, pos, self.source))

    def warning(self, msg: str, pos: Pos) -> None:
        self.out.append(Diagnostic("warning", msg, pos, self.source))

    # ------------------------------------------------------------ the whole game
    def run(self) -> None:
        self.axioms()
        if not self.game.stages:
            self.error("the game has no stages: a game is STAGES : RANKING : WINNING CONDITIONS", Pos(1, 1))
        for i, stage in enumerate(self.game.stages):
            if stage.index != i:
                self.error(f"stage {stage.index} where stage {i} is due: stages are numbered 0, 1, 2, ... in "
                           f"the order they are played", stage.pos)
            if not stage.rules:
                self.warning(f"stage {stage.index} has no rules: every player is done at once", stage.pos)
            for rule in stage.rules:
                self.rule(rule)
        self.ranking()

    def axioms(self) -> None:
        seen: dict[str, s.Axiom] = {}
        for a in self.game.axioms:
            if a.name in seen:
                self.error(f"'{a.name}' is given twice (first at line {seen[a.name].pos.line})", a.pos)
            seen[a.name] = a
        if self.players is None:
            self.error("no 'players N' line: the number of players P is an axiom of every game", Pos(1, 1))
        elif self.players < 1:
            self.error("a game needs at least one player", seen["players"].pos)
        for name in ("players", "tables"):
            # a bound rather than a hang: the engines create every player and location
            if name in seen and seen[name].value > _MOST:
                self.error(f"at most {_MOST} {name}: there are only {_MOST} cards, one for each",
                           seen[name].pos)

    # ------------------------------------------------------------ rules
    def rule(self, rule: s.Rule) -> None:
        if rule.kind == "com":
            self.command(rule.consequent)
            return
        self.antecedent(rule.antecedent)
        self.consequent(rule.consequent, rule)

    def command(self, cons) -> None:
        if isinstance(cons, s.Deal):
            if cons.amount == 0:
                self.error("'deal' of 0 cards deals nothing", cons.pos)
            t = cons.target
            if isinstance(t, s.CardLoc):
                if t.kind == "D":
                    self.error("'deal' takes cards from the deck D: it cannot deal into it", t.pos)
                elif t.which in ("X", "A"):
                    self.error(f"{t} in a computer command: the dealer has no current player (name the "
                               f"players: 'com deal ALL N', 'com deal player 1 N')", t.pos)
                else:
                    self.card_loc(t)
            else:
                self.player_set(t)
        else:
            if cons.amount == 0:
                self.warning("'give' of 0 tokens gives nothing", cons.pos)
            self.player_set(cons.players)

    def player_set(self, ps) -> None:
        if isinstance(ps, s.AllPlayers):
            return
        seen = set()
        for seat in ps.seats:
            if seat in seen:
                self.warning(f"player {seat} is listed twice and is dealt or given twice", ps.pos)
            seen.add(seat)
            if self.players is not None and seat >= self.players:
                self.error(f"there is no player {seat}: the game has {self.players} players "
                           f"(0 to {self.players - 1})", ps.pos)

    def antecedent(self, ante) -> None:
        if isinstance(ante, s.Tokens):
            self.compared(ante, "tokens", s.TokenLoc, self.token_loc)
        elif isinstance(ante, s.Play):
            self.card_locs(ante.left)
            self.card_locs(ante.right)
        elif isinstance(ante, s.SumCond):
            self.compared(ante, "sum", s.CardLocs, self.card_locs)
        elif isinstance(ante, s.Have):
            self.combination(ante.combination)
        elif isinstance(ante, s.Show):
            self.card_locs(ante.loc)
            if len(ante.loc.parts) > 1:
                self.error("'show' compares with the top card of one location, not of a union "
                           "(decision 17)", ante.loc.parts[1].pos)
            elif ante.loc.parts[0].which == "A":
                self.error("'show' compares with the top card of one location: HA is every other "
                           "player's hand", ante.loc.pos)

    def compared(self, ante, what: str, kind: type, check_side) -> None:
        """The two sides of a `tokens` or `sum` comparison: each location checked; two numbers warned of."""
        for side in (ante.left, ante.right):
            if isinstance(side, kind):
                check_side(side)
        if isinstance(ante.left, s.Number) and isinstance(ante.right, s.Number):
            self.warning(f"'{what}' compares two numbers: the condition never changes", ante.pos)

    def combination(self, combo) -> None:
        if isinstance(combo, (s.CardCombo, s.NumberCombo)) and combo.number not in _NUMBERS:
            self.error(f"there is no card numbered {combo.number}: the deck's numbers are 1 to 13", combo.pos)

    def consequent(self, cons, rule: s.Rule) -> None:
        if isinstance(cons, (s.Pifr, s.Puin)):
            if cons.amount == 0:
                self.error(f"'{type(cons).__name__.lower()}' of 0 cards moves nothing", cons.pos)
            self.card_loc(cons.loc)
        if isinstance(cons, s.Pifr):
            if cons.loc.kind == "H" and cons.loc.which in ("X", "A"):
                what = "the player's own hand" if cons.loc.which == "X" else "every other hand at once"
                self.error(f"'pifr' takes cards into the player's hand: it cannot take them from {what}",
                           cons.loc.pos)
        elif isinstance(cons, s.Puin):
            loc = cons.loc
            if loc.kind == "H" and loc.which in ("X", "A"):
                self.error(f"'puin' puts cards from the player's hand: {loc} cannot receive them", loc.pos)
            elif loc.kind == "T" and cons.face == "down":
                self.warning("table locations are always face up: the cards are placed face up "
                             "(decision 18)", cons.pos)
            elif loc.kind == "D" and cons.face == "up":
                self.warning("the deck is always face down: the cards are placed face down", cons.pos)
        elif isinstance(cons, s.Bet):
            if cons.rel is None and cons.target is not None:
                self.warning(f"'bet λ {cons.target}': without a restriction the location is ignored "
                             f"(decision 9)", cons.target.pos)
            elif cons.rel is not None and cons.target is None:
                self.error(f"'bet {cons.rel} λ': a restriction needs a token location or number to compare "
                           f"with", cons.pos)
            if isinstance(cons.target, s.TokenLoc):
                self.token_loc(cons.target)
        elif isinstance(cons, s.Gain):
            self.token_loc(cons.loc)
            if cons.loc.owner == "X" and cons.loc.slot == 0:
                self.warning("'gain KX0' moves the player's stash into the same stash: it does nothing",
                             cons.loc.pos)
        elif isinstance(cons, s.PlayIt) and not isinstance(rule.antecedent, s.Show):
            self.error("'playit' places the cards a 'show' antecedent chose: this rule shows none", cons.pos)
        elif isinstance(cons, s.PlayIt) and rule.antecedent.loc.parts[0].kind == "H":
            # a hand is kept as its face-down and face-up parts: "on top of it" names no one place
            self.error("'playit' puts the shown card on top of the location shown against; a hand has no "
                       "top card to put it on (show against the deck or a table)", rule.antecedent.loc.pos)

    # ------------------------------------------------------------ locations
    def card_locs(self, locs: s.CardLocs) -> None:
        for loc in locs.parts:
            self.card_loc(loc)

    def card_loc(self, loc: s.CardLoc) -> None:
        if loc.kind == "H" and isinstance(loc.which, int) and self.players is not None \
                and loc.which >= self.players:
            self.error(f"there is no hand {loc}: the game has {self.players} players "
                       f"(H0 to H{self.players - 1})", loc.pos)
        elif loc.kind == "T" and loc.which >= self.tables:
            have = (f"{self.tables} table locations (T0 to T{self.tables - 1})" if self.tables
                    else "no table locations (no 'tables N' line)" if self.game.tables is None
                    else "no table locations")
            self.error(f"there is no table location {loc}: the game has {have}", loc.pos)

    def token_loc(self, loc: s.TokenLoc) -> None:
        if isinstance(loc.owner, int) and self.players is not None and loc.owner >= self.players:
            self.error(f"there is no token location {loc}: the game has {self.players} players "
                       f"(K00 to K{self.players - 1}1)", loc.pos)

    # ------------------------------------------------------------ ranking
    def ranking(self) -> None:
        seen: dict = {}
        for entry in self.game.ranking:
            key = entry.play if isinstance(entry, s.RankPlay) else entry.number
            what = f"'{key}'" if isinstance(entry, s.RankPlay) else f"card {key}"
            if key in seen:
                self.error(f"{what} is ranked twice (first at line {seen[key].pos.line})", entry.pos)
            seen[key] = entry
            if isinstance(entry, s.RankCard):
                if entry.number not in _NUMBERS:
                    self.error(f"there is no card numbered {entry.number}: the deck's numbers are 1 to 13",
                               entry.pos)
                if len(set(entry.values)) < len(entry.values):
                    self.warning(f"card {entry.number} lists a value twice", entry.pos)
