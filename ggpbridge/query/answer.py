"""The answer to a query, shared by every engine."""
from __future__ import annotations

from dataclasses import dataclass, field

QUESTIONS = ("cycle", "terminates", "always-ends", "playable", "winnable", "forced-win")
NEEDS_ROLE = ("winnable", "forced-win")
YES, NO, UNKNOWN = "yes", "no", "unknown"


@dataclass
class Answer:
    """yes / no / unknown, how it was established, what it cost, and a witness when there is one.

    `witness` is a JSON-ready dict (see `ggpbridge replay`); `limit` names the bound that
    stopped an 'unknown' (states, seconds, horizon); `stats` holds engine figures.
    """

    question: str
    verdict: str
    engine: str
    method: str
    seconds: float = 0.0
    limit: str | None = None
    witness: dict | None = None
    stats: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        """A JSON-ready view."""
        return {k: getattr(self, k) for k in ("question", "verdict", "engine", "method", "seconds", "limit",
                                              "witness", "stats")}
