"""A solved policy as a readable JSON file, the one `policy:FILE` plays (sim/policy_player.py)."""
from __future__ import annotations

import numpy as np

from ..sim.policy_player import FORMAT
from .tree import GameTree


def policy_document(tree: GameTree, policy: np.ndarray, header: dict) -> dict:
    """The policy file's content: `header` (game, settings, value, exploitability) and one entry
    per information set with what the seat saw, the options it took before, and its probabilities."""
    by_key = {info.key: info for info in tree.infosets}
    sets = []
    for info in tree.infosets:
        earlier = []
        for i, (saw, took) in enumerate(info.history):
            before = by_key.get((info.seat, info.history[:i], saw))
            earlier.append({"saw": saw, "took": {"option": took,
                                                 "move": before.labels[took] if before else None}})
        actions = [{"option": {"form": opt.form, "path": list(opt.path)}, "move": label,
                    "probability": round(float(policy[info.offset + a]), 6)}
                   for a, (opt, label) in enumerate(zip(info.options, info.labels))]
        sets.append({"seat": info.seat, "earlier": earlier, "sees": info.view, "actions": actions})
    return {"format": FORMAT, **header, "information_sets": sets}
