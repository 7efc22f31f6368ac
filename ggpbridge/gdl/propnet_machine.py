"""A state machine for any GDL / GDL-II description, evaluated as a propositional network.

`PropnetMachine(desc)` answers what `ClingoMachine` answers (the same roles, moves,
states, percepts and goals, as the same `clingo.Symbol`s), from the same ground program:
clingo grounds the state encoding of `ggpbridge.gdl.asp` once, with `true(F)` and
`does(R,M)` as externals, and its observer reports the ground rules. Instead of a solve
per query, the rules are then a `ggpbridge.gdl.propnet.Propnet`: a query sets the
externals that differ from the previous query's and propagates only the rules whose
bodies change. A transition of a card game moves a few cards, so it touches a few
hundred rules of the hundreds of thousands a solve propagates (`benchmarks/clingo_machine.py`).

As in ClingoMachine, the goal rules form a network of their own, built when goals are
first asked (a playout asks once, at its end), so transitions never update the scores.
The `sees` rules are always in the network: unchanged percepts cost nothing.
Legal moves, terminal and goals must not depend on `does` (GDL requires it and the
validator checks it), so a state's queries leave the last joint move assigned.
"""
from __future__ import annotations

from typing import Mapping

import clingo

from .asp import game_domain, program_statements
from .asp_rules import restricted
from .ast import Description
from ..errors import only_errors
from .errors import AspError, GameError, GdlError
from .ground import ground_recorded
from .machine import GdlMachineBase, State, take_goal, TermLike, _Cache, _StateInfo, _frozen, _initial_state, _roles, _show
from .propnet import Propnet, Unstratified
from .tables import check_groundable
from .validate import validate


class _Network:
    """The ground rules of some GDL keywords as a Propnet, with the meaning of its atoms."""

    def __init__(self, desc: Description, keywords: set[str], domain, project: bool, roles: tuple):
        statements = program_statements(restricted(desc, keywords), "state", domain=domain, project=project)
        recorder, literal = ground_recorded(statements, flat=True)
        if recorder.unsupported or recorder.weight_rules or recorder.rules.irregular:
            raise AspError("the state program has statements a propositional network cannot evaluate "
                           "(choice, disjunctive or weight rules, #show of terms, #minimize or theory atoms)")
        self.fluent_atom = {f: a for f in domain.fluents if (a := literal(clingo.Function("true", [f])))}
        self.move_atom = {pair: a for pair in domain.moves if (a := literal(clingo.Function("does", list(pair))))}
        self.fluent_of = {a: f for f, a in self.fluent_atom.items()}
        inputs = [*self.fluent_atom.values(), *self.move_atom.values()]
        index = {r: k for k, r in enumerate(roles)}
        same = {f: f for f in self.fluent_atom}   # the very key objects: dictionary lookups hit on identity
        self.meaning: dict[int, tuple] = {}
        self.facts: list[tuple] = []     # shown atoms that hold in every state
        for symbol, atom in recorder.shown:
            args = [same.get(a, a) for a in symbol.arguments]
            if symbol.name in ("legal", "sees"):
                entry = (symbol.name, index.get(args[0]), args[1])
            elif symbol.name == "goal":
                value = args[1].number if args[1].type == clingo.SymbolType.Number else None
                entry = ("goal", index.get(args[0]), value, symbol, args[0])
            elif symbol.name == "next":
                entry = ("next", args[0], self.fluent_atom.get(args[0]))
            else:
                entry = (symbol.name,)
            if atom:
                self.meaning[atom] = entry
            else:
                self.facts.append(entry)
        del literal   # it holds the scratch Control and its symbol table: only the rules are kept
        rules = recorder.rules.useful([*inputs, *(atom for _, atom in recorder.shown)])
        # the peak is the recorder's arrays and the network's: the unfiltered rules go first
        del recorder
        try:
            self.net = Propnet(rules, inputs, self.meaning)
        except Unstratified as exc:
            raise GdlError(str(exc)) from None
        self.on: frozenset[int] = frozenset()

    def assign(self, wanted: frozenset[int]) -> list[tuple]:
        """Set the inputs `wanted` true and the others false; the shown atoms that hold then."""
        self.net.set_inputs(wanted - self.on, self.on - wanted)
        self.on = wanted
        if self.net.violated:
            raise GameError("the rules have no answer in this state (an integrity constraint fails)")
        meaning = self.meaning
        return self.facts + [meaning[a] for a in self.net.true_watched]


class PropnetMachine(GdlMachineBase):
    """`PropnetMachine(desc)`: ClingoMachine's interface and answers, by change propagation."""

    # cache_size bounds the LRU caches (state -> legal/terminal, state -> goals,
    # (state, joint move) -> next state and percepts); check=False skips the validator and
    # the estimate of the static tables; project=False grounds without body projection.
    # `percepts` is accepted for ClingoMachine's signature: percepts always come with a transition.

    def __init__(self, desc: Description, cache_size: int = 200_000, check: bool = True,
                 project: bool = True, percepts: bool = True):
        if check:
            errors = only_errors(validate(desc))
            if errors:
                raise GdlError("the description is not valid GDL:\n"
                               + "\n".join(d.format("<description>") for d in errors))
            check_groundable(desc)
        self._desc, self._project = desc, project
        self._roles = _roles(desc)
        self.domain = game_domain(desc, project=project)
        self._initial = _initial_state(desc, project)
        self._net = _Network(desc, {"legal", "next", "terminal", "sees"}, self.domain, project, self._roles)
        self._goal_net: _Network | None = None
        self._info_cache, self._goal_cache, self._step_cache = (_Cache(cache_size) for _ in range(3))
        moves = sorted({e[2] for e in self._net.meaning.values() if e[0] == "legal"}
                       | {e[2] for e in self._net.facts if e[0] == "legal"})
        self._rank = {m: k for k, m in enumerate(moves)}
        self._moves: frozenset[int] = frozenset()   # the joint move's input atoms now assigned
        self._made: tuple = (None, None)            # the last next state made, and its input atoms
        self.updates = 0                            # how many times the network was brought up to date

    def goals(self, state: State) -> dict[clingo.Symbol, int]:
        """Goal value of each role that has one in `state`."""
        state = _frozen(state)
        goals = self._goal_cache.lookup(state)
        if goals is None:
            if self._goal_net is None:
                self._goal_net = _Network(self._desc, {"goal"}, self.domain, self._project, self._roles)
            net = self._goal_net
            self.updates += 1
            goals = self._goal_cache.put(state, self._read_info(net.assign(self._inputs(state, net)), ()).goals)
        return dict(goals)

    def next_state(self, state: State, joint_moves: Mapping[TermLike, TermLike]) -> State:
        """The state after every role makes its move in `joint_moves`."""
        return self._step(state, joint_moves)[0]

    def sees(self, state: State, joint_moves: Mapping[TermLike, TermLike]) -> dict[clingo.Symbol, frozenset]:
        """GDL-II percepts of every role when `joint_moves` is made in `state`."""
        return dict(self._step(state, joint_moves)[1])

    def state_atoms(self, state: State) -> frozenset[int] | None:
        """The network's input atoms of `state`'s fluents (one number per fluent, the same for
        the same fluent), or None when a fluent has none (it is outside the game's domain). The
        state the last transition made is answered without looking at its fluents."""
        made, atoms = self._made
        if state is made:
            return atoms
        fluent_atom = self._net.fluent_atom
        if not all(f in fluent_atom for f in state):
            return None
        return frozenset(fluent_atom[f] for f in state)

    def sizes(self) -> dict[str, int]:
        """Ground rules and atoms of the network of transitions (the goal network's not counted)."""
        return {"rules": len(self._net.net.head), "atoms": self._net.net.size,
                "loops": len(self._net.net.loops)}

    # -- internals ----------------------------------------------------------

    def _inputs(self, state: State, net: _Network) -> frozenset[int]:
        # the state the last transition made is usually the next one asked about
        made, atoms = self._made
        if state is made and atoms is not None and net is self._net:
            return atoms
        try:
            return frozenset(net.fluent_atom[f] for f in state)
        except KeyError as exc:
            raise GameError(f"{_show(exc.args[0])} can never hold in this game") from None

    def _info(self, state: State) -> _StateInfo:
        state = _frozen(state)
        info = self._info_cache.lookup(state)
        if info is None:
            self.updates += 1
            shown = self._net.assign(self._inputs(state, self._net) | self._moves)
            info = self._info_cache.put(state, self._read_info(shown, ("legal", "terminal")))
        return info

    def _read_info(self, shown: list[tuple], kinds: tuple) -> _StateInfo:
        """Legal moves and terminal (when `kinds` names them), or the goals, from decoded atoms."""
        roles, rank = self._roles, self._rank
        legal: list[list] = [[] for _ in roles]
        goals: list = [None] * len(roles)
        terminal = False
        for entry in shown:
            name = entry[0]
            if name == "legal" and kinds:
                if entry[1] is not None:   # legal moves of something that is not a role are no one's
                    legal[entry[1]].append(entry[2])
            elif name == "terminal" and kinds:
                terminal = True
            elif name == "goal" and not kinds:
                take_goal(goals, entry)
        return _StateInfo({r: tuple(sorted(ms, key=rank.__getitem__)) for r, ms in zip(roles, legal) if ms},
                          terminal, {r: g for r, g in zip(roles, goals) if g is not None})

    def _step(self, state: State, joint_moves: Mapping[TermLike, TermLike]) -> tuple:
        """(next state, percepts of every role)."""
        state = _frozen(state)
        joint = self._chosen(joint_moves)
        key = (state, joint)
        found = self._step_cache.lookup(key)
        if found is not None:
            return found
        self._check_legal(state, joint)
        return self._step_cache.put(key, self._transition(state, joint))

    def next_unchecked(self, state: State, joint: tuple) -> State:
        """The state after `joint`, the moves in role order, each one that `options(state)` gave:
        nothing is checked or cached (a search that makes every move once asks each pair once)."""
        return self._transition(state, joint)[0]

    def _transition(self, state: State, joint: tuple) -> tuple:
        net = self._net
        self._moves = frozenset(net.move_atom[pair] for pair in zip(self._roles, joint))
        self.updates += 1
        shown = net.assign(self._inputs(state, net) | self._moves)
        fluents, atoms, percepts = [], [], [[] for _ in self._roles]
        for entry in shown:
            name = entry[0]
            if name == "next":
                fluents.append(entry[1])
                atoms.append(entry[2])
            elif name == "sees" and entry[1] is not None:
                percepts[entry[1]].append(entry[2])
        following = frozenset(fluents)
        # a fluent outside the domain cannot be told by its atom: such a state is looked up by its fluents
        self._made = (following, None if None in atoms else frozenset(atoms))
        return following, {r: frozenset(p) for r, p in zip(self._roles, percepts)}
