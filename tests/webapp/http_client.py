"""A plain HTTP client for the live-server tests, server-sent events included (standard library only)."""

from __future__ import annotations

import http.client
import json
import socket
import time
import uuid
from typing import Any, Optional
from urllib.parse import urlsplit




def http_request(url: str, method: str = "GET", body: Any = None, headers: Optional[dict] = None,
         timeout: float = 10.0) -> tuple[int, dict, Any]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    hdrs = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        hdrs.setdefault("Content-Type", "application/json")
    try:
        conn.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), data, hdrs)
        resp = conn.getresponse()
        raw = resp.read()
        ctype = resp.getheader("Content-Type", "")
        payload = json.loads(raw) if ctype.startswith("application/json") else raw
        return resp.status, dict(resp.getheaders()), payload
    finally:
        conn.close()


class SSEClient:
    """Reads a server-sent event stream line by line, like a phone's EventSource."""

    def __init__(self, url: str, headers: Optional[dict] = None, timeout: float = 10.0):
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        self.conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""),
                          headers={"Accept": "text/event-stream", **(headers or {})})
        self.sock = self.conn.sock  # http.client lets go of it once the response is streaming
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.content_type = self.resp.getheader("Content-Type", "")

    def next_event(self, timeout: float = 5.0) -> Optional[dict[str, Any]]:
        """The next event (``{"event", "id", "data"}``), skipping comments; None at the end."""
        self.sock.settimeout(timeout)
        event: dict[str, Any] = {}
        data_lines: list[str] = []
        while True:
            line = self.resp.readline()
            if not line:
                return None
            line = line.decode().rstrip("\r\n")
            if line == "":
                if data_lines or event.get("event"):
                    event["data"] = json.loads("\n".join(data_lines)) if data_lines else None
                    return event
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "data":
                data_lines.append(value)
            elif field in ("event", "id", "retry"):
                event[field] = value

    def wait_for(self, event_type: str, timeout: float = 5.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {event_type!r} event within {timeout} s")
            try:
                ev = self.next_event(left)
            except (socket.timeout, TimeoutError):
                raise TimeoutError(f"no {event_type!r} event within {timeout} s") from None
            if ev is None:
                raise EOFError("the stream ended")
            if ev.get("event") == event_type:
                return ev

    def close(self) -> None:
        try:
            self.resp.close()
            self.sock.close()
        finally:
            self.conn.close()


def unique_key() -> str:
    return str(uuid.uuid4())
