"""Collection operators behave as CardStock's GameIterator computes them."""
from __future__ import annotations

from ggpbridge.recycle import parse_text
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.exprs import fib, tri
from ggpbridge.sim.machine import Live

# STOCK, bottom to top: ONE RED, ONE BLUE, TWO RED, TWO BLUE, THREE RED, THREE BLUE
HEAD = ("(game (setup (create players 1) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)) (SUIT (RED, BLUE)))))"
        " (do ((set (game points V) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))")
TAIL = ")) (scoring max 0))"


def value(expr: str):
    """The value of an expression after setup and the point map, with cards named RANK-SUIT."""
    prog = compile_loaded(parse_text(HEAD + f" (let {expr} 'X (set (game sto N) 0))" + TAIL))
    live = Live(prog, 0)
    live.setup()
    prog.root.items[0].run(live.c)   # the do block: sets the point map
    let = prog.game.body[0].items[1]
    cards = prog.lay.cards

    def names(v):
        if isinstance(v, list):
            return [names(x) for x in v]
        return f"{cards[v]['RANK']}-{cards[v]['SUIT']}"
    return names(prog.sc.x(let.value, prog.env)(live.c))


def test_top_n_is_built_top_card_first():
    assert value("(top 2 (game iloc STOCK))") == ["THREE-BLUE", "THREE-RED"]
    assert value("(bottom 2 (game iloc STOCK))") == ["ONE-RED", "ONE-BLUE"]


def test_tuples_are_every_combination_per_score_ascending():
    assert value("(tuples 2 (game iloc STOCK) using (game points V))") == [
        ["ONE-RED", "ONE-BLUE"], ["TWO-RED", "TWO-BLUE"], ["THREE-RED", "THREE-BLUE"]]
    assert value("(top (tuples 2 (game iloc STOCK) using (game points V)))") == ["ONE-RED", "ONE-BLUE"]


def test_subsets_include_the_empty_one_in_binary_order():
    subsets = value("(subsets (bottom 2 (game iloc STOCK)))")
    assert subsets == [[], ["ONE-RED"], ["ONE-BLUE"], ["ONE-RED", "ONE-BLUE"]]


def test_intersect_and_disjunction_count_occurrences():
    both = "(bottom 3 (game iloc STOCK)) (top 4 (game iloc STOCK))"
    assert value(f"(intersect {both})") == ["TWO-RED"]
    assert value(f"(disjunction {both})") == ["ONE-RED", "ONE-BLUE", "THREE-BLUE", "THREE-RED", "TWO-BLUE"]
    assert value(f"(union {both})")[:4] == ["ONE-RED", "ONE-BLUE", "TWO-RED", "THREE-BLUE"]


def test_partition_groups_by_attribute_in_first_appearance_order():
    assert value("(partition SUIT (game iloc STOCK))") == [
        ["ONE-RED", "TWO-RED", "THREE-RED"], ["ONE-BLUE", "TWO-BLUE", "THREE-BLUE"]]


def test_runs_branch_on_equal_scores():
    runs = value("(runs largest 3 (game iloc STOCK) using (game points V))")
    assert len(runs) == 8 and all(len(r) == 3 for r in runs)
    assert value("(run top 2 (game iloc STOCK) using (game points V))") == []   # THREE, THREE do not climb
    assert value("(run bottom 1 (game iloc STOCK) using (game points V))") == ["ONE-RED"]


def test_integer_functions_follow_csharp():
    assert [tri(n) for n in (0, 1, 4)] == [0, 1, 10]
    assert [fib(n) for n in (0, 1, 2, 10, -1, -2)] == [0, 1, 1, 55, 1, -1]
    from ggpbridge.sim.exprs import _INT_OPS
    assert _INT_OPS["//"](-7, 2) == -3 and _INT_OPS["%"](-7, 2) == -1 and _INT_OPS["^"](2, -1) == 0
