"""A game's edit token: only its hash is stored, and a token is compared in constant time."""

from __future__ import annotations

import hashlib
import hmac

from .models import Game


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(game: Game, token: str) -> bool:
    return hmac.compare_digest(game.token_hash, hash_token(token))
