"""The one write path: every change, from an HTTP route or from inside the server (the camera
of ``rummiref serve --camera``, the demo), runs through :func:`run_write`.

One transaction, committed or rolled back whole; on SQLite, this process's writers queue on a
lock rather than in SQLite's busy handler; a race lost on a unique constraint (two phones, or
two servers, at the same moment) or a PostgreSQL deadlock is tried again from scratch; after the
commit the phones listening to the game are woken (``webapp.events``).
"""

from __future__ import annotations

import contextlib
import time
from typing import Any, Callable, Optional, TypeVar

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from .db import writer
from .service import Conflict

WRITE_ATTEMPTS = 4

T = TypeVar("T")
#: What a change returns: its result and the (game id, version) to announce, or None.
Change = Callable[[Session], "tuple[T, Optional[tuple[str, int]]]"]


def run_write(app, db: Session, fn: Change) -> Any:
    """Run ``fn(db)`` in one transaction of ``db`` and commit it; returns what ``fn``
    returned first. ``db`` must be a writer session (:func:`write_session`, or the request's
    session of a POST/PUT/DELETE)."""
    ext = app.extensions["rummiref"]
    # SQLite has one writer at a time; its busy handler makes waiting writers sleep and poll,
    # which under load lets one writer lose the race again and again (seconds).
    lock = ext.get("write_lock") or contextlib.nullcontext()
    for attempt in range(WRITE_ATTEMPTS):
        try:
            with lock:
                try:
                    result, announce = fn(db)
                    db.commit()
                except BaseException:
                    db.rollback()
                    raise
        except IntegrityError:
            if attempt == WRITE_ATTEMPTS - 1:
                raise Conflict("the game changed while this was being saved; try again") from None
            time.sleep(0.005 * (attempt + 1))
            continue
        except OperationalError as e:
            # PostgreSQL deadlock or serialisation failure: try again; anything else: give up.
            code = getattr(getattr(e, "orig", None), "sqlstate", None)
            if code in ("40001", "40P01") and attempt < WRITE_ATTEMPTS - 1:
                time.sleep(0.005 * (attempt + 1))
                continue
            raise
        if announce:
            ext["broker"].notify(*announce)
        return result
    raise AssertionError("unreachable")


def write_session(app) -> Session:
    """A session for :func:`run_write` outside a request (close it when done)."""
    return Session(writer(app.extensions["rummiref"]["engine"]), expire_on_commit=False)


def read_session(app) -> Session:
    """A session that never takes SQLite's write lock (close it when done)."""
    return Session(app.extensions["rummiref"]["engine"], expire_on_commit=False)
