"""The errors of the scoresheet's service layer: a request that cannot be done, each with the
HTTP status it maps to (``webapp.errors`` answers them)."""

from __future__ import annotations

import json
from typing import Any, Iterable


class ServiceError(Exception):
    """A request that cannot be done; ``status`` is the HTTP status it maps to."""

    status = 400

    def __init__(self, message: str, **extra: Any):
        super().__init__(message)
        self.message = message
        self.extra = {k: v for k, v in extra.items() if v is not None}


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Invalid(ServiceError):
    """Well-formed JSON that breaks the rules of the game or of the API."""

    status = 422


class PreconditionFailed(ServiceError):
    """The thing changed since the client read it (``If-Match``)."""

    status = 412


def unknown_fields(names: Iterable[Any]) -> str:
    """``unknown field "x"`` / ``unknown fields "x", "y"``."""
    shown = sorted(json.dumps(str(n), ensure_ascii=False) for n in names)
    return f"unknown field{'' if len(shown) == 1 else 's'} {', '.join(shown)}"
