"""The watcher's sink on a camera computer of its own: snapshots and status posted over HTTP to
the scoresheet server (``/api/games/<id>/live``). Standard library only, so the camera computer
needs nothing beyond the ``vision`` extra.

Snapshots go out in order from a thread of their own, so the camera is never held up by the
network. Each is posted with its ``Idempotency-Key`` and posted again, with the same key, until
the server answers: when it cannot be reached, when it is busy (5xx, 409, 429) and when the
answer does not come within ``timeout`` seconds (the server may still have saved it: the key
makes the repeat count once). A snapshot the server refuses (4xx) is logged and dropped. At most
``keep`` snapshots wait; beyond that the oldest is dropped.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from typing import Any, Callable, Optional

from .snapshot import Snapshot, WatcherStatus

log = logging.getLogger(__name__)

#: Answers worth trying again (with the same key): busy, a lost race, too many requests.
RETRY_STATUS = frozenset({408, 409, 425, 429})


class TransportError(Exception):
    """No answer from the server (or one that ends the watch: ``status`` says which)."""

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.status = status


Transport = Callable[[str, str, Any, dict, float], "tuple[int, Any]"]


def urllib_transport(base_url: str) -> Transport:
    """JSON over HTTP to ``base_url`` with urllib: ``(method, path, body, headers, timeout) ->
    (status, json)``; TransportError when no answer came."""
    base = base_url.rstrip("/")

    def send(method: str, path: str, body: Any, headers: dict, timeout: float):
        data = None
        h = {"Accept": "application/json", **headers}
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        req = urllib.request.Request(base + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"null")
            except ValueError:
                return e.code, {"error": f"HTTP {e.code}"}
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = getattr(e, "reason", e)
            raise TransportError(f"no answer from {base}: {reason}") from None

    return send


class HttpSink:
    """Posts a watcher's snapshots and status to the game ``game_id`` on ``server``, with the
    game's edit ``token``. ``results``: the server's answers to the snapshots, in order."""

    def __init__(self, server: str, game_id: str, token: str, *, device: str = "camera",
                 timeout: float = 10.0, keep: int = 50, backoff: tuple[float, float] = (0.5, 10.0),
                 transport: Optional[Transport] = None):
        self.server = server.rstrip("/")
        self.game = game_id
        self.timeout = timeout
        self.backoff = backoff
        self.send = transport or urllib_transport(server)
        self.headers = {"Authorization": f"Bearer {token}", "X-Rummiref-Device": device[:60]}
        self.base = f"/api/games/{game_id}/live"
        self.results: list[dict] = []
        self.attempts = 0
        self._queue: deque[tuple[str, dict]] = deque(maxlen=keep)
        self._cond = threading.Condition()
        self._busy = False
        self._closed = False
        self._thread: Optional[threading.Thread] = None

    def connect(self, *, give_up_after: Optional[float] = None,
                on_wait: Callable[[str], None] = lambda message: None) -> dict:
        """Wait for the server (trying again with backoff while it cannot be reached), check
        the game and the token, and return the game. TransportError (with ``status``) when the
        game does not exist or the token is not its own; without an answer after
        ``give_up_after`` seconds (None: for ever), the last TransportError."""
        deadline = None if give_up_after is None else time.monotonic() + give_up_after
        delay = self.backoff[0]
        while True:
            try:
                status, game = self.send("GET", f"/api/games/{self.game}", None, {},
                                         self.timeout)
                if status == 200:
                    self.status(WatcherStatus("connecting", "the camera is starting"))
                    return game
                if status < 500 and status not in RETRY_STATUS:
                    raise TransportError(_error(game, status), status)
                problem = _error(game, status)
            except TransportError as e:
                if e.status is not None:
                    raise
                problem = str(e)
            if deadline is not None and time.monotonic() + delay > deadline:
                raise TransportError(problem)
            on_wait(f"{problem}; trying again in {delay:g} s")
            time.sleep(delay)
            delay = min(delay * 2, self.backoff[1])

    def snapshot(self, snap: Snapshot) -> None:
        body = snap.to_json()
        with self._cond:
            if len(self._queue) == self._queue.maxlen:
                log.error("%d snapshots waiting for the server: the oldest is dropped",
                          len(self._queue))
            self._queue.append((snap.key, body))
            self._cond.notify_all()
            if self._thread is None:
                self._thread = threading.Thread(target=self._deliver, daemon=True,
                                                name="rummiref-http-sink")
                self._thread.start()

    def status(self, status: WatcherStatus) -> None:
        code, out = self.send("POST", self.base + "/status", status.to_json(), self.headers,
                              self.timeout)
        if code >= 400:
            raise TransportError(_error(out, code), code)

    def end_turn_requested(self) -> Optional[str]:
        code, out = self.send("GET", self.base, None, self.headers, self.timeout)
        return (out or {}).get("end_turn") if code == 200 else None

    @property
    def pending(self) -> int:
        """Snapshots not yet answered."""
        with self._cond:
            return len(self._queue) + (1 if self._busy else 0)

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Wait until every snapshot handed on has been answered; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _deliver(self) -> None:
        delay = self.backoff[0]
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queue or self._closed)
                if self._closed:
                    return
                key, body = self._queue[0]
                self._busy = True
            answer = self._post(key, body)
            with self._cond:
                if answer is None:  # no answer: the same snapshot again, with the same key
                    self._busy = False
                    wait = delay
                    delay = min(delay * 2, self.backoff[1])
                    if self._cond.wait_for(lambda: self._closed, wait):
                        return
                    continue
                delay = self.backoff[0]
                if self._queue and self._queue[0][0] == key:
                    self._queue.popleft()
                self.results.append(answer)
                self._busy = False
                self._cond.notify_all()

    def _post(self, key: str, body: dict) -> Optional[dict]:
        """The server's answer, or None when the snapshot must be posted again."""
        self.attempts += 1
        try:
            code, out = self.send("POST", self.base + "/snapshots", body,
                                  {**self.headers, "Idempotency-Key": key}, self.timeout)
        except TransportError as e:
            log.warning("snapshot not delivered yet (%d waiting): %s", len(self._queue), e)
            return None
        if code >= 500 or code in RETRY_STATUS:
            log.warning("the server could not take the snapshot yet: %s", _error(out, code))
            return None
        if code >= 400:
            log.error("the server refused a snapshot: %s", _error(out, code))
        return {"status": code, **(out if isinstance(out, dict) else {})}


def _error(out: Any, status: int) -> str:
    return (out or {}).get("error") if isinstance(out, dict) and (out or {}).get("error") \
        else f"HTTP {status}"
