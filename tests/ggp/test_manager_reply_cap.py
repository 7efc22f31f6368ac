"""The manager refuses a player's reply that is far larger than any GGP reply, without holding it."""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ggpbridge.ggp import manager
from ggpbridge.ggp.manager import HttpTransport, TransportError


def _server(reply: bytes):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            try:
                self.wfile.write(reply)
            except OSError:
                pass   # the manager hung up after the cap, as it should

        def log_message(self, *args):
            pass
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.mark.parametrize("size,refused", [(100, False), (manager.MAX_REPLY + 10, True)])
def test_a_reply_over_the_cap_is_a_transport_error(size, refused):
    server = _server(b"(" + b"a" * (size - 2) + b")")
    try:
        transport = HttpTransport(f"http://127.0.0.1:{server.server_address[1]}/")
        if refused:
            with pytest.raises(TransportError, match="over"):
                transport.send("(info)", timeout=10)
        else:
            assert len(transport.send("(info)", timeout=10)) == size
    finally:
        server.shutdown()
        server.server_close()
