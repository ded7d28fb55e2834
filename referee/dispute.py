"""The dispute view's question: could the tiles of a turn have been laid validly?

The tiles that must be on the table after a turn are those that were on it before (none may
be taken) and those the player added. If every meld after the turn is valid, they were; else
the answer is the valid arrangement of the same tiles that moves the fewest of them from
where the player left them (:mod:`referee.nearest`), with the tiles to move.

    >>> from referee import could_lay
    >>> a = could_lay("R3 R4 R5", "R3 R4 | R5 R6 R7")
    >>> a.possible, str(a.arrangement)
    (True, 'R3 R4 R5 R6 R7')
    >>> a = could_lay("K1 K2 K3 | R5 R6 R7", "K1 K2 | K3 R5 R6 R7 | B9 O9 K9")
    >>> str(a.arrangement), [str(t) for t in a.moved], a.exact
    ('K1 K2 K3 | R5 R6 R7 | K9 B9 O9', ['K3'], True)
    >>> could_lay("R3 R4 R5", "R3 R4 R5 | K1 K2").possible
    False
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Optional

from .rules import Rules, get_rules
from .nearest import nearest_table
from .tiles import (Meld, RummirefError, Table, TableLike, Tile, check_counts, format_tiles,
                    parse_table)
from .turns import check_table

QUESTION = "Could these tiles have been laid validly?"


@dataclass(frozen=True)
class LayAnswer:
    """``possible``: True, False, or None when the tiles cannot be a real set (a misreading:
    a third copy of a tile). ``arrangement``: a valid table of those tiles (the table as laid
    when it is already valid; else the valid one that moves the fewest tiles from where the
    player left them). ``as_laid``: the table after the turn is valid as it lies.
    ``answer``: the answer in plain words. ``moves``: each tile to move, as (tile, the meld it
    leaves, or None for a tile taken off the table, the meld of ``arrangement`` it joins).
    ``fewest``: no valid arrangement moves fewer tiles (``exact`` when ``moves`` has that
    many; else the search ran out of steps and ``moves`` is within ``len(moves) - fewest``
    of the fewest)."""

    possible: Optional[bool]
    arrangement: Optional[Table]
    as_laid: bool
    answer: str
    moves: tuple[tuple[Tile, Optional[Meld], Meld], ...] = ()
    fewest: int = 0

    @property
    def moved(self) -> tuple[Tile, ...]:
        """The tiles to move, in the order of :attr:`moves`."""
        return tuple(t for t, _, _ in self.moves)

    @property
    def exact(self) -> bool:
        return len(self.moves) == self.fewest

    def to_dict(self) -> dict:
        return {"question": QUESTION, "possible": self.possible,
                "arrangement": str(self.arrangement) if self.arrangement is not None else None,
                "melds": [str(m) for m in self.arrangement] if self.arrangement is not None
                else None, "as_laid": self.as_laid, "answer": self.answer,
                "moved": [str(t) for t in self.moved],
                "moves": [{"tile": str(t), "from": str(f) if f is not None else None,
                           "to": str(m)} for t, f, m in self.moves],
                "tiles_to_move": len(self.moves), "fewest_possible": self.fewest,
                "exact": self.exact}


def could_lay(before: TableLike, after: TableLike,
              rules: "Rules | str | None" = None) -> LayAnswer:
    """Answer :data:`QUESTION` for a turn from the table ``before`` to the table ``after``."""
    rules = get_rules(rules)
    try:
        b = parse_table(before, check=False)
        a = parse_table(after, check=False)
        bc, ac = Counter(b.tiles), Counter(a.tiles)
        tiles = list((ac | bc).elements())
        check_counts(tiles, "the tiles of this turn")
    except RummirefError as e:
        return LayAnswer(None, None, False,
                         f"The reading is not a real set of tiles ({e}); correct it first.")
    taken = bc - ac
    if not taken and check_table(a, rules).ok:
        return LayAnswer(True, a, True, "Yes, and they were: every meld on the table is valid "
                                        "as laid.")
    near = nearest_table(list(a), sorted(taken.elements()), rules)
    if near is not None:
        table = near.table
        n = len(near.moves)
        how = "; ".join(f"{t} from {f} to {m}" if f is not None else f"{t} back into {m}"
                        for t, f, m in near.moves)
        answer = (f"Yes: move {n} tile{'s' if n != 1 else ''} ({how}) and the table is "
                  f"valid: {table}.")
        if not n:  # the same melds, their tiles laid in another order (strict order rules)
            answer = f"Yes: lay each meld's tiles in sequence and the table is valid: {table}."
        if taken:
            answer = (f"Yes, with the tiles taken put back "
                      f"({format_tiles(sorted(taken.elements()))}): move {n} tile"
                      f"{'s' if n != 1 else ''} ({how}): {table}.")
        if not near.exact:
            answer += f" (No valid table moves fewer than {near.fewest}.)"
        return LayAnswer(True, table, False, answer, near.moves, near.fewest)
    draw = rules.failed_turn_draw
    return LayAnswer(False, None, False,
                     f"No: restore the table as it was and draw {draw} "
                     f"tile{'s' if draw != 1 else ''} ({rules.title}).")
