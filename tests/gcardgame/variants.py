"""The small Texas and Blackjack variants (docs/gcardgame.md, "Texas and Blackjack on the other
engines", test_small_variants.py says why these sizes), and an observer that keeps a play's last state."""
from __future__ import annotations

TEXAS = {"NUMBERS": 8, "SUITS": 4, "GIVEA": 2}
BLACKJACK = {"NUMBERS": 13, "SUITS": 1, "GIVEA": 2}


class LastState:
    """Keeps the simulator's live game, to read its cards once the play is over."""

    live = None

    def decision(self, live, player, options):
        self.live = live

    def chosen(self, k):
        pass
