"""Benchmark: what a large request costs the player's HTTP server; prints the figures.

Run: python benchmarks/ggp_large_body.py [MB ...]   (default sizes 0.25 0.5 1 1.9, and 20 over the cap)
A server (default body cap and read timeout) runs in this process; each body is POSTed
over loopback and the wall and CPU seconds until the reply are printed, with s/MB
(a flat column is linear reading). Kinds: a list never closed, a PLAY of an unknown
match with a long joint move (answered `busy` after reading it), a START whose rules
are many facts without `legal` (read as KIF and refused by validation), and a deeply
nested PLAY. A body over the cap is answered 413 before it is read.
"""
from __future__ import annotations

import http.client
import threading

from ggpbridge.ggp.player import Player
from ggpbridge.ggp.server import PlayerServer
from _clock import Clock, parser, timed

MB = 1 << 20


def _bodies(size: int) -> dict:
    return {
        "unclosed '('": b"(" * size,
        "PLAY, long move": b"(play m (" + b"(a b) " * (size // 6) + b"))",
        "START, many facts": b"(start m a (" + b"(role a) " * (size // 9) + b") 10 10)",
        "deep PLAY term": b"(play m 1 " + b"(f " * (size // 3) + b" ())",
    }


def _post(port: int, body: bytes) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        conn.request("POST", "/", body=body, headers={"Content-Type": "text/acl"})
        response = conn.getresponse()
        return response.status, response.read().decode()[:70]
    except OSError as exc:  # a body over the cap is not read: the send may fail once the reply is in
        return 0, f"{type(exc).__name__} (the server answered and closed)"
    finally:
        conn.close()


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("sizes", nargs="*", type=float, default=[0.25, 0.5, 1, 1.9], help="body sizes in MB")
    sizes = ap.parse_args().sizes
    total = Clock()
    server = PlayerServer(Player("random"))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    port = server.server_address[1]
    print(f"body cap {server.max_body / MB:g} MiB, read timeout {server.read_timeout:g} s")
    print(f"{'kind':18s} {'MB':>5s} {'wall s':>7s} {'cpu s':>7s} {'cpu s/MB':>9s}  reply")
    try:
        for kind in _bodies(1):
            for mb in sizes:
                body = _bodies(int(mb * MB))[kind]
                (status, reply), cpu, wall = timed(lambda: _post(port, body))
                print(f"{kind:18s} {mb:5g} {wall:7.2f} {cpu:7.2f} {cpu / mb:9.3f}  {status} {reply}", flush=True)
        (status, reply), cpu, wall = timed(lambda: _post(port, b"(" * (20 * MB)))
        print(f"{'over the cap':18s} {20:5g} {wall:7.2f} {cpu:7.2f}"
              f" {'':9s}  {status} {reply}")
    finally:
        server.shutdown()
        server.server_close()
    print(f"total: {total}")


if __name__ == "__main__":
    main()
