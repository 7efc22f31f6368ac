"""`ggpbridge show` and `replay --html`: the game shown is the game simulate plays, every step is on
the page, and the page's embedded data is the view."""
from __future__ import annotations

import html
import json
import re

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.errors import GameDefinitionError
from ggpbridge.frontends import load_game
from ggpbridge.query.witness import make_witness, save
from ggpbridge.sim import compile_loaded, play, simulate
from ggpbridge.sim.players import make_players
from ggpbridge.viewer import describe, play_steps, show_game
from ggpbridge.viewer_html import step_line


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _prog(name):
    return compile_loaded(load_game(GAMES / name))


def _embedded(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="view">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


@pytest.mark.parametrize("name,players", [("kuhn_poker.rcy", "random"), ("agram.rcy", "random"),
                                          ("uno.gcg", "random"), ("kuhn_poker.rcy", "pipmc:3,first"),
                                          ("gops.rcy", "first,random")])
def test_the_game_shown_is_the_one_the_playout_plays(name, players):
    prog = _prog(name)
    for seed in range(4):
        r = play(prog, seed, make_players(players, prog.lay.n, seed))
        view = show_game(prog, seed, players)
        decisions = [s for s in view["steps"] if s["kind"] == "decision"]
        # the closure engine's playout is another code path: same choosers, same chance, same game
        assert view["status"] == r.status == "finished"
        assert [(s["player"], len(s["options"])) for s in decisions] == [d[:2] for d in r.decisions]
        assert view["end"]["winners"] == r.winners and view["end"]["scores"] == r.scores


def test_show_seed_s_is_game_s_of_a_simulation_from_seed_0():
    prog = _prog("agram.rcy")
    rep = simulate(prog, 20, 0).report()   # the fast engine: its games are seeds 0..19
    wins = [0.0] * prog.lay.n
    for seed in range(20):
        end = show_game(prog, seed)["end"]
        for p in end["winners"]:
            wins[p] += 1 / len(end["winners"])
    assert [round(w / 20, 4) for w in wins] == [round(s["win_share"], 4) for s in rep["seats"]]


def test_text_trace_has_every_decision_and_the_winner():
    r = run("show", GAMES / "kuhn_poker.rcy", "--seed", 3)
    assert r.exit_code == 0, r.output
    view = json.loads(run("show", GAMES / "kuhn_poker.rcy", "--seed", 3, "--json").output)
    lines = r.output.splitlines()
    chose = [line for line in lines if re.match(r"\s+\d+\s+player \d+: ", line)]
    assert len(chose) == view["decisions"] == 2
    # each real choice lists its options, the chosen one starred, and what the chooser sees
    assert sum(1 for line in lines if line.lstrip().startswith("* ")) == 2
    assert sum(1 for line in lines if "player 0 sees:" in line or "player 1 sees:" in line) == 2
    assert lines[-1].startswith("end (2 decisions, 4 steps): ") and f"winners {view['end']['winners']}" in lines[-1]
    # a seat sees its own hand and only the size of the other's
    seen = [line for line in lines if "player 0 sees:" in line][0]
    assert re.search(r"player 0 iloc HAND: \((JACK|QUEEN|KING)\)", seen) and "player 1 iloc HAND: 1 hidden" in seen


def test_html_has_every_step_and_its_embedded_json_is_the_view(tmp_path):
    out = tmp_path / "g.html"
    r = run("show", GAMES / "agram.rcy", "--seed", 17, "--html", out, "--json")
    assert r.exit_code == 0, r.output
    view = json.loads(r.output)
    page = out.read_text(encoding="utf-8")
    assert _embedded(page) == view
    listed = re.findall(r"<li>(.*?)</li>", page.split("<noscript>")[1].split("</noscript>")[0])
    assert [html.unescape(x) for x in listed] == [step_line(s) for s in view["steps"]]
    assert len(view["steps"]) > 20 and view["decisions"] == 24   # agram: 4 players x 6 tricks
    # self-contained: no resource is fetched from anywhere
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "ArrowRight" in page and 'id="prev"' in page and 'id="next"' in page


def test_json_in_the_page_cannot_close_its_script(tmp_path):
    from ggpbridge.viewer_html import page
    view = {"steps": [], "end": {"node": "x"}, "game": "</script><script>alert(1)</script>"}
    text = page(view, "t")
    assert _embedded(text) == view


def test_replay_writes_the_same_view_for_a_witness(tmp_path):
    prog = _prog("kuhn_poker.rcy")
    played = play_steps(prog, 5)
    winner = show_game(prog, 5)["end"]["winners"][0]
    w = tmp_path / "w.json"
    save(make_witness(str(GAMES / "kuhn_poker.rcy"), {}, "winnable", winner, "yes", "win", played.steps), str(w))
    out = tmp_path / "w.html"
    r = run("replay", GAMES / "kuhn_poker.rcy", w, "--html", out)
    assert r.exit_code == 0 and "confirmed" in r.output, r.output
    shown = _embedded(out.read_text(encoding="utf-8"))
    assert shown["steps"] == describe(prog, played.steps)["steps"] and shown["confirmed"] is True
    assert winner in shown["end"]["winners"]


def test_steps_that_do_not_fit_the_game_are_a_clear_error():
    prog = _prog("kuhn_poker.rcy")
    with pytest.raises(GameDefinitionError, match="step 1 .* does not fit the game"):
        describe(prog, [{"player": 0, "option": 0}])   # the game starts with a shuffle


def test_bad_html_path_and_asp_witness_are_refused_before_any_work(tmp_path):
    r = run("show", GAMES / "kuhn_poker.rcy", "--html", tmp_path / "missing" / "x.html")
    assert r.exit_code == 2 and "cannot be written" in r.output and "Traceback" not in r.output
    w = tmp_path / "asp.json"
    w.write_text(json.dumps({"format": "gdl-joint-moves", "question": "winnable", "verdict": "yes", "kind": "win",
                             "role": 0, "moves": []}))
    r = run("replay", GAMES / "kuhn_poker.rcy", w, "--html", tmp_path / "x.html")
    assert r.exit_code == 2 and "joint GDL moves" in r.output and not (tmp_path / "x.html").exists()


def test_a_rule_error_is_shown_with_its_place_and_exit_1(tmp_path):
    game = tmp_path / "stuck.rcy"
    game.write_text("(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))\n"
                    "  (stage player (end (== 1 0))\n"
                    "    (choice (((== (game sto X) 1) (shuffle (game iloc STOCK))))))\n"
                    "  (scoring max 0))\n")
    r = run("show", game)
    assert r.exit_code == 1 and f"{game}:3:5: error: player 0 has no enabled option" in r.output, r.output
    assert "Traceback" not in r.output


# gops with the bid taken from a location that stays empty: the first bid breaks a rule at run time
_BID = "(move 'C (top ((current player) iloc BID)))"
_BAD_BID = "(move (top (game iloc NOWHERE)) (top ((current player) iloc BID)))"


def _bad_gops(tmp_path):
    """The broken gops, and the `file:line:col` of the failing source (the empty location's top)."""
    text = (GAMES / "gops.rcy").read_text(encoding="utf-8")
    assert text.count(_BID) == 1
    text = text.replace(_BID, _BAD_BID)
    game = tmp_path / "undef_loc.rcy"
    game.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    line = next(i for i, t in enumerate(lines, 1) if "NOWHERE" in t)
    col = lines[line - 1].index("(top (game iloc NOWHERE))") + 1
    return game, f"undef_loc.rcy:{line}:{col}: error: a card is taken from an empty location"


def _caret_follows(text: str, where: str) -> bool:
    """The message at `where` is followed by its source line and a caret under the failing column."""
    lines = text.split("\n")
    i = next(i for i, t in enumerate(lines) if where in t)
    col = int(where.split(":")[2])
    return "NOWHERE" in lines[i + 1] and lines[i + 2] == " " * (4 + col - 1) + "^"


def test_show_keeps_the_steps_up_to_a_rule_error_and_names_its_file(tmp_path):
    game, where = _bad_gops(tmp_path)
    r = run("show", game, "--seed", 0)
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    # the chance events of the deal and the bid that fails are printed before the error
    assert "chance: shuffle" in r.stdout and "player 0:" in r.stdout and "NOWHERE" in r.stdout, r.stdout
    assert "<input>" not in r.output and _caret_follows(r.stdout, where), r.stdout


def test_show_json_and_html_keep_the_steps_and_the_error(tmp_path):
    game, where = _bad_gops(tmp_path)
    out = tmp_path / "bad.html"
    r = run("show", game, "--seed", 0, "--json", "--html", out)
    assert r.exit_code == 1, r.output
    view = json.loads(r.stdout)
    assert view["status"] == "error" and _caret_follows(view["error"], where)
    assert view["steps"][0]["kind"] == "chance" and view["steps"][-1]["kind"] == "decision"
    assert view["end"]["node"] == f"the rules fail at step {view['steps'][-1]['last']}"
    shown = _embedded(out.read_text(encoding="utf-8"))
    assert shown["steps"] == view["steps"] and where in shown["error"]


def test_replay_prints_the_steps_before_a_rule_error_and_names_its_file(tmp_path):
    game, where = _bad_gops(tmp_path)
    played = play_steps(_prog("gops.rcy"), 0)   # a play of the sound game: its first bid fails here
    w = tmp_path / "w.json"
    save(make_witness(str(game), {}, "winnable", 0, "yes", "win", played.steps), str(w))
    r = run("replay", game, w)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert "chance shuffle" in r.stdout and "player 0: (move (top (game iloc NOWHERE))" in r.stdout, r.stdout
    assert "<input>" not in r.output and _caret_follows(r.stderr, where), r.stderr
    r = run("replay", game, w, "--json")
    got = json.loads(r.stdout)
    assert r.exit_code == 2 and got["confirmed"] is False and _caret_follows(got["error"], where)
    assert any("NOWHERE" in line for line in got["log"])
