"""Counts and quoted text in the referee's messages: ``1 tile``, ``2 tiles``; a long piece of
bad input shown by its start only."""

from __future__ import annotations

#: The most characters of a piece of input quoted back in a message.
QUOTE_MAX = 24


def plural(n: int, singular: str, several: str | None = None) -> str:
    """``plural(1, "tile")`` -> ``1 tile``; ``plural(3, "tile")`` -> ``3 tiles``."""
    return f"{n} {singular if n == 1 else (several or singular + 's')}"


def quoted(text: str, limit: int = QUOTE_MAX) -> str:
    """``repr`` of a piece of input, cut to its first ``limit`` characters when long."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}\u2026 ({plural(len(text) - limit, 'more character')})"
