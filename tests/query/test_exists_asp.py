"""`exists --where` on the asp engine: the condition as facts over the translation's fluents, the
--where-file, and agreement with the explicit engine on small variants (each asp run is 10-30 s
of clingo on one card per player: marked slow)."""
from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from exists_common import AGRAM3, ONE, TRICKS, replay_asp
from ggpbridge.errors import Source
from ggpbridge.frontends import load_game
from ggpbridge.query import where as W
from ggpbridge.query.answer import NO, UNKNOWN, YES
from ggpbridge.query.asp_where import WhereFileError, condition_facts, where_file_statements
from ggpbridge.query.run import run_query
from ggpbridge.sim import compile_loaded
from ggpbridge.translate import load_description


def test_the_facts_name_locations_owners_storages_and_cards_as_the_translation_does():
    lay = compile_loaded(load_game(AGRAM3)).lay
    desc = load_description(AGRAM3, 2, None, decks=False)
    cond = W.parse("size(player1 HAND) + count(game GATHERED, ACE HEARTS) > sto(player0 WON)", W.Names.of(lay))
    facts = {(n, tuple(map(str, a))) for n, a in condition_facts(cond, lay, desc) if n != "_wneg"}
    by = {n: a for n, a in facts}
    assert by["_wsize"][1:] == ("iloc_hand", "1")
    assert by["_wcount"][1:] == ("vloc_gathered", "table")
    assert by["_wsto"][1:] == ("won", "0")
    # the one card that is an ace of hearts, by the translation's own card_att facts
    (ace,) = [a[1] for n, a in facts if n == "_wcard"]
    atts = {(r.head.args[0].name, r.head.args[2].name) for r in desc.rules
            if getattr(r.head, "name", None) == "card_att"}
    assert (ace, "ace") in atts and (ace, "hearts") in atts
    assert sum(1 for c, v in atts if v == "ace") == 2


def _src(text):
    return Source("c.lp", text)


def test_a_where_file_constraint_is_guarded_by_the_ask():
    (stm,) = where_file_statements(_src(":- where_final(T), not true(int(won,0,1),T).\n"))
    assert str(stm).endswith("ask(where,t).")
    (rule,) = where_file_statements(_src("mine(T) :- where_final(T).\n"))
    assert "ask(" not in str(rule)


@pytest.mark.parametrize("text, line, col, words", [
    ("mine(T) :- where_final(T)\n:- mine(.\n", 2, 1, "syntax error"),
    ("#program step(t).\n:- where_final(T).\n", 1, 1, "leave out #program"),
])
def test_a_bad_where_file_is_positioned(text, line, col, words):
    with pytest.raises(WhereFileError) as e:
        where_file_statements(_src(text))
    assert (e.value.pos.line, words in str(e.value)) == (line, True), str(e.value)


def both(game, cond, overrides=ONE):
    explicit, asp = run_query(game, "exists", engine="both", where=cond, overrides=overrides, timeout=600)
    return explicit, asp


AGREE = [
    # dealt one card each: one trick; a player wins by taking it
    (TRICKS, "at end wins(player0) and always sto(player0 TRICKS) == 0", YES),   # tie: no hearts taken
    (TRICKS, "at end (count(player0 TAKEN, HEARTS) == 1 and count(player1 TAKEN, HEARTS) == 1)", NO),
    (TRICKS, "eventually size(player0 vloc PLAYED) == 1 before size(player1 vloc PLAYED) == 1", YES),
    (AGRAM3, "over before size(game GATHERED) == 6", YES),
    (AGRAM3, "eventually sto(player1 WON) == 1 and at end wins(player0)", NO),
    # seat 0 leads: its card is on the table when player 1 decides
    (AGRAM3, "at end wins(player1) and not eventually size(player0 vloc PLAYED) == 1", NO),
    # player 1's card is on the table only within its own step (the trick is settled in it):
    # no observation point sees it, on either engine
    (AGRAM3, "at end wins(player1) and not eventually size(player1 vloc PLAYED) == 1", YES),
]


@pytest.mark.slow
@pytest.mark.parametrize("game, cond, expected", AGREE, ids=[f"{Path(g).stem}-{i}" for i, (g, _, _) in
                                                             enumerate(AGREE)])
def test_both_engines_agree_on_one_card_each(game, cond, expected):
    explicit, asp = both(game, cond)
    assert (explicit.verdict, asp.verdict) == (expected, expected), (explicit.method, asp.method)
    if expected == YES:
        r = replay_asp(game, asp.witness)
        assert r.confirmed, r.message
        asp.witness["where"] = f"not ({cond})"   # the same play cannot satisfy the negation
        assert not replay_asp(game, asp.witness).confirmed


@pytest.mark.slow
def test_a_where_file_narrows_the_plays(tmp_path):
    # one card each: player 1 takes the only trick in some deals and not in others
    f = tmp_path / "p1.lp"
    f.write_text(":- where_final(T), not true(int(tricks,1,1),T).\n")
    (yes,) = run_query(TRICKS, "exists", engine="asp", where="at end wins(player1)", where_file=str(f),
                       overrides=ONE, timeout=600)
    assert yes.verdict == YES and yes.witness["where_file"] == str(f)
    # the file asks for player 1 ending with TRICKS 1: no such play ends with its TRICKS 0
    (no,) = run_query(TRICKS, "exists", engine="asp", where="at end sto(player1 TRICKS) == 0", where_file=str(f),
                      overrides=ONE, timeout=600)
    assert no.verdict == NO
    (expl,) = run_query(TRICKS, "exists", engine="explicit", where_file=str(f), overrides=ONE)
    assert expl.verdict == UNKNOWN


def test_symbols_not_text_reach_clingo():
    # a card value that looks like ASP syntax cannot be a name: the grammar's NAME is an identifier
    lay = compile_loaded(load_game(TRICKS)).lay
    with pytest.raises(W.ConditionError):
        W.parse("size(player0 HAND) == 0. :- true", W.Names.of(lay))
    assert all(isinstance(a, clingo.Symbol) for _, args in condition_facts(
        W.parse("has(player0 HAND, HEARTS)", W.Names.of(lay)), lay, load_description(TRICKS, 2, None, decks=False))
        for a in args)


def test_the_cli_reports_a_bad_where_file_at_its_line_before_searching(tmp_path):
    from click.testing import CliRunner
    from ggpbridge.cli import main
    f = tmp_path / "bad.lp"
    f.write_text("% fine\n:- where_final(T), not.\n")
    r = CliRunner().invoke(main, ["query", TRICKS, "exists", "--where", "true", "--where-file", str(f),
                                  "--engine", "asp"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert f"{f}:2:" in r.output and "syntax error" in r.output


@pytest.mark.slow
@pytest.mark.parametrize("horizon, expected", [(4, NO), (5, YES)])
def test_both_engines_count_the_same_steps_under_a_horizon(horizon, expected):
    # one card each: 3 chance events shuffle the 4 cards, then 2 decisions: every play has 5 steps
    explicit, asp = run_query(TRICKS, "exists", engine="both", where="at end wins(player1)", overrides=ONE,
                              horizon=horizon, timeout=600)
    assert (explicit.verdict, asp.verdict) == (expected, expected), (explicit.method, asp.method)
