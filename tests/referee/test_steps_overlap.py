"""How a hint is told starts from how many tiles each meld before shares with each meld
after (copies counted: a meld of two jokers and one of one joker share one), which sends
each copy of a tile back to the meld it most likely stayed with. Counted tile by tile, it
must match the definition: the size of the two melds' common multiset."""

import random
from collections import Counter

from referee.steps import _overlap
from referee.tiles import Table, all_tiles


def _random_table(rng, tiles):
    """The tiles in random melds of 1 to 5 (a told table need not be valid)."""
    tiles = list(tiles)
    rng.shuffle(tiles)
    melds = []
    while tiles:
        k = rng.randint(1, 5)
        melds.append(tiles[:k])
        tiles = tiles[k:]
    return Table(melds)


def test_overlap_is_the_common_tiles_of_each_pair_of_melds():
    rng = random.Random(5)
    pool = list(all_tiles())
    for _ in range(200):
        tiles = rng.sample(pool, rng.randint(3, 40))
        before = _random_table(rng, tiles)
        after = _random_table(rng, tiles + rng.sample(pool, rng.randint(0, 6)))
        want = [[sum((Counter(x.tiles) & Counter(y.tiles)).values()) for y in after]
                for x in before]
        assert _overlap(before, after) == want


def test_two_jokers_and_one_share_one():
    before = Table([["R3", "J", "J", "R6"], ["K9", "B9", "O9"]])
    after = Table([["R3", "R4", "J", "R6"], ["J", "K9", "B9"], ["R5", "R6", "R7"]])
    assert _overlap(before, after) == [[3, 1, 1], [0, 2, 0]]
