"""Server-sent events: every phone on a game hears of a new round, an edit, an undo or a timer
tap within a fraction of a second.

Each change bumps the game's ``version`` and writes a ``game_events`` row in the same
transaction (``service.record_change``). A stream sends the rows after the version it has seen.
Two ways wake a waiting stream:

* in this process: the request that committed the change calls :meth:`Broker.notify`, which
  wakes the streams of that game at once;
* in any other process or server (several workers, several machines on one PostgreSQL): one
  poller thread per process reads the versions of the games that have open streams every
  ``SSE_POLL_INTERVAL`` seconds (0.25 s by default) in a single query; a followed game it
  no longer finds was deleted, and its streams say so. The poller stops
  once no stream has been open for ``SSE_POLLER_IDLE_SECONDS`` (30 s), and the next stream
  starts it again.

A stream ends after ``SSE_MAX_SECONDS``; the browser's EventSource reconnects by itself with
``Last-Event-ID``, and the stream resumes after that version, so nothing is missed.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Iterator, Optional

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from .models import Game, GameEvent

#: the version a game deleted by another process is given: above every version a stream has
#: sent, so its streams wake and find it gone
_GONE = float("inf")
#: The longest a stream waits (seconds) before it reads its game's event log again, woken or
#: not: a change made on another server reaches the phone this late at most however slow the
#: poll (``SSE_POLL_INTERVAL``), and one whose wake-up were ever missed, too.
REREAD_SECONDS = 5.0


class Broker:
    """Wakes streams when their game's version moves past what they have sent."""

    def __init__(self, engine: Engine, poll_interval: float = 0.25, idle_stop: float = 30.0):
        self.engine = engine
        self.poll_interval = poll_interval
        self.idle_stop = idle_stop  # seconds with no stream open before the poller stops
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)  # guards the dicts below
        self._game_conds: dict[str, threading.Condition] = {}  # one per watched game, same lock
        self._versions: dict[str, float] = {}  # int versions, or _GONE (deleted elsewhere)
        self._watchers: dict[str, int] = {}
        self._poller: Optional[threading.Thread] = None
        self.streams = 0
        self.closed = False

    def close(self) -> None:
        """End every open stream (the server is stopping); later streams end at once too."""
        with self._cond:
            self.closed = True
            for cond in self._game_conds.values():
                cond.notify_all()

    def _wake(self, game_id: str) -> None:
        cond = self._game_conds.get(game_id)
        if cond is not None:
            cond.notify_all()

    def notify(self, game_id: str, version: int) -> None:
        """A change was committed: wake the streams of that game (only those)."""
        with self._cond:
            if game_id not in self._watchers:  # nobody listening here: nothing to remember
                return
            if version > self._versions.get(game_id, -1):
                self._versions[game_id] = version
            self._wake(game_id)

    def subscribe(self, game_id: str, max_streams: Optional[int] = None) -> bool:
        """Register a stream; False (and nothing registered) when ``max_streams`` are open."""
        with self._cond:
            if max_streams is not None and self.streams >= max_streams:
                return False
            self._watchers[game_id] = self._watchers.get(game_id, 0) + 1
            self._game_conds.setdefault(game_id, threading.Condition(self._lock))
            self.streams += 1
            if self._poller is None or not self._poller.is_alive():
                self._poller = threading.Thread(target=self._poll, name="rummiref-sse-poller",
                                                daemon=True)
                self._poller.start()
            return True

    def unsubscribe(self, game_id: str) -> None:
        with self._cond:
            self.streams -= 1
            n = self._watchers.get(game_id, 0) - 1
            if n <= 0:
                self._watchers.pop(game_id, None)
                self._versions.pop(game_id, None)
                self._game_conds.pop(game_id, None)
            else:
                self._watchers[game_id] = n

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        """Wait until the game's version passes ``after`` or ``timeout`` elapses; True if it did."""
        with self._cond:
            cond = self._game_conds.get(game_id)
            if cond is None:  # not subscribed: nothing would wake us
                return self._versions.get(game_id, -1) > after
            return cond.wait_for(
                lambda: self.closed or self._versions.get(game_id, -1) > after, timeout)

    def _poll(self) -> None:
        idle_since: Optional[float] = None
        while True:
            with self._cond:
                ids = list(self._watchers)
                if self.closed:
                    self._poller = None
                    return
                if not ids:
                    now = time.monotonic()
                    idle_since = idle_since or now
                    if now - idle_since > self.idle_stop:  # nobody listening: stop polling
                        self._poller = None
                        return
                else:
                    idle_since = None
            if ids:
                try:
                    with Session(self.engine) as db:
                        rows = db.execute(select(Game.id, Game.version)
                                          .where(Game.id.in_(ids))).all()
                except Exception:  # the database is briefly away: try again next tick
                    rows = None
                with self._cond:
                    for gid, version in rows or ():
                        if gid in self._watchers and version > self._versions.get(gid, -1):
                            self._versions[gid] = version
                            self._wake(gid)
                    # a game followed here that the database no longer holds was deleted by
                    # another process: its streams are woken and find it gone
                    found = set(ids) if rows is None else {gid for gid, _ in rows}
                    for gid in ids:
                        if gid not in found and gid in self._watchers:
                            self._versions[gid] = _GONE
                            self._wake(gid)
            time.sleep(self.poll_interval)


def format_event(event: str, data: Any, event_id: Optional[int] = None) -> str:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append(f"event: {event}")
    # one line: JSON escapes CR and LF, the only line ends of an event stream (splitlines()
    # would also break at U+2028, U+2029 and U+0085, which JSON leaves as they are, and the
    # phone would join the parts with a newline, no longer JSON)
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    lines.append(f"data: {payload}")
    return "\n".join(lines) + "\n\n"


def events_after(engine: Engine, game_id: str, after: int, limit: int = 200) -> list[GameEvent]:
    with Session(engine) as db:
        return list(db.execute(select(GameEvent).where(GameEvent.game_id == game_id,
                                                       GameEvent.version > after)
                               .order_by(GameEvent.version).limit(limit)).scalars())


def _deleted(engine: Engine, game_id: str) -> bool:
    with Session(engine) as db:
        return db.get(Game, game_id) is None


def stream(broker: Broker, game_id: str, after: Optional[int], hello: Optional[dict],
           current_version: int, *, max_seconds: float, heartbeat: float,
           max_streams: Optional[int] = None) -> Iterator[str]:
    """The body of one event stream. ``hello`` (the full game) is sent first on a fresh
    connection; a resumed one (``after`` given) gets the events it missed instead. When
    ``max_streams`` streams are already open (each holds a server thread), the stream says
    ``busy`` and ends, and the browser tries again 5 s later."""
    if not broker.subscribe(game_id, max_streams):
        yield "retry: 5000\n\n"
        yield format_event("busy", {"error": "too many open live connections on this server; "
                                              "retrying in 5 s"})
        return
    try:
        yield "retry: 1000\n\n"
        if after is None or after > current_version:
            last = current_version
            yield format_event("hello", {"version": current_version, "game": hello}, current_version)
        else:
            last = after
        deadline = time.monotonic() + max_seconds
        last_sent = time.monotonic()
        broker.notify(game_id, current_version)  # seed what the poller compares against
        woken = False
        while True:
            rows = events_after(broker.engine, game_id, last)
            if not rows and woken and _deleted(broker.engine, game_id):
                yield format_event("game-deleted", {"game": game_id})
                return
            for row in rows:
                yield format_event(row.type, row.data, row.version)
                last = row.version
                last_sent = time.monotonic()
            if len(rows) == 200:  # more waiting: send them before sleeping
                continue
            now = time.monotonic()
            if now >= deadline or broker.closed:
                return
            if now - last_sent >= heartbeat:
                yield ": ping\n\n"
                last_sent = now
            # until the next ping is due (the heartbeat counts from the last thing sent)
            woken = broker.wait(game_id, last,
                                min(last_sent + heartbeat - now, deadline - now, REREAD_SECONDS))
    finally:
        broker.unsubscribe(game_id)
