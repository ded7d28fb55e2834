"""Arranging tiles: can all these tiles be laid as valid melds, and the one-player puzzle of
laying out the most points. Both ask the exact search of :mod:`referee.search`.

Public functions: :func:`arrange`, :func:`max_score`, and the lower-level
:func:`max_score_counts` for the generalised puzzles (numbers beyond 13).
"""

from __future__ import annotations

from typing import Mapping, Optional

from .rules import Rules, get_rules
from .search import (MAX_NUMBER, NCOL, _count_grid, _dead_must, _lay, _prune_optional,
                     _solve_both_ways, _tiles_of)
from .tiles import JOKERS, RummirefError, Table, TilesLike

__all__ = ["TableUnsolvableError", "arrange", "max_score", "max_score_counts"]


#: the most numbers :func:`max_score_counts` takes: the search recurses once per colour and
#: number, and 4 x 150 calls deep stays well inside Python's default limit of 1000 frames
#: from any caller (248 numbers passed it)
MAX_COUNTS_NUMBERS = 150


class TableUnsolvableError(RummirefError, ValueError):
    """The tiles on the table cannot all be laid in valid melds, even with the rack's help."""


def arrange(tiles: "TilesLike | Table", rules: "Rules | str | None" = None) -> Optional[Table]:
    """Lay all of ``tiles`` (jokers included) as valid melds, or return None if they cannot be.

    Runs come in ascending order with each joker where the tile it stands for would be; groups
    list their jokers last. An empty input gives an empty table.

        >>> str(arrange("R3 R1 J R2 K7 B7 O7"))
        'R1 R2 R3 | K7 B7 O7 J'
        >>> print(arrange("R1 R2 R4"))
        None
    """
    get_rules(rules)  # validates the argument; every preset shares the meld rules
    tiles = _tiles_of(tiles)
    if not tiles:
        return Table()
    grid, jokers = _count_grid(tiles)
    n = MAX_NUMBER
    if _dead_must(n, grid, grid, jokers):
        return None
    zero = [[0] * NCOL for _ in range(n)]
    melds = _lay(n, grid, grid, zero, jokers, 0, 0)
    return None if melds is None else Table(melds)


def max_score(tiles: "TilesLike | Table", rules: "Rules | str | None" = None) -> int:
    """The largest sum of face values of a subset of ``tiles`` laid as valid melds (jokers
    may help and count 0): the one-player puzzle of van Rijn et al."""
    get_rules(rules)
    tiles = _tiles_of(tiles)
    grid, jokers = _count_grid(tiles)
    return _max_score_grid(MAX_NUMBER, grid, jokers)


def max_score_counts(counts: Mapping[tuple[int, int], int], numbers: int = MAX_NUMBER,
                     jokers: int = 0) -> int:
    """:func:`max_score` for the generalised puzzle: ``counts[(colour 0-3, number)]`` copies
    (0-2) of each tile, numbers from 1 to ``numbers`` (the literature also uses 100; at most
    ``MAX_COUNTS_NUMBERS``)."""
    if not 1 <= numbers <= MAX_COUNTS_NUMBERS:
        raise ValueError(f"numbers run from 1 to at most {MAX_COUNTS_NUMBERS}")
    grid = [[0] * NCOL for _ in range(numbers)]
    for (c, number), k in counts.items():
        if not (0 <= c < NCOL and 1 <= number <= numbers and 0 <= k <= 2):
            raise ValueError(f"bad tile count {(c, number)}: {k}")
        grid[number - 1][c] = k
    if not 0 <= jokers <= JOKERS:
        raise ValueError(f"at most {JOKERS} jokers")
    return _max_score_grid(numbers, grid, jokers)


def _max_score_grid(n, grid, jokers):
    zero = [[0] * NCOL for _ in range(n)]
    avail = _prune_optional(n, zero, grid, jokers)
    weight = [[v + 1] * NCOL for v in range(n)]
    _, best, _ = _solve_both_ways(n, zero, avail, weight, 0, jokers, 0, relaxed=True)
    return best or 0


