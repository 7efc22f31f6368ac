"""The simulator as an explicit state machine with chance nodes (OpenSpiel-style).

States are immutable values. At each state exactly one thing happens next: a
player decides among options, chance picks one of n equally likely outcomes (each
shuffle position, random integer, tie-break coin), or the game is over. An outside
driver (a lockstep checker, an exhaustive search) chooses chance outcomes itself.
A fourth kind of state is a dead end of another sort: the game runs on for ever without
a decision or a chance event (`Runaway`: a stage loops and its state recurs, or it ran
`max_stretch` steps); nothing can be done there and the game is not over.

Between two decisions the game runs atomically; a chance event met on the way is
exposed by re-running that stretch with the outcomes supplied so far (`prefix`), so
a state is (data and control at a resumption point, the option chosen there if it
is a decision, the chance outcomes since). States reached at a decision are
canonical: equal situations give equal states. A chance event inside a block is
resumed from the start of that block (data and control there, the outcomes taken
within it): so states recur in a loop made only of chance events, where the
outcomes since the last decision would grow without end, and a long stretch of
chance events is not re-run from its beginning at each one.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import GameDefinitionError
from .machine import CYCLE, AtBlock, BlockP, Live, Option, Program, RunawayError
from .runtime import Suspend

CHANCE = "chance"


@dataclass(frozen=True)
class State:
    """An immutable game state."""

    data: tuple
    ctrl: tuple
    pending: Option | None = None
    prefix: tuple = ()


@dataclass(frozen=True)
class Decision:
    """A player must choose one of `options`."""

    player: int
    options: tuple


@dataclass(frozen=True)
class Chance:
    """Chance picks an outcome in 0..n-1, uniformly."""

    kind: str
    n: int
    detail: str = ""
    where: tuple | None = None   # a shuffle's location (visibility, name), when fixed


@dataclass(frozen=True)
class Terminal:
    """The game is over; scores per player."""

    scores: tuple
    winners: tuple


@dataclass(frozen=True)
class Runaway:
    """The game runs on without any decision or chance event: proven for ever (status 'cycle':
    its state recurs) or past the machine's `max_stretch` steps ('unfinished'). No move is
    possible and the game is not over."""

    status: str
    steps: int
    message: str   # file:line:col of the stage that loops, and what was found

    @property
    def proven(self) -> bool:
        """True when the play is proven never to end (its state recurs)."""
        return self.status == CYCLE


class StepMachine:
    """The stepwise interface to a compiled game.

    `max_stretch`: the steps (Live's: blocks and stage tests) that one stretch without a
    decision or chance event may run before its state is a `Runaway`."""

    def __init__(self, prog: Program, max_stretch: int = 100_000):
        self.prog = prog
        self.max_stretch = max_stretch
        self.roles = list(range(prog.lay.n))
        self._cache: dict = {}
        self._spare: Live | None = None
        self._held = None    # (data, ctrl) of the state _spare holds after a completed settle
        self.drawlog: list | None = None   # set by a caller to see the cards taken (Runtime.drawlog)

    def initial_state(self) -> State:
        """The state after setup (decks created), settled to its first decision or chance."""
        live = Live(self.prog)
        live.setup()
        return self._settle(State(live.c.freeze(), live.control()))[0]

    def node(self, state: State):
        """What happens at this state: a Decision, a Chance, a Terminal or a Runaway."""
        hit = self._cache.get(state)
        if hit is None:
            hit = self._settle(state)[1]
        return hit

    def next_state(self, state: State, move: int | Option) -> State:
        """The state after a decision (an Option or its index) or a chance outcome (an int)."""
        return self.step(state, move)[0]

    def step(self, state: State, move: int | Option) -> tuple:
        """The state after a move and its node, in one call (for searches expanding each state once)."""
        nd = self.node(state)
        if isinstance(nd, Chance):
            if not isinstance(move, int) or not 0 <= move < nd.n:
                raise ValueError(f"chance outcome must be in 0..{nd.n - 1}, got {move!r}")
            nxt = State(state.data, state.ctrl, state.pending, state.prefix + (move,))
        elif isinstance(nd, Decision):
            if isinstance(move, int) and not 0 <= move < len(nd.options):
                raise ValueError(f"option index must be in 0..{len(nd.options) - 1}, got {move}")
            opt = nd.options[move] if isinstance(move, int) else move
            if opt not in nd.options:
                raise ValueError(f"{opt!r} is not a legal option here")
            nxt = State(state.data, state.ctrl, opt, ())
        elif isinstance(nd, Runaway):
            raise ValueError("the game runs on without any decision: no move can be made")
        else:
            raise ValueError("the game is over: no move can be made")
        return self._settle(nxt)

    @staticmethod
    def key(state: State) -> tuple:
        """The state as a hashable value identifying equal situations: stage iteration numbers left out."""
        # iteration numbers are bookkeeping (as in Live.key): two passes through the same
        # position of the same data are the same game state, which is what a recurrence is
        return (state.data, tuple(f[:3] for f in state.ctrl), state.pending, state.prefix)

    def is_terminal(self, state: State) -> bool:
        return isinstance(self.node(state), Terminal)

    def legal_moves(self, state: State, role: int) -> tuple:
        """The options of `role` if it is to decide here, else ('noop',)."""
        nd = self.node(state)
        if isinstance(nd, Decision) and nd.player == role:
            return nd.options
        return ("noop",)

    def scores(self, state: State) -> tuple | None:
        """Every player's score by the game's scoring expression in this state (the final scores
        at a terminal one), or None where the expression has no value there."""
        nd = self._cache.get(state)
        if isinstance(nd, Terminal):
            return nd.scores
        got = self._live(state).scores_if_defined()
        return None if got is None else tuple(got)

    def observation(self, state: State, player: int) -> dict:
        """What `player` may see in this state."""
        live = self._live(state)
        return observe(live, player)

    # ------------------------------------------------------------ internals
    def _live(self, state: State) -> Live:
        # One Live serves every settle: building a fresh one (and seeding its RNG, unused in
        # stepwise mode) took a fifth of an exhaustive search's time. So the Live returned is
        # valid until the machine's next call; a caller may read or change it freely meanwhile
        # (handing it out forgets which state it holds, so the next settle restores its own).
        live = self._spare
        if live is None:
            live = self._spare = Live(self.prog)
        c = live.c
        c.vars, c.bpath, c.btrace = dict(self.prog.values), [], None
        held, self._held = self._held, None
        # a search usually expands the state it has just settled: the Live holds it already
        if held is None or held[0] is not state.data or held[1] is not state.ctrl:
            c.thaw(state.data)
            live.set_control(state.ctrl)
        return live

    def _settle(self, state: State):
        live = self._live(state)
        c = live.c
        c.forced, c.fpos, c.stepwise = list(state.prefix), 0, True
        c.drawlog = self.drawlog
        live.steps, live.limit = 0, self.max_stretch   # a Live's steps mean nothing across settles
        try:
            if state.pending is not None:
                live.choose(live.frames[-1][0].items[live.frames[-1][1]], state.pending)
            ch = live.advance()
            if ch is None:
                from .playout import rank_players
                scores = live.scores()
                winners, _ = rank_players(scores, self.prog.maximize)
                nd = Terminal(tuple(scores), tuple(winners))
            else:
                nd = Decision(live.current_player(), tuple(live.options(ch)))
        except GameDefinitionError as e:
            raise e.with_source(self.prog.source)   # a rule error met while running: name the file
        except RunawayError as e:
            # the state stays where the stretch began (the Live, left inside it, is restored
            # by the next settle): what follows it is only ever this same Runaway
            src = self.prog.source
            where = f"{src.name if src else '<input>'}:{e.pos.line}:{e.pos.col}"
            nd = Runaway(e.status, e.steps, f"{where}: {e.message}")
            self._cache[state] = nd
            return state, nd
        except Suspend as s:
            nd = Chance(s.kind, s.n, s.detail, s.where)
            f = live.frames[-1] if live.frames else None
            if f is not None and f[1] < len(f[0].items) and type(f[0].items[f[1]]) is BlockP:
                # inside a block (not an option's body, not an end test): resume from its start
                ctrl = live.control()
                if state.pending is not None or state.ctrl != ctrl:
                    at = live.block_fpos
                    state = State(self._checkpoint(state, at, ctrl), ctrl, None, state.prefix[at:])
            self._cache[state] = nd
            return state, nd
        settled = State(c.freeze(), live.control())
        self._held = (settled.data, settled.ctrl)
        self._cache[settled] = nd
        if len(self._cache) > 50_000:
            self._cache.clear()
        return settled, nd


    def _checkpoint(self, state: State, at: int, ctrl: tuple) -> tuple:
        """The data at the start of the block at `ctrl`, reached from `state` after `at` of its outcomes."""
        live = self._live(state)
        c = live.c
        c.forced, c.fpos, c.stepwise = list(state.prefix[:at]), 0, True
        c.drawlog = None   # a re-run to a block's start: what it takes was seen before
        live.steps = 0     # the stretch re-run reached the chance event within the limit before
        live.stop_at = (at, ctrl)
        try:
            if state.pending is not None:
                live.choose(live.frames[-1][0].items[live.frames[-1][1]], state.pending)
            live.advance()
        except AtBlock:
            return c.freeze()
        finally:
            live.stop_at = None
        raise AssertionError("the re-run did not reach the block where the chance event was met")


def owner_key(n: int, owner: int) -> tuple:
    """The owner of a location or storage row, as `observe` names it in a game of n players:
    ("game", None), ("player", p) or ("team", t)."""
    if owner == 0:
        return ("game", None)
    if owner <= n:
        return ("player", owner - 1)
    return ("team", owner - 1 - n)


def observe(live: Live, player: int) -> dict:
    """The cards `player` may see, per location, and all storages (which are public).

    vloc: everyone; iloc: the owner (a team's members for a team's location) and, for
    the table's, nobody; hloc: nobody; oloc: everyone but the owner; mem: everyone.
    Hidden locations show only how many cards they hold; empty ones are left out.
    """
    lay = live.prog.lay
    c = live.c
    n = lay.n
    names = {slot: key for key, slot in lay.loc_slots.items()}
    seen = {}
    for slot, row in enumerate(c.L):
        vis, name = names[slot]
        for owner, cards in enumerate(row):
            if not cards:  # an empty location shows nothing, whoever looks
                continue
            who = owner_key(n, owner)
            mine = who[1] == player if who[0] == "player" else who[0] == "team" and player in lay.teams[who[1]]
            visible = (vis in ("vloc", "mem") or (vis == "iloc" and mine) or (vis == "oloc" and not mine))
            seen[(who, vis, name)] = tuple(cards) if visible else len(cards)
    snap = c.freeze()   # once: a snapshot of all the data is the costly part of an observation
    return {"locations": seen, "ints": snap[1], "strs": snap[2], "current": c.cyc[-1][0]}
