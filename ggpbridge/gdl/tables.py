"""How large a description's static arithmetic tables ground, estimated before grounding.

GDL has no numbers: a game counts along a successor relation given as facts (`succ 0 1`,
`succ 1 2`, ...) and defines order and addition by recursion over it (`less`, `plus`). Each
such table over a chain of n constants has about n²/2 entries, and every grounder holds them
all: 3,000 numbers with `less` and `plus` ground to 9 million atoms, 1.1 GB at the peak
(`benchmarks/table_sizes.py`). CardStock's Hearts4.gdl, whose scores sum card precedences of
100 and more, needs 11,434 numbers: about 130 million facts (the RECYCLE translation now writes
so many numbers as digits instead, translators/recycle_gdl/wide.py). This module finds such tables
from the rules alone, so that the clingo machine and queries refuse them with a reason
instead of running out of memory.

The estimate is a heuristic: a static relation of two or more arguments that recurses through
a rule reading a chain of n constants is counted as n(n-1)/2 facts. That holds for order and
arithmetic tables; a relation that recurses along a chain with its other arguments fixed would
be overestimated (`ClingoMachine(check=False)` grounds anyway).
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from .asp_rules import atoms_under, dynamic_levels
from .ast import Description, Rule, is_ground, relation
from .errors import GdlError

# Ground facts of static tables above which grounding is refused: 2^24, about 2 GB of clingo
# atoms at the rate measured above, before any rule of the game itself is grounded.
TABLE_LIMIT = 1 << 24


class GroundingTooLargeError(GdlError):
    """The description's static tables would not fit in memory once grounded."""

    def __init__(self, reason: str, explanation: str):
        super().__init__(f"{reason}. {explanation}")
        self.reason = reason   # one line, for logs and summaries
        self.explanation = explanation

    def __reduce__(self):
        # Keep the exception picklable despite the extra constructor argument.
        return (type(self), (self.reason, self.explanation))


@dataclass(frozen=True)
class ChainTable:
    """A static relation defined by recursion over a successor chain given as facts."""

    relation: tuple[str, int]   # (name, arity)
    chain: tuple[str, int]      # the successor relation it walks
    length: int                 # constants on the chain
    rule: Rule                  # a recursive rule that reads the chain

    @property
    def facts(self) -> int:
        """Ground facts at least: one per pair of the chain's constants."""
        return self.length * (self.length - 1) // 2


def chains(desc: Description) -> dict[tuple[str, int], int]:
    """Binary relations given only as ground facts that are one to one (a successor chain, or
    cycles): each with the number of constants it links."""
    pairs: dict[tuple[str, int], set] = {}   # a fact given twice is one link
    other: set = set()
    for rule in desc.rules:
        key = relation(rule.head)
        if key is None or key[1] != 2:
            continue
        if rule.body or not is_ground(rule.head):
            other.add(key)
        else:
            pairs.setdefault(key, set()).add(rule.head.args)
    found = {}
    for key, links in pairs.items():
        firsts, seconds = {a for a, _ in links}, {b for _, b in links}
        if key not in other and len(links) > 1 and len(firsts) == len(seconds) == len(links):
            found[key] = len(firsts | seconds)
    return found


def chain_tables(desc: Description) -> list[ChainTable]:
    """The static relations of two or more arguments that recurse over a chain, largest first."""
    found = chains(desc)
    if not found:
        return []
    graph = nx.DiGraph()
    for rule in desc.rules:
        head = relation(rule.head)
        if head is not None:
            graph.add_node(head)
            graph.add_edges_from((head, relation(atom)) for atom in atoms_under(rule.body))
    dynamic = dynamic_levels(desc)
    component = {}
    for index, members in enumerate(nx.strongly_connected_components(graph)):
        for key in members:
            component[key] = index
    tables: dict[tuple, ChainTable] = {}
    for rule in desc.rules:
        head = relation(rule.head)
        if head is None or head[1] < 2 or head in dynamic:
            continue
        body = [relation(atom) for atom in atoms_under(rule.body)]
        if not any(component.get(key) == component[head] for key in body):
            continue   # not a recursive rule
        for key in body:
            if key in found and (head not in tables or found[key] > tables[head].length):
                tables[head] = ChainTable(head, key, found[key], rule)
    return sorted(tables.values(), key=lambda t: (-t.facts, t.relation))


def estimate(desc: Description) -> tuple[list[ChainTable], int]:
    """The chain tables (`chain_tables`) and the ground facts they have in all."""
    tables = chain_tables(desc)
    return tables, sum(t.facts for t in tables)


def check_groundable(desc: Description, limit: int | None = None) -> None:
    """Raise GroundingTooLargeError when the chain tables would have more than `limit` facts
    (TABLE_LIMIT by default)."""
    limit = TABLE_LIMIT if limit is None else limit
    tables, total = estimate(desc)
    if total <= limit:
        return
    biggest = tables[0]
    names = [f"({t.relation[0]})" for t in tables if t.chain == biggest.chain]
    raise GroundingTooLargeError(
        f"too large to ground: {', '.join(names)} recurse{'s' if len(names) == 1 else ''} over the chain ({biggest.chain[0]}) of "
        f"{biggest.length:,} constants, at least {total:,} ground facts (the limit is {limit:,})",
        "GDL has no arithmetic: a table over n numbers has about n²/2 entries. A reasoner that "
        "does not ground can still play it; with fewer numbers (smaller scores) clingo can.")
