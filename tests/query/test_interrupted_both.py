"""`query --engine both` stopped by Ctrl-C or SIGTERM in its first engine does not start the second."""
import pytest

from ggpbridge.query import run
from ggpbridge.query.answer import UNKNOWN, Answer


def test_an_interrupted_first_engine_ends_the_query(monkeypatch):
    monkeypatch.setattr(run, "explicit_answer", lambda *a, **k: Answer(
        "cycle", UNKNOWN, "explicit", "the search was interrupted", limit="interrupted (Ctrl-C)"))

    def never(*a, **k):
        raise AssertionError("the asp engine was started after the interrupt")
    monkeypatch.setattr(run, "asp_answer", never)
    answers = run.run_query("game.rcy", "cycle", engine="both")
    assert [a.engine for a in answers] == ["explicit"] and answers[0].verdict == UNKNOWN


@pytest.mark.parametrize("verdict", ["yes", UNKNOWN])
def test_otherwise_both_engines_answer(monkeypatch, verdict):
    monkeypatch.setattr(run, "explicit_answer", lambda *a, **k: Answer("cycle", verdict, "explicit", "search",
                                                                        limit=None if verdict == "yes" else "states"))
    monkeypatch.setattr(run, "asp_answer", lambda *a, **k: Answer("cycle", "yes", "asp", "clingo"))
    assert [a.engine for a in run.run_query("game.rcy", "cycle", engine="both")] == ["explicit", "asp"]
