"""A filter over a team (a team stands for its players) is a list of players, not a team."""
from __future__ import annotations

import random

from ggpbridge.recycle import parse_text
from ggpbridge.sim import compile_loaded, play
from ggpbridge.sim.codegen import compile_fast
from ggpbridge.sim.players import make_players

# partners (0, 2) and (1, 3); the current team stays team 0 in a player stage: T counts
# whether the current player is one of its members
GAME = """(game
  (setup
    (create players 4)
    (create teams (0, 2) (1, 3))
    (create deck (game iloc STOCK) (deck (RANK (TWO, THREE, FOUR, FIVE)))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice ((do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))
                  (inc ((current player) sto T)
                       (size (filter (current team) 'Q (== 'Q (current player))))))))))
  (scoring max ((current player) sto T)))
"""


def test_a_filtered_team_counts_its_players_on_both_engines():
    prog = compile_loaded(parse_text(GAME))
    ref = play(prog, 0, make_players("random", 4, 0))
    assert ref.status == "finished", ref.error
    assert ref.scores == [1, 0, 1, 0]   # players 0 and 2 are team 0's members
    fast = compile_fast(prog)
    assert fast is not None
    assert fast(random.Random(0), lambda p, n: 0, 100_000, [])[:2] == ("finished", [1, 0, 1, 0])
