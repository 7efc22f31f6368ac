"""A genetic program over card games (issue #35, `evolve`): fitness from seeded playouts.

`config` reads the weights and playout counts (`default.toml`, documented there and in
docs/evolve.md), `fitness` evaluates one game text, `breed` makes the next generation with
`ggpbridge.generate`'s mutation and crossover, and `run.evolve` runs the loop with a
checkpoint per generation, locally or on a Dask cluster with the same results.
"""
from __future__ import annotations

from .config import ConfigError, default_text, load
from .fitness import TERMS, evaluate
from .run import Outcome, ResumeError, Settings, eval_seed, evolve

__all__ = ["ConfigError", "default_text", "load", "TERMS", "evaluate", "Outcome", "ResumeError", "Settings",
           "eval_seed", "evolve"]
