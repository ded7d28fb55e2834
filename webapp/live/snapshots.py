"""A snapshot arrives: checked, then recorded in one write, counted once.

Both ways in end in :func:`receive`: the HTTP route (``POST .../live/snapshots``, a watcher on
another computer) and the in-process sink (``rummiref serve --camera`` / ``--demo``). So both
get the same transaction, write lock, retries, events to the phones, and the same idempotency:
a snapshot sent again with its ``Idempotency-Key`` (a watcher whose request timed out after the
server had saved it) gets the first answer back and records nothing new. The key is stored
under a unique constraint, so two servers racing on one database also count it once.

Everything slow happens before the transaction: the reading is checked
(:meth:`vision.Reading.from_json`) and the picture's header read while no lock is held.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Optional

from sqlalchemy.orm import Session

import referee
from vision.reading import Reading, ReadingError

from .. import idempotency, service
from ..models import Game
from ..service import Invalid
from ..transaction import run_write
from . import store
from .models import LiveSnapshot
from .views import turn_json

#: Largest picture accepted with a snapshot (bytes, after base64).
MAX_PICTURE_BYTES = 6 * 1024 * 1024
#: A snapshot's picture is decoded this small (a JPEG at 1/4 or 1/8 scale, which still reads
#: all of it) to check that it decodes; its header is checked first.
CHECK_MAX_SIDE = 160
REASONS = ("start", "still", "end-turn")
_FIELDS = {"reading", "picture", "reason", "end_turn", "still_for", "frames", "device"}


@dataclass(frozen=True)
class SnapshotIn:
    """A snapshot as the server takes it: the reading, the picture (JPEG or PNG bytes, its
    header checked), why it was taken, the phone's "End turn" tap it answers, and how long the
    table had been still."""

    reading: Reading
    picture: Optional[bytes] = None
    reason: str = "still"
    end_turn: Optional[str] = None
    still_for: Optional[float] = None
    frames: Optional[int] = None

    def fingerprint(self) -> str:
        """What makes two requests the same request (for their idempotency key)."""
        canon = json.dumps([self.reading.to_json(), self.reason, self.end_turn,
                            hashlib.sha256(self.picture or b"").hexdigest()],
                           sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canon.encode()).hexdigest()

    @classmethod
    def from_snapshot(cls, snap) -> "SnapshotIn":
        """From a watcher's :class:`vision.snapshot.Snapshot` (in this process)."""
        picture, reading = snap.jpeg()
        return cls(reading, picture, snap.reason.value, snap.end_turn, snap.still_for,
                   snap.frames)


def parse(body: Any) -> SnapshotIn:
    """Check a posted snapshot: ``{"reading": {...}, "picture": "<base64 JPEG>", "reason",
    "end_turn", "still_for", "frames"}``. Invalid (422) names the first thing wrong."""
    if not isinstance(body, dict):
        raise Invalid('send a JSON object: {"reading": {"tiles": [...], "melds": [...]}, '
                      '"picture": "<base64 JPEG>"}')
    unknown = sorted(set(map(str, body)) - _FIELDS)
    if unknown:
        raise Invalid(f"unknown field {unknown[0]!r}; a snapshot has "
                      f"{', '.join(sorted(_FIELDS))}", field=unknown[0])
    try:
        reading = Reading.from_json(body.get("reading"))
    except ReadingError as e:
        raise Invalid(f"the reading is not valid: {e}", field=f"reading.{e.field}",
                      token=e.token) from None
    reason = body.get("reason", "still")
    if reason not in REASONS:
        raise Invalid(f"reason is one of {', '.join(REASONS)}", field="reason")
    end_turn = body.get("end_turn")
    if end_turn is not None and (not isinstance(end_turn, str) or not 0 < len(end_turn) <= 32):
        raise Invalid("end_turn is the token of a phone's End turn tap", field="end_turn")
    still_for = body.get("still_for")
    if still_for is not None and (isinstance(still_for, bool)
                                  or not isinstance(still_for, (int, float))
                                  or not 0 <= still_for <= 3600):
        raise Invalid("still_for is seconds (0 to 3600)", field="still_for")
    frames = body.get("frames")
    if frames is not None and (isinstance(frames, bool) or not isinstance(frames, int)
                               or not 0 <= frames <= 100):
        raise Invalid("frames is the number of frames read (0 to 100)", field="frames")
    return SnapshotIn(reading, _picture(body.get("picture")), reason, end_turn,
                      None if still_for is None else float(still_for), frames)


def _picture(raw: Any) -> Optional[bytes]:
    if raw is None:
        return None
    if not isinstance(raw, str) or len(raw) > MAX_PICTURE_BYTES:
        raise Invalid(f"picture is a base64 JPEG or PNG of at most "
                      f"{MAX_PICTURE_BYTES // (1024 * 1024)} MiB", field="picture")
    text = raw
    if text[:5].lower() == "data:":  # a browser's FileReader.readAsDataURL()
        head, comma, text = text.partition(",")
        if not comma or not head.lower().endswith(";base64"):
            raise Invalid("picture: a data: URL must be base64 (data:image/jpeg;base64,...)",
                          field="picture")
    # `base64 photo.jpg` and MIME encoders break the text into lines of 76 characters.
    text = "".join(text.split())
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise Invalid("picture is not valid base64 (the standard alphabet A-Z a-z 0-9 + /, "
                      "padded with =)", field="picture") from None
    check_picture(data, "picture")
    return data


def check_picture(data: bytes, name: str) -> None:
    """Invalid (naming ``name``) unless ``data`` is a JPEG or PNG that decodes; the size in its
    header is checked before anything is decoded (``vision.imageio``)."""
    from vision.imageio import ImageError, check_image, open_image

    try:
        info = check_image(data, name)
        if info.format not in ("JPEG", "PNG"):
            raise ImageError(f"{name}: a {info.format} file; send a JPEG or PNG picture")
        open_image(data, name, max_side=CHECK_MAX_SIDE)
    except ImageError as e:
        raise Invalid(str(e), field=name) from None


@dataclass(frozen=True)
class Answer:
    """What the snapshot's sender is told: the HTTP status, the body, and whether it is the
    stored answer to an earlier request with the same key."""

    status: int
    body: dict
    replayed: bool = False


def receive(app, db: Session, game_id: str, inp: SnapshotIn, *, key: Optional[str],
            actor: str, authorize: Callable[[Game], None] = lambda game: None) -> Answer:
    """Record ``inp`` for the game, in one write (``webapp.transaction.run_write``).
    ``authorize(game)`` raises for a sender without the right (the HTTP route checks the edit
    token; the camera in this process needs none). ``key``: the idempotency key."""
    scope = f"live-snapshots:{game_id}"
    fingerprint = inp.fingerprint()
    ttl = float(app.config["IDEMPOTENCY_TTL_SECONDS"])

    def change(db: Session):
        game = service.get_game(db, game_id, lock=True)
        authorize(game)
        replay = idempotency.find_replay(db, scope, key, fingerprint, ttl)
        if replay is not None:
            return Answer(replay.status, replay.body, True), None
        body = record(db, game, inp, actor)
        status = 201 if body["result"] == "turn" else 200
        idempotency.remember(db, scope, key, fingerprint, status, body, None, ttl)
        changed = body["result"] != "unchanged"
        return Answer(status, body), (game.id, game.version) if changed else None

    return run_write(app, db, change)


def record(db: Session, game: Game, inp: SnapshotIn, actor: str) -> dict:
    """Store the snapshot and let the round's turn log decide what it means: the start, no
    change, the table put back, or a turn (judged). ``game`` must be locked."""
    session = store.current_session(db, game)
    log = store.load(session)
    table = inp.reading.table
    end_turn = inp.end_turn is not None
    if end_turn and session.end_turn == inp.end_turn:
        session.end_turn, session.end_turn_at = None, None
    outcome = log.outcome_of(table, end_turn=end_turn)
    if outcome is referee.Outcome.UNCHANGED:
        return {"result": outcome.value, "turn": None, "snapshot": None, "table": str(table)}
    snap = LiveSnapshot(session_id=session.id, table=str(table), reading=inp.reading.to_json(),
                        image=inp.picture)
    db.add(snap)
    db.flush()
    players = list(game.players)
    rules = service.game_rules(game)
    # The scoresheet's turn timer, when running for this player, times the turn.
    timed = game.timer_state == "running" and game.timer_seat % len(players) == log.seat
    elapsed = service.timer_json(game, players, rules)["elapsed"] if timed else None
    step = log.observe(table, elapsed=elapsed, end_turn=end_turn, ref=snap.id)
    rows = store.save(db, session, log, reason="end-turn" if end_turn else "still",
                      delay=inp.still_for)
    out = {"result": step.outcome.value, "turn": None, "snapshot": snap.id, "table": str(table)}
    if step.turn is None:
        service.record_change(db, game, "live-turn", {**out, "actor": actor})
        return out
    if game.timer_state == "running":  # the next player's turn starts on every phone's timer
        service.timer_action(db, game, {"action": "next", "player": log.to_move}, actor)
    out.update(turn=turn_json(step.turn, rows[step.turn.number], game.id),
               next_player=log.to_move)
    service.record_change(db, game, "live-turn", {**out, "actor": actor})
    return out
