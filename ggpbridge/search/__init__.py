"""Searching players written once: PIPMC and UCT / ISMCTS (`pipmc.py`, `tree.py`).

Each algorithm has one core that any engine drives, and one driver on `ggpbridge.machine`'s
GameMachine (a Policy: `player(machine, state, role, moves, rng) -> move`). The simulator's
players (`sim/pipmc.py`, `sim/mcts.py`) drive the same cores from its generated fast path.
"""
