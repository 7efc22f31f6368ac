"""The flat arrays of ground rules the propositional network is built from."""
import numpy as np

from ggpbridge.gdl.flat_rules import FlatRules, csr
from ggpbridge.gdl.ground import ground_recorded
from ggpbridge.gdl.propnet import Propnet

from clingo import ast


def test_rules_read_back_as_they_were_added():
    flat = FlatRules.of([(False, [3], [1, -2]), (False, [], [3]), (False, [4], [])])
    assert len(flat) == 3
    assert [flat.heads[i] for i in range(3)] == [3, 0, 4]
    assert [flat.body(i) for i in range(3)] == [(1, -2), (3,), ()]


def test_useful_drops_the_facts_nothing_reads_and_keeps_the_others():
    # 5 is a fact read by rule 3, 6 one read by nothing, 7 one read by nothing but kept (shown)
    flat = FlatRules.of([(False, [5], []), (False, [6], []), (False, [7], []), (False, [3], [5, -1])])
    kept = flat.useful([7])
    assert [(kept.heads[i], kept.body(i)) for i in range(len(kept))] == [(5, ()), (7, ()), (3, (5, -1))]


def test_useful_keeps_a_bodiless_integrity_constraint():
    # `:- .` reads nothing and is read by nothing, yet it is what makes the program have no answer
    flat = FlatRules.of([(False, [], []), (False, [6], [])])
    kept = flat.useful([])
    assert [(kept.heads[i], kept.body(i)) for i in range(len(kept))] == [(0, ())]


def test_csr_groups_values_by_key_in_their_order():
    offsets, grouped = csr(np.array([2, 0, 2, 1, 2]), np.array([10, 11, 12, 13, 14]), 4)
    assert list(offsets) == [0, 1, 2, 5, 5]
    assert [list(grouped[offsets[k]:offsets[k + 1]]) for k in range(4)] == [[11], [13], [10, 12, 14], []]


def _parse(text):
    statements = []
    ast.parse_string(text, statements.append)
    return statements


def test_the_flat_recorder_holds_what_the_tuple_recorder_holds():
    text = "#external a. #external b. p :- a. q :- p, not b. :- q, a. r. s :- r, p."
    tuples, _ = ground_recorded(_parse(text))
    flat, _ = ground_recorded(_parse(text), flat=True)
    assert sorted((flat.rules.heads[i], flat.rules.body(i)) for i in range(len(flat.rules))) == \
        sorted((head[0] if head else 0, tuple(body)) for _, head, body in tuples.rules)
    assert flat.rules.irregular == 0


def test_choice_rules_are_counted_not_kept():
    flat, _ = ground_recorded(_parse("{ a }. p :- a."), flat=True)
    assert flat.rules.irregular == 1
    assert all(flat.rules.heads[i] != 0 or flat.rules.body(i) for i in range(len(flat.rules)))


def test_a_network_of_flat_rules_follows_its_inputs():
    # p :- x.  q :- p, not y.  r :- not q.  :- r, y.   (x=1, y=2, p=3, q=4, r=5)
    net = Propnet(FlatRules.of([(False, [3], [1]), (False, [4], [3, -2]), (False, [5], [-4]),
                                (False, [], [5, 2])]), inputs=[1, 2])
    expected = {(): ({5}, False), (1,): ({3, 4}, False), (2,): ({5}, True), (1, 2): ({3, 5}, True)}
    on: set = set()
    for now, (holding, violated) in expected.items():
        net.set_inputs(set(now) - on, on - set(now))
        on = set(now)
        assert {a for a in (3, 4, 5) if net.value[a]} == holding
        assert net.violated == violated
