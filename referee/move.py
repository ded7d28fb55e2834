"""A hint's answer: the rack tiles to lay, the table after them, its value and its steps."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from .rules import Rules
from .steps import MoveStep, describe
from .tiles import Table, Tile
from .turns import TurnVerdict, check_turn


@dataclass(frozen=True)
class Move:
    """The best move for a rack: the tiles to lay and the table that results.

    ``placed``: rack tiles laid (sorted); ``table``: the whole table after the move, every
    meld valid; ``points``: what the placed tiles would have cost on the rack (face values,
    a joker ``rules.joker_penalty``); ``remaining``: the rack tiles left; ``opening``: the move
    was judged under the initial-meld rule; ``initial_points``: what the new melds count
    toward the initial meld (only for an opening). An empty ``placed`` means: draw a tile.
    ``steps``: the move as steps a person can follow (:class:`~referee.steps.MoveStep`).
    ``exact``: proven the best legal turn (see :mod:`referee.hints`).
    """

    placed: tuple[Tile, ...]
    table: Table
    points: int
    remaining: tuple[Tile, ...] = ()
    opening: bool = False
    initial_points: Optional[int] = None
    steps: tuple[MoveStep, ...] = field(default=(), compare=False)
    exact: bool = True

    @property
    def draws(self) -> bool:
        return not self.placed

    def to_dict(self) -> dict:
        return {"placed": [str(t) for t in self.placed], "table": str(self.table),
                "melds": [str(m) for m in self.table.melds], "points": self.points,
                "tiles_placed": len(self.placed), "remaining": [str(t) for t in self.remaining],
                "opening": self.opening, "initial_points": self.initial_points,
                "draws": self.draws, "exact": self.exact,
                "steps": [s.to_dict() for s in self.steps]}


def tile_points(tile: Tile, rules: Rules) -> int:
    return rules.joker_penalty if tile.is_joker else tile.number


def move_value(placed, rules) -> tuple[int, int]:
    return len(placed), sum(tile_points(t, rules) for t in placed)


def with_steps(move: Move, table: Table, rack_tiles, rules: Rules,
                verdict: Optional[TurnVerdict] = None, exact: bool = True) -> Move:
    if move.placed and verdict is None:
        verdict = check_turn(table, move.table, rack_tiles, rules=rules)
    steps = describe(table, move.table, verdict) if move.placed else ()
    return Move(move.placed, move.table, move.points, move.remaining, move.opening,
                move.initial_points, steps, exact)


def draw_move(table: Table, rack_tiles, exact: bool) -> Move:
    return Move((), table, 0, tuple(rack_tiles), exact=exact)


def split_rack(melds, table_tiles, rack_tiles):
    """(placed, remaining) rack tiles: what the melds hold beyond the table's own tiles."""
    laid = Counter(t for m in melds for t in m.tiles)
    laid.subtract(Counter(table_tiles))
    placed, remaining = [], []
    for t in rack_tiles:
        if laid[t] > 0:
            laid[t] -= 1
            placed.append(t)
        else:
            remaining.append(t)
    return tuple(sorted(placed)), tuple(remaining)
