"""Random valid tables with jokers for the hint tests: runs and groups from one set, one or two
tiles swapped for jokers, and the tiles still free for a rack; one random run or group; and a
random rack from the tiles left."""

from __future__ import annotations

from collections import Counter

from referee import COLOURS, JOKER, Tile, all_tiles


def random_meld(rng, runs: float = 0.5, longest_run: int = 4) -> list[Tile]:
    """A valid run (share ``runs``, 3 to ``longest_run`` tiles) or group of 3 or 4, drawn with
    ``rng``."""
    if rng.random() < runs:
        colour, length = rng.choice(COLOURS), rng.randint(3, longest_run)
        start = rng.randint(1, 14 - length)
        return [Tile(colour, n) for n in range(start, start + length)]
    number = rng.randint(1, 13)
    return [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]


def random_table_with_jokers(rng, longest_run: int = 6) -> tuple[list[list[Tile]], Counter]:
    """3-7 valid runs (3 to ``longest_run`` tiles) and groups drawn with ``rng``, one or two of
    their tiles swapped for jokers; the melds and the tiles of the set still free."""
    free = Counter(all_tiles())
    melds = []
    for _ in range(rng.randint(3, 7)):
        meld = random_meld(rng, longest_run=longest_run)
        if all(free[t] > 0 for t in meld):
            free.subtract(meld)
            melds.append(meld)
    for _ in range(rng.randint(1, 2)):
        meld = rng.choice(melds)
        i = rng.randrange(len(meld))
        if not meld[i].is_joker and free[JOKER] > 0:
            free[meld[i]] += 1
            free[JOKER] -= 1
            meld[i] = JOKER
    return melds, free


def random_rack(rng, free: Counter, fewest: int, most: int = 12,
                joker: float = 0.3) -> list[Tile]:
    """``fewest`` to ``most`` of the non-joker tiles of ``free``, and (share ``joker``, when
    one is free) a joker after them, drawn with ``rng``."""
    rest = [t for t in free.elements() if not t.is_joker]
    rng.shuffle(rest)
    rack = rest[:rng.randint(fewest, most)]
    if free[JOKER] and rng.random() < joker:
        rack.append(JOKER)
    return rack
