"""The fewest tiles any valid table moves, found without referee.nearest's search: every way to
lay the tiles as valid melds, each meld judged by referee.check_meld, and every way to let its
melds continue the player's melds, tried through one memoised recursion.

A tile *stays* when the meld it ends in continues the meld the player left it in (a meld of the
valid table continues at most one of the player's melds, and each of theirs is continued at
most once); every other tile moves, tiles taken off the table included. So the fewest moved is
all tiles less the most that can stay:

    kept(tiles left, player melds not yet continued) = the best, over every valid meld M of the
    tiles left holding the first of them, of kept(the rest, the same melds) (M continues none)
    or |M and P| + kept(the rest, without P) (M continues the player's meld P)

Every valid arrangement is reached (its meld holding the first tile is tried first, and so on),
with every matching of its melds to the player's.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

from referee import check_meld, get_rules

ANY = get_rules().replace(meld_order="any")
_NONE = -10**6  # "these tiles cannot be laid"


@lru_cache(maxsize=None)
def _valid(key: tuple[str, ...]) -> bool:
    return check_meld(list(key), ANY).ok


def _order(token: str) -> tuple:
    # jokers last, so the first tile left is a joker only when nothing else is
    return (token == "J", token)


def _melds_of(tiles: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every valid meld that these tiles hold (a sorted tuple of tokens each). A valid meld's
    numbered tiles share one colour or one number, and none is there twice (000: a run's
    numbers are consecutive, a group's colours differ): only those are tried, with the
    jokers."""
    jokers = tiles.count("J")
    real = [t for t in tiles if t != "J"]
    families = {("colour", t[0]) for t in real} | {("number", t[1:]) for t in real}
    out = []
    for kind, value in sorted(families):
        pool = Counter({t: 1 for t in real if (t[0] if kind == "colour" else t[1:]) == value})
        pool["J"] = jokers
        kinds = sorted(pool)
        # every sub-multiset of the family's tiles, once
        for counts in itertools.product(*(range(pool[t] + 1) for t in kinds)):
            if not 3 <= sum(counts) <= 13:
                continue
            key = tuple(sorted((t for t, k in zip(kinds, counts) for _ in range(k)),
                               key=_order))
            numbers = [int(t[1:]) for t in key if t != "J"]
            # a run of n tiles covers n consecutive numbers (only saves check_meld's time)
            if kind == "colour" and numbers and max(numbers) - min(numbers) >= len(key):
                continue
            if _valid(key):
                out.append(key)
    return sorted(set(out))


def brute_fewest(melds, loose) -> int | None:
    """The fewest tiles a valid table of the tiles of ``melds`` (the player's) and ``loose``
    (taken off the table) moves; None when no valid table holds them all."""
    player = [Counter(str(t) for t in m) for m in melds]
    tiles = tuple(sorted([str(t) for m in melds for t in m] + [str(t) for t in loose],
                         key=_order))
    # each valid meld, under its first tile (a meld of the tiles left that holds the first of
    # them starts with it): its tiles, and how many it would keep of each of the player's melds
    starting: dict[str, list] = {}
    for meld in _melds_of(tiles):
        counts = Counter(meld)
        gains = [sum((counts & p).values()) for p in player]
        starting.setdefault(meld[0], []).append((counts, gains))

    @lru_cache(maxsize=None)
    def kept(left: tuple[str, ...], free: frozenset) -> int:
        if not left:
            return 0
        have = Counter(left)
        best = _NONE
        for counts, gains in starting.get(left[0], ()):
            if any(have[t] < k for t, k in counts.items()):
                continue
            rest = tuple(sorted((have - counts).elements(), key=_order))
            best = max(best, kept(rest, free))
            for i in free:
                if gains[i]:
                    best = max(best, gains[i] + kept(rest, free - {i}))
        return best

    most = kept(tiles, frozenset(range(len(player))))
    return None if most < 0 else len(tiles) - most


def kept_by(table, melds) -> int:
    """The most tiles of ``melds`` (the player's) that a given valid ``table`` keeps in place:
    the best matching of its melds to the player's."""
    out = [Counter(str(t) for t in m) for m in table]
    player = [Counter(str(t) for t in m) for m in melds]

    @lru_cache(maxsize=None)
    def best(i: int, used: frozenset) -> int:
        if i == len(player):
            return 0
        return max([best(i + 1, used)]
                   + [sum((player[i] & out[j]).values()) + best(i + 1, used | {j})
                      for j in range(len(out)) if j not in used])

    return best(0, frozenset())
