"""The player's HTTP server against slow, half-sent and oversized requests (loopback only)."""
from __future__ import annotations

import select
import socket
import threading

import pytest
from ggp_helpers import post

from ggpbridge.ggp.player import Player
from ggpbridge.ggp.server import PlayerServer


@pytest.fixture
def server():
    """A server in this process with a short read timeout and a small body cap."""
    srv = PlayerServer(Player("legal"), read_timeout=1.0, max_body=1000)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()
    thread.join(5)


def _connect(srv) -> socket.socket:
    sock = socket.create_connection(srv.server_address[:2], timeout=10)  # bounds every wait below
    return sock


def _until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (socket.timeout if it never does)."""
    data = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return data
        data += chunk


def test_the_default_read_timeout_is_finite():
    srv = PlayerServer(Player())
    try:
        assert 0 < srv.read_timeout <= 60 and srv.max_body > 1_000_000
    finally:
        srv.server_close()


def test_half_sent_requests_are_closed_after_the_read_timeout(server):
    # each recv waits 10 s at most (_connect): a connection the server kept open fails the test
    socks = [_connect(server) for _ in range(6)]
    try:
        for i, sock in enumerate(socks):
            sock.sendall(b"POST / HTTP/1.0\r\nContent-Le" if i < 3 else
                         b"POST / HTTP/1.0\r\nContent-Length: 100\r\n\r\n(inf")
        replies = [_until_closed(sock) for sock in socks]
    finally:
        for sock in socks:
            sock.close()
    assert all(reply == b"" for reply in replies[:3])          # headers never ended: closed
    assert all(b" 408 " in reply.split(b"\r\n")[0] + b" " and b"did not arrive" in reply
               for reply in replies[3:])                        # body never ended: 408 and why
    assert post(server.url, "(info)")[0] == 200                  # and the server serves on


def test_a_request_trickled_a_byte_at_a_time_is_cut_off(server):
    # one deadline for the whole request, not one per byte
    with _connect(server) as sock:
        closed = False
        for _ in range(60):  # 6 s at most; the read timeout is 1 s
            try:
                sock.sendall(b"X")
            except OSError:
                closed = True
                break
            if select.select([sock], [], [], 0.1)[0]:
                try:
                    closed = sock.recv(4096) == b""
                except OSError:
                    closed = True
                if closed:
                    break
        assert closed


def test_a_body_over_the_cap_gets_413_without_being_read(server):
    with _connect(server) as sock:
        sock.sendall(b"POST / HTTP/1.0\r\nContent-Length: 1001\r\n\r\n")
        reply = _until_closed(sock)
    assert b" 413 " in reply.split(b"\r\n")[0] + b" " and b"larger than 1000 bytes" in reply
    assert post(server.url, "(info " + "x" * 900 + ")")[0] == 400  # under the cap: read and answered


@pytest.mark.parametrize("length", ["\u00b2", "-1", "1e3", ""])
def test_a_content_length_that_is_not_a_number_gets_411(server, length):
    with _connect(server) as sock:
        sock.sendall(f"POST / HTTP/1.0\r\nContent-Length: {length}\r\n\r\n".encode("latin-1"))
        reply = _until_closed(sock)
    assert b" 411 " in reply.split(b"\r\n")[0] + b" "


def test_a_body_shorter_than_its_content_length_is_refused(server):
    with _connect(server) as sock:
        sock.sendall(b"POST / HTTP/1.0\r\nContent-Length: 100\r\n\r\n(info)")
        sock.shutdown(socket.SHUT_WR)  # the client gives up half-way
        reply = _until_closed(sock)
    assert b" 400 " in reply.split(b"\r\n")[0] + b" " and b"6 of 100 bytes" in reply


def test_a_client_that_sends_a_body_over_the_cap_still_reads_the_413(server):
    # the body is sent in full before the reply is read: the server must not reset the connection
    status, reply = post(server.url, "(" * 1_000_000)
    assert status == 413 and "larger than 1000 bytes" in reply


def test_a_body_that_is_not_utf8_is_refused_at_its_first_bad_byte(server):
    status, reply = post(server.url, b"(info \xff)")
    assert status == 400 and "not UTF-8" in reply and "0xff at offset 6" in reply
