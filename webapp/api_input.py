"""Reading an API request: its JSON body (strict: no NaN, no lone surrogates), the game's edit
token, the phone that sends it, whole numbers in the query; :class:`ApiError` for a request
that cannot be read."""

from __future__ import annotations

import json
import math
from typing import Any, Optional

from flask import request

from . import service
from .exceptions import ServiceError


class ApiError(ServiceError):
    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message, **extra)
        self.status = status


def json_body() -> Any:
    if not request.is_json:
        raise ApiError(415, "send the body as JSON with Content-Type: application/json")
    data = request.get_data(cache=True)  # 413 beyond MAX_CONTENT_LENGTH

    def no_constants(name: str):
        raise ValueError(f"{name} is not allowed in JSON")

    def finite(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):  # 1e999 overflows to infinity
            raise ValueError(f"{text} is too large a number")
        return value

    def one_value_per_key(pairs: list[tuple[str, Any]]) -> dict:
        # JSON itself lets a key repeat and keeps the last value: {"Ben": 5, "Ben": 60} would
        # score 60 in silence, where "Ben" and "ben" are refused as a rack given twice.
        body: dict = {}
        for key, value in pairs:
            if key in body:
                raise ValueError(f"{json.dumps(key, ensure_ascii=False)[:60]} is given twice "
                                 f"in one object")
            body[key] = value
        return body

    try:
        body = json.loads(data.decode("utf-8"), parse_constant=no_constants, parse_float=finite,
                          object_pairs_hook=one_value_per_key)
        # "\ud800"-style escapes decode to lone surrogates, which no database or reply can hold.
        json.dumps(body, ensure_ascii=False).encode("utf-8")
        return body
    except UnicodeEncodeError:
        raise ApiError(400, "the body holds an invalid \\u escape (a lone surrogate)") from None
    except UnicodeDecodeError:
        raise ApiError(400, "the body is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise ApiError(400, f"the body is not valid JSON: {e.msg} at line {e.lineno} "
                            f"column {e.colno}") from None
    except (ValueError, RecursionError) as e:
        raise ApiError(400, f"the body is not valid JSON: {e}") from None


def bearer_token() -> Optional[str]:
    auth = request.headers.get("Authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def require_token(game) -> None:
    token = bearer_token()
    if token is None:
        raise ApiError(401, "this change needs the game's edit token: send "
                            "'Authorization: Bearer <token>' (the token was given when the game "
                            "was created)")
    if not service.token_matches(game, token):
        raise ApiError(403, "this token does not belong to this game; open the game from the "
                            "phone that created it, or ask its owner for the edit link")


def actor(body: Any = None) -> str:
    if isinstance(body, dict):
        device = service.clean_device(body.get("device"))
        if device:
            return device
    return service.clean_device(request.headers.get("X-Rummiref-Device")) or "owner"


def query_int(name: str, default: int, lo: int, hi: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(400, f"?{name}= takes a whole number from {lo} to {hi}") from None
    if not lo <= value <= hi:
        raise ApiError(400, f"?{name}= takes a whole number from {lo} to {hi}")
    return value
