"""The URL converters of every route: game ids as issued, and whole numbers short enough for the
databases' 32-bit integers (anything else is a 404 before any query)."""

from __future__ import annotations

from werkzeug.routing import BaseConverter, IntegerConverter


class GameIdConverter(BaseConverter):
    """Game ids as issued: 1-16 URL-safe characters. Anything else is a 404 before any query."""

    regex = r"[A-Za-z0-9_-]{1,16}"


#: The largest number a game version (``?after=``) may be: the databases' 32-bit integers.
INT_MAX = 2**31 - 1


class BoundedIntConverter(IntegerConverter):
    """``<int:...>`` of at most 9 digits: a longer number matches no route (a 404 for every
    method) and never reaches the databases' 32-bit integer columns."""

    regex = r"\d{1,9}"
    signed_regex = r"-?\d{1,9}"
