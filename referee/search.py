"""The exact search behind every solver question: which of these tiles can be laid in valid
melds, and how, with the most weight laid.

The method is the dynamic programme over numbers of van Rijn, Takes and Vis ("The complexity
of Rummikub problems", 2015), extended to jokers and to the questions a referee asks.

Numbers are processed from 1 to 13. Before number ``v`` the state holds, per colour, the
lengths of the runs still open (each 1, 2 or "3 or more"), how many jokers are used so far
and, for the initial meld, the points laid so far (capped at the threshold). At number ``v``
each colour decides how many of its tiles ``(colour, v)`` to use, how many of them go into
groups of number ``v``, and how many jokers stand for ``(colour, v)`` in runs. A run of
length 1 or 2 must go on; a run of 3 or more may stop; extra run slots start new runs.
Letting a run of 3+ go on always beats stopping it and starting a new one at the same number,
so the state after a number is fixed by how many run slots a colour fills, and equal runs
are interchangeable (a colour's state is a sorted tuple: 35 states). Groups are checked once
per number: with ``g_c`` tiles of colour ``c`` in groups (at most one per group) and ``j``
jokers, ``k`` groups of 3-4 exist exactly when ``max g_c <= k`` and ``3k <= sum g + j <= 4k``.
A colour may put up to three tiles of a number into groups: the set has two copies of each
tile, but the hint search's bounds (:mod:`referee.joker_bounds`) count a joker that stays as
the tile it stands for, and a player may lay it beside both copies, each in a group of its own
(``K4 B4 R4 | K4 O4 R4 | B4 O4 J``, the joker R4): a third copy.
Every meld has at least three tiles and a set has two jokers, so no meld is jokers only.

Speed, without giving up exactness:

* Colours are decided one after another inside a number (a "profile" DP), so a number costs
  a sum, not a product, over the colours; the moves from a state are computed once per
  process for each local situation and replayed as integer key deltas.
* The search is a memoised depth-first search with bounds: it stops a branch when the
  remaining tiles cannot beat what it has (arranging stops at the first arrangement; a move
  that lays the whole rack stops there), and a best move asks "all rack tiles?", "all but
  one?", ... so that every branch that cannot reach the bar is cut at once.
* Jokers are first treated as optional (never in a group of four, never starting a run that
  could as well end with it); the unused ones are fitted into the melds afterwards. That
  works unless every meld is a group of four; then the plain search, which places every
  joker anywhere, decides. With jokers optional, a state dead with some jokers left is dead
  with fewer left too.
* The same problem is solved reading the numbers upward and downward, in turns with a
  growing budget, and the first to finish wins: an obstacle near one end makes the search
  from the other end walk through every way of reaching it.
* Rack tiles that cannot be in any meld are left out before the search, and runs of 1-2 tiles
  look two numbers ahead for the tiles they need.

The questions built on it live in :mod:`referee.solver` (arranging a table), :mod:`referee.opening`
(the initial meld) and :mod:`referee.hints` (the best move).
"""

from __future__ import annotations

import itertools
from typing import Optional, Sequence

from .meld_build import NCOL, jokers_used, melds_from
from .tiles import (COLOURS, JOKERS, MAX_NUMBER, Meld, Table, Tile, check_counts,
                    parse_table, parse_tiles)

#: "no arrangement from here": far below any value (a hint's most is about 7 million: 106
#: tiles of weight BIG and their points) and any bar asked (a floor less every weight still
#: to gain), and within a machine word (CPython compares and adds such ints on its fast
#: path, and the search compares with it at every step)
_NEG = -(1 << 29)
BIG = _BIG = 1 << 16  #: a placed tile outweighs any number of points (lexicographic objective)


# Per-colour run states: sorted tuples of open-run lengths (1, 2, or 3 meaning "3 or more"),
# at most four runs (two copies of a tile and two jokers standing for it). _TRANS[s][r] is
# the state after filling r run slots at the next number (-1: a run of 1-2 would stop short):
# runs of 1-2 go on first, then runs of 3+, then new runs start. Stopping a run of 3+ while
# starting a new one at the same number is never better than letting the run go on.

_BITS = 6  # bits per colour state in a search key
_CMASK = (1 << _BITS) - 1


def _build_states():
    states = [combo for size in range(5)
              for combo in itertools.combinations_with_replacement((1, 2, 3), size)]
    index = {s: i for i, s in enumerate(states)}
    trans = []
    for s in states:
        must = [l for l in s if l < 3]
        m, t = len(must), len(s) - len(must)
        grown = [l + 1 for l in must]
        row = []
        for r in range(5):
            if r < m:
                row.append(-1)
            elif r <= m + t:
                row.append(index[tuple(sorted(grown + [3] * (r - m)))])
            else:
                row.append(index[tuple(sorted(grown + [3] * t + [1] * (r - m - t)))])
        trans.append(tuple(row))
    closable = tuple(all(l == 3 for l in s) for s in states)
    need1 = tuple(sum(1 for l in s if l < 3) for s in states)  # need a tile next number
    need2 = tuple(sum(1 for l in s if l == 1) for s in states)  # and the one after
    return tuple(states), tuple(trans), closable, need1, need2


_STATES, _TRANS, _CLOSABLE, _NEED1, _NEED2 = _build_states()
_COLOUR_INDEX = {colour.value: c for c, colour in enumerate(COLOURS)}


# _GROUPS_OK[total][most]: can `total` group slots at one number, at most `most` of one colour,
# form groups of 3-4 distinct colours?  (k groups: most <= k and 3k <= total <= 4k)
_GROUPS_OK = tuple(tuple(any(most <= k and 3 * k <= total <= 4 * k for k in range(0, 5))
                         for most in range(4)) for total in range(13))

# the fewest jokers that complete the groups of one number, one entry per group count k
_MIN_GROUP_JOKERS = tuple(tuple(sorted({max(0, 3 * k - total) for k in range(0, 5)
                                        if most <= k and total <= 4 * k and 3 * k - total <= 2})
                                for most in range(4)) for total in range(13))

_SHIFT_J = _BITS * NCOL  # jokers used
_SHIFT_G = _SHIFT_J + 2  # group slots of real tiles so far at this number
_SHIFT_M = _SHIFT_G + 4  # most real tiles of one colour in this number's groups
_SHIFT_P = _SHIFT_M + 2  # initial-meld points so far (capped)
_MASK_GM = (15 << _SHIFT_G) | (3 << _SHIFT_M)
_NOT_J = ~(3 << _SHIFT_J)
#: the fields of a key the moves of colour c depend on: its runs and every field above the
#: colours (jokers used, this number's group tallies, points)
_TMASKS = tuple(~((1 << _SHIFT_J) - 1) | (_CMASK << (_BITS * c)) for c in range(NCOL))


# In the relaxed search a joker may start a run only three numbers or less from the top (10
# and up, in the search's own reading order). A run that starts with a joker (J 4 5, J J 5,
# J 4 J) is as good laid the other way round (4 5 J, 5 J J, 4 J J) when there is room above;
# a longer one (J 4 5 6) does not need its joker at all. So nothing is lost, and jokers stop
# spawning new runs everywhere.

_OPTIONS: dict = {}
#: the moves of every situation met (see :meth:`_Search._steps`): for each local situation of
#: one colour at one number (a tuple, the same for every search that meets it), a table of the
#: moves by the key's high fields, the jokers left and this colour's runs (one number); and,
#: for the same situation less the weight of a tile (a shorter tuple), the moves with the
#: tiles each lays in place of its weight, from which a table for any weight is made at once
_STEPS: dict = {}
_STEPS_HELD = [0]  #: moves lists in those tables


def _drop_moves() -> None:
    """Empty the moves cache, the tables that searches still running hold included. The
    server judges in threads: another search may add a table while this one empties them,
    so the tables are listed first (one step, under the interpreter's lock) and then
    emptied, rather than emptied while the cache is walked."""
    for held in list(_STEPS.values()):
        held.clear()
    _STEPS.clear()
    _STEPS_HELD[0] = 0


def _options(sc, jl, must, avail, w, cap1, cap2, number, zero_jokers, joker_starts, relaxed):
    """The choices of one colour at one number, from run state ``sc`` with ``jl`` jokers left:
    (new state, tiles into groups, jokers into runs, weight gained, points, tiles used).
    ``must``/``avail``: tiles of this colour and number that have to / may be laid; ``cap1``,
    ``cap2``: tiles of this colour at the next two numbers (-1: none exist)."""
    row = _TRANS[sc]
    runs = len(_STATES[sc])
    opts = []
    for u in range(avail, must - 1, -1):  # more optional tiles first
        for jr in range(0, jl + 1 if not relaxed or u == avail else 1):
            # (relaxed: a joker never stands for a tile of this number and colour that is
            # left unused or put in a group: the tile itself could take its place)
            spare = jl - jr
            points = u * number if zero_jokers else (u + jr) * number
            # (three in groups: a third copy, a joker counted as its tile; see above)
            for g in range(0, (min(u, 3) if not (relaxed and jr) else 0) + 1):
                r = u - g + jr
                if r > 4:
                    continue
                if not joker_starts and jr > min(r, runs):
                    continue  # a joker would start a run: it could as well end it (see above)
                ns = row[r]
                if ns < 0:
                    continue
                need1 = _NEED1[ns]
                if need1:
                    if cap1 < 0 or need1 > cap1 + spare:
                        continue
                    need2 = _NEED2[ns]
                    if need2 and (cap2 < 0 or need2 > cap2 + spare):
                        continue
                opts.append((ns, g, jr, (u - must) * w, points, u))
    return tuple(opts)


def _bars(units):
    """The tile counts to ask about, highest first: every count near the top (where a bar
    prunes hardest), then in steps that grow, so a rack that lays far fewer than all its
    tiles is not asked about every count in between. A count cleared gives the exact best
    (the search returns the true value whenever it beats its bar)."""
    count, step = units, 1
    while count > 0:
        yield count
        if units - count >= 3:
            step *= 2
        count -= step


def _per_colour() -> list:
    """A new table for each colour of one number (a literal: many are made per solve)."""
    return [{}, {}, {}, {}]


assert NCOL == 4  # _per_colour


class _OutOfBudget(Exception):
    pass


#: the budget of a search with no limit (``budget`` None), as a number: one subtraction and
#: one comparison a state
_NO_LIMIT = 1 << 62


class Leaning:
    """For a series of similar solves (the hint search's many rests of one table): the
    reading that finished first last time goes first, with ``LEAN`` times the other's
    budget. The other still gets a growing share, so an obstacle that changes ends costs a
    few more states, never the search. Only the speed depends on it, and which of equally
    good arrangements comes back."""

    LEAN = 2

    def __init__(self, reverse: bool = False, even: bool = False):
        self.reverse = reverse
        #: both readings in turns with equal budgets, upward first, as a solve without a
        #: leaning: a first solve that must answer as one alone would, its memo kept for the
        #: series (the hint search's free move)
        self.even = even
        #: the memo of every solve of the series, by the numbers still to read (see
        #: :meth:`_Search.share`): a later solve whose rest is the same from some number on
        #: starts with what the earlier ones learnt there
        self.shared: dict = {}
        self.row_ids: dict = {}  #: each row (must, avail, weight) met, as a small number

    def rows(self, n, must, avail, weight) -> list:
        """The rows of a problem as small numbers, the same for the same row."""
        ids, known = [], self.row_ids
        for v in range(n):
            row = (*must[v], *avail[v], *weight[v])
            got = known.get(row)
            if got is None:
                got = known[row] = len(known)
            ids.append(got)
        return ids

    @classmethod
    def fewer_first(cls, n, avail) -> Leaning:
        """Start from the end of the numbers that holds fewer tiles (measured on the
        recorded solves of the quick bench's openings and hints, this direction wins more
        often than either fixed one; on the openings the hardest, o #29, took half)."""
        low = sum(sum(avail[v]) for v in range(n // 2))
        high = sum(sum(avail[v]) for v in range(n - n // 2, n))
        return cls(reverse=low > high)


#: states the first reading of a solve in a series (a hint search's rests and bounds) may
#: visit before the other is set up (each later turn doubles it): most end within it, and
#: setting up a second reading costs about what fifty states do. A solve alone starts with
#: ``ALONE_BUDGET``: which of equally good arrangements it gives back depends on it, and the
#: bench draws its tables from those arrangements.
FIRST_BUDGET = 1000
ALONE_BUDGET = 100


def _solve_both_ways(*args, leaning: Leaning | None = None, **kw):
    """Solve reading the numbers upward and downward in turns, with a growing budget of
    states each, and keep the first that finishes: an obstacle near one end makes the search
    from the other end walk through every way of reaching it. Returns (search, value,
    decisions); the memo of each direction survives its interruptions. With ``leaning``,
    the reading that won last time goes first with the larger budget."""
    up = down = None
    if leaning is not None:
        ids = leaning.rows(*args[:4])  # (n, must, avail, weight)
        up, down = (leaning.shared, ids), (leaning.shared, ids[::-1])
    readings = [(False, up), (True, down)]
    shares = (1, 1)
    if leaning is not None and not leaning.even:
        if leaning.reverse:
            readings.reverse()
        shares = (Leaning.LEAN, 1)
    # the second reading is set up only when the first runs out of budget (most of a hint
    # search's solves end within the first budget, and setting one up costs about as much)
    searches: list = [None, None]
    budget = FIRST_BUDGET if leaning is not None and not leaning.even else ALONE_BUDGET
    while True:
        for i, share in enumerate(shares):
            if searches[i] is None:
                reverse, shared = readings[i]
                searches[i] = _Search(*args, reverse=reverse, shared=shared, **kw)
            search = searches[i]
            search.budget = budget * share
            try:
                value, decisions = search.solve()
            except _OutOfBudget:
                continue
            if leaning is not None and not leaning.even:
                leaning.reverse = search.reverse
            return search, value, decisions
        budget *= 2


class _Search:
    """One solve. ``must[v][c]`` tiles of colour c, number v+1 have to be laid; up to
    ``avail[v][c]`` may be; each optional one laid is worth ``weight[v][c]``. ``must_j`` jokers
    have to be laid, ``opt_j`` more may be, each worth ``wj``. With ``threshold`` > 0 the laid
    tiles must reach that many points (a joker counts the number it stands for, or 0 with
    ``zero_jokers``).

    ``relaxed``: any number of jokers up to ``must_j + opt_j`` may be used, and the value
    counts every optional joker as laid; a joker then never goes where it could be left out
    or moved: into a group of four, at the start of a run with room above, or standing for a
    tile of its own number and colour that lies unused or in a group. The caller fits the
    unused jokers into the melds afterwards (always possible unless every meld is a group of
    four) or solves again unrelaxed. Fewer jokers used is then never worse, which prunes.
    ``reverse``: read the numbers from the top down (the same problem, mirrored).
    """

    def __init__(self, n, must, avail, weight, must_j, opt_j, wj, threshold=0, zero_jokers=False,
                 relaxed=False, reverse=False, floor=None, shared=None, first=False):
        if reverse:  # the same problem read from 13 down to 1 (runs and groups are symmetric)
            if threshold:
                raise ValueError("initial-meld points are counted reading upward only")
            must, avail, weight = must[::-1], avail[::-1], weight[::-1]
        self.reverse = reverse
        self.floor = floor
        #: stop at the first value above the floor (see :meth:`value`): a yes-or-no question
        self.first = first
        self.budget = None  # new states this search may still visit (None: no limit)
        self.n = n
        self.relaxed = relaxed
        self.joker_bonus = opt_j * wj
        self.must, self.avail, self.weight = must, avail, weight
        self.must_j, self.jokers, self.wj = must_j, must_j + opt_j, wj
        self.threshold = threshold
        self.zero_jokers = zero_jokers
        self.end = n * NCOL
        self._cell = [None] * self.end  # each position's table of moves (see _steps)
        self._tiles = [None] * self.end  # and of the tiles its moves lay
        if shared is None:
            self.memo = [dict() for _ in range(self.end + 1)]
            self.dead = [dict() for _ in range(self.end + 1)]
            self.bound = [dict() for _ in range(self.end + 1)]
            #: the moves from each position (see _steps), by the state's high fields
            self.step_cache = [dict() for _ in range(self.end)]
        else:
            self._share(*shared)
        # Worked out in one pass over the rows, from the last number down (a hint search
        # sets up thousands of solves):
        # * ``unit``: the lexicographic objective (tiles, then points): each optional tile
        #   weighs _BIG + points;
        # * ``units``: the optional tiles and jokers;
        # * ``feasibility``: no weights: the only question is whether everything can be laid;
        # * ``ub[pos]``: the best value still to gain from each position on (every optional
        #   tile and joker laid);
        # * ``group_room[pos]``: the most tiles the later colours of the same number could add
        #   to its groups (three with a third copy).
        end = self.end
        ub = [0] * (end + 1)
        top = ub[end] = opt_j * wj
        room = [0] * end
        units, heaviest = opt_j, wj
        pos = end
        for v in range(n - 1, -1, -1):
            (a0, a1, a2, a3), (m0, m1, m2, m3), (w0, w1, w2, w3) = avail[v], must[v], weight[v]
            for w in (w0, w1, w2, w3):
                if w > heaviest:
                    heaviest = w
            units += a0 - m0 + a1 - m1 + a2 - m2 + a3 - m3
            ub[pos - 1] = top = top + (a3 - m3) * w3
            ub[pos - 2] = top = top + (a2 - m2) * w2
            ub[pos - 3] = top = top + (a1 - m1) * w1
            ub[pos - 4] = top = top + (a0 - m0) * w0
            c3 = a3 if a3 < 3 else 3
            c2 = (a2 if a2 < 3 else 3) + c3
            room[pos - 4], room[pos - 3], room[pos - 2] = (a1 if a1 < 3 else 3) + c2, c2, c3
            pos -= 4
        self.unit = _BIG if heaviest >= _BIG else 0
        self.units = units
        self.feasibility = not heaviest and not wj and not any(w for row in weight for w in row)
        self.ub = ub
        self.group_room = room

    def _share(self, store: dict, ids: list) -> None:
        """Take the memo of earlier solves from ``store`` wherever it holds (``ids``: this
        problem's rows as :meth:`Leaning.rows` numbers them, in this search's reading order).
        What ``value`` answers at a position of number ``v`` (its exact values, its "at most"
        bounds, its dead states) depends only on the tiles of the numbers from ``v`` on, in
        this reading order, and on the jokers, weights and kind of question (``head``): every
        solve whose rows from ``v`` on are the same shares those positions' tables. The
        moves from a position depend on the rows from ``v`` to ``v + 2`` only."""
        head = (self.reverse, self.n, self.must_j, self.jokers, self.wj, self.threshold,
                self.zero_jokers, self.relaxed)
        tables = store.get(head)
        if tables is None:
            tables = store[head] = ({}, {}, ({}, {}, {}), {})
        by_rest, rests, end, by_window = tables
        # each rest of the rows (from v on) as a small number: (row v, the rest after it)
        rest, after = [0] * self.n, -1
        for v in range(self.n - 1, -1, -1):
            key = (ids[v], after)
            got = rests.get(key)
            if got is None:
                got = rests[key] = len(rests)
            rest[v] = after = got
        memo, dead, bound, steps = [], [], [], []
        padded = list(ids) + [-1, -1]
        for v in range(self.n):
            got = by_rest.get(rest[v])
            if got is None:
                got = by_rest[rest[v]] = (_per_colour(), _per_colour(), _per_colour())
            memo += got[0]
            dead += got[1]
            bound += got[2]
            window = (v, padded[v], padded[v + 1], padded[v + 2])
            got = by_window.get(window)
            if got is None:
                got = by_window[window] = _per_colour()
            steps += got
        memo.append(end[0])
        dead.append(end[1])
        bound.append(end[2])
        self.memo, self.dead, self.bound, self.step_cache = memo, dead, bound, steps

    def options(self, v, c, sc, jl):
        """(new state, tiles in groups, jokers in runs, weight, points, tiles used) for one
        colour at one number, from run state ``sc`` with ``jl`` jokers left. Shared by all
        searches (the key holds everything the list depends on)."""
        must, avail, w = self.must[v][c], self.avail[v][c], self.weight[v][c]
        # look ahead: runs of 1-2 tiles need tiles (or jokers) of this colour next, and
        # nothing comes after the last number, not even a joker
        cap1, cap2 = self._caps(v, c)
        number = (v + 1) if self.threshold else 0
        key = (sc, jl, must, avail, w, cap1, cap2, number, self.zero_jokers,
               not self.relaxed or v + 1 >= self.n - 3, self.relaxed)
        opts = _OPTIONS.get(key)
        if opts is None:
            opts = _OPTIONS[key] = _options(*key)
        return opts

    def _caps(self, v, c):
        """Tiles of colour c the next two numbers hold (-1: no such number), for the
        lookahead: runs of 1-2 tiles must find tiles (or jokers) there."""
        return (self.avail[v + 1][c] if v + 1 < self.n else -1,
                self.avail[v + 2][c] if v + 2 < self.n else -1)

    def closings(self, key, number):
        """After the last colour of a number: the ways to complete its groups with jokers,
        as (key for the next number, jokers added)."""
        g_total = (key >> _SHIFT_G) & 15
        most = (key >> _SHIFT_M) & 3
        used = (key >> _SHIFT_J) & 3
        base = key & ~_MASK_GM
        out = []
        if self.relaxed:  # only jokers a group needs: none in a group of four
            allowed = _MIN_GROUP_JOKERS[g_total][most]
        else:
            allowed = range(0, self.jokers - used + 1)
        for jg in allowed:
            if jg + used <= self.jokers and _GROUPS_OK[g_total + jg][most]:
                nk = base + (jg << _SHIFT_J)
                if jg and self.threshold and not self.zero_jokers:
                    nk = self._add_points(nk, jg * number)
                out.append((nk, jg))
        return out

    def _add_points(self, key, points):
        p = (key >> _SHIFT_P)
        np_ = min(self.threshold, p + points)
        return key + ((np_ - p) << _SHIFT_P)

    def terminal(self, key):
        for c in range(NCOL):
            if not _CLOSABLE[(key >> (_BITS * c)) & _CMASK]:
                return _NEG
        if self.threshold and (key >> _SHIFT_P) < self.threshold:
            return _NEG
        if self.relaxed:
            return self.joker_bonus
        used = (key >> _SHIFT_J) & 3
        if used < self.must_j:
            return _NEG
        return (used - self.must_j) * self.wj

    def children(self, pos, key) -> list:
        """(weight gained, child key, decision) for each move at this position, in search
        order (a list, not a generator: :meth:`_steps` makes one on every process-wide cache
        miss)."""
        v, c = divmod(pos, NCOL)
        shift = _BITS * c
        sc = (key >> shift) & _CMASK
        used = (key >> _SHIFT_J) & 3
        m0 = (key >> _SHIFT_M) & 3
        threshold = self.threshold
        out = []
        for ns, g, jr, dw, points, u in self.options(v, c, sc, self.jokers - used):
            nk = key + ((ns - sc) << shift) + (jr << _SHIFT_J) + (g << _SHIFT_G)
            if g > m0:
                nk += (g - m0) << _SHIFT_M
            if threshold and points:
                nk = self._add_points(nk, points)
            if c == NCOL - 1:
                for ck, jg in self.closings(nk, v + 1):
                    out.append((dw, ck, (u, g, jr, jg)))
            else:
                out.append((dw, nk, (u, g, jr, 0)))
        return out

    def _steps(self, pos, key):
        """Every move from this position as (key delta, weight), in search order. The list
        depends only on the tiles at this number and the next two, this colour's runs, the
        jokers left and the group tallies of the number so far: it is shared by all searches
        (a process-wide cache) and computed once for each of those (the moves of
        :meth:`children`, less the groups begun that can no longer reach 3 tiles). Each move
        weighs the optional tiles it lays times the weight of this colour and number, so the
        lists of situations that differ only in that weight are made from one list of moves
        with the tiles each lays (asked about far more often than made)."""
        v, c = divmod(pos, NCOL)
        sc = (key >> (_BITS * c)) & _CMASK
        # (numbers only in the keys, no tuple inside: a key of numbers is untracked by the
        # garbage collector the first time it looks, and is not looked at again)
        tkey = (key >> _SHIFT_G) << 8 | (self.jokers - ((key >> _SHIFT_J) & 3)) << _BITS | sc
        table = self._cell[pos]
        if table is None:
            # what the list depends on at this position, whatever the key: looked up once a
            # search
            cap1, cap2 = self._caps(v, c)
            cell = (c, self.must[v][c], self.avail[v][c], cap1, cap2, self.group_room[pos],
                    self.relaxed, not self.relaxed or v + 1 >= self.n - 3,
                    self.threshold and v + 1, self.threshold, self.threshold and self.zero_jokers)
            weighed = cell + (self.weight[v][c],)
            table = _STEPS.get(weighed)
            if table is None:
                table = _STEPS[weighed] = {}
            tiles = _STEPS.get(cell)
            if tiles is None:
                tiles = _STEPS[cell] = {}
            self._cell[pos] = table
            self._tiles[pos] = tiles
        steps = table.get(tkey)
        if steps is not None:
            return steps
        tiles = self._tiles[pos]
        laid = tiles.get(tkey)
        if laid is None:
            must = self.must[v][c]
            if c == NCOL - 1:
                laid = [(ck - key, dec[0] - must) for _, ck, dec in self.children(pos, key)]
            else:
                laid = []
                spare = self.jokers + self.group_room[pos]
                for _, ck, dec in self.children(pos, key):
                    g1 = (ck >> _SHIFT_G) & 15
                    # groups begun at this number must still be able to reach 3 tiles
                    if g1 and g1 + spare - ((ck >> _SHIFT_J) & 3) < 3 * max(
                            (ck >> _SHIFT_M) & 3, 1):
                        continue
                    laid.append((ck - key, dec[0] - must))
            laid = tiles[tkey] = tuple(laid)
            _STEPS_HELD[0] += 1
        w = self.weight[v][c]
        steps = table[tkey] = tuple([(delta, k * w) for delta, k in laid])
        # at most about 4 MB: the full referee bench's joker and 40-tile hints, 400 of them,
        # meet 174,153 lists, and their process's peak memory is 13 MB higher when none is
        # dropped (71 MB, against 58 MB dropping all at 50,000). Holding 200,000 made those
        # hints no faster within the noise, and the nearest-table row that runs after them
        # slower (CPU p99 39 ms against 33-34, four runs each): what is dropped is rebuilt
        # on demand
        if _STEPS_HELD[0] > 50_000:
            _drop_moves()
        _STEPS_HELD[0] += 1
        return steps

    def value(self, pos, key, alpha=_NEG):
        """The best value still to gain from this position and key (_NEG: impossible), if it
        is more than ``alpha``; otherwise some number <= alpha (the caller cannot use more).
        Exact values are memoised in ``memo``, "at most" answers in ``bound``."""
        val = self.memo[pos].get(key)
        if val is not None:
            return val
        return self.value_unknown(pos, key, alpha)

    def value_unknown(self, pos, key, alpha):
        """:meth:`value` for a key the memo does not hold (the search's own recursion: each
        caller has just looked in the memo itself)."""
        if pos == self.end:
            val = self.memo[pos][key] = self.terminal(key)
            return val
        # this position's tables in one look-up (see ``at``)
        memo, bounds, dead, step_cache, ub, tmask, memo_next, ub_next = self.at[pos]
        bound = bounds.get(key)
        if bound is not None and bound <= alpha:
            return bound
        if dead:  # (only a relaxed search fills it)
            # with jokers optional, a state that is dead with some jokers left is dead with
            # fewer left too
            used = dead.get(key & _NOT_J)
            if used is not None and used <= (key >> _SHIFT_J) & 3:
                memo[key] = _NEG
                return _NEG
        if ub <= alpha:
            return ub
        budget = self.budget - 1
        self.budget = budget
        if budget < 0:
            raise _OutOfBudget
        best = _NEG
        floor = alpha  # what a child must beat to matter: max(best, alpha)
        nxt = pos + 1
        lowest = floor - ub_next  # a step must gain more than this to matter
        # the moves depend on the position, this colour's runs and the high fields of the key
        # (``tmask``; the tables are this position's own)
        tkey = key & tmask
        steps = step_cache.get(tkey)
        if steps is None:
            steps = step_cache[tkey] = self._steps(pos, key)
        for delta, dw in steps:
            if dw <= lowest:
                break  # even the best future cannot beat what we have (nor can the later
                # steps: they come in order of weight, the most optional tiles first)
            nk = key + delta
            child = memo_next.get(nk)
            if child is None:
                child = self.value_unknown(nxt, nk, floor - dw)
            if child > _NEG:
                child += dw
                if child > best:
                    best = child
                    if best > floor:
                        floor = best
                        lowest = floor - ub_next
                        if self.first and best > alpha:
                            # the question is only whether anything beats alpha: this
                            # value is reached (the most may be more), and is not memoised
                            return best
                    if best >= ub:
                        break
        if best > alpha or alpha == _NEG:
            memo[key] = best  # exact: every child that could beat it was searched
            if best == _NEG and self.relaxed:
                used = (key >> _SHIFT_J) & 3
                known = dead.get(key & _NOT_J)
                if known is None or used < known:
                    dead[key & _NOT_J] = used
            return best
        bounds[key] = alpha  # the true value is at most alpha
        return alpha

    def alive(self, pos, key):
        """``value`` for a question without weights (can everything be laid?): 0 or _NEG,
        with less bookkeeping."""
        memo = self.memo[pos]
        val = memo.get(key)
        if val is not None:
            return val
        if pos == self.end:
            val = memo[key] = self.terminal(key)
            return val
        used = (key >> _SHIFT_J) & 3
        if self.relaxed:
            dead = self.dead[pos].get(key & _NOT_J)
            if dead is not None and dead <= used:
                memo[key] = _NEG
                return _NEG
        budget = self.budget - 1
        self.budget = budget
        if budget < 0:
            raise _OutOfBudget
        nxt = pos + 1
        memo_next = self.memo[nxt]
        tkey = key & self.at[pos][5]
        step_cache = self.step_cache[pos]
        steps = step_cache.get(tkey)
        if steps is None:
            steps = step_cache[tkey] = self._steps(pos, key)
        alive = self.alive
        val = _NEG
        for delta, _ in steps:
            nk = key + delta
            child = memo_next.get(nk)
            if child is None:
                child = alive(nxt, nk)
            if child == 0:
                val = 0
                break
        memo[key] = val
        if val == _NEG and self.relaxed:
            known = self.dead[pos].get(key & _NOT_J)
            if known is None or used < known:
                self.dead[pos][key & _NOT_J] = used
        return val

    def solve(self):
        """(best value, decisions[v][c] = (u, g, jr, jg)) or (None, None): nothing can be laid,
        or, with a ``floor``, nothing laid is worth more than the floor."""
        #: each position's tables for :meth:`value_unknown` in one look-up: its memo, "at
        #: most" bounds, dead states, moves (by the fields of the key they depend on, ``key &
        #: tmask``: this colour's runs and every field above the colours), the best value
        #: still to gain, that mask, and the next position's memo and best value to gain
        self.at = list(zip(self.memo, self.bound, self.dead, self.step_cache, self.ub,
                           _TMASKS * self.n, self.memo[1:], self.ub[1:]))
        if self.budget is None:
            self.budget = _NO_LIMIT
        if self.feasibility:
            return self._solve_feasibility()
        best = _NEG
        floor = _NEG if self.floor is None else self.floor
        if self.unit and self.floor is None:
            # Each laid tile is worth ``unit`` plus its points: ask "all of them?", then "all
            # but one?", ... A high bar prunes every branch that cannot reach it, and the first
            # bar cleared gives the exact best (what fails leaves valid bounds in the memo).
            # With a floor (a caller that only wants better than what it has, and is mostly
            # told "no") the floor alone is the bar: the bars above it would each be a
            # search of their own, and they failed on most of the hint search's solves.
            for count in _bars(self.units):
                bar = count * self.unit - 1
                got = self.value(0, 0, bar)
                if got > bar:
                    best = got
                    break
        if best == _NEG:
            best = self.value(0, 0, floor)
            if best <= floor:
                best = _NEG  # nothing beats the floor (or nothing can be laid at all)
        self.budget = _NO_LIMIT
        if best <= _NEG:
            return None, None
        if self.first:
            return best, None  # a value above the floor, not the most: nothing to rebuild
        decisions = [[None] * NCOL for _ in range(self.n)]
        pos, key, target = 0, 0, best
        while pos < self.end:
            for dw, ck, dec in self.children(pos, key):
                need = target - dw
                if need <= _NEG:
                    continue
                child = self.value(pos + 1, ck, need - 1)  # exact if it reaches the target
                if child == need:
                    v, c = divmod(pos, NCOL)
                    decisions[v][c] = dec
                    pos, key, target = pos + 1, ck, child
                    break
            else:  # pragma: no cover - the memo always holds a witness
                raise AssertionError("solver lost its way while rebuilding the arrangement")
        return best, decisions

    def _solve_feasibility(self):
        if self.alive(0, 0) == _NEG:
            return None, None
        self.budget = _NO_LIMIT
        decisions = [[None] * NCOL for _ in range(self.n)]
        pos, key = 0, 0
        while pos < self.end:
            for _, ck, dec in self.children(pos, key):
                if self.alive(pos + 1, ck) == 0:
                    v, c = divmod(pos, NCOL)
                    decisions[v][c] = dec
                    pos, key = pos + 1, ck
                    break
            else:  # pragma: no cover - the memo always holds a witness
                raise AssertionError("solver lost its way while rebuilding the arrangement")
        return 0, decisions


def _tiles_of(tiles) -> tuple[Tile, ...]:
    """Tiles from text, tokens, Tiles, a Meld or a Table (counts are checked by the caller)."""
    if isinstance(tiles, Table):
        return tiles.tiles
    if isinstance(tiles, Meld):
        return tiles.tiles
    if isinstance(tiles, str) and ("|" in tiles or "\n" in tiles.strip()):
        return parse_table(tiles, check=False).tiles
    return parse_tiles(tiles, check=False)


def _table_of(table) -> Table:
    if table is None:
        return Table()
    return parse_table(table, check=False)


def _count_grid(tiles: Sequence[Tile], what: str = "these tiles", n=MAX_NUMBER):
    """grid[number - 1][colour index] counts and the joker count; a third copy of a tile
    or a third joker raises ImpossibleTilesError naming it."""
    grid = [[0] * NCOL for _ in range(n)]
    jokers = 0
    index = _COLOUR_INDEX
    for t in tiles:
        colour = t.colour
        if colour is None:
            jokers += 1
        else:
            grid[t.number - 1][index[colour._value_]] += 1
    if jokers > JOKERS or any(k > 2 for row in grid for k in row):
        check_counts(tiles, what)  # raises, naming the tile
    return grid, jokers


def _prune_optional(n, must, avail, jokers):
    """Drop optional tiles that cannot be in any meld, whatever else is laid (fixed point)."""
    avail = [row[:] for row in avail]
    if jokers >= 2:
        return avail  # any tile makes a group with two jokers (see _could_meld)
    changed = True
    while changed:
        changed = False
        for v in range(n):
            row, must_row = avail[v], must[v]
            for c in range(NCOL):
                if row[c] > must_row[c] and not _could_meld(n, avail, jokers, v, c):
                    row[c] = must_row[c]
                    changed = True
    return avail


def _prune_cells(n, must, avail, jokers):
    """:func:`_dead_must` and :func:`_prune_optional` at once, on flat lists by search cell
    (``v * NCOL + c``, as the hint search keeps its tiles): None when a tile that has to be
    laid cannot be in any meld of ``avail``, else (``avail`` with the optional tiles that
    cannot be in any meld dropped, a new list; the cells dropped). The same test as
    :func:`_could_meld`, for every cell at once: a colour's numbers as the bits of one int
    (a run: a window of three numbers with at most ``jokers`` missing), a number's colours
    counted (a group). One pass is the fixed point :func:`_prune_optional` loops to: a meld
    of three that holds a tile is one for each of its tiles, so no tile of it is dropped
    and it is still there for the others. The hint search sets up thousands of solves and
    bounds, most of them ended by this step or the test after it."""
    if jokers >= 2:
        return avail[:], ()  # any tile makes a group with two jokers (see _could_meld)
    # (by number, the four cells of a number at once: most numbers hold enough colours for a
    # group, and no cell of theirs is looked at again)
    b0 = b1 = b2 = b3 = 0
    weak = 0  # the numbers with too few colours for a group: bit v
    most = 2 - jokers  # (a cell with tiles counts itself among its number's colours)
    bit = 1
    for at in range(0, n * NCOL, NCOL):
        a0, a1, a2, a3 = avail[at:at + 4]
        if (a0 > 0) + (a1 > 0) + (a2 > 0) + (a3 > 0) <= most:
            weak |= bit
        if a0:
            b0 |= bit
        if a1:
            b1 |= bit
        if a2:
            b2 |= bit
        if a3:
            b3 |= bit
        bit <<= 1
    if not weak:
        return avail[:], ()
    # the numbers a window of three starts at, its first number there (a window missing its
    # first number covers what the window one higher covers; a window past the last number
    # lacks two, or covers what the one below it covers); a cell of a weak number outside
    # every window of its colour fits in no meld
    bad = []
    for b in (b0, b1, b2, b3):
        starts = b & ((b >> 1) | (b >> 2)) if jokers else b & (b >> 1) & (b >> 2)
        bad.append(weak & ~(starts | (starts << 1) | (starts << 2)))
    avail = avail[:]
    dropped = []
    at = 0
    while weak:
        if weak & 1:
            for c in range(NCOL):
                if (bad[c] >> (at // NCOL)) & 1:
                    cell = at + c
                    if must[cell]:
                        return None
                    if avail[cell]:
                        avail[cell] = 0
                        dropped.append(cell)
        weak >>= 1
        at += NCOL
    return avail, dropped


def _could_meld(n, avail, jokers, v, c):
    """Could a tile of colour ``c``, number ``v + 1`` be in some meld of these tiles: a group
    (two other colours of its number, jokers counted) or a run (a window of three numbers
    with at most ``jokers`` of them missing)? Asked for every cell of every solve of a hint
    search: counted without generators or calls (four colours)."""
    row = avail[v]
    if ((row[0] != 0) + (row[1] != 0) + (row[2] != 0) + (row[3] != 0) - (row[c] != 0)
            + jokers >= 2):
        return True
    for start in range(v - 2 if v > 2 else 0, (v if v < n - 3 else n - 3) + 1):
        if ((not avail[start][c]) + (not avail[start + 1][c]) + (not avail[start + 2][c])
                <= jokers):
            return True
    return False


def _dead_must(n, must, avail, jokers):
    """A tile that has to be laid but cannot be in any meld: no search needed."""
    if jokers >= 2:
        return False  # any tile makes a group with two jokers (see _could_meld)
    for v in range(n):
        must_row = must[v]
        for c in range(NCOL):
            if must_row[c] and not _could_meld(n, avail, jokers, v, c):
                return True
    return False


def _lay(n, must, avail, weight, must_j, opt_j, wj, floor=None,
         leaning: Leaning | None = None) -> Optional[list[Meld]]:
    """The best melds: first with jokers optional (the relaxed search), then the spare jokers
    fitted in; if they do not fit, the plain search that places every joker. With a
    ``floor``: None as well when no melds are worth more than it (a caller that already has
    that much asks only for better, and every bar below it is cut at once)."""
    return _lay_valued(n, must, avail, weight, must_j, opt_j, wj, floor, leaning)[1]


def _lay_valued(n, must, avail, weight, must_j, opt_j, wj, floor=None, leaning=None):
    """(value, melds) of :func:`_lay`, or (None, None). The value is the relaxed search's
    (every optional joker counted as laid): an upper bound, exact when the spare jokers fit."""
    if floor is not None and opt_j * wj + sum(
            (a - m) * w for ra, rm, rw in zip(avail, must, weight)
            for a, m, w in zip(ra, rm, rw)) <= floor:
        # every optional tile and joker laid would not beat the floor: the searches would
        # stop at their first position (their bound ``ub[0]``) and answer None
        return None, None
    search, value, decisions = _solve_both_ways(n, must, avail, weight, must_j, opt_j, wj,
                                                relaxed=True, floor=floor, leaning=leaning)
    if decisions is None:
        return None, None
    spare = must_j + opt_j - jokers_used(decisions)
    melds = melds_from(decisions, n, spare, search)
    if melds is not None:
        return value, melds
    search, _, decisions = _solve_both_ways(n, must, avail, weight, must_j, opt_j, wj,
                                            floor=floor, leaning=leaning)
    return value, (None if decisions is None else melds_from(decisions, n, 0, search))


def _beats_floor(n, must, avail, weight, must_j, opt_j, wj, floor: int,
                 leaning: Leaning | None = None) -> Optional[int]:
    """For a bound that is only compared with ``floor``: None when the relaxed search (see
    :func:`_lay_valued`) lays nothing worth more than ``floor``, else a weight above the
    floor that it lays, not necessarily its most (the search stops at the first it finds,
    and builds no melds). Its most, the bound :func:`_lay_valued` gives, is at least that
    weight; so the answer says exactly whether that bound beats ``floor``."""
    if opt_j * wj + sum((a - m) * w for ra, rm, rw in zip(avail, must, weight)
                        for a, m, w in zip(ra, rm, rw)) <= floor:
        return None
    _, value, _ = _solve_both_ways(n, must, avail, weight, must_j, opt_j, wj, relaxed=True,
                                   floor=floor, leaning=leaning, first=True)
    return value
