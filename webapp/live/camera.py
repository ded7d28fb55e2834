"""A camera watched inside the server (``rummiref serve --camera SOURCE`` and ``--demo``).

:class:`InProcessSink` is the watcher's :class:`vision.snapshot.Sink` in this process: it
writes each snapshot through :func:`webapp.live.snapshots.receive`, the same write the HTTP
route makes (transaction, write lock, retries, idempotency, events to the phones), without a
token: it runs inside the server.
"""

from __future__ import annotations

import logging
import time
from contextlib import closing
from typing import Callable, Optional

from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from vision.reading import Reading
from vision.snapshot import Snapshot, WatcherStatus

from .. import service
from ..models import Game
from ..service import ServiceError
from ..transaction import read_session, run_write, write_session
from . import actions, snapshots, store

log = logging.getLogger(__name__)


class InProcessSink:
    """Hands a watcher's snapshots to the game ``game_id`` (None: the game most recently
    changed, looked up at each snapshot). ``results``: the answers, in order. A database too
    busy to answer (SQLite's lock held past its timeout) gets the same snapshot again, with the
    same key, up to ``attempts`` times."""

    def __init__(self, app, game_id: Optional[str] = None, device: str = "camera",
                 attempts: int = 5, backoff: float = 1.0):
        self.app = app
        self.game_id = game_id
        self.device = device
        self.attempts = attempts
        self.backoff = backoff
        self.results: list[dict] = []

    def _target(self) -> Optional[str]:
        if self.game_id:
            return self.game_id
        with closing(read_session(self.app)) as db:
            return db.execute(select(Game.id).order_by(Game.updated_at.desc()).limit(1)).scalar()

    def snapshot(self, snap: Snapshot) -> None:
        game_id = self._target()
        if game_id is None:
            log.warning("no game to referee yet: create one on the scoresheet")
            return
        inp = snapshots.SnapshotIn.from_snapshot(snap)
        for attempt in range(1, self.attempts + 1):
            try:
                with closing(write_session(self.app)) as db:
                    answer = snapshots.receive(self.app, db, game_id, inp, key=snap.key,
                                               actor=self.device)
            except OperationalError as e:
                if attempt == self.attempts:
                    raise
                log.warning("the database is busy (%s); the snapshot again in %g s", e,
                            self.backoff)
                time.sleep(self.backoff)
                continue
            except ServiceError as e:  # refused (a reading that cannot be stored): say so
                log.error("the snapshot was refused: %s", e.message)
                self.results.append({"status": e.status, "error": e.message})
                return
            self.results.append({"status": answer.status, **answer.body})
            return

    def status(self, status: WatcherStatus) -> None:
        game_id = self._target()
        if game_id is None:
            return

        def change(db):
            game = service.get_game(db, game_id, lock=True)
            out, told = actions.status_change(db, game, status.to_json())
            return out, (game.id, game.version) if told else None

        with closing(write_session(self.app)) as db:
            run_write(self.app, db, change)

    def end_turn_requested(self) -> Optional[str]:
        game_id = self._target()
        if game_id is None:
            return None
        with closing(read_session(self.app)) as db:
            game = db.get(Game, game_id)
            s = store.current_session(db, game, create=False) if game is not None else None
            return s.end_turn if s is not None else None


def start_camera(app, camera: str, game_id: Optional[str] = None,
                 reader: Optional[Callable[..., Reading]] = None):
    """Watch ``camera`` (see ``vision.sources.open_source``) in a thread of this process."""
    from vision.sources import open_source
    from vision.watch import Watcher

    from .reader import get_reader

    source = open_source(camera)
    from ..calibration import reader_for_game

    reader = reader or reader_for_game(app, get_reader(app), game_id)
    w = Watcher(source, reader, InProcessSink(app, game_id))
    app.extensions["rummiref_live"]["watchers"].append(w)
    w.start()
    target = f"game {game_id}" if game_id else "the most recently active game"
    print(f"live referee: watching {source.name} for {target}; phones: /games/<id>/live",
          flush=True)
    return w
