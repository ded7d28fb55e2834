"""Connections: idle sockets cannot take the table offline (waitress's limits and timeouts)."""

from __future__ import annotations

import resource
import socket
import subprocess
import sys
import time


from tests.conftest import REPO
from tests.webapp.http_client import http_request


def _serve(tmp_path, *args: str):
    proc = subprocess.Popen([sys.executable, "-m", "webapp.cli", "serve", "--port", "0",
                             "--instance", str(tmp_path / "inst"), *args], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("rummiref scoresheet: http://127.0.0.1:"), line
    return proc, line.split(": ", 1)[1].strip().rstrip("/")


def _idle_sockets(url: str, n: int) -> list[socket.socket]:
    """``n`` connections that never finish a request: half send nothing, half half a request."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n + 200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, n + 200), hard))
    port = int(url.rsplit(":", 1)[1])
    socks = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if i % 2:
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: table\r\nContent-Length: 100\r\n")
        socks.append(s)
    return socks


def test_hundreds_of_idle_connections_do_not_take_the_server_offline(tmp_path):
    proc, url = _serve(tmp_path)
    socks: list[socket.socket] = []
    try:
        socks = _idle_sockets(url, 600)
        time.sleep(0.3)
        t0 = time.perf_counter()
        status, _, presets = http_request(url + "/api/presets", timeout=10)
        assert status == 200 and presets["default"]
        status, _, created = http_request(url + "/api/games", "POST", {"players": ["A", "B"]},
                                          timeout=10)
        assert status == 201 and created["token"]
        assert time.perf_counter() - t0 < 2.0
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.communicate(timeout=15)


def test_idle_connections_over_the_limit_are_closed_after_the_idle_timeout(tmp_path):
    proc, url = _serve(tmp_path, "--connection-limit", "40", "--idle-timeout", "2")
    socks: list[socket.socket] = []
    try:
        socks = _idle_sockets(url, 60)  # more than the limit: the server stops accepting
        t0 = time.perf_counter()
        status, _, _ = http_request(url + "/api/presets", timeout=15)
        waited = time.perf_counter() - t0
        assert status == 200 and waited < 8.0, waited  # 2 s idle + the next clean-up
        closed = 0
        for s in socks:
            s.settimeout(0.5)
            try:
                closed += s.recv(1) == b""
            except OSError:
                pass
        assert closed >= 30  # the idle ones the server had accepted were hung up on
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.communicate(timeout=15)
