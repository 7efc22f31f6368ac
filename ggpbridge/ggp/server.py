"""The player's HTTP server: POST a GGP message, get the reply (Content-Type text/acl).

One thread per connection (stdlib ThreadingHTTPServer), so INFO is answered
while a move is being chosen. Anything that is not a proper POST gets an
`(error "...")` reply with a 4xx status; the server keeps serving.
"""
from __future__ import annotations

import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

from .player import Player
from .protocol import error_reply

MAX_BODY = 32 * 1024 * 1024  # a START with a large description fits; a runaway client does not


class _Handler(BaseHTTPRequestHandler):
    server_version = "ggpbridge"
    protocol_version = "HTTP/1.0"  # one message per connection, as GGP managers do

    def do_POST(self):  # noqa: N802 - the name http.server calls
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            return self._send(411, error_reply("a POST needs a Content-Length header"))
        if int(length) > MAX_BODY:
            return self._send(413, error_reply(f"the message is larger than {MAX_BODY} bytes"))
        body = self.rfile.read(int(length))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return self._send(400, error_reply("the message is not UTF-8 text"))
        reply = self.server.player.handle(text)
        if self.server.log:
            self.server.log(f"<- {text[:200]}\n-> {reply.body}")
        self._send(reply.status, reply.body)

    def do_GET(self):  # noqa: N802
        self._send(405, error_reply("GGP messages are sent with POST"))

    def do_OPTIONS(self):  # noqa: N802 - a browser-based manager asks first
        self._send(200, "")

    def _send(self, status: int, body: str) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/acl")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "POST, GET, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "Content-Type")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):  # noqa: A002 - http.server's signature
        pass  # request lines are noise; `log` above shows the messages when asked


class PlayerServer(ThreadingHTTPServer):
    """An HTTP server around one Player."""

    daemon_threads = True
    request_queue_size = 64  # 20 concurrent connections and more without refusals

    def __init__(self, player: Player, host: str = "127.0.0.1", port: int = 0,
                 log: Callable[[str], None] | None = None):
        super().__init__((host, port), _Handler)
        self.player = player
        self.log = log

    @property
    def url(self) -> str:
        """The address managers send to."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"


def serve(player: Player, host: str = "127.0.0.1", port: int = 0, verbose: bool = False) -> None:
    """Serve until interrupted; prints `listening on URL` first (port 0 picks a free port)."""
    log = (lambda text: print(text, file=sys.stderr, flush=True)) if verbose else None
    server = PlayerServer(player, host, port, log)
    print(f"listening on {server.url}", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
