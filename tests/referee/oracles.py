"""What a right answer looks like. A brute-force solver written to be obviously right rather
than fast: every way to split the tiles into melds, each meld judged by referee.check_meld (the
same judge a player's table faces); and the soundness of an arrangement (every tile once, every
meld valid and laid in natural order). The property tests hold the exact solver to them."""

import itertools
from functools import lru_cache

from referee import JOKER, Table, check_meld, get_rules, meld_points

AS_LAID = get_rules().replace(meld_order="as-laid")


def _key(tiles):
    return tuple(sorted(str(t) for t in tiles))


@lru_cache(maxsize=None)
def _partitions(key):
    """Every way to lay all these tiles (a sorted tuple of tokens) as valid melds: a list of
    meld lists. The first tile goes in some meld with some of the others."""
    if not key:
        return [[]]
    first, rest = key[0], key[1:]
    out = []
    seen = set()
    for size in range(2, len(rest) + 1):
        for idx in itertools.combinations(range(len(rest)), size):
            meld = (first,) + tuple(rest[i] for i in idx)
            if meld in seen:
                continue
            seen.add(meld)
            if not check_meld(list(meld)).ok:
                continue
            left = tuple(t for i, t in enumerate(rest) if i not in idx)
            out += [[meld] + more for more in _partitions(left)]
    return out


def brute_arrangeable(tiles):
    return bool(_partitions(_key(tiles)))


def _sub_multisets(tiles):
    tiles = sorted(tiles, key=str)
    seen = set()
    for r in range(len(tiles) + 1):
        for idx in itertools.combinations(range(len(tiles)), r):
            sub = tuple(tiles[i] for i in idx)
            k = _key(sub)
            if k not in seen:
                seen.add(k)
                yield list(sub)


def _rack_points(tiles, rules):
    return sum(rules.joker_penalty if t.is_joker else t.number for t in tiles)


def brute_best_move(table_tiles, rack, rules):
    """(tiles placed, points) of the best move with the table open, or None if even the whole
    rack cannot make the table valid."""
    if not any(brute_arrangeable(table_tiles + sub) for sub in _sub_multisets(rack)):
        return None
    best = max((len(sub), _rack_points(sub, rules)) for sub in _sub_multisets(rack)
               if brute_arrangeable(table_tiles + sub))
    return best


def _opening_value(meld, rules):
    """What a meld can count toward the initial meld: its best reading (jokers' places)."""
    return max(meld_points(list(p), rules, for_initial_meld=True)
               for p in set(itertools.permutations(meld)) if check_meld(list(p), rules).ok)


def brute_opening(rack, rules):
    """(tiles placed, points) of the best initial meld from rack tiles alone, (0, 0) if none."""
    best = (0, 0)
    for sub in _sub_multisets(rack):
        if not sub or (len(sub), _rack_points(sub, rules)) <= best:
            continue
        for melds in _partitions(_key(sub)):
            values = [_opening_value(m, rules) for m in melds]
            ok = (max(values) >= rules.initial_meld_points if rules.initial_meld_single_set
                  else sum(values) >= rules.initial_meld_points)
            if ok:
                best = (len(sub), _rack_points(sub, rules))
                break
    return best


def assert_sound(table, tiles):
    assert isinstance(table, Table)
    assert sorted(table.tiles) == sorted(tiles)
    for meld in table.melds:
        assert check_meld(meld).ok, str(meld)
        # laid in natural order: runs ascending with each joker in its place, groups jokers last
        assert check_meld(meld, AS_LAID).ok, f"{meld} is not in natural order"
        if check_meld(meld).kind == "group":
            real = [t for t in meld if not t.is_joker]
            assert list(meld.tiles) == real + [JOKER] * (len(meld) - len(real))
