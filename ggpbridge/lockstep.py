"""Two engines of one game in lockstep, through `ggpbridge.machine` only.

Moves and roles are compared by name (`kif(x)` where an engine has it, such as clingo's
symbols; `str(x)` otherwise): at every step both engines must agree on whether the game is
over, on every role's legal moves, and at the end on the goals. A joint move is drawn
uniformly from the agreed legal moves (seeded), and played on both. `crosscheck.py` is the
RECYCLE-specific lockstep (it also compares states fluent by fluent, through the simulator's
internals); this one needs nothing but the two machines.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .machine import GameMachine


def name(machine: GameMachine, x) -> str:
    """The engine-neutral name of a role or a move."""
    kif = getattr(machine, "kif", None)
    return kif(x) if kif is not None else str(x)


@dataclass
class LockstepReport:
    """Plays run in agreement, steps, and the first divergence (None when there was none)."""

    plays: int = 0
    steps: int = 0
    divergence: dict | None = None
    interrupted: bool = False
    goals: dict = field(default_factory=dict)   # role -> total goal over the plays that agreed

    def as_dict(self) -> dict:
        return {"plays": self.plays, "steps": self.steps, "divergence": self.divergence,
                "interrupted": self.interrupted, "goals": self.goals}


def play_lockstep(a: GameMachine, b: GameMachine, seed: int, max_steps: int = 10_000) -> tuple[int, dict | None, dict]:
    """One seeded play on both engines: (steps, divergence or None, goals by role name)."""
    rng = random.Random(seed)
    roles_a = {name(a, r): r for r in a.roles()}
    roles_b = {name(b, r): r for r in b.roles()}
    history: list[dict] = []

    def diverge(what: str, **extra) -> tuple[int, dict, dict]:
        return len(history), {"seed": seed, "step": len(history), "what": what, "moves": history, **extra}, {}

    if set(roles_a) != set(roles_b):
        return diverge("roles", a=sorted(roles_a), b=sorted(roles_b))
    sa, sb = a.initial_state(), b.initial_state()
    for _ in range(max_steps):
        ta, tb = a.is_terminal(sa), b.is_terminal(sb)
        if ta != tb:
            return diverge("terminal", a=ta, b=tb)
        if ta:
            ga = {name(a, r): v for r, v in a.goals(sa).items()}
            gb = {name(b, r): v for r, v in b.goals(sb).items()}
            if ga != gb:
                return diverge("goals", a=ga, b=gb)
            return len(history), None, ga
        joint_a, joint_b, chosen = {}, {}, {}
        for role in sorted(roles_a):
            ma = {name(a, m): m for m in a.legal_moves(sa, roles_a[role])}
            mb = {name(b, m): m for m in b.legal_moves(sb, roles_b[role])}
            if set(ma) != set(mb):
                return diverge("legal moves", role=role, only_a=sorted(set(ma) - set(mb)),
                               only_b=sorted(set(mb) - set(ma)))
            pick = rng.choice(sorted(ma))
            joint_a[roles_a[role]], joint_b[roles_b[role]], chosen[role] = ma[pick], mb[pick], pick
        history.append(chosen)
        sa, sb = a.next_state(sa, joint_a), b.next_state(sb, joint_b)
    return len(history), None, {}


def lockstep(a: GameMachine, b: GameMachine, n: int, seed: int = 0, max_steps: int = 10_000,
             progress=None) -> LockstepReport:
    """n seeded plays (seeds seed..seed+n-1) until the first divergence; Ctrl-C keeps what ran."""
    rep = LockstepReport()
    try:
        for i in range(n):
            steps, div, goals = play_lockstep(a, b, seed + i, max_steps)
            rep.steps += steps
            if div is not None:
                rep.divergence = div
                break
            rep.plays += 1
            for role, v in goals.items():
                rep.goals[role] = rep.goals.get(role, 0) + v
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        rep.interrupted = True
    return rep
