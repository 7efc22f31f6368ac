"""`mutate --operator ability` (issue #36): an ability card whose drawing changes one rule of
the flow at run time. The structure it adds, that its mutants check, play and translate, and
that the ability really fires and its changed rule is really taken in seeded plays."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge import ir
from ggpbridge.cli import main
from ggpbridge.generate import ability_mutants, errors_in
from ggpbridge.generate.gcg_mutate import get
from ggpbridge.generate.ir_ability import (FLAGGED, KINDS, NoAbility, build, draw_points, later_rules, plan,
                                           trial)
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.sim import compile_loaded, simulate
from ggpbridge.translators.recycle_text import to_text

WAR = parse_file(GAMES / "war.rcy").game


def _ops(n) -> Counter:
    return Counter(x.op for x in n.walk() if isinstance(x, ir.Compare))


def test_war_has_one_drawing_choice_and_the_rules_after_it():
    (path, move), = draw_points(WAR)
    assert isinstance(get(WAR, path), ir.Choice) and move == get(WAR, path).options[0]
    rules = later_rules(WAR, path)
    # the comparison block after the drawing stage and the statements inside it, never the draw
    assert path[:3] + (1,) in rules and all(r[:4] != path[:4] for r in rules)
    assert all(not isinstance(get(WAR, r), (ir.Choice, ir.Stage)) for r in rules)


def test_a_reverse_ability_adds_a_card_a_hook_and_one_flagged_rule():
    p = plan(WAR, random.Random(0), "reverse")
    game = build(WAR, p)
    # 1. the card: one per player in a side location, a fresh value of one attribute
    made = game.setup.decks[-1]
    assert game.setup.decks[:-1] == WAR.setup.decks and isinstance(made, ir.Repeat)
    assert made.count == WAR.setup.players and made.body.location.name.value == p.side
    values = {a.names[0]: a.subs[0].names for a in made.body.deck.attrs}
    assert values == {a: ((p.value,) if a == p.attr else ("NONE",)) for a in ("SUIT", "RANK")}
    # ... shuffled into each player's hand before play: a new top-level block before the stage
    assert len(game.body) == len(WAR.body) + 1 and game.body[0] == WAR.body[0] and game.body[2:] != ()
    deal = game.body[1].items[0]
    assert isinstance(deal, ir.ForAll) and isinstance(deal.body.items[1], ir.Shuffle)
    # 2. the hook right after the drawing choice, on the card just drawn
    stage = game.body[2].body[0]
    assert stage.body[0] == get(WAR, p.draw) and len(stage.body) == 2
    cond = stage.body[1].items[0].cond
    assert cond == ir.Compare("==", ir.CardAtt(ir.Name(p.attr), p.move.dst), ir.Name(p.value))
    # 3. the rule: default when the flag is 0, the reversed copy when set, then reset
    # (at the parent's path, one top-level block later: the deal was inserted before the stage)
    wrapped = get(game, ("body", p.rule[1] + 1) + p.rule[2:])
    rule = get(WAR, p.rule)
    default, alt, reset = wrapped.items
    assert default.body == rule and alt.body.items[0] == p.changed
    assert reset == ir.SetInt(ir.IntStorage(ir.GameOwner(), ir.Name(p.value)), ir.IntLit(0))
    before, after = _ops(rule), _ops(p.changed)
    assert after["<"] == before[">"] and after[">"] == before["<"] and after["=="] == before["=="]
    # nothing else changed: the stage's end and the scoring are the parent's
    assert game.body[2].end == WAR.body[1].end and game.scoring == WAR.scoring


def test_every_kind_builds_a_game_that_checks_and_reads_back_equal():
    for kind in KINDS:
        game = build(WAR, plan(WAR, random.Random(kind), kind))
        text, _ = to_text(game)
        assert not errors_in(f"{kind}.rcy", text), kind
        assert parse_text(text, "x.rcy").game == game


@pytest.mark.parametrize("kind", KINDS)
def test_the_ability_fires_in_seeded_plays_and_its_rule_is_taken(kind):
    m = next(ability_mutants(GAMES / "war.rcy", 1, seed=3, kind=kind))
    assert m.plan.kind == kind
    t = trial(WAR, m.plan, plays=4, seed=100)   # other seeds than the ones that accepted it
    assert t.error is None and t.fired > 0
    if kind in FLAGGED:
        # R' is taken only after a firing set the flag, and the flag is reset each time
        assert 0 < t.taken <= t.fired
    else:
        assert t.taken == 0


def test_a_card_the_hook_does_not_recognise_never_fires():
    # the counters measure the ability, not the counting: with the card made but its value
    # absent from the hook's test, nothing fires
    p = plan(WAR, random.Random(1), "again")
    blind = type(p)(**{**{f: getattr(p, f) for f in p.__dataclass_fields__}, "attr": "NOSUCH"})
    assert trial(WAR, blind, plays=3).fired == 0


def test_a_game_without_a_drawing_choice_is_a_clear_error(tmp_path):
    with pytest.raises(NoAbility, match="no drawing choice"):
        plan(parse_file(GAMES / "gops.rcy").game, random.Random(0))
    r = CliRunner().invoke(main, ["mutate", str(GAMES / "gops.rcy"), "--operator", "ability", "-o", str(tmp_path)])
    assert r.exit_code == 2 and "no drawing choice" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["mutate", str(GAMES / "war.rcy"), "--kind", "gain", "-o", str(tmp_path)])
    assert r.exit_code == 2 and "--operator ability" in r.output


def test_cli_writes_ability_mutants_that_check_and_simulate(tmp_path):
    r = CliRunner().invoke(main, ["mutate", str(GAMES / "war.rcy"), "--operator", "ability", "-n", "3",
                                  "--seed", "5", "-o", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["written"] == 3 and rep["with_errors"] == 0
    for f in rep["files"]:
        assert "ability `" in f["how"]
        prog = compile_loaded(parse_file(f["file"]))
        stats = simulate(prog, 3, max_steps=20_000)
        assert stats.status["error"] == 0


@pytest.mark.slow
def test_many_ability_mutants_of_war_check_simulate_and_translate():
    from ggpbridge.gdl.validate import is_valid, validate
    from ggpbridge.translate import translate_loaded
    kinds = Counter()
    for i, m in enumerate(ability_mutants(GAMES / "war.rcy", 40, seed=11)):
        assert not errors_in(m.name, m.text)
        loaded = parse_text(m.text, m.name)
        stats = simulate(compile_loaded(loaded), 5, seed=1000, max_steps=20_000)
        assert stats.status["error"] == 0, m.how
        kinds[m.how.split("ability `")[1].split("`")[0]] += 1
        if i % 8 == 0:
            assert is_valid(validate(translate_loaded(loaded, 2))), m.how
    assert len(kinds) >= 4, kinds


def test_war_with_its_whole_comparison_reversed_cannot_end(tmp_path):
    """Underdog as the operator writes it, on War with 4 cards. The ability card always goes
    back under its owner's hand; it is in a battle only as the last card in hand, just after
    setting the flag, so the reversed comparison makes its score 0 the winner: no hand ever
    empties, and War's end (an empty hand) is unreachable. The parent never cycles
    (docs/query.md); the mutant never finishes, and `query cycle` finds a cycle that `replay`
    confirms."""
    from dataclasses import replace

    from ggpbridge.generate.ir_ability import _reversed
    parent = parse_file(GAMES / "war_n4_winner.rcy").game
    (draw, _), = draw_points(parent)
    block = draw[:3] + (1,)   # the comparison block after the drawing stage
    assert block in later_rules(parent, draw)
    changed, note = _reversed(get(parent, block))
    p = replace(plan(parent, random.Random(0), "again"), kind="reverse", rule=block, changed=changed, note=note)
    path = tmp_path / "underdog4.rcy"
    path.write_text(to_text(build(parent, p))[0])
    stats = simulate(compile_loaded(parse_file(path)), 50, max_steps=20_000)
    assert stats.status["finished"] == 0 and stats.status["error"] == 0
    runner = CliRunner()
    r = runner.invoke(main, ["query", str(GAMES / "war_n4_winner.rcy"), "cycle", "--json",
                             "--witness", str(tmp_path / "w0.json")])
    assert json.loads(r.output)["answers"][0]["verdict"] == "no", r.output
    r = runner.invoke(main, ["query", str(path), "cycle", "--json", "--witness", str(tmp_path / "w.json")])
    assert json.loads(r.output)["answers"][0]["verdict"] == "yes", r.output
    r = runner.invoke(main, ["replay", str(path), str(tmp_path / "w.json"), "--quiet"])
    assert r.exit_code == 0 and "confirmed" in r.output, r.output
