"""The scoresheet's tables. Change them only together with a new Alembic migration
(``webapp/migrations/versions``); ``tests/webapp/test_migrations.py`` checks the two agree."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Optional

from sqlalchemy import (JSON, BigInteger, Boolean, DateTime, ForeignKey, Integer, MetaData,
                        String, UniqueConstraint)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

NAME_MAX = 40
DEVICE_MAX = 60
TITLE_MAX = 60
#: The longest rack a player may type as text ("R5 K13 J ...").
RACK_TEXT_MAX = 400
#: What a game can be played to: a number of points (the first total to reach it ends the
#: game) or a number of rounds.
TARGET_KINDS = ("points", "rounds")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class UTCDateTime(TypeDecorator):
    """A timezone-aware UTC timestamp on every backend (SQLite stores naive text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None:
            if value.tzinfo is None:
                value = value.replace(tzinfo=timezone.utc)
            value = value.astimezone(timezone.utc)
            if dialect.name == "sqlite":
                value = value.replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    })


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    rules: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64))
    owner_device: Mapped[Optional[str]] = mapped_column(String(DEVICE_MAX))
    #: Bumped by every change; Server-sent events carry it as their id.
    version: Mapped[int] = mapped_column(Integer, default=0)
    timer_state: Mapped[str] = mapped_column(String(8), default="idle")
    timer_seat: Mapped[int] = mapped_column(Integer, default=0)
    timer_turn: Mapped[int] = mapped_column(Integer, default=0)
    timer_started_ms: Mapped[Optional[int]] = mapped_column(BigInteger)
    timer_elapsed_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    #: A name the owner gave the game (None: it is called by its players).
    title: Mapped[Optional[str]] = mapped_column(String(TITLE_MAX))
    #: What the game is played to (one of TARGET_KINDS and a number), or None: no end.
    target_kind: Mapped[Optional[str]] = mapped_column(String(8))
    target: Mapped[Optional[int]] = mapped_column(Integer)
    #: The game this one is a rematch of (one rematch per game; the id may outlive that game).
    rematch_of: Mapped[Optional[str]] = mapped_column(String(16), unique=True, index=True)

    players: Mapped[list["Player"]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan",
        passive_deletes=True)
    rounds: Mapped[list["Round"]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan",
        passive_deletes=True)


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_players_game_seat"),
        UniqueConstraint("game_id", "name_key", name="uq_players_game_name"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    #: The name case-folded: names are unique within a game regardless of case.
    name_key: Mapped[str] = mapped_column(String(NAME_MAX * 3), index=True)

    game: Mapped[Game] = relationship(back_populates="players")


class Round(Base):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_rounds_game_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    starter: Mapped[str] = mapped_column(String(NAME_MAX))
    winner: Mapped[Optional[str]] = mapped_column(String(NAME_MAX))
    #: As entered, per player: a tiles string, a number of points, or null.
    racks: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: ``referee.RoundResult.to_dict()``.
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    edits: Mapped[int] = mapped_column(Integer, default=0)
    #: The game's version after this round was last written (entered or edited): it never
    #: repeats within a game, even for a round number entered again after an undo. The
    #: round's ETag.
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")
    scores: Mapped[list["RoundScore"]] = relationship(
        back_populates="round", cascade="all, delete-orphan", passive_deletes=True)


class RoundScore(Base):
    """One player's line of one round, for totals and records across games in SQL."""

    __tablename__ = "round_scores"

    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"),
                                          primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           primary_key=True, index=True)
    score: Mapped[int] = mapped_column(Integer)
    rack_value: Mapped[int] = mapped_column(Integer)
    #: Went out, or counts as the winner of a round nobody won.
    won: Mapped[bool] = mapped_column(Boolean, default=False)

    round: Mapped[Round] = relationship(back_populates="scores")


class AuditEntry(Base):
    __tablename__ = "audit_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    actor: Mapped[str] = mapped_column(String(DEVICE_MAX))
    action: Mapped[str] = mapped_column(String(20))
    round_number: Mapped[Optional[int]] = mapped_column(Integer)
    before: Mapped[Optional[dict[str, Any]]] = mapped_column(JSON)
    after: Mapped[Optional[dict[str, Any]]] = mapped_column(JSON)


class GameEvent(Base):
    """What changed in a game, one row per version: the feed behind the server-sent events."""

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("game_id", "version", name="uq_game_events_game_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(20))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class IdempotencyKey(Base):
    """The stored answer to a request sent with an ``Idempotency-Key`` header."""

    __tablename__ = "idempotency_keys"

    scope: Mapped[str] = mapped_column(String(40), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    location: Mapped[Optional[str]] = mapped_column(String(200))
    #: Answers are replayed for a bounded time (``webapp.idempotency``), then deleted.
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
