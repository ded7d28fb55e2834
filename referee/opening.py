"""The initial meld: the best first play from rack tiles alone, under the preset's threshold
(in all new sets together, or in one set alone) and its joker value.

The table stays as it lies and the new melds use rack tiles only, so every initial meld found
here is a legal turn. The best play with no threshold is an upper bound for every opening,
and when its sets reach the threshold (as a large rack's nearly always do) it is the answer.
Otherwise the threshold is carried in the search's state (points laid so far, capped). With
``initial_meld_single_set`` that answer is in turn an upper bound, and when one of its sets
reaches the threshold alone it is the answer; otherwise each set that could open alone is
tried with the rest of the rack laid freely beside it, best bound first, stopping at the
first that reaches the bound.
"""

from __future__ import annotations

import itertools
from typing import Optional

from .melds import meld_points
from .rules import Rules
from .meld_build import melds_from
from .search import BIG, NCOL, Leaning, _count_grid, _lay, _prune_optional, _Search
from .tiles import COLOURS, JOKER, MAX_NUMBER, Meld, Tile


def rack_weights(n: int, rules: Rules):
    """Each rack tile weighs BIG plus its points (a joker: the preset's penalty): the most
    tiles first, then the most points."""
    return [[BIG + v + 1] * NCOL for v in range(n)], BIG + rules.joker_penalty


def opening_melds(rack_tiles, rules: Rules) -> Optional[list[Meld]]:
    """The new melds of the best initial meld from ``rack_tiles``, or None if none reaches
    the threshold."""
    n = MAX_NUMBER
    grid, rack_j = _count_grid(rack_tiles)
    zero = [[0] * NCOL for _ in range(n)]
    weight, wj = rack_weights(n, rules)
    threshold = max(rules.initial_meld_points, 0)
    zero_jokers = rules.initial_meld_joker_value == "zero"
    avail = _prune_optional(n, zero, grid, rack_j)
    # The best play with no threshold bounds every opening; when it reaches the threshold
    # (a large rack nearly always does), it is the answer.
    # one question asked of the same rack again and again (see _single_set): the reading
    # that finishes first is likely to finish first next time too
    leaning = Leaning.fewer_first(n, avail)
    free = _lay(n, zero, avail, weight, 0, rack_j, wj, leaning=leaning) or []
    if free and _opens(free, rules, threshold):
        return free
    value, decisions = _Search(n, zero, avail, weight, 0, rack_j, wj, threshold,
                               zero_jokers).solve()
    if decisions is None:
        return None
    melds = melds_from(decisions, n)
    if not (rules.initial_meld_single_set and threshold) or _opens(melds, rules, threshold):
        return melds
    return _single_set(n, avail, rack_j, weight, wj, threshold, zero_jokers, value, rules,
                       leaning)


def _opens(melds, rules: Rules, threshold: int) -> bool:
    points = [meld_points(m, rules, for_initial_meld=True) for m in melds]
    if rules.initial_meld_single_set:
        return max(points, default=0) >= threshold
    return sum(points) >= threshold


def _worth(melds, weight, wj) -> int:
    return sum(wj if t.is_joker else weight[t.number - 1][0] for m in melds for t in m)


def _single_set(n, avail, rack_j, weight, wj, threshold, zero_jokers, cap, rules, leaning=None):
    """Each set worth the threshold alone, with the rest of the rack laid freely beside it;
    the best total, stopping at ``cap`` (no opening is worth more)."""
    zero = [[0] * NCOL for _ in range(n)]
    best_val, best_melds = None, None
    candidates = []
    for slots, nj, meld in _candidate_sets(n, avail, rack_j, threshold, zero_jokers):
        rest = [row[:] for row in avail]
        for v, c in slots:
            rest[v][c] -= 1
        set_val = sum(weight[v][c] for v, c in slots) + nj * wj
        rest = _prune_optional(n, zero, rest, rack_j - nj)
        upper = set_val + (rack_j - nj) * wj + sum(
            rest[v][c] * weight[v][c] for v in range(n) for c in range(NCOL))
        candidates.append((min(upper, cap), set_val, nj, rest, meld))
    candidates.sort(key=lambda x: -x[0])
    for upper, set_val, nj, rest, meld in candidates:
        if best_val is not None and upper <= best_val:
            break  # sorted by bound: nothing later can do better
        more = _lay(n, zero, rest, weight, 0, rack_j - nj, wj, leaning=leaning) or []
        val = set_val + _worth(more, weight, wj)
        if best_val is None or val > best_val:
            best_val, best_melds = val, [meld] + more
            if best_val >= cap:
                break
    return best_melds


def _candidate_sets(n, grid, jokers, threshold, zero_jokers):
    """Every meld rack tiles alone can make that is worth at least ``threshold`` toward the
    initial meld, as (real tiles as (v, c) pairs, number of jokers, meld); each once."""
    seen = set()
    for v in range(n):  # groups
        number = v + 1
        present = [c for c in range(NCOL) if grid[v][c]]
        for size in (3, 4):
            for nreal in range(max(1, size - jokers), min(size, len(present)) + 1):
                nj = size - nreal
                if number * (nreal if zero_jokers else size) < threshold:
                    continue
                for cols in itertools.combinations(present, nreal):
                    slots = tuple((v, c) for c in cols)
                    if (slots, nj) not in seen:
                        seen.add((slots, nj))
                        meld = Meld(tuple(Tile(COLOURS[c], number) for c in cols) + (JOKER,) * nj)
                        yield slots, nj, meld
    for c in range(NCOL):  # runs
        for start in range(n):
            for end in range(start + 2, n):
                positions = range(start, end + 1)
                present = [v for v in positions if grid[v][c]]
                missing = len(positions) - len(present)
                if missing > jokers or not present:
                    continue
                for extra in range(0, jokers - missing + 1):
                    for as_joker in itertools.combinations(present, extra):
                        real = [v for v in present if v not in as_joker]
                        if not real:
                            continue
                        nj = missing + extra
                        if sum(v + 1 for v in (real if zero_jokers else positions)) < threshold:
                            continue
                        slots = tuple((v, c) for v in real)
                        if (slots, nj) not in seen:
                            seen.add((slots, nj))
                            meld = Meld(tuple(Tile(COLOURS[c], v + 1) if v in real else JOKER
                                              for v in positions))
                            yield slots, nj, meld
