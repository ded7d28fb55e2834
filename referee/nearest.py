"""The nearest valid table: lay the tiles of a table validly moving as few of them as possible
from the melds the player left them in.

A tile *stays* when it ends in the meld that continues its meld (each meld of the valid
table continues at most one meld of the player's table); every other tile *moves*, and so
does every tile taken off the table, which must go back. The search picks, for each of the
player's melds, the tiles that stay (its *core*); the tiles that move are then given to the
cores or laid as melds of their own, and every core with what it gets must be a valid meld.

It deepens on the number of tiles moved, from a lower bound (each invalid meld needs a tile
moved in or out, and one tile moved touches at most two melds), so the first arrangement it
finds moves the fewest tiles. Each depth is searched to the end unless a budget of search
steps runs out; then the answer is the best arrangement found, and ``fewest`` is the
proven lower bound on the tiles that must move (the answer moves at most
``moved - fewest`` more than the best possible).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Optional

from .melds import check_meld
from .rules import Rules
from .solver import arrange
from .tiles import COLOURS, JOKER, Meld, Table, Tile

#: search steps a depth may take before the answer is given with its bound
BUDGET = 20_000


@dataclass(frozen=True)
class Nearest:
    """``table``: the valid table; ``moves``: (tile, the player's meld it leaves or None for
    a tile taken off the table, the meld of ``table`` it goes to) for every tile that moves;
    ``fewest``: no valid table moves fewer tiles than this; ``exact``: ``len(moves) ==
    fewest``."""

    table: Table
    moves: tuple[tuple[Tile, Optional[Meld], Meld], ...]
    fewest: int

    @property
    def exact(self) -> bool:
        return len(self.moves) == self.fewest


def nearest_table(melds: list[Meld], loose: list[Tile], rules: Rules,
                  budget: int = BUDGET) -> Optional[Nearest]:
    """The valid table of the tiles of ``melds`` and ``loose`` (tiles taken off the table)
    that moves the fewest tiles from ``melds``; None when the tiles cannot be laid at all."""
    s = _Search(melds, loose, rules)
    arranged = arrange([t for m in melds for t in m] + list(loose), rules)
    if arranged is None:
        return None
    upper = s.fallback(arranged)
    lower = s.lower_bound()
    for d in range(lower, len(upper[1])):
        s.steps = budget
        found = s.depth(d)
        if found is not None:
            return s.answer(found, d)
        if s.steps < 0:
            return s.answer(upper, d)  # no table moving fewer than d tiles: proven
    return s.answer(upper, len(upper[1]))


JOKER_CODE = 99


def _code(t: Tile) -> int:
    return JOKER_CODE if t.is_joker else COLOURS.index(t.colour) * 16 + t.number


def _tile(code: int) -> Tile:
    return _TILE_OF[code]


#: the tile of each code, made once (tiles are decoded for every meld checked and every
#: arrangement tried)
_TILE_OF = {JOKER_CODE: JOKER, **{c * 16 + n: Tile(colour, n) for c, colour in enumerate(COLOURS)
                                  for n in range(1, 14)}}


class _Search:
    """Tiles are small integers here (colour * 16 + number, 99 for a joker): the search
    sorts and hashes them millions of times."""

    def __init__(self, melds, loose, rules):
        self.melds = [tuple(_code(t) for t in m.tiles) for m in melds]
        self.loose = [_code(t) for t in loose]
        self.loose_items = [(t, None) for t in self.loose]
        self.rules = rules.replace(meld_order="any")
        self.valid_cache: dict = {}
        # invalid melds first: they must change
        self.order = sorted(range(len(self.melds)), key=lambda i: self.valid(self.melds[i]))
        self.steps = 0

    def valid(self, tiles) -> bool:
        key = tuple(sorted(tiles))
        got = self.valid_cache.get(key)
        if got is None:
            got = self.valid_cache[key] = bool(key) and check_meld(
                [_tile(c) for c in key], self.rules).ok
        return got

    @staticmethod
    def could_grow(tiles) -> bool:
        """Could more tiles make these a valid meld? (one number in distinct colours, or one
        colour in distinct numbers)"""
        real = [t for t in tiles if t != JOKER_CODE]
        if not real:
            return len(tiles) <= 2
        numbers = {t % 16 for t in real}
        colours = {t // 16 for t in real}
        group = len(numbers) == 1 and len(colours) == len(real) and len(tiles) <= 4
        run = len(colours) == 1 and len(numbers) == len(real) and len(tiles) <= 13
        return group or run

    def need(self, tiles) -> int:
        """The fewest tiles that must join ``tiles`` to make a valid meld (a large number when
        none can)."""
        if not tiles or self.valid(tiles):
            return 0
        if not self.could_grow(tiles):
            return 99
        real = [t for t in tiles if t != JOKER_CODE]
        jokers = len(tiles) - len(real)
        if not real:
            return 3 - len(tiles)
        best = 99
        if len({t % 16 for t in real}) == 1 and len({t // 16 for t in real}) == len(real):
            best = max(1, 3 - len(tiles))
        if len({t // 16 for t in real}) == 1 and len({t % 16 for t in real}) == len(real):
            numbers = [t % 16 for t in real]
            span = max(numbers) - min(numbers) + 1
            missing = max(0, span - len(real) - jokers)
            best = min(best, max(1, missing + max(0, 3 - max(len(tiles), span))))
        return best

    def lower_bound(self) -> int:
        bad = sum(1 for m in self.melds if not self.valid(m))
        taken = len(self.loose)
        return taken + max(0, -(-(bad - taken) // 2))

    def fallback(self, arranged: Table):
        """A valid table to start from: of the player's valid melds kept whole with the rest
        laid beside them (when it can be and there are few such tiles) and ``arranged`` (the
        solver's arrangement of every tile), the one that moves fewer tiles."""
        keep = [i for i, m in enumerate(self.melds) if self.valid(m)]
        free = [(t, i) for i, m in enumerate(self.melds) if i not in keep for t in m]
        best = self.matched([[_code(t) for t in m.tiles] for m in arranged])
        if len(free) + len(self.loose) <= 8:
            got = self.feasible({i: list(self.melds[i]) for i in keep}, free + self.loose_items)
            if got is not None and len(got[1]) <= len(best[1]):
                return got
        return best

    def matched(self, table):
        """Cores for an arbitrary valid table: its melds matched one to one with the player's
        so that the most tiles stay (each meld continues the player's meld it is matched
        with), which moves the fewest tiles that table allows."""
        overlap = [[sum((Counter(m) & Counter(mine)).values()) for mine in self.melds]
                   for m in table]
        cores = {i: j for j, i in best_assignment(overlap).items() if overlap[j][i]}
        # the melds in the player's order (each where the meld it continues lay), new ones last
        continues = {j: i for i, j in cores.items()}
        order = sorted(range(len(table)), key=lambda j: continues.get(j, len(self.melds)))
        table = [table[j] for j in order]
        cores = {i: order.index(j) for i, j in cores.items()}
        left = {i: Counter(m) for i, m in enumerate(self.melds)}
        stay = {}
        for i, j in cores.items():
            stay[j] = Counter(self.melds[i]) & Counter(table[j])
            left[i] -= stay[j]
        out_melds, moves = [], []
        for j, m in enumerate(table):
            out_melds.append(list(m))
            for t in (Counter(m) - stay.get(j, Counter())).elements():
                o = next((i for i in left if left[i][t] > 0), None)
                if o is not None:
                    left[o][t] -= 1
                moves.append((t, o, j))
        return out_melds, moves

    def depth(self, d):
        """A valid table moving exactly ``d`` tiles (or fewer), or None."""
        budget = d - len(self.loose)
        if budget < 0:
            return None
        return self._melds(0, budget, {}, [])

    def _melds(self, k, budget, cores, freed):
        self.steps -= 1
        if self.steps < 0:
            return None
        # every free tile fills at most one missing place of one meld
        if sum(self.need(c) for c in cores.values()) > len(freed) + budget + len(self.loose):
            return None
        if k == len(self.order):
            return self.feasible(cores, freed + self.loose_items)
        i = self.order[k]
        meld = self.melds[i]
        for r in range(0, min(budget, len(meld)) + 1):
            seen = set()
            for idx in itertools.combinations(range(len(meld)), r):
                out = tuple(sorted(meld[x] for x in idx))
                if out in seen:
                    continue
                seen.add(out)
                core = [t for x, t in enumerate(meld) if x not in idx]
                if core and not self.could_grow(core):
                    continue
                cores[i] = core
                got = self._melds(k + 1, budget - r, cores, freed + [(t, i) for t in out])
                if got is not None:
                    return got
                if self.steps < 0:
                    break
            if self.steps < 0:
                break
        cores.pop(i, None)
        return None

    def feasible(self, cores, free):
        """Give each free tile ((tile, the player's meld it left or None)) to a core or to the
        pool so that every core is a valid meld and the pool can be laid; returns (melds,
        moves as (tile, origin, meld index)) or None."""
        cores = {i: list(c) for i, c in cores.items() if c}
        keys = sorted(cores)
        free = sorted(free, key=lambda x: (x[0], -1 if x[1] is None else x[1]))
        where: list = [None] * len(free)
        # the cores each free tile could join at all
        fits = [[i for i in keys if self.could_grow(cores[i] + [t])] for t, _ in free]
        # a core that no later free tile can join is final from then on, and must be valid:
        # closing[j] lists the cores that become final once tiles 0..j-1 are given out
        last = {i: -1 for i in keys}
        for j, f in enumerate(fits):
            for i in f:
                last[i] = j
        closing: list = [[] for _ in range(len(free) + 1)]
        for i in keys:
            closing[last[i] + 1].append(i)

        def assign(j, pool):
            self.steps -= 1
            if self.steps < -BUDGET:  # a hard stop inside one leaf
                return None
            for i in closing[j]:
                if not self.valid(cores[i]):
                    return None
            if j == len(free):
                table = arrange([_tile(t) for t in pool], self.rules) if pool else Table()
                return None if table is None else [[_code(t) for t in m.tiles] for m in table]
            t = free[j][0]
            for i in fits[j]:
                cores[i].append(t)
                if self.could_grow(cores[i]):
                    where[j] = i
                    got = assign(j + 1, pool)
                    if got is not None:
                        return got
                cores[i].pop()
            where[j] = None
            return assign(j + 1, pool + [t])

        rest = assign(0, [])
        if rest is None:
            return None
        out = [cores[i] for i in keys]
        moves = [(t, o, keys.index(where[j])) for j, (t, o) in enumerate(free)
                 if where[j] is not None]
        pool_items = [(t, o) for j, (t, o) in enumerate(free) if where[j] is None]
        for m in rest:
            out.append(m)
            for t in m:
                k = next(x for x, (u, _) in enumerate(pool_items) if u == t)
                moves.append((t, pool_items.pop(k)[1], len(out) - 1))
        return out, moves

    def answer(self, found, fewest) -> Nearest:
        melds, moves = found
        laid = [_laid([_tile(t) for t in m], self.rules) for m in melds]
        moved = tuple((_tile(t), None if o is None else Meld(tuple(map(_tile, self.melds[o]))),
                       laid[j]) for t, o, j in moves)
        return Nearest(Table(laid), moved, min(fewest, len(moved)))


def _laid(tiles, rules) -> Meld:
    """A valid meld's tiles in natural order: a run ascending with each joker in its place,
    a group with its jokers last."""
    v = check_meld(sorted(tiles), rules)
    if v.kind == "run":
        order = sorted(range(len(v.stands_for)), key=lambda k: v.stands_for[k].number)
        return Meld(tuple(v.meld.tiles[k] for k in order))
    real = sorted(t for t in tiles if not t.is_joker)
    return Meld(tuple(real) + tuple(t for t in tiles if t.is_joker))


def best_assignment(weight: list[list[int]]) -> dict[int, int]:
    """Rows matched one to one with columns so that the matched weights sum to the most:
    {row: column} (the Hungarian method, O(n^3); each row or each column all matched)."""
    if not weight or not weight[0]:
        return {}
    if len(weight) > len(weight[0]):
        return {r: c for c, r in best_assignment([list(col) for col in zip(*weight)]).items()}
    n, m = len(weight), len(weight[0])
    inf = float("inf")
    u, v = [0] * (n + 1), [0] * (m + 1)
    row_of, way = [0] * (m + 1), [0] * (m + 1)  # row_of[c]: the row (1-based) at column c
    for r in range(1, n + 1):
        row_of[0], c0 = r, 0
        least, used = [inf] * (m + 1), [False] * (m + 1)
        while True:
            used[c0] = True
            r0, delta, c1 = row_of[c0], inf, 0
            for c in range(1, m + 1):
                if not used[c]:
                    cost = -weight[r0 - 1][c - 1] - u[r0] - v[c]
                    if cost < least[c]:
                        least[c], way[c] = cost, c0
                    if least[c] < delta:
                        delta, c1 = least[c], c
            for c in range(m + 1):
                if used[c]:
                    u[row_of[c]] += delta
                    v[c] -= delta
                else:
                    least[c] -= delta
            c0 = c1
            if row_of[c0] == 0:
                break
        while c0:
            c1 = way[c0]
            row_of[c0] = row_of[c1]
            c0 = c1
    return {row_of[c] - 1: c - 1 for c in range(1, m + 1) if row_of[c]}
