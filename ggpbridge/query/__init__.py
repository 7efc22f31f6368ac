"""Exhaustive questions about small games: cycle, terminates, always-ends, playable, winnable."""
