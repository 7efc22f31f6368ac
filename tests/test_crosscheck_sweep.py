"""ggpbridge.sweep and benchmarks/crosscheck_all.py: children that keep their playouts when stopped,
chunks run side by side (here and on a Dask cluster), interrupts, and --summary (runs of a sweep
log added up per file and translation)."""
import gc
import importlib.util
import sys
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from conftest import TOO_LARGE_GAME
from ggpbridge import sweep as core

# child processes, Dask clusters and signals: seconds each, out of the quick subset
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _collect():
    """A Dask client that failed to connect tears its loop down when collected: after its test,
    not in the middle of a later test's cluster start (which it held past its 10 s wait)."""
    yield
    gc.collect()


def _sweep():
    if str(ROOT / "benchmarks") not in sys.path:   # as when it runs as a script: its helper _clock
        sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location("crosscheck_all", ROOT / "benchmarks" / "crosscheck_all.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(seed, playouts, sha="a" * 64, capped=(), divergence=None):
    return {"file": "games/x.rcy", "fit": 200, "max_events": 500, "seed": seed, "asked": 10, "kif_sha256": sha,
            "playouts": playouts, "capped": list(capped), "overflowed": [], "divergence": divergence}


def test_seeds_are_counted_once_and_translations_apart(tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    runs = [_run(0, 10, capped=[3]), _run(5, 10, capped=[3, 12]),   # seeds 0..14, 5..9 twice
            _run(15, 2, divergence={"seed": 17, "what": "the states differ"}),
            _run(0, 4, sha="b" * 64),                                # another translation of the file
            {"file": "games/y.rcy", "translation": "unsupported: a construct"},
            {"file": "games/z.rcy", "error": "out of memory", "wall": 3.0},
            {"file": "games/x.rcy", "error": "out of memory", "wall": 3.0}]   # x played in other runs
    log.write_text("".join(json.dumps(r) + "\n" for r in runs))
    _sweep().summary(log)
    lines = capsys.readouterr().out.splitlines()[1:]
    rows = {line.split()[1]: line.split() for line in lines if "not played" not in line}
    assert set(rows) == {"a" * 12, "b" * 12}
    # files that played nothing are listed with the reason, not left out
    assert [line.split()[0] for line in lines if "not played" in line] == ["games/y.rcy", "games/z.rcy"]
    assert "out of memory" in lines[-1] and "unsupported: a construct" in lines[-2]
    # file, sha, now, fit, events, agree, seeds, runaway, overflow, runs, diverged at
    assert rows["a" * 12][5:] == ["17", "0..16", "2", "0", "3", "17"]
    assert rows["b" * 12][5:] == ["4", "0..3", "0", "0", "1", "-"]


def test_several_logs_add_up(tmp_path, capsys):
    # War's seeds 0..119 ran on one machine and 120..199 on another, each with its own log
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(json.dumps(_run(0, 120, capped=[7])) + "\n")
    second.write_text(json.dumps(_run(120, 80, capped=[150])) + "\n")
    _sweep().summary(first, second)
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[5:10] == ["200", "0..199", "2", "0", "2"]


def _child_printing(report_lines: list, then: str) -> str:
    lines = [f"print({json.dumps(json.dumps(r))}, flush=True)" for r in report_lines]
    return "\n".join(["import time", *lines, then])


def _sleep_then_mark(marker: Path) -> str:
    """A child's last lines: a minute's sleep, then a file written. The file is never there
    when the child was stopped; it is when the child was waited for (how long that takes
    is measured by benchmarks/sweep_stop.py, not here)."""
    return f"time.sleep(60)\nopen({str(marker)!r}, 'w').close()"


def test_a_child_refuses_a_game_too_large_to_ground_with_the_reason(tmp_path):
    big = tmp_path / "big.rcy"
    big.write_text(TOO_LARGE_GAME)
    row = core.run(big, core.RunOptions(memory_gb=4, time_limit=60, fit=5), 0, 3)
    assert set(row) == {"error", "wall"}
    assert row["error"].startswith("too large to ground: (less), (plus), (times) recurse over the chain (succ)")
    assert row["error"].endswith("ground facts (the limit is 16,777,216)")


def _args():
    return core.RunOptions(memory_gb=1, time_limit=0.1)


def test_a_child_stopped_at_its_timeout_keeps_the_playouts_it_reported(monkeypatch, tmp_path):
    monkeypatch.setattr(core, "GRACE_SECONDS", 1.0)
    reports = [{"translation": "valid", **_run(40, 0)}, {"translation": "valid", **_run(40, 2)},
               {"translation": "valid", **_run(40, 3, capped=[41])}]
    marker = tmp_path / "finished"
    monkeypatch.setattr(core, "_CHILD", _child_printing(reports, _sleep_then_mark(marker)))
    row = core.run(Path("games/x.rcy"), _args(), 40, 10)
    assert "error" not in row and row["playouts"] == 3 and row["capped"] == [41]
    assert "stopped after 1.3 s" in row["stopped"] and "kept the 3 playouts" in row["stopped"]
    assert not marker.exists()   # killed at its timeout, not waited for


def test_a_child_that_fails_keeps_its_playouts_and_the_reason(monkeypatch):
    reports = [{"translation": "valid", **_run(40, 1)}, {"translation": "valid", **_run(40, 2)}]
    monkeypatch.setattr(core, "_CHILD", _child_printing(reports, "raise MemoryError"))
    row = core.run(Path("games/x.rcy"), _args(), 40, 10)
    assert row["playouts"] == 2 and row["stopped"].startswith("out of memory; kept the 2 playouts")


def test_a_child_killed_by_a_signal_says_so_and_keeps_its_playouts(monkeypatch):
    reports = [{"translation": "valid", **_run(40, 1)}, {"translation": "valid", **_run(40, 2)}]
    kill = "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"
    monkeypatch.setattr(core, "_CHILD", _child_printing(reports, kill))
    row = core.run(Path("games/x.rcy"), _args(), 40, 10)
    assert row["playouts"] == 2 and row["stopped"] == "stopped by signal 15; kept the 2 playouts before it"


def test_a_child_that_fails_before_a_playout_reports_the_error_alone(monkeypatch):
    monkeypatch.setattr(core, "_CHILD", _child_printing([{"translation": "valid", **_run(40, 0)}],
                                                         "raise RuntimeError('grounding failed')"))
    row = core.run(Path("games/x.rcy"), _args(), 40, 10)
    assert "playouts" not in row and row["error"] == "RuntimeError: grounding failed"


def test_a_file_s_seeds_are_split_into_chunks():
    x, y = Path("x.rcy"), Path("y.rcy")
    assert core.tasks([x, y], 10, 5, 4) == [(x, 5, 4), (x, 9, 4), (x, 13, 2), (y, 5, 4), (y, 9, 4), (y, 13, 2)]
    assert core.tasks([x], 10, 5) == [(x, 5, 10)]


_SEEDED_CHILD = """
import json, sys, time
started = time.time()
time.sleep(1.0)
n, seed = int(sys.argv[3]), int(sys.argv[7])
print(json.dumps({"translation": "valid", "kif_sha256": "c" * 64, "playouts": n, "decisions": 1, "chance": 1,
                  "gdl_steps": 10, "seconds": 1.0, "setup_seconds": 0.0, "divergence": None,
                  "capped": [seed], "broken": [], "overflowed": [], "rule_errors": [], "stopped": None,
                  "started": started, "ended": time.time()}))
"""


@pytest.mark.parametrize("dask", [None, "local"])
def test_chunks_run_side_by_side_and_their_logs_add_up(dask, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(core, "_CHILD", _SEEDED_CHILD)
    log = tmp_path / "log.jsonl"
    monkeypatch.setattr("sys.argv", ["crosscheck_all.py", "-n", "10", "--seed", "3", "--chunk", "3", "--jobs", "2",
                                     "--fit", "200", "--log", str(log), str(ROOT / "games" / "war.rcy")]
                        + (["--dask", dask] if dask else []))
    sweep = _sweep()
    sweep.main()
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted((r["seed"], r["asked"], r["playouts"]) for r in rows) == [(3, 3, 3), (6, 3, 3), (9, 3, 3),
                                                                            (12, 1, 1)]
    spans = sorted((r["started"], r["ended"]) for r in rows)
    assert any(b[0] < a[1] for a, b in zip(spans, spans[1:]))   # two children at once
    printed = capsys.readouterr().out
    assert all(s in printed for s in ("3..5", "6..8", "9..11", "12..12"))
    sweep.summary(log)
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[0] == "games/war.rcy" and row[5:10] == ["10", "3..12", "4", "0", "4"]


def _interrupt_when_running(children: int, how: str) -> threading.Thread:
    """A thread that interrupts this process (as Ctrl-C or `kill` would) once `children` run
    and have had time to report a playout."""
    def interrupt():
        deadline = time.perf_counter() + 60
        while len(core._RUNNING) < children and time.perf_counter() < deadline:
            time.sleep(0.05)
        time.sleep(1.5)
        os.kill(os.getpid(), signal.SIGTERM if how == "sigterm" else signal.SIGINT)
        if how == "ctrl-c twice":   # again while the stopped runs are collected
            time.sleep(0.3)
            os.kill(os.getpid(), signal.SIGINT)
    thread = threading.Thread(target=interrupt, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("how, dask", [("ctrl-c", None), ("sigterm", None), ("ctrl-c twice", None),
                                       ("ctrl-c", "local")])
def test_an_interrupt_stops_the_running_children_and_logs_what_they_agreed(how, dask, tmp_path, monkeypatch,
                                                                           capsys):
    playout = {"translation": "valid", **_run(40, 1), "gdl_steps": 5, "seconds": 1.0}
    del playout["seed"]   # the log's row then carries the seed its run was given
    marker = tmp_path / "finished"
    monkeypatch.setattr(core, "_CHILD", _child_printing([playout], _sleep_then_mark(marker)))
    log = tmp_path / "log.jsonl"
    monkeypatch.setattr("sys.argv", ["crosscheck_all.py", "-n", "9", "--seed", "3", "--chunk", "3", "--jobs", "2",
                                     "--time-limit", "100", "--log", str(log), str(ROOT / "games" / "war.rcy")]
                        + (["--dask", dask] if dask else []))
    before = signal.getsignal(signal.SIGTERM)
    _interrupt_when_running(2, how)
    with pytest.raises(SystemExit) as stopped:
        _sweep().main()
    assert stopped.value.code == 130
    assert not marker.exists()   # the children were stopped, not waited for
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == [3, 6]
    assert all(r["stopped"] == "stopped by signal 15; kept the 1 playouts before it" for r in rows)
    assert "runs not started: 1, the first at seed 9 of games/war.rcy" in capsys.readouterr().out
    assert not core._RUNNING
    assert signal.getsignal(signal.SIGTERM) is before   # the sweep's handler is gone


def test_a_report_that_cannot_be_logged_stops_the_children_under_way(monkeypatch, tmp_path):
    # seed 0's child reports at once, seed 10's would run a minute: logging the first fails
    marker = tmp_path / "finished"
    later = _sleep_then_mark(marker).replace("\n", "\n    ")
    child = _child_printing([{"translation": "valid", **_run(0, 1)}],
                            f"import sys\nif sys.argv[7] != '0':\n    {later}")
    monkeypatch.setattr(core, "_CHILD", child)

    started = []

    def log(path, seed, n, report):
        started.append(seed)
        assert report["playouts"] == 1
        raise OSError(28, "No space left on device")
    pool = core.LocalPool(2)
    with pytest.raises(OSError, match="No space left"):
        try:
            core.sweep(core.tasks([Path("x.rcy")], 20, 0, 10), core.RunOptions(), pool, log)
        finally:
            pool.close()
    assert not marker.exists() and not core._RUNNING   # the other child was stopped, not waited for
    assert started == [0]


def test_a_run_asked_to_stop_before_it_starts_starts_no_child(monkeypatch):
    monkeypatch.setattr(core, "_CHILD", "raise SystemExit('a child started')")
    assert core.run(Path("games/x.rcy"), _args(), 40, 10, stop=lambda: True) == {"not_started": True}


def test_a_run_that_fails_to_report_is_logged_as_an_error_and_the_sweep_goes_on(monkeypatch):
    def run(path, opts, seed, n, stop=None):
        if seed == 0:
            raise OSError("worker lost")
        return {"playouts": n}
    monkeypatch.setattr(core, "run", run)
    reports = []
    pool = core.LocalPool(2)
    try:
        core.sweep(core.tasks([Path("x.rcy")], 4, 0, 2), core.RunOptions(), pool,
                   lambda path, seed, n, r: reports.append((seed, r)))
    finally:
        pool.close()
    assert sorted(reports, key=lambda x: x[0]) == [(0, {"error": "OSError: worker lost", "wall": 0.0}),
                                                   (2, {"playouts": 2})]


def test_a_real_sweep_agrees_the_same_on_a_dask_cluster_as_here():
    from distributed import LocalCluster
    # a worker in another process, reached by the scheduler's address as a remote one is: the
    # runs, their options and the file (as its bytes) are pickled to it
    runs = core.tasks([ROOT / "games" / "kuhn_poker.rcy"], 6, 0, 3)
    opts = core.RunOptions(memory_gb=4, time_limit=60, fit=20)
    found = {}
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=":0") as cluster:
        for name, pool in (("here", core.LocalPool(2)), ("dask", core.DaskPool(cluster.scheduler_address))):
            reports = []
            try:
                core.sweep(runs, opts, pool, lambda path, seed, n, r: reports.append((seed, r)))
            finally:
                pool.close()
            found[name] = sorted((seed, r["playouts"], r["kif_sha256"], r["divergence"]) for seed, r in reports)
    assert found["here"] == found["dask"]
    assert [(seed, playouts) for seed, playouts, _, _ in found["here"]] == [(0, 3), (3, 3)]
    assert all(divergence is None for *_, divergence in found["here"])


def test_a_child_plays_the_translation_on_the_machine_it_is_given(monkeypatch):
    # the child really runs the engine named: with a name crosscheck does not know it fails
    # with crosscheck's own message, so the option is not dropped on the way
    path = ROOT / "games" / "kuhn_poker.rcy"
    runs = {m: core.run(path, core.RunOptions(memory_gb=4, time_limit=60, machine=m), 0, 3)
            for m in ("clingo", "propnet")}
    assert {m: (r["playouts"], r["gdl_steps"], r["kif_sha256"], r["divergence"]) for m, r in runs.items()} == \
        {m: (3, runs["clingo"]["gdl_steps"], runs["clingo"]["kif_sha256"], None) for m in runs}
    bad = core.run(path, core.RunOptions(memory_gb=4, time_limit=60, machine="nosuch"), 0, 1)
    assert "nosuch" in bad["error"]


def test_the_summary_tells_the_translation_a_file_has_now_from_older_ones(tmp_path, capsys):
    from ggpbridge.crosscheck import crosscheck
    from ggpbridge.recycle import parse_file
    # a real lockstep run logs the hash of the translation it checked; an older translation's run
    # (another hash) and a run of a file that is not in the folders are marked apart
    folder = tmp_path / "games"
    folder.mkdir()
    kuhn = folder / "kuhn_poker.rcy"
    kuhn.write_bytes((ROOT / "games" / "kuhn_poker.rcy").read_bytes())
    sweep = _sweep()
    name = sweep.log_name(kuhn)
    report = crosscheck(parse_file(kuhn), 3, fit=20).as_dict()
    log = tmp_path / "log.jsonl"
    runs = [{**report, "file": name, "fit": 20, "max_events": 2000},
            {**_run(0, 200, sha="0" * 64), "file": name, "fit": 20, "max_events": 2000},
            {**_run(0, 2, sha=report["kif_sha256"]), "file": "gone.rcy", "fit": 20}]
    log.write_text("".join(json.dumps(r) + "\n" for r in runs))
    sweep.summary(log, current=[folder], n=3)
    lines = capsys.readouterr().out.splitlines()
    marks = {(line.split()[0], line.split()[1]): line.split()[2] for line in lines[1:-1]}
    assert marks == {(name, report["kif_sha256"][:12]): "yes", (name, "0" * 12): "old",
                     ("gone.rcy", report["kif_sha256"][:12]): "?"}
    # the old translation's 200 seeds do not count: the current one has 3 (a file that is not
    # there now is nobody's twin, whatever its translation)
    assert lines[-1] == ("files with 3 or more seeds agreeing on the translation they have now, none diverging: "
                         f"1 of the 1 files in {folder} that translate now")
    sweep.summary(log, current=[folder], n=4)
    assert "diverging: 0 of the 1 files in" in capsys.readouterr().out.splitlines()[-1]
    # a divergence on the current translation, at another event cap: the file is not done
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps(runs[0]) + "\n" + json.dumps(
        {**report, "file": name, "fit": 20, "max_events": 500, "seed": 3, "playouts": 0,
         "divergence": {"seed": 3, "what": "the states differ"}}) + "\n")
    sweep.summary(other, current=[folder], n=3)
    assert "diverging: 0 of the 1 files in" in capsys.readouterr().out.splitlines()[-1]
    # a divergence on the current translation: the file is not done, however many seeds agreed
    with log.open("a") as out:
        out.write(json.dumps({**report, "file": name, "fit": 20, "max_events": 2000, "seed": 3,
                              "playouts": 1, "divergence": {"seed": 4, "what": "the states differ"}}) + "\n")
    sweep.summary(log, current=[folder], n=3)
    assert "diverging: 0 of the 1 files in" in capsys.readouterr().out.splitlines()[-1]


def test_files_of_the_same_name_in_two_folders_are_told_apart_and_old_base_names_still_count(tmp_path, capsys):
    from ggpbridge.crosscheck import crosscheck
    from ggpbridge.recycle import parse_file
    source = (ROOT / "games" / "kuhn_poker.rcy").read_bytes()
    for name in ("a/kuhn_poker.rcy", "b/kuhn_poker.rcy", "a/solo.rcy"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(source)
    sweep = _sweep()
    report = crosscheck(parse_file(tmp_path / "a" / "solo.rcy"), 2, fit=20).as_dict()
    name = {p: sweep.log_name(tmp_path / p) for p in ("a/kuhn_poker.rcy", "b/kuhn_poker.rcy", "a/solo.rcy")}
    assert len(set(name.values())) == 3
    run = {**report, "fit": 20, "max_events": 2000}
    runs = [{**run, "file": name["a/kuhn_poker.rcy"], "seed": 0}, {**run, "file": name["b/kuhn_poker.rcy"], "seed": 5},
            {**run, "file": "kuhn_poker.rcy", "seed": 9},    # an older log's base name: which file?
            {**run, "file": "solo.rcy", "seed": 0}, {**run, "file": name["a/solo.rcy"], "seed": 2}]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in runs))
    sweep.summary(log, current=[tmp_path / "a", tmp_path / "b"], n=4)
    out = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in out[1:-1] if not line.startswith("twins: ")}
    # file, sha, now, fit, events, agree, seeds, ...
    assert {k: (v[2], v[5], v[6]) for k, v in rows.items()} == {
        name["a/kuhn_poker.rcy"]: ("yes", "2", "0..1"), name["b/kuhn_poker.rcy"]: ("yes", "2", "5..6"),
        "kuhn_poker.rcy": ("?", "2", "9..10"), name["a/solo.rcy"]: ("yes", "4", "0..3")}
    # the three files hold one game: twins, whose seeds 0..3 and 5..6 count for each (an older
    # log's base name stands for no file: its seeds count for none)
    assert out[-1].endswith("none diverging: 3 of the 3 files in "
                            f"{tmp_path / 'a'}, {tmp_path / 'b'} that translate now (2 of them by their twins' seeds)")


def test_a_scheduler_address_that_cannot_be_reached_is_a_clean_error(monkeypatch, tmp_path):
    log = tmp_path / "log.jsonl"
    monkeypatch.setattr("sys.argv", ["crosscheck_all.py", "-n", "1", "--dask", "no-port-here", "--log", str(log),
                                     str(ROOT / "games" / "kuhn_poker.rcy")])
    with pytest.raises(SystemExit) as stopped:
        _sweep().main()
    assert str(stopped.value.code).startswith("cannot reach the Dask scheduler at no-port-here: ")
    assert not log.exists()


def test_an_interrupt_while_connecting_to_the_cluster_exits_cleanly_and_leaves_no_cluster(monkeypatch, capsys):
    import distributed
    clusters = []

    class Cluster(distributed.LocalCluster):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            clusters.append(self)

    def client(*args, **kwargs):
        raise KeyboardInterrupt   # Ctrl-C while the client waits for the scheduler
    monkeypatch.setattr(distributed, "LocalCluster", Cluster)
    monkeypatch.setattr(distributed, "Client", client)
    monkeypatch.setattr("sys.argv", ["crosscheck_all.py", "-n", "4", "--chunk", "2", "--dask", "local",
                                     str(ROOT / "games" / "kuhn_poker.rcy")])
    with pytest.raises(SystemExit) as stopped:
        _sweep().main()
    assert stopped.value.code == 130
    assert "interrupted before any run started; runs not started: 2" in capsys.readouterr().out
    assert len(clusters) == 1 and clusters[0].status.name == "closed"


def test_a_server_that_is_not_a_dask_scheduler_is_a_clean_error(monkeypatch):
    import socket
    server = socket.create_server(("127.0.0.1", 0))

    def answer():   # an HTTP server, say: its reply is read as the length of a frame
        conn, _ = server.accept()
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)
    threading.Thread(target=answer, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    monkeypatch.setattr("sys.argv", ["crosscheck_all.py", "-n", "1", "--dask", address,
                                     str(ROOT / "games" / "kuhn_poker.rcy")])
    try:
        with pytest.raises(SystemExit) as stopped:
            _sweep().main()
    finally:
        server.close()
    assert stopped.value.code == f"cannot reach the Dask scheduler at {address}: the server there does not speak " \
                                 "Dask's protocol"


def test_seeds_become_spans_of_consecutive_seeds():
    from ggpbridge.sweep_logs import seed_spans
    assert seed_spans([7, 3, 4, 5, 9, 10, 4]) == ((3, 3), (7, 1), (9, 2))
    assert seed_spans([]) == ()
    x = Path("x.rcy")
    assert core.chunked([(x, 3, 3), (x, 7, 5)], 2) == [(x, 3, 2), (x, 5, 1), (x, 7, 2), (x, 9, 2), (x, 11, 1)]


def test_what_remains_counts_only_runs_of_this_translation_fit_and_event_cap(tmp_path):
    from ggpbridge.sweep_logs import Remaining, read_logs, remaining
    log = tmp_path / "log.jsonl"
    lines = [{**_run(0, 4), "seconds": 8.0},                       # seeds 0..3 agree
             {**_run(6, 1), "seconds": 2.0},                       # seed 6
             {**_run(4, 2, sha="b" * 64), "seconds": 2.0},         # another translation
             {**_run(4, 2), "max_events": 2000, "seconds": 2.0},   # another event cap
             {**_run(4, 2), "fit": 20, "seconds": 2.0}]            # another fit
    log.write_text("".join(json.dumps(r) + "\n" for r in lines))
    groups, _ = read_logs(log)
    rest = remaining(groups, "games/x.rcy", "a" * 12, 200, 500, range(0, 10))
    assert rest.spans == ((4, 2), (7, 3)) and rest.diverged == ()
    assert rest.cost == pytest.approx(16.0 / 11)   # every logged playout of the file, any translation
    assert remaining(groups, "games/y.rcy", "a" * 12, 200, 500, range(2)) == Remaining(((0, 2),), (), None)


def test_a_resumed_sweep_plays_the_seeds_the_logs_lack_cheapest_files_first(tmp_path, monkeypatch, capsys):
    from ggpbridge.crosscheck import crosscheck
    from ggpbridge.recycle import parse_file
    games = ROOT / "games"
    kuhn, leduc, agram = games / "kuhn_poker.rcy", games / "leduc_poker.rcy", games / "agram2_c2.rcy"
    sha = {p.name: crosscheck(parse_file(p), 1, fit=20).as_dict()["kif_sha256"] for p in (kuhn, leduc)}
    broken = tmp_path / "broken.rcy"
    broken.write_text("(game (setup")
    big = tmp_path / "big.rcy"
    big.write_text(TOO_LARGE_GAME)
    log = tmp_path / "log.jsonl"

    def line(name, seed, n, seconds, **kw):
        return {**_run(seed, n, sha=sha.get(name, "0" * 64)), "file": f"games/{name}", "fit": 20, "seconds": seconds,
                **kw}
    rows = [line("kuhn_poker.rcy", 0, 4, 40.0), line("kuhn_poker.rcy", 6, 1, 10.0),   # 10 s a playout
            {**line("kuhn_poker.rcy", 4, 2, 1.0), "kif_sha256": "0" * 64},            # an older translation
            line("leduc_poker.rcy", 0, 2, 2.0, divergence={"seed": 2, "what": "the states differ"}),
            line("agram2_c2.rcy", 0, 1, 1.0)]                                         # an older translation, 1 s
    other = tmp_path / "other.jsonl"   # the runs of two machines, each with its log
    log.write_text("".join(json.dumps(r) + "\n" for r in rows[:3]))
    other.write_text("".join(json.dumps(r) + "\n" for r in rows[3:]))
    monkeypatch.setattr("sys.argv", ["crosscheck_all.py", "-n", "8", "--fit", "20", "--chunk", "2", "--dry-run",
                                     "--resume", str(log), "--resume", str(other), str(kuhn), str(leduc), str(agram),
                                     str(broken), str(big), str(games / "pairs.rcy")])
    sweep = _sweep()
    sweep.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "resumed from the logs: 0 files complete, 3 with 19 seeds to play, 3 left out"
    assert "games/leduc_poker.rcy: diverged at seed 2 on the translation it has now" in out[1]
    # (named as logs name it: from the folder the checkout is in when it is there, as under /tmp)
    assert out[2].startswith(f"  left out: {sweep.log_name(broken)}: does not translate now (RecycleSyntaxError")
    assert out[3].startswith(f"  left out: {sweep.log_name(big)}: too large to ground: (less), (plus), (times) recurse")
    runs = [tuple(line.split()) for line in out[4:]]
    # agram2_c2 costs least (its older translation's playout counts for the cost, not its seeds),
    # then kuhn_poker without its agreed seeds, then pairs, never logged
    assert runs == [("games/agram2_c2.rcy", "0..1"), ("games/agram2_c2.rcy", "2..3"), ("games/agram2_c2.rcy", "4..5"),
                    ("games/agram2_c2.rcy", "6..7"), ("games/kuhn_poker.rcy", "4..5"), ("games/kuhn_poker.rcy", "7..7"),
                    ("games/pairs.rcy", "0..1"), ("games/pairs.rcy", "2..3"), ("games/pairs.rcy", "4..5"),
                    ("games/pairs.rcy", "6..7")]


@pytest.mark.parametrize("mode", ["--summary", "--resume"])
def test_a_log_that_is_missing_or_is_not_one_is_a_clean_error(mode, tmp_path, monkeypatch):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(_run(0, 1)) + "\n" + json.dumps({"seed": 3}) + "\n")
    for log, said in ((tmp_path / "none.jsonl", "No such file or directory"), (bad, f"{bad}:2: not a sweep log line")):
        monkeypatch.setattr("sys.argv", ["crosscheck_all.py", mode, str(log), "--dry-run",
                                         str(ROOT / "games" / "kuhn_poker.rcy")])
        with pytest.raises(SystemExit) as e:
            _sweep().main()
        assert isinstance(e.value.code, str) and said in e.value.code


@pytest.mark.parametrize("game", ["LAMA2", "Blackjack2", "Simon'sCat4"])
def test_twins_run_the_same_lockstep(game, corpus):
    from ggpbridge.crosscheck import crosscheck
    from ggpbridge.recycle import parse_file
    from ggpbridge.sweep_logs import same_game
    # the same game in the two dialects: as it is (LAMA2), with teams of one player each spelt
    # out (Blackjack2.gdl), with a named deck (Simon'sCat4.rcy)
    pair = {d: parse_file(corpus / d / f"{game}.{d}") for d in ("rcy", "gdl")}
    assert same_game(pair["rcy"], pair["gdl"])
    # the premise of twins: the same seeds give the same lockstep, step for step
    reports = {d: crosscheck(g, 3, fit=20).as_dict() for d, g in pair.items()}
    same = ("kif_sha256", "playouts", "decisions", "chance", "gdl_steps", "divergence", "capped", "overflowed")
    assert {k: reports["rcy"][k] for k in same} == {k: reports["gdl"][k] for k in same}
    assert reports["rcy"]["playouts"] == 3 and reports["rcy"]["divergence"] is None


def test_twins_are_the_same_game_with_the_same_translation(corpus):
    from ggpbridge.recycle import parse_file
    from ggpbridge.sweep_logs import TwinFinder, current_sha, same_game
    jack = {d: parse_file(corpus / d / f"Blackjack2.{d}") for d in ("rcy", "gdl")}
    assert jack["gdl"].game.setup.teams and not jack["rcy"].game.setup.teams
    cat = {d: parse_file(corpus / d / f"Simon'sCat4.{d}") for d in ("rcy", "gdl")}
    assert cat["rcy"].game.setup.decks[0].body.name and not cat["gdl"].game.setup.decks[0].body.name
    # GOPS2's two files are the same game too, but only one names its deck in the translation
    gops = {d: parse_file(corpus / d / f"GOPS2.{d}") for d in ("rcy", "gdl")}
    assert same_game(gops["rcy"], gops["gdl"]) and current_sha(gops["rcy"], 0) != current_sha(gops["gdl"], 0)
    # TurnTheTide3's two files translate alike, but one moves a card through `actual`: no twins
    tide = {d: parse_file(corpus / d / f"TurnTheTide3.{d}") for d in ("rcy", "gdl")}
    sha = current_sha(tide["rcy"], 0)
    assert current_sha(tide["gdl"], 0) == sha and not same_game(tide["rcy"], tide["gdl"])
    finder = TwinFinder({("t.rcy", sha, 0, 500): None, ("j.rcy", sha, 20, 500): None},
                        {"t.rcy": tide["rcy"], "j.rcy": jack["rcy"]}.get)
    assert finder.twins("t.gdl", sha, tide["gdl"]) == ("t.gdl",)
    finder.register("t2.rcy", sha, tide["rcy"])
    assert finder.twins("t.gdl", sha, tide["rcy"]) == ("t.gdl", "t.rcy", "t2.rcy")
    assert finder.twins("t.gdl", "0" * 12, tide["rcy"]) == ("t.gdl",)   # another translation
    assert finder.twins("j.gdl", sha, jack["gdl"]) == ("j.gdl", "j.rcy")   # logged at another fit


def test_a_game_with_a_checker_error_is_nobody_s_twin(tmp_path):
    from ggpbridge.recycle import parse_file
    from ggpbridge.sweep_logs import current_sha, same_game
    source = (ROOT / "games" / "kuhn_poker.rcy").read_text()
    assert source.count("(create deck (game iloc STOCK)") == 1
    named, bad = tmp_path / "named.rcy", tmp_path / "bad.rcy"
    named.write_text(source.replace("(create deck (game iloc STOCK)", "(create deck BETSIZE (game iloc STOCK)"))
    # a deck name the checker refuses (a number): the lockstep would refuse the game
    bad.write_text(source.replace("(create deck (game iloc STOCK)", "(create deck (+ 1 2) (game iloc STOCK)"))
    kuhn, named, bad = (parse_file(p) for p in (ROOT / "games" / "kuhn_poker.rcy", named, bad))
    assert current_sha(bad, 0) == current_sha(kuhn, 0)
    assert same_game(kuhn, named) and not same_game(kuhn, bad) and not same_game(bad, bad)


def _twin_folders(tmp_path) -> dict[str, Path]:
    """A game, the same game laid out otherwise (every position moves), and another game."""
    source = (ROOT / "games" / "kuhn_poker.rcy").read_text()
    files = {"a": tmp_path / "a" / "kuhn.rcy", "b": tmp_path / "b" / "kuhn_twin.rcy", "c": tmp_path / "b" / "other.rcy"}
    for f in files.values():
        f.parent.mkdir(exist_ok=True)
    files["a"].write_text(source)
    files["b"].write_text(";; the same game, every line one lower\n\n" + source)
    files["c"].write_text((ROOT / "games" / "agram2_c2.rcy").read_text())
    return files


def test_twins_count_each_other_s_seeds_in_the_summary(tmp_path, capsys):
    from ggpbridge.crosscheck import crosscheck
    from ggpbridge.recycle import parse_file
    files = _twin_folders(tmp_path)
    sweep = _sweep()
    name = {k: sweep.log_name(f) for k, f in files.items()}
    report = crosscheck(parse_file(files["a"]), 2, fit=20).as_dict()
    run = {**report, "fit": 20, "max_events": 2000}
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({**run, "file": name["a"], "seed": 0}) + "\n" +
                   json.dumps({**run, "file": name["b"], "seed": 2}) + "\n" +
                   json.dumps({**run, "file": name["c"], "seed": 0}) + "\n")
    folders = [tmp_path / "a", tmp_path / "b"]
    sweep.summary(log, current=folders, n=4)
    out = capsys.readouterr().out.splitlines()
    # a and b have 2 seeds each, 4 together; c's run was of another translation than its own
    assert f"twins: {name['a']} counts the seeds of {name['b']} (the same game and translation)" in out
    assert out[-1] == ("files with 4 or more seeds agreeing on the translation they have now, none diverging: 2 of "
                       f"the 3 files in {', '.join(map(str, folders))} that translate now (2 of them by their "
                       f"twins' seeds)")
    sweep.summary(log, current=folders, n=5)
    assert "none diverging: 0 of the 3 files" in capsys.readouterr().out.splitlines()[-1]
    # a divergence logged on one twin undoes both
    with log.open("a") as f:
        f.write(json.dumps({**run, "file": name["b"], "seed": 4, "playouts": 0,
                            "divergence": {"seed": 4, "what": "the states differ"}}) + "\n")
    sweep.summary(log, current=folders, n=4)
    assert "none diverging: 0 of the 3 files" in capsys.readouterr().out.splitlines()[-1]


def test_a_resumed_sweep_plays_the_seeds_of_twins_once(tmp_path, monkeypatch, capsys):
    from ggpbridge.crosscheck import crosscheck
    from ggpbridge.recycle import parse_file
    files = _twin_folders(tmp_path)
    sweep = _sweep()
    report = crosscheck(parse_file(files["a"]), 2, fit=20).as_dict()
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({**report, "file": sweep.log_name(files["a"]), "fit": 20, "max_events": 500,
                               "seed": 0}) + "\n")
    # the twin b, never logged, has a's seeds 0 and 1 and no run of its own; c is played whole
    monkeypatch.setattr("sys.argv", ["crosscheck_all.py", "-n", "6", "--fit", "20", "--dry-run", "--resume", str(log),
                                     str(files["b"]), str(files["c"]), str(files["a"])])
    sweep.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "resumed from the logs: 0 files complete, 2 with 10 seeds to play, 0 left out, 1 played by a twin"
    b, a = sweep.log_name(files["b"]), sweep.log_name(files["a"])
    assert out[1:3] == [f"  twins: {b} counts the seeds of {a} (the same game and translation)",
                        f"  twins: {a} counts the seeds of {b} (the same game and translation)"]
    assert [tuple(line.split()) for line in out[3:]] == [(b, "2..5"), (sweep.log_name(files["c"]), "0..5")]


def test_twins_in_another_folder_count_in_the_summary_and_the_resume_alike(tmp_path, monkeypatch, capsys):
    from ggpbridge.crosscheck import crosscheck
    from ggpbridge.recycle import parse_file
    files = _twin_folders(tmp_path)
    sweep = _sweep()
    name = {k: sweep.log_name(f) for k, f in files.items()}
    report = crosscheck(parse_file(files["a"]), 3, fit=20).as_dict()
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({**report, "file": name["a"], "fit": 20, "max_events": 500, "seed": 0}) + "\n")
    # the sweep of folder b alone: its kuhn_twin.rcy has a's seeds, other.rcy none
    sweep.summary(log, current=[tmp_path / "b"], n=3)
    out = capsys.readouterr().out.splitlines()
    assert f"twins: {name['b']} counts the seeds of {name['a']} (the same game and translation)" in out
    assert out[-1].endswith(f"none diverging: 1 of the 2 files in {tmp_path / 'b'} that translate now "
                            "(1 of them by their twins' seeds)")
    monkeypatch.setattr("sys.argv", ["crosscheck_all.py", "-n", "3", "--fit", "20", "--dry-run", "--resume", str(log),
                                     str(tmp_path / "b")])
    sweep.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "resumed from the logs: 1 files complete, 1 with 3 seeds to play, 0 left out"
    assert [tuple(line.split()) for line in out[2:]] == [(name["c"], "0..2")]
    # seeds at another event cap are another check: they do not add up with the twin's
    with log.open("a") as f:
        f.write(json.dumps({**report, "file": name["b"], "fit": 20, "max_events": 2000, "seed": 3}) + "\n")
    sweep.summary(log, current=[tmp_path / "b"], n=6)
    assert "none diverging: 0 of the 2 files" in capsys.readouterr().out.splitlines()[-1]
    # a divergence logged on the twin, at any fit: the file is left out of the resume
    with log.open("a") as f:
        f.write(json.dumps({**report, "file": name["a"], "fit": 0, "max_events": 500, "seed": 9, "playouts": 0,
                            "divergence": {"seed": 9, "what": "the states differ"}}) + "\n")
    monkeypatch.setattr("sys.argv", ["crosscheck_all.py", "-n", "6", "--fit", "20", "--dry-run", "--resume", str(log),
                                     str(files["b"]), str(files["b"])])
    sweep.main()
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["resumed from the logs: 0 files complete, 0 with 0 seeds to play, 1 left out",
                       f"  left out: {name['b']}: diverged at seed 9 on the translation it has now (logged)"]
