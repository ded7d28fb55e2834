"""Hints: the move that lays the most rack tiles (then the most points) as a legal turn under
the preset, told as steps a person can follow.

How a hint is found, with the player opened:

1. The exact search of :mod:`referee.search` lays the table and the rack freely, every joker
   anywhere. Its value is an upper bound for every legal turn; with no joker on the table its
   answer is a legal turn, and with jokers it is when :func:`~referee.check_turn` says so.
2. Otherwise each meld holding a joker is given its place after the turn explicitly: a meld
   ``X`` that holds a tile of the old meld and, for each of its jokers, either the joker still
   standing for its tile (it stays) or that tile itself (the joker was exchanged and is free).
   Every such ``X`` the tiles allow is tried (runs: every window of numbers; groups: every set
   of colours); the rest of the table and the rack, with the freed jokers to be placed, is
   solved exactly; every result is judged by ``check_turn``. The search stops when a legal
   turn reaches the upper bound.

Before any place is tried, each *pattern* (what every joker stands for and whether it stays
or is exchanged) gets its own relaxed search: a joker that stays counts as the tile it stands
for wherever it lies, a freed joker goes anywhere. That bounds every turn of the pattern, and
its answer, with each staying joker put back beside a tile of its old meld, is often a legal
turn already. Patterns are taken best bound first; the search stops when the best legal turn
found reaches the next pattern's bound, which proves it best (``Move.exact``). A pattern
whose relaxed answer is not legal has its places tried, closest to the melds as they lie
first (``FIRST_PASS_PLACES`` of each pattern, then the others).

A freed joker must end the turn in a new set, which the exact search of the rest cannot see.
Where the rest's best answer puts it elsewhere, the place is kept aside; once every place has
had that cheap try, each kept place (best bound first) lays its freed jokers in every new set
they could go into (:mod:`referee.newsets`; two jokers in one set, or one set each) and
solves the rest again, its tiles taken from the table where it can (the rest then decides)
and, if that is not legal, from the rack where it can; a set needing some of each is not
tried, and its bound stays unsettled. With one joker on the table and none on the rack this
covers every other legal turn; with two, the places leave out turns that merge two joker melds or split a
two-joker meld between its staying joker and the tile that freed the other, so such a
pattern keeps its bound, and a hint below it is legal but not proven best.

The search stops at ``cpu_limit`` CPU seconds (``HINT_CPU_SECONDS`` by default): the hint is
then the best legal turn found and not proven best. The free move and the turn that leaves
every joker meld as it lies are always tried. A hint is always a legal turn: with no legal
play found it says to draw.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from .newsets import new_sets
from .melds import check_meld, meld_points, meld_readings
from .opening import opening_melds, rack_weights
from .rules import Rules, get_rules
from .search import (BIG, MAX_NUMBER, NCOL, _COLOUR_INDEX, _count_grid, _dead_must, _lay,
                     _lay_valued, _prune_optional, _table_of, _tiles_of)
from .solver import TableUnsolvableError, arrange
from .steps import MoveStep, describe
from .tiles import (COLOURS, JOKER, JOKERS, Meld, Table, TableLike, Tile, TilesLike,
                    check_counts)
from .turns import TurnVerdict, check_turn
from .words import plural

__all__ = ["Move", "best_move"]

#: CPU seconds the search for a hint may take; past it the hint is the best legal turn
#: found, not proven best. It stops the rare search that blows up (tens of seconds on a
#: 90-tile table with both jokers) and leaves the usual ones alone.
HINT_CPU_SECONDS = 0.5
#: places of each pattern tried before any pattern's other places
FIRST_PASS_PLACES = 6


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


def best_move(table: TableLike, rack: TilesLike, rules: "Rules | str | None" = None,
              opened: bool = True, *, cpu_limit: Optional[float] = HINT_CPU_SECONDS) -> Move:
    """The move that lays the most rack tiles (ties: the most points) as a legal turn.

    ``opened=True``: the table may be rearranged within the preset's joker rules (taking a
    joker included); ``opened=False``: the initial-meld rule applies: the melds on the table
    stay as they are and the new melds use rack tiles only, reaching
    ``rules.initial_meld_points`` (together, or one set alone with
    ``rules.initial_meld_single_set``); if that is impossible the move places nothing.

    Raises :class:`TableUnsolvableError` when the table's tiles cannot all be laid in valid
    melds even with every rack tile's help (the table was misread or is incomplete), and
    :class:`~referee.NotationError` / :class:`~referee.ImpossibleTilesError` on bad input.

    ``cpu_limit``: CPU seconds the search may take (None: no limit); past it, the search
    ends with the step it is in, the hint is the best legal turn found and ``Move.exact`` is
    False. The free search and the turn that leaves joker melds as they lie always run.
    """
    started = time.process_time()
    rules = get_rules(rules)
    table = _table_of(table)
    rack_tiles = _tiles_of(rack)
    table_grid, table_j = _count_grid(table.tiles, "the table")
    rack_grid, rack_j = _count_grid(rack_tiles, "the rack")
    if table_j + rack_j > JOKERS or any(
            a + b > 2 for ra, rb in zip(table_grid, rack_grid) for a, b in zip(ra, rb)):
        check_counts(table.tiles + rack_tiles, "the table and the rack together")  # raises
    if not opened:
        return _opening_move(table, rack_tiles, rules)
    free = _free_move(table, rack_tiles, rules)
    if not table_j:
        return _with_steps(free, table, rack_tiles, rules)
    verdict = check_turn(table, free.table, rack_tiles, rules=rules)
    if verdict.legal:
        return _with_steps(free, table, rack_tiles, rules, verdict)
    deadline = float("inf") if cpu_limit is None else started + cpu_limit
    return _JokerSearch(table, rack_tiles, rules, free, deadline).run()


def _tile_points(tile: Tile, rules: Rules) -> int:
    return rules.joker_penalty if tile.is_joker else tile.number


def _value(placed, rules) -> tuple[int, int]:
    return len(placed), sum(_tile_points(t, rules) for t in placed)


def _with_steps(move: Move, table: Table, rack_tiles, rules: Rules,
                verdict: Optional[TurnVerdict] = None, exact: bool = True) -> Move:
    if move.placed and verdict is None:
        verdict = check_turn(table, move.table, rack_tiles, rules=rules)
    steps = describe(table, move.table, verdict) if move.placed else ()
    return Move(move.placed, move.table, move.points, move.remaining, move.opening,
                move.initial_points, steps, exact)


def _draw(table: Table, rack_tiles, exact: bool) -> Move:
    return Move((), table, 0, tuple(rack_tiles), exact=exact)


def _split_rack(melds, table_tiles, rack_tiles):
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


def _free_move(table: Table, rack_tiles, rules) -> Move:
    """The best move with every joker free to go anywhere (an upper bound)."""
    n = MAX_NUMBER
    must, must_j = _count_grid(table.tiles)
    rack_grid, rack_j = _count_grid(rack_tiles)
    total = [[must[v][c] + rack_grid[v][c] for c in range(NCOL)] for v in range(n)]
    jokers = must_j + rack_j
    if _dead_must(n, must, total, jokers):
        raise TableUnsolvableError(_unsolvable_message(table))
    avail = _prune_optional(n, must, total, jokers)
    weight, wj = rack_weights(n, rules)
    melds = _lay(n, must, avail, weight, must_j, rack_j, wj)
    if melds is None:
        raise TableUnsolvableError(_unsolvable_message(table))
    placed, remaining = _split_rack(melds, table.tiles, rack_tiles)
    # nothing placed: the table stays as it lies, unless it needs the solver's arrangement
    new_table = Table(melds) if placed or not _all_valid(table, rules) else table
    return Move(placed, new_table, _value(placed, rules)[1], remaining)


def _all_valid(table: Table, rules) -> bool:
    return all(check_meld(m, rules).ok for m in table.melds)


def _unsolvable_message(table: Table) -> str:
    return (f"the table's {plural(len(table.tiles), 'tile')} cannot all be laid in valid melds, even with "
            f"every rack tile: check the table reading ({table or 'empty'})")


def _opening_move(table: Table, rack_tiles, rules: Rules) -> Move:
    if not _all_valid(table, rules):
        arranged = arrange(table.tiles, rules) if table.tiles else Table()
        if arranged is None:
            raise TableUnsolvableError(
                f"the table's melds are not valid and its tiles cannot be laid in valid melds "
                f"({table}): check the table reading")
        table = arranged
    new_melds = opening_melds(rack_tiles, rules)
    if new_melds is None:
        return Move((), table, 0, tuple(rack_tiles), opening=True, initial_points=0)
    placed, remaining = _split_rack(new_melds, (), rack_tiles)
    initial = sum(meld_points(m, rules, for_initial_meld=True) for m in new_melds)
    after = Table(tuple(table.melds) + tuple(new_melds))
    steps = describe(table, after, None)
    return Move(placed, after, _value(placed, rules)[1], remaining, opening=True,
                initial_points=initial, steps=steps)


# --- the search with the melds holding a joker placed explicitly -----------------------------

@dataclass
class _Place:
    """One candidate place for the jokers of one meld: the meld ``tiles`` (laid order, J for
    the jokers that stay and for rack jokers), the real tiles it takes (``use``: tile ->
    (from the table or rack, from the rack only)), the rack jokers it takes and the jokers of
    the old meld it frees."""

    tiles: tuple[Tile, ...]
    use: Counter
    rack_only: Counter
    rack_jokers: int
    freed: int
    pattern: tuple = ()  #: (what its jokers stand for, which of them were exchanged)


class _JokerSearch:
    def __init__(self, table: Table, rack_tiles, rules: Rules, free: Move, deadline: float):
        self.table, self.rack, self.rules = table, tuple(rack_tiles), rules
        self.bound = _value(free.placed, rules)
        self.table_count = Counter(t for t in table.tiles if not t.is_joker)
        self.rack_count = Counter(t for t in rack_tiles if not t.is_joker)
        self.rack_j = sum(1 for t in rack_tiles if t.is_joker)
        self.jmelds = [m for m in table if any(t.is_joker for t in m)]
        self.others = [m for m in table if not any(t.is_joker for t in m)]
        # Beyond the upper bound, the places tried cover every legal turn when the table holds
        # one joker and the rack none (see the module's notes).
        self.complete = sum(1 for t in table.tiles if t.is_joker) == 1 and not self.rack_j
        self.jmeld_index = [i for i, m in enumerate(table) if any(t.is_joker for t in m)]
        melds_of: dict = {}
        for i, m in enumerate(table):
            for t in m:
                if not t.is_joker:
                    melds_of[t] = melds_of.get(t, frozenset()) | {i}
        self.melds_of = melds_of
        self.deadline = deadline
        self.cut = False
        self.tries = 0
        self.deferred: list = []
        self.untried = 0  # the best bound of a new set whose mixed sources were not tried
        self.best: Optional[Move] = None
        self.best_verdict: Optional[TurnVerdict] = None

    def run(self) -> Move:
        # A pattern says, for each meld holding a joker, what its jokers stand for and which
        # of them stay. Each pattern's relaxed search (a joker that stays counts as the tile
        # it stands for, wherever it lies; a freed joker goes anywhere) bounds every turn of
        # that pattern, and its answer is often a legal turn already.
        top = self.bound[0] * BIG + self.bound[1]
        self._frozen()
        if self.best is not None and self._weight(self.best.placed) >= top:
            return self._answer(True)
        per_meld = [self._patterns(m) for m in self.jmelds]
        bounds = []
        # jokers that stay first: their relaxed answers are the likeliest legal turns
        for pattern in sorted(itertools.product(*per_meld),
                              key=lambda p: sum(sum(f) for _, f in p)):
            if self._late():
                break
            got = self._relaxed(pattern)
            if got is None:
                continue
            bounds.append((got[0], pattern, got[1]))
            if self._realize(pattern, got[1]) and self._weight(self.best.placed) >= top:
                return self._answer(True)
        bounds.sort(key=lambda x: x[0], reverse=True)
        options = None
        unsettled = (0, 0)
        later = []  # (bound, places not tried yet) of each pattern, for a second pass
        for bound, pattern, melds in bounds:
            if self.best is not None and self._weight(self.best.placed) >= bound:
                break
            if self._realize(pattern, melds) and self._weight(self.best.placed) >= bound:
                continue
            if options is None:
                options = [self._places(m) for m in self.jmelds]
            combos = [c for c in itertools.product(*options)
                      if tuple(p.pattern for p in c) == pattern and self._fits(c)]
            # places closest to the melds as they lie first; a few of each pattern in the
            # first pass, so that every pattern gets its likeliest places early
            combos.sort(key=lambda c: sum(abs(len(p.tiles) - len(m)) for p, m in
                                          zip(c, self.jmelds)))
            later.append((bound, combos[FIRST_PASS_PLACES:]))
            self._places_up_to(combos[:FIRST_PASS_PLACES], bound)
            if not self.complete:
                unsettled = max(unsettled, (bound // BIG, bound % BIG))
        unsettled = max(unsettled, self._settle_deferred())
        for bound, combos in later:
            self._places_up_to(combos, bound)
        unsettled = max(unsettled, self._settle_deferred(),
                        (self.untried // BIG, self.untried % BIG))
        got = _value(self.best.placed, self.rules) if self.best is not None else (0, 0)
        return self._answer(got >= unsettled and not self.cut)

    def _places_up_to(self, combos, bound) -> None:
        """Try these places until a turn reaches ``bound`` or time runs out."""
        for combo in combos:
            if self.best is not None and self._weight(self.best.placed) >= bound:
                return
            if self._late():
                return
            self._try(combo)

    def _answer(self, proven: bool) -> Move:
        if self.best is None or not self.best.placed:
            return _draw(self.table, self.rack, proven)
        return _with_steps(self.best, self.table, self.rack, self.rules, self.best_verdict,
                           proven)

    def _frozen(self) -> None:
        """The turn that leaves every meld holding a joker as it lies and solves the rest
        exactly: always legal when the rest can be laid, and the floor for the search."""
        combo = []
        for m in self.jmelds:
            use = Counter(t for t in m if not t.is_joker)
            combo.append(_Place(tuple(m.tiles), use, Counter(), 0, 0))
        if self._fits(combo):
            self._solve(combo, 0, self.rack_j)  # one solve, tried whatever the time limit

    def _weight(self, placed) -> int:
        count, points = _value(placed, self.rules)
        return count * BIG + points

    def _patterns(self, meld: Meld) -> list:
        slots = [p for p, t in enumerate(meld) if t.is_joker]
        readings = {tuple(r.stands_for[p] for p in slots) for r in meld_readings(meld, self.rules)}
        fates = list(itertools.product((False, True), repeat=len(slots)))
        return [(stands, fate) for stands in sorted(readings, key=str) for fate in fates]

    def _relaxed(self, pattern):
        """(bound, melds with each staying joker as its tile) for a pattern, or None when no
        turn of it exists."""
        n = MAX_NUMBER
        table_count = self.table_count.copy()
        rack_count = self.rack_count
        must_extra = Counter()
        freed = 0
        for stands, fate in pattern:
            for s, taken in zip(stands, fate):
                if not taken:
                    table_count[s] += 1  # the joker, standing for s, is a tile s
                    continue
                freed += 1
                if not self.rules.joker_replacement_from_table:
                    if rack_count[s] < 1:
                        return None
                    must_extra[s] += 1  # a rack s takes its place
                elif table_count[s] + rack_count[s] < 1:
                    return None
        must = [[0] * NCOL for _ in range(n)]
        avail = [[0] * NCOL for _ in range(n)]
        for t in set(table_count) | set(rack_count):
            v, c = t.number - 1, _COLOUR_INDEX[t.colour.value]
            must[v][c] = min(4, table_count[t] + must_extra[t])
            avail[v][c] = min(4, table_count[t] + rack_count[t])
        if _dead_must(n, must, avail, freed + self.rack_j):
            return None
        avail = _prune_optional(n, must, avail, freed + self.rack_j)
        weight, wj = rack_weights(n, self.rules)
        value, melds = _lay_valued(n, must, avail, weight, freed, self.rack_j, wj)
        if value is None:
            return None
        # the weight of the tiles a rack s adds in place of a joker is not in ``value``
        extra = sum(weight[t.number - 1][0] * k for t, k in must_extra.items())
        return value + extra, melds

    def _realize(self, pattern, melds) -> bool:
        """Turn a pattern's relaxed answer into a turn (each staying joker back in a meld
        holding its tile, beside a tile of its old meld where it can) and judge it."""
        if melds is None:
            return False
        laid = [list(m.tiles) for m in melds]
        for (stands, fate), old in zip(pattern, self.jmelds):
            own = {t for t in old if not t.is_joker}
            for s, taken in zip(stands, fate):
                if taken:
                    continue
                spots = [(i, p) for i, m in enumerate(laid) for p, t in enumerate(m) if t == s]
                if not spots:
                    return False
                spots.sort(key=lambda ip: not (own & set(laid[ip[0]])))
                i, p = spots[0]
                laid[i][p] = JOKER
        after = Table(laid)
        placed, remaining = _split_rack(after.melds, self.table.tiles, self.rack)
        if self.best is not None and self._weight(placed) <= self._weight(self.best.placed):
            return False
        verdict = check_turn(self.table, after, self.rack, rules=self.rules, reasons=False)
        if not verdict.legal:
            return False
        self.best = Move(placed, after, _value(placed, self.rules)[1], remaining)
        self.best_verdict = verdict
        return True

    # candidates ---------------------------------------------------------------------------

    def _places(self, meld: Meld) -> list[_Place]:
        rules = self.rules
        slots = [p for p, t in enumerate(meld) if t.is_joker]
        real = [t for t in meld if not t.is_joker]
        out, seen = [], set()
        readings = {tuple(r.stands_for[p] for p in slots): r.kind
                    for r in meld_readings(meld, rules)}
        fates = [(False,) * len(slots)]
        fates += [f for f in itertools.product((False, True), repeat=len(slots)) if any(f)]
        for stands, kind in readings.items():
            for fate in fates:
                for place in self._windows(meld, real, stands, kind, fate):
                    place.pattern = (stands, fate)
                    key = (place.tiles, tuple(sorted(place.use.items())), place.pattern)
                    if key not in seen:
                        seen.add(key)
                        out.append(place)
        return out

    def _windows(self, meld, real, stands, kind, fate):
        """Every meld that keeps a tile of ``meld`` and holds each joker's tile: the joker
        itself where it stays, the tile where it was exchanged."""
        rules = self.rules
        whole = not rules.joker_melds_manipulable and not any(fate)
        stay = {s for s, f in zip(stands, fate) if not f}
        swap = [s for s, f in zip(stands, fate) if f]
        if kind == "run":
            colour = stands[0].colour
            nums = {s.number for s in stands}
            own = {t.number for t in real}
            lo0, hi0 = min(nums | own), max(nums | own)
            for lo in range(1, min(nums) + 1):
                for hi in range(max(max(nums), lo + 2), MAX_NUMBER + 1):
                    if whole and not (lo <= lo0 and hi >= hi0):
                        continue
                    if not any(lo <= k <= hi for k in own):
                        continue
                    tiles = [Tile(colour, k) for k in range(lo, hi + 1)]
                    place = self._fill(tiles, stay, swap, whole and real)
                    if place is not None:
                        yield place
        else:
            number = stands[0].number
            have = {t.colour for t in real}
            need = {s.colour for s in stands}
            if (rules.joker_group_needs_both_missing and swap and len(meld) == 3):
                need |= {c for c in COLOURS if c not in have}
            for size in (3, 4):
                for cols in itertools.combinations(COLOURS, size):
                    cs = set(cols)
                    if not need <= cs or not (cs & have) or (whole and not have <= cs):
                        continue
                    tiles = [Tile(c, number) for c in cols]
                    place = self._fill(tiles, stay, swap, ())
                    if place is not None:
                        yield place

    def _fill(self, tiles, stay, swap, must_hold):
        """A _Place for the meld ``tiles`` (in order), or None if the tiles are not there."""
        use, rack_only = Counter(), Counter()
        laid, rack_jokers = [], 0
        for t in tiles:
            if t in stay:
                laid.append(JOKER)
                continue
            if t in swap and not self.rules.joker_replacement_from_table:
                if self.rack_count[t] - rack_only[t] < 1:
                    return None
                rack_only[t] += 1
                laid.append(t)
                continue
            if self.table_count[t] + self.rack_count[t] - use[t] - rack_only[t] >= 1:
                use[t] += 1
                laid.append(t)
            elif rack_jokers < self.rack_j and t not in swap:
                rack_jokers += 1
                laid.append(JOKER)
            else:
                return None
        return _Place(tuple(laid), use, rack_only, rack_jokers, len(swap))

    def _fits(self, combo) -> bool:
        use = Counter()
        for p in combo:
            use.update(p.use)
            use.update(p.rack_only)
        if any(self.table_count[t] + self.rack_count[t] < n for t, n in use.items()):
            return False
        rack_only = Counter()
        for p in combo:
            rack_only.update(p.rack_only)
        if any(self.rack_count[t] < n for t, n in rack_only.items()):
            return False
        return sum(p.rack_jokers for p in combo) <= self.rack_j

    def _bound(self, combo) -> tuple[int, int]:
        """Rack tiles (and points) the combo could lay at most: the places' own rack tiles
        and every rack tile left."""
        use = Counter()
        for p in combo:
            use.update(p.use)
            use.update(p.rack_only)
        left = self.rack_count.copy()
        from_rack = sum(p.rack_jokers for p in combo)
        for t, n in use.items():
            extra = max(0, n - self.table_count[t])
            left[t] -= extra
        tiles = sum(left.values()) + self.rack_j
        points = sum(t.number * n for t, n in left.items()) \
            + self.rack_j * self.rules.joker_penalty
        placed_in = sum(max(0, n - self.table_count[t]) for t, n in use.items())
        placed_points = sum(t.number * max(0, n - self.table_count[t]) for t, n in use.items())
        return (tiles + placed_in - (self.rack_j - from_rack) + (self.rack_j - from_rack),
                points + placed_points)

    # solving the rest -----------------------------------------------------------------------

    def _late(self) -> bool:
        """Past the CPU-time limit: the search stops and the hint is the best found."""
        if time.process_time() > self.deadline:
            self.cut = True
        return self.cut

    def _try(self, combo) -> None:
        """Lay the rest of the table for these places, freed jokers anywhere; when that
        puts a freed joker where the rules forbid, lay it in each new set it could go into
        (:mod:`referee.newsets`) and solve the rest again."""
        if self._late():
            return
        self.tries += 1
        freed = sum(p.freed for p in combo)
        opt_j = self.rack_j - sum(p.rack_jokers for p in combo)
        got = self._solve(combo, freed, opt_j)
        if got is None or got[1] or not freed:
            return
        bound = self._weight(got[0])  # freed jokers anywhere: the most this combo lays
        own = [i for p, i in zip(combo, self.jmeld_index) for _ in range(p.freed)]
        if freed == 1:
            pairs = [(1, frozenset(own))]
        else:
            pairs = [(2, frozenset(own)), (1, frozenset(own[:1])), (1, frozenset(own[1:]))]
        # the new sets are tried once every place has had its cheap try, best bound first
        self.deferred.append((bound, self.tries, list(combo), pairs, opt_j))

    def _settle_deferred(self) -> tuple[int, int]:
        """Lay the freed jokers of the deferred places in new sets, best bound first; the
        bound left unsettled when time runs out."""
        for bound, _, combo, pairs, opt_j in sorted(self.deferred, key=lambda d: (-d[0], d[1])):
            if self.best is not None and self._weight(self.best.placed) >= bound:
                break
            if self._late() or (self._new_sets(combo, pairs, opt_j, bound) and self.cut):
                return bound // BIG, bound % BIG
        return 0, 0

    def _new_sets(self, combo, pairs, opt_j, bound) -> bool:
        """Lay freed jokers in new sets: ``pairs`` lists (jokers, their own melds) to place,
        first all in one set, then (two jokers from two melds) one set each. True once a
        turn reaching ``bound`` is found or time ran out."""
        jokers, own = pairs[0]
        table_left, rack_left = self._left(combo)
        for new in new_sets(jokers, opt_j, table_left, rack_left,
                            self.rules.joker_reuse_min_rack_tiles, self.melds_of, own):
            if self._late() or (self.best is not None
                                and self._weight(self.best.placed) >= bound):
                return True
            place = _Place(new.tiles, new.use, Counter(), new.rack_jokers, 0)
            got = self._solve(combo + [place], 0, opt_j - new.rack_jokers)
            if got is None or got[1] or (self.best is not None and self._weight(got[0])
                                         <= self._weight(self.best.placed)):
                continue  # laid, or no better than the best: the same set from the rack is not
            # the same set with every tile the rack has from the rack (a rack-tile minimum)
            strict = Counter({t: n for t, n in new.use.items() if rack_left[t] > 0})
            if not strict:
                continue
            place = _Place(new.tiles, new.use - strict, strict, new.rack_jokers, 0)
            got = self._solve(combo + [place], 0, opt_j - new.rack_jokers)
            if (got is None or not got[1]) and sum(1 for t in strict if table_left[t] > 0) >= 2:
                # some tiles from the rack, some from the table: not tried
                self.untried = max(self.untried, bound)
        if len(pairs) == 3:
            # two jokers, each in its own new set
            return self._two_sets(combo, pairs[1:], opt_j, bound)
        return False

    def _two_sets(self, combo, pairs, opt_j, bound) -> bool:
        (_, own1), (_, own2) = pairs
        table_left, rack_left = self._left(combo)
        min_rack = self.rules.joker_reuse_min_rack_tiles
        for first in new_sets(1, opt_j, table_left, rack_left, min_rack, self.melds_of, own1):
            place1 = _Place(first.tiles, first.use, Counter(), first.rack_jokers, 0)
            left_t, left_r = self._left(combo + [place1])
            for second in new_sets(1, opt_j - first.rack_jokers, left_t, left_r, min_rack,
                                   self.melds_of, own2):
                if self._late() or (self.best is not None
                                    and self._weight(self.best.placed) >= bound):
                    return True
                place2 = _Place(second.tiles, second.use, Counter(), second.rack_jokers, 0)
                got = self._solve(combo + [place1, place2], 0,
                                  opt_j - first.rack_jokers - second.rack_jokers)
                if got is not None and not got[1] and (
                        self.best is None
                        or self._weight(got[0]) > self._weight(self.best.placed)) and any(
                        table_left[t] and rack_left[t] for t in first.use + second.use):
                    # the same sets with tiles from the rack instead are not tried
                    self.untried = max(self.untried, bound)
        return False

    def _left(self, combo):
        """(table, rack) copies of each tile the places leave free."""
        use, rack_only = Counter(), Counter()
        for p in combo:
            use.update(p.use)
            rack_only.update(p.rack_only)
        table_left, rack_left = Counter(), Counter()
        for t in set(self.table_count) | set(self.rack_count):
            tc, rc = self.table_count[t], self.rack_count[t]
            table_left[t] = max(0, tc - use[t])
            rack_left[t] = rc - rack_only[t] - max(0, use[t] - tc)
        return table_left, rack_left

    def _solve(self, combo, freed, opt_j):
        """Lay the rest exactly for these places (``freed`` jokers to place anywhere,
        ``opt_j`` rack jokers that may be laid) and judge the turn: (placed, legal) or None
        when the rest cannot be laid."""
        n = MAX_NUMBER
        must = [[0] * NCOL for _ in range(n)]
        avail = [[0] * NCOL for _ in range(n)]
        use, rack_only = Counter(), Counter()
        for p in combo:
            use.update(p.use)
            rack_only.update(p.rack_only)
        for t in set(self.table_count) | set(self.rack_count):
            v, c = t.number - 1, _COLOUR_INDEX[t.colour.value]
            tc, rc = self.table_count[t], self.rack_count[t]
            must[v][c] = max(0, tc - use[t])
            avail[v][c] = tc + rc - use[t] - rack_only[t]
            if avail[v][c] < must[v][c]:
                return None
        if opt_j < 0:
            return None
        if _dead_must(n, must, avail, freed + opt_j):
            return None
        avail = _prune_optional(n, must, avail, freed + opt_j)
        weight, wj = rack_weights(n, self.rules)
        melds = _lay(n, must, avail, weight, freed, opt_j, wj)
        if melds is None:
            return None
        after = Table([Meld(p.tiles) for p in combo] + list(melds))
        placed, remaining = _split_rack(after.melds, self.table.tiles, self.rack)
        if self.best is not None and self._weight(placed) <= self._weight(self.best.placed):
            return placed, False  # no better than the best: not worth judging
        verdict = check_turn(self.table, after, self.rack, rules=self.rules, reasons=False)
        if not verdict.legal:
            return placed, False
        self.best = Move(placed, after, _value(placed, self.rules)[1], remaining)
        self.best_verdict = verdict
        return placed, True
