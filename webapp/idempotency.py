"""``Idempotency-Key``: a retried request is answered with the first answer and changes
nothing, for a bounded time, and no secret is kept to do it.

The first answer to a keyed request is stored (``idempotency_keys``) for
``IDEMPOTENCY_TTL_SECONDS`` (default 24 hours); expired ones are deleted as new ones are
stored. A new game's answer holds its edit token, which is never stored: a game created with a
key gets a token derived from the server's secret key, the game and the key
(:func:`game_token`), so a retry is given the same token again, made afresh. Should the secret
key have changed in between, the retry gets a 409 that says to start a new game.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from datetime import timedelta
from typing import Any, Optional

from sqlalchemy import delete
from sqlalchemy.orm import Session

from .models import Game, IdempotencyKey, utcnow
from .service import Conflict, Invalid, token_matches

KEY_MAX = 200
#: How long a stored answer is replayed (the default of ``IDEMPOTENCY_TTL_SECONDS``).
TTL_SECONDS = 24 * 3600

_purge_lock = threading.Lock()
_purged_at = 0.0


def check_key(key: Optional[str]) -> Optional[str]:
    """The ``Idempotency-Key`` header, cleaned, or None; :class:`Invalid` if unusable."""
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > KEY_MAX or not key.isprintable():
        raise Invalid(f"Idempotency-Key must be 1 to {KEY_MAX} printable characters "
                      f"(a random UUID is a good choice)", field="Idempotency-Key")
    return key


def request_hash(method: str, path: str, body: Any) -> str:
    canon = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"),
                       ensure_ascii=False)
    return hashlib.sha256(canon.encode("utf-8", "surrogatepass")).hexdigest()


def find_replay(db: Session, scope: str, key: Optional[str], req_hash: str,
                ttl: float = TTL_SECONDS) -> Optional[IdempotencyKey]:
    """The stored answer for this key, or None (also when it has expired: it is deleted, and
    the request is a new one). The same key with another request is an error."""
    if key is None:
        return None
    row = db.get(IdempotencyKey, (scope, key))
    if row is None:
        return None
    if row.created_at < utcnow() - timedelta(seconds=ttl):
        db.delete(row)
        db.flush()
        return None
    if row.request_hash != req_hash:
        raise Invalid("this Idempotency-Key was already used for a different request; "
                      "send a new key for a new request", field="Idempotency-Key")
    return row


def remember(db: Session, scope: str, key: Optional[str], req_hash: str, status: int,
             body: dict[str, Any], location: Optional[str], ttl: float = TTL_SECONDS) -> None:
    """Store the answer to a keyed request (``body`` must hold no secret) and delete expired
    answers (at most once a minute per process)."""
    if key is None:
        return
    db.add(IdempotencyKey(scope=scope, key=key, request_hash=req_hash, status=status,
                          body=body, location=location, created_at=utcnow()))
    global _purged_at
    with _purge_lock:
        due = time.monotonic() - _purged_at >= min(60.0, ttl)
        if due:
            _purged_at = time.monotonic()
    if due:
        purge(db, ttl)


def purge(db: Session, ttl: float = TTL_SECONDS) -> int:
    """Delete the answers older than ``ttl`` seconds; returns how many."""
    cutoff = utcnow() - timedelta(seconds=ttl)
    return db.execute(delete(IdempotencyKey).where(IdempotencyKey.created_at < cutoff)).rowcount


def game_token(secret: str, game_id: str, key: str) -> str:
    """The edit token of a game created with ``Idempotency-Key: key``: 32 characters, like a
    random one, that only the holder of ``secret`` (the app's secret key) can make."""
    msg = f"rummiref edit token\0{game_id}\0{key}".encode("utf-8", "surrogatepass")
    mac = hmac.new(secret.encode("utf-8", "surrogatepass"), msg, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode("ascii")


def replayed_game(db: Session, row: IdempotencyKey, secret: str, key: str) -> dict[str, Any]:
    """The first answer to a keyed ``POST /api/games``, its token made again."""
    body = dict(row.body)
    game = db.get(Game, body["id"])
    token = game_token(secret, body["id"], key)
    if game is None or not token_matches(game, token):
        raise Conflict("this game was created by the first try, but its edit token cannot be "
                       "given again (the server's secret key has changed); start a new game",
                       game=body["id"])
    return {"id": body["id"], "token": token, **{k: v for k, v in body.items() if k != "id"}}
