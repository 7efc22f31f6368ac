"""Henle's deck-building games with playing cards (RPN, Golomb) as a game module behind
`ggpbridge.machine`: rules, expression search, the machine, and playing it (docs/deckbuilding.md)."""
