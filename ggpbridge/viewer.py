"""One game shown step by step, for people: who moved, among which options, what chance did and
what each seat could see (the `show` command, and `replay --html` of a query's witness).

A game is first played into a list of steps in the witness format (`query.witness`: a chance
outcome, or a player's option index), then that list is described on the stepwise machine. So a
witness and a played game are shown by the same code, and the description never re-decides
anything: it replays the steps.

`play_steps` plays the game `simulate --seed S` plays as its game S: the same players, seeded
as `make_players` seeds them, and chance drawn from `random.Random(S)` in the order the
simulator draws it (`Runtime.pick`: one `randrange(n)` per chance event with n > 1 outcomes,
none while options are enumerated), so the game shown is the one the statistics counted.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .errors import GameDefinitionError
from .moves import option_text
from .query.witness import step_record
from .sim.machine import CYCLE, ERROR, FINISHED, UNFINISHED, Program
from .sim.players import View, make_players
from .sim.stepwise import Chance, Decision, Runaway, StepMachine, Terminal, observe, owner_key
from .sim.views import card_text


@dataclass
class Played:
    """The steps of one game (witness format), how it ended and why."""

    seed: int
    steps: list = field(default_factory=list)
    status: str = FINISHED
    message: str = ""


def play_steps(prog: Program, seed: int, players: str = "random", max_steps: int = 100_000) -> Played:
    """Play game `seed` as `simulate` plays it, recording each step; a rule error, a proven cycle or
    more than `max_steps` steps (decisions and chance events) end it as in a simulation.

    A KeyboardInterrupt ends it as 'unfinished' with the steps so far."""
    machine = StepMachine(prog)
    rng = random.Random(seed)   # the Runtime's RNG in `play`: chance draws come from it alone
    seats = make_players(players, prog.lay.n, seed)
    out = Played(seed)
    quiet: set = set()   # states met since the last chance event or real decision: a repeat is a cycle
    try:
        s = machine.initial_state()
        while True:
            nd = machine.node(s)
            if isinstance(nd, Terminal):
                break
            if isinstance(nd, Runaway):
                out.status, out.message = nd.status, nd.message
                break
            if len(out.steps) >= max_steps:
                out.status, out.message = UNFINISHED, f"stopped after {max_steps} steps"
                break
            if isinstance(nd, Chance):
                k = rng.randrange(nd.n)
                quiet.clear()
            elif not nd.options:
                f = machine._live(s).frames[-1]   # the Live stands at the choice: name its place, as `play` does
                raise GameDefinitionError(f"player {nd.player} has no enabled option at this choice",
                                          f[0].items[f[1]].node.pos)
            elif len(nd.options) > 1:
                # the machine's Live stands at this choice until its next call: what `play` hands over
                k = seats[nd.player].choose(View(machine._live(s), nd.player), list(nd.options))
                if not 0 <= k < len(nd.options):
                    raise GameDefinitionError(f"player {nd.player} chose option {k} of {len(nd.options)}")
                quiet.clear()
            else:
                key = machine.key(s)
                if key in quiet:
                    out.status, out.message = CYCLE, "a forced choice recurs with nothing changed: play repeats for ever"
                    break
                quiet.add(key)
                k = 0
            out.steps.append(step_record(nd, k))
            s = machine.next_state(s, k)
    except GameDefinitionError as e:
        out.status, out.message = ERROR, str(e.with_source(prog.source))
    except KeyboardInterrupt:
        out.status, out.message = UNFINISHED, "interrupted"
    return out


def describe(prog: Program, steps: list, title: dict | None = None) -> dict:
    """The JSON-ready view of a play: its steps from the initial state, each decision with its
    options (cards by their attributes), the choice and what every seat sees there; runs of chance
    events of one kind at one place (a shuffle's positions) are one step, with each outcome k and
    the number of outcomes it was drawn from (`outcomes`, `of`; `detail` names the first). `title`
    is copied in.

    Steps that do not fit the game (a witness for another game) are a GameDefinitionError naming
    the step. A step on which the rules fail (a card taken from an empty location) ends the view:
    it keeps the steps up to that one, `final` is what the seats see before it and `error` the
    message, with its file, line and caret."""
    machine = StepMachine(prog)
    lay = prog.lay
    try:
        s = machine.initial_state()
    except GameDefinitionError as e:   # the setup fails: there is no step to show
        raise e.with_source(prog.source)
    shown: list = []
    error = ""
    for i, st in enumerate(steps, 1):
        nd = machine.node(s)
        if isinstance(nd, Chance) and "chance" in st and 0 <= st["chance"] < nd.n:
            k = st["chance"]
            where = _where(nd.where) if nd.where else ""
            last = shown[-1] if shown else None
            if last and last["kind"] == "chance" and last["event"] == nd.kind and last["where"] == where:
                last["outcomes"].append(k)
                last["of"].append(nd.n)
                last["last"] = i
            else:
                shown.append({"kind": "chance", "first": i, "last": i, "event": nd.kind, "where": where,
                              "detail": nd.detail, "outcomes": [k], "of": [nd.n]})
        elif isinstance(nd, Decision) and "option" in st and st.get("player") == nd.player \
                and 0 <= st["option"] < len(nd.options):
            k = st["option"]
            live = machine._live(s)
            sees = [seat_view(lay, observe(live, p)) for p in range(lay.n)]
            texts = [option_text(machine, s, o) for o in nd.options]
            shown.append({"kind": "decision", "first": i, "last": i, "player": nd.player, "options": texts,
                          "chosen": k, "sees": sees})
        else:
            raise GameDefinitionError(f"step {i} ({st}) does not fit the game here ({_node_text(nd)})")
        try:
            s = machine.next_state(s, k)
        except GameDefinitionError as e:
            # a play that fails part-way is shown up to the step that failed, not lost with it
            error = str(e.with_source(prog.source))
            break
    live = machine._live(s)
    final = [seat_view(lay, observe(live, p)) for p in range(lay.n)]
    if error:
        end = {"node": f"the rules fail at step {shown[-1]['last']}"}
    else:
        nd = machine.node(s)
        end = {"node": _node_text(nd)}
        if isinstance(nd, Terminal):
            end.update(scores=list(nd.scores), winners=list(nd.winners))
    decisions = sum(1 for x in shown if x["kind"] == "decision")
    view = {**(title or {}), "seats": lay.n, "steps": shown, "decisions": decisions, "end": end, "final": final}
    if error:
        view["error"] = error
    return view


def show_game(prog: Program, seed: int, players: str = "random", max_steps: int = 100_000,
              title: dict | None = None) -> dict:
    """Game `seed` played and described (`play_steps`, then `describe`), with how it ended: `status`,
    `message` and, when the rules failed, `error` (the message, with its file, line and caret)."""
    played = play_steps(prog, seed, players, max_steps)
    view = describe(prog, played.steps, title)
    view["status"], view["message"] = played.status, played.message
    if played.status == ERROR:   # every rule error, also one the play met before any step failed
        view["error"] = played.message
    return view


def seat_view(lay, obs: dict) -> dict:
    """An observation (`stepwise.observe`) for people: each non-empty location with its cards by
    their attributes (top last, as the simulator keeps them) or, when hidden, their number; the
    storages that are not zero or empty, by name and owner."""
    places = []
    for (who, vis, name), cards in sorted(obs["locations"].items(), key=lambda x: (_order(x[0][0]), x[0][1:])):
        entry = {"where": f"{_owner_text(who)} {vis} {name}"}
        if isinstance(cards, int):
            entry["hidden"] = cards
        else:
            entry["cards"] = [card_text(lay.cards[c]) for c in cards]
        places.append(entry)
    storages = []
    for table, values, empty in ((lay.sto_slots, obs["ints"], 0), (lay.str_slots, obs["strs"], "")):
        for name, slot in sorted(table.items()):
            row = values[slot] if slot < len(values) else ()
            for owner, v in enumerate(row):
                if v != empty:
                    storages.append({"name": f"{_owner_text(owner_key(lay.n, owner))} {name}", "value": v})
    return {"locations": places, "storages": storages}


def _owner_text(who: tuple) -> str:
    return "game" if who[0] == "game" else f"{who[0]} {who[1]}"


def _order(who: tuple) -> tuple:
    return ({"game": 0, "player": 1, "team": 2}[who[0]], who[1] if who[1] is not None else -1)


def _where(where: tuple) -> str:
    vis, name = where
    return f"{vis} {name}"


def _node_text(nd) -> str:
    if isinstance(nd, Terminal):
        return f"the game is over: scores {list(nd.scores)}, winners {list(nd.winners)}"
    if isinstance(nd, Runaway):
        return f"the game runs on without any decision ({nd.status}): {nd.message}"
    if isinstance(nd, Chance):
        return f"chance picks one of {nd.n} outcomes ({nd.kind})"
    return f"player {nd.player} chooses among {len(nd.options)} options"


__all__ = ["Played", "play_steps", "describe", "show_game", "seat_view"]
