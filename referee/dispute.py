"""The dispute view's question: could the tiles of a turn have been laid validly?

The tiles that must be on the table after a turn are those that were on it before (none may
be taken) and those the player added. If every meld after the turn is valid, they were; else
the solver looks for a valid arrangement of the same tiles.

    >>> from referee import could_lay
    >>> a = could_lay("R3 R4 R5", "R3 R4 | R5 R6 R7")
    >>> a.possible, str(a.arrangement)
    (True, 'R3 R4 R5 R6 R7')
    >>> could_lay("R3 R4 R5", "R3 R4 R5 | K1 K2").possible
    False
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Optional

from .rules import Rules, get_rules
from .solver import arrange
from .tiles import RummirefError, Table, TableLike, check_counts, format_tiles, parse_table
from .turns import check_table

QUESTION = "Could these tiles have been laid validly?"


@dataclass(frozen=True)
class LayAnswer:
    """``possible``: True, False, or None when the tiles cannot be a real set (a misreading:
    a third copy of a tile). ``arrangement``: a valid table of those tiles (the table as laid
    when it is already valid). ``as_laid``: the table after the turn is valid as it lies.
    ``answer``: the answer in plain words."""

    possible: Optional[bool]
    arrangement: Optional[Table]
    as_laid: bool
    answer: str

    def to_dict(self) -> dict:
        return {"question": QUESTION, "possible": self.possible,
                "arrangement": str(self.arrangement) if self.arrangement is not None else None,
                "melds": [str(m) for m in self.arrangement] if self.arrangement is not None
                else None, "as_laid": self.as_laid, "answer": self.answer}


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
    table = arrange(tiles, rules)
    if table is not None:
        answer = f"Yes: the same tiles could have been laid as {table}."
        if taken:
            answer = (f"Yes, with the tiles taken put back "
                      f"({format_tiles(sorted(taken.elements()))}): {table}.")
        return LayAnswer(True, table, False, answer)
    draw = rules.failed_turn_draw
    return LayAnswer(False, None, False,
                     f"No: restore the table as it was and draw {draw} "
                     f"tile{'s' if draw != 1 else ''} ({rules.title}).")
