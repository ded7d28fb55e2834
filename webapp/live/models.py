"""The live referee's tables (on the scoresheet's declarative ``Base``; migrations
``webapp/migrations/versions/live*.py``).

A *live session* is one round watched by a camera. Its ``log`` is the round's
:class:`referee.TurnLog` (``to_dict()``): the truth about whose turn it is and every verdict.
Its snapshots are what the camera agreed the table was, with the picture (the log's entries
refer to them by id); its turns are one row per turn of the log, with what the log does not
keep (when, why, the corrections people made, the delay). :mod:`webapp.live.store` keeps the
rows and the mirrored columns in step with the log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, LargeBinary, String, Text, \
    UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..models import Base, UTCDateTime, utcnow


class LiveSession(Base):
    __tablename__ = "live_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: The round's referee.TurnLog.to_dict().
    log: Mapped[Optional[dict[str, Any]]] = mapped_column(JSON)
    #: Mirrors of the log's state: the seat to move (0-based), the snapshot the next turn is
    #: judged against, and whether a failed turn's table must be put back.
    seat: Mapped[int] = mapped_column(Integer, default=0)
    base_snapshot_id: Mapped[Optional[int]] = mapped_column(Integer)
    restore_pending: Mapped[bool] = mapped_column(Boolean, default=False)
    #: A phone's "end turn" tap waiting for the watcher (a short random id), and when.
    end_turn: Mapped[Optional[str]] = mapped_column(String(32))
    end_turn_at: Mapped[Optional[datetime]] = mapped_column(UTCDateTime)
    #: The watcher's last report: {"state", "detail", "hand", "still", ...} and when.
    watcher: Mapped[Optional[dict[str, Any]]] = mapped_column(JSON)
    watcher_at: Mapped[Optional[datetime]] = mapped_column(UTCDateTime)


class LiveSnapshot(Base):
    __tablename__ = "live_snapshots"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("live_sessions.id", ondelete="CASCADE"),
                                            index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: The table in notation as read (after corrections).
    table: Mapped[str] = mapped_column(Text)
    #: vision.Reading.to_json() (after corrections), its outlines in the picture's pixels.
    reading: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: The camera's picture (JPEG), if sent.
    image: Mapped[Optional[bytes]] = mapped_column(LargeBinary)


class LiveTurn(Base):
    __tablename__ = "live_turns"
    __table_args__ = (UniqueConstraint("session_id", "number", name="uq_live_turns_session_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("live_sessions.id", ondelete="CASCADE"),
                                            index=True)
    number: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    player: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int] = mapped_column(Integer)
    before_id: Mapped[int] = mapped_column(ForeignKey("live_snapshots.id"))
    after_id: Mapped[int] = mapped_column(ForeignKey("live_snapshots.id"))
    #: "still" (the table went still), "end-turn" (a phone's tap)
    reason: Mapped[str] = mapped_column(String(20))
    #: Mirrors of the log's turn: referee.TurnVerdict.to_dict(), or {"problem": ...} when the
    #: reading cannot be judged; and whether the turn was legal (None: not judged).
    verdict: Mapped[dict[str, Any]] = mapped_column(JSON)
    legal: Mapped[Optional[bool]] = mapped_column(Boolean)
    #: [{"at", "by", "index", "from", "to", "legal_before", "legal_after"}]
    corrections: Mapped[list[Any]] = mapped_column(JSON, default=list)
    #: Seconds from the table going still to the verdict being stored (the watcher's part
    #: plus the server's), for the bench.
    delay: Mapped[Optional[float]] = mapped_column(Float)
