"""Exact analysis: the game tree, CFR+ for imperfect information, expectimax for perfect information."""
