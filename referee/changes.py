"""What changed between two tables: tiles added, tiles taken, tiles moved to another meld.

    >>> from referee import diff_tables
    >>> d = diff_tables("R3 R4 R5 R6 | K7 B7 O7", "R3 R4 R5 | R6 R7 R8 | K7 B7 O7")
    >>> [str(t) for t in d.added], [str(t) for t in d.moved], [str(m) for m in d.broken]
    (['R7', 'R8'], ['R3', 'R4', 'R5', 'R6'], ['R3 R4 R5 R6'])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .tiles import Meld, Table, TableLike, Tile, parse_table


@dataclass(frozen=True)
class TableDiff:
    """``added``: tiles on the table after and not before; ``taken``: on it before and gone
    after; ``moved``: on it before and after but no longer in a meld that holds its whole
    meld of before (that meld was split, rearranged or taken from); ``broken``: those melds
    of before; ``kept``: melds of before still whole after (perhaps added to). Tiles are
    sorted; melds are in their table's order."""

    before: Table
    after: Table
    added: tuple[Tile, ...]
    taken: tuple[Tile, ...]
    moved: tuple[Tile, ...]
    broken: tuple[Meld, ...]
    kept: tuple[Meld, ...]

    @property
    def unchanged(self) -> bool:
        """The same tiles in the same melds (order aside)."""
        return self.before.key() == self.after.key()

    def to_dict(self) -> dict:
        return {"added": [str(t) for t in self.added], "taken": [str(t) for t in self.taken],
                "moved": [str(t) for t in self.moved], "broken": [str(m) for m in self.broken],
                "kept": [str(m) for m in self.kept],
                "melds_before": [str(m) for m in self.before],
                "melds_after": [str(m) for m in self.after]}


def diff_tables(before: TableLike, after: TableLike) -> TableDiff:
    """Compare two tables (readings may hold impossible tiles: counts are not checked)."""
    b, a = parse_table(before, check=False), parse_table(after, check=False)
    bc, ac = Counter(b.tiles), Counter(a.tiles)
    added = tuple(sorted((ac - bc).elements()))
    taken = tuple(sorted((bc - ac).elements()))
    # what of each meld after is not yet claimed by a meld of before kept in it: two equal
    # melds before are two melds, and one meld after holds at most one of them whole.
    # Melds kept whole claim theirs first, then melds added to (or joined to another).
    room = [Counter(m.tiles) for m in a]
    kept_at: set[int] = set()
    for exact in (True, False):
        for i, m in enumerate(b):
            if i not in kept_at and _claim(room, Counter(m.tiles), exact):
                kept_at.add(i)
    kept = [m for i, m in enumerate(b) if i in kept_at]
    broken = [m for i, m in enumerate(b) if i not in kept_at]
    moved_pool = Counter(t for m in broken for t in m.tiles)
    moved = tuple(sorted((moved_pool & ac).elements()))
    return TableDiff(b, a, added, taken, moved, tuple(broken), tuple(kept))


def _claim(room: list[Counter], tiles: Counter, exact: bool) -> bool:
    """Claim ``tiles`` in the first meld after with room for them (exactly them when
    ``exact``): True when one had."""
    for x in room:
        if (x == tiles) if exact else (tiles <= x):
            x.subtract(tiles)
            return True
    return False


def same_table(a: TableLike, b: TableLike) -> bool:
    """Do two tables hold the same tiles grouped the same way (order aside)?"""
    return parse_table(a, check=False).key() == parse_table(b, check=False).key()
