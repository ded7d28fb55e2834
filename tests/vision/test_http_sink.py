"""The camera computer's sink: each snapshot is posted with its idempotency key until the
server answers, in order, the same key every time; a server not up yet is waited for. A small
scripted HTTP server on loopback stands in for the scoresheet (tests/webapp/live runs the real
one)."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from vision.http_sink import HttpSink, TransportError
from vision.reading import Reading
from vision.snapshot import Reason, Snapshot


class Stub:
    """Answers ``POST .../snapshots`` from ``script`` (a list of (delay s, status)), then 201;
    records every request."""

    def __init__(self, script=(), port: int = 0):
        self.script = list(script)
        self.requests: list[tuple[str, str, dict, dict]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _answer(self, status, body):
                data = json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client gave up waiting
                    pass

            def do_GET(self):
                stub.requests.append(("GET", self.path, dict(self.headers), {}))
                if self.path == "/api/games/nope":
                    return self._answer(404, {"error": "there is no game 'nope'"})
                self._answer(200, {"id": "g1", "players": [{"name": "Ann"}], "end_turn": None})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append(("POST", self.path, dict(self.headers), body))
                if self.path.endswith("/status"):
                    return self._answer(200, {"ok": True})
                delay, status = stub.script.pop(0) if stub.script else (0, 201)
                time.sleep(delay)
                self._answer(status, {"result": "turn" if status == 201 else "x",
                                      "error": None if status < 400 else f"status {status}"})

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def posts(self):
        return [(h["Idempotency-Key"], b["reading"]["table"]) for m, p, h, b in self.requests
                if m == "POST" and p.endswith("/snapshots")]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def snap(table: str) -> Snapshot:
    return Snapshot(Reading.from_table(table), None, Reason.STILL)


@pytest.fixture
def stub():
    s = Stub()
    yield s
    s.close()


def test_snapshots_are_posted_in_order_with_their_key(stub):
    sink = HttpSink(stub.url, "g1", "tok")
    a, b = snap("R1 R2 R3"), snap("R1 R2 R3 | K5 B5 O5")
    sink.snapshot(a)
    sink.snapshot(b)
    assert sink.flush(10)
    assert stub.posts() == [(a.key, "R1 R2 R3"), (b.key, "R1 R2 R3 | K5 B5 O5")]
    headers = stub.requests[0][2]
    assert headers["Authorization"] == "Bearer tok" and a.key != b.key
    assert [r["status"] for r in sink.results] == [201, 201]


def test_an_answer_that_comes_too_late_is_asked_again_with_the_same_key():
    stub = Stub(script=[(1.5, 201), (0, 503), (0, 409)])
    try:
        sink = HttpSink(stub.url, "g1", "tok", timeout=0.5, backoff=(0.05, 0.1))
        a, b = snap("R1 R2 R3"), snap("K1 K2 K3")
        sink.snapshot(a)
        sink.snapshot(b)
        assert sink.flush(10)
        keys = [k for k, _ in stub.posts()]
        # timed out, busy, lost race: the first snapshot again each time, b only after it
        assert keys == [a.key, a.key, a.key, a.key, b.key]
        assert len(sink.results) == 2 and sink.attempts == 5
    finally:
        stub.close()


def test_a_refused_snapshot_is_dropped_and_the_next_one_goes():
    stub = Stub(script=[(0, 422)])
    try:
        sink = HttpSink(stub.url, "g1", "tok")
        sink.snapshot(snap("R1 R2 R3"))
        sink.snapshot(snap("K1 K2 K3"))
        assert sink.flush(10)
        assert [r["status"] for r in sink.results] == [422, 201]
        assert sink.results[0]["error"] == "status 422" and sink.attempts == 2
    finally:
        stub.close()


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_a_server_not_up_yet_is_waited_for_and_snapshots_wait_with_it():
    port = _free_port()
    sink = HttpSink(f"http://127.0.0.1:{port}", "g1", "tok", timeout=1, backoff=(0.1, 0.2))
    waits: list[str] = []
    got: dict = {}
    t = threading.Thread(target=lambda: got.update(game=sink.connect(on_wait=waits.append)))
    t.start()
    a = snap("R1 R2 R3")
    sink.snapshot(a)          # kept while the server is away
    time.sleep(0.8)
    assert t.is_alive() and waits and "trying again" in waits[0]
    stub = Stub(port=port)    # the server comes up
    try:
        t.join(10)
        assert got["game"]["id"] == "g1"
        assert sink.flush(10)
        assert stub.posts() == [(a.key, "R1 R2 R3")]
    finally:
        stub.close()


def test_connect_gives_up_at_once_on_a_wrong_game_and_on_time_when_asked(stub):
    with pytest.raises(TransportError) as e:
        HttpSink(stub.url, "nope", "tok").connect()
    assert e.value.status == 404 and "no game" in str(e.value)
    t0 = time.monotonic()
    with pytest.raises(TransportError):
        HttpSink(f"http://127.0.0.1:{_free_port()}", "g1", "tok",
                 backoff=(0.1, 0.1)).connect(give_up_after=0.5)
    assert time.monotonic() - t0 < 3
