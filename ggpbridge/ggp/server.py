"""The player's HTTP server: POST a GGP message, get the reply (Content-Type text/acl).

One thread per connection (stdlib ThreadingHTTPServer), so INFO is answered
while a move is being chosen. Anything that is not a proper POST gets an
`(error "...")` reply with a 4xx status; the server keeps serving.
"""
from __future__ import annotations

import io
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

from .player import Player
from .protocol import error_reply

# A START with a large description fits (our largest translations are ~60 kB, the rules
# of the big ggp-base games a few hundred kB); a runaway client does not.
MAX_BODY = 2 * 1024 * 1024
DISCARD_MAX = 64 * 1024 * 1024  # bytes of a refused body read (and dropped) so that its 413 arrives
# Seconds for a whole request to arrive: managers send it at once, so a few seconds
# cover a large START on a slow link; a client that stops half-way is cut off after it.
READ_TIMEOUT = 10.0


class _DeadlineReader(io.RawIOBase):
    """A socket's input with one deadline for the whole request, however the client
    spaces its bytes (a per-read timeout alone lets a byte every few seconds through)."""

    def __init__(self, sock: socket.socket, deadline: float):
        super().__init__()
        self._sock, self._deadline = sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self._sock.settimeout(left)
        return self._sock.recv_into(buffer)


class _Handler(BaseHTTPRequestHandler):
    server_version = "ggpbridge"
    protocol_version = "HTTP/1.0"  # one message per connection, as GGP managers do

    def setup(self):
        super().setup()
        # http.server reads the request line and headers from rfile, so the deadline
        # covers them too; a TimeoutError there makes it drop the connection.
        self.rfile.close()
        self.rfile = io.BufferedReader(
            _DeadlineReader(self.connection, time.monotonic() + self.server.read_timeout))

    def do_POST(self):  # noqa: N802 - the name http.server calls
        length = (self.headers.get("Content-Length") or "").strip()
        if not (length.isascii() and length.isdigit()):
            return self._send(411, error_reply("a POST needs a Content-Length header with the body's size"))
        size, limit = int(length), self.server.max_body
        if size > limit:  # refused before a byte of the body is parsed
            self._send(413, error_reply(f"the message is larger than {limit} bytes"))
            return self._discard(size)
        try:
            body = self.rfile.read(size)
        except TimeoutError:
            return self._send(408, error_reply(
                f"the message did not arrive within {self.server.read_timeout:g} s"))
        if len(body) < size:
            return self._send(400, error_reply(f"the connection ended after {len(body)} of {size} bytes"))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            return self._send(400, error_reply(f"the message is not UTF-8 text: byte 0x{body[exc.start]:02x} "
                                               f"at offset {exc.start}"))
        reply = self.server.player.handle(text)
        if self.server.log:
            self.server.log(f"<- {text[:200]}\n-> {reply.body}")
        self._send(reply.status, reply.body)

    def _discard(self, size: int) -> None:
        # A client sends its whole body before it reads the reply: closing on unread data
        # would reset the connection and lose the 413. So the body is read and dropped,
        # within the request's deadline and up to a bound.
        left = min(size, DISCARD_MAX)
        try:
            while left > 0:
                chunk = self.rfile.read1(min(left, 1 << 16))
                if not chunk:
                    break
                left -= len(chunk)
        except (TimeoutError, OSError):
            pass

    def do_GET(self):  # noqa: N802
        self._send(405, error_reply("GGP messages are sent with POST"))

    def do_OPTIONS(self):  # noqa: N802 - a browser-based manager asks first
        self._send(200, "")

    def _send(self, status: int, body: str) -> None:
        data = body.encode("utf-8")
        # whatever the read deadline left, writing the reply gets the whole timeout again
        self.connection.settimeout(self.server.read_timeout)
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
                 log: Callable[[str], None] | None = None, read_timeout: float = READ_TIMEOUT,
                 max_body: int = MAX_BODY):
        super().__init__((host, port), _Handler)
        self.player = player
        self.log = log
        self.read_timeout, self.max_body = read_timeout, max_body

    @property
    def url(self) -> str:
        """The address managers send to."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"


def serve(player: Player, host: str = "127.0.0.1", port: int = 0, verbose: bool = False,
          read_timeout: float = READ_TIMEOUT, max_body: int = MAX_BODY) -> None:
    """Serve until interrupted; prints `listening on URL` first (port 0 picks a free port)."""
    log = (lambda text: print(text, file=sys.stderr, flush=True)) if verbose else None
    server = PlayerServer(player, host, port, log, read_timeout, max_body)
    print(f"listening on {server.url}", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
