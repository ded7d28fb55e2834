"""Where the tiles of a freed joker's new set may come from, in the joker hint search: the
accounts of a set that is also the place of another joker meld
(``referee.joker_meeting._apart``), and the copies of each tile that the places chosen so far
leave free (``referee.joker_sets.NewSets._left``).

The rule texts behind the accounts: sabra (``shared/rules/`` 003): "A joker that has been
replaced must be used in the player's same turn as part of a new set." and "The tile used
to replace the joker can come from the player's rack or from the table."; pressman-1998
(000): "The joker must be played that same turn in a set with at least two other tiles from
the player's rack."; the Sabra Way (004): "You may take a Joker from a run or group in exchange for a tile of
the same value from your hand." (no exchange from the table). A new set, for the freed joker, is one that none of
the joker's own meld's tiles go into; a set that is also the place of a second joker meld
``at`` holds exactly one tile of ``at`` (see ``referee.accounts``), and every other tile
comes from the rack or from a meld of its own (two tiles of one meld would make that meld's
remains the same set, not a new one).

Each expected answer comes from a brute force written here from those texts (every way of
taking each tile, filtered), never from the code under test.
"""

import itertools
import random
from collections import Counter

from referee import Colour, Tile
from referee.joker_meeting import _apart
from referee.joker_places import Place
from referee.joker_sets import NewSets

COLOURS = list(Colour)


def _accounts_by_brute_force(numbered, swap, at, other, melds_of, rack_count, from_table,
                             min_rack):
    """Every distinct Counter of the tiles a set's numbered tiles take from the rack, over
    every way of taking each tile: from the rack (as many copies as it holds) or from one of
    the table's melds holding it; exactly one tile from meld ``at``, none from ``other``, no
    meld giving two tiles, an exchanging tile (``swap``) from the rack only where the preset
    forbids exchanges from the table, and at least ``min_rack`` tiles from the rack."""
    ways = [["rack", *melds_of.get(t, ())] for t in numbered]
    found = set()
    for choice in itertools.product(*ways):
        from_rack = Counter(t for t, c in zip(numbered, choice) if c == "rack")
        melds = [c for c in choice if c != "rack"]
        if any(from_rack[t] > rack_count[t] for t in from_rack):
            continue
        if melds.count(at) != 1 or other in melds or len(set(melds)) != len(melds):
            continue
        if not from_table and any(c != "rack" for t, c in zip(numbered, choice) if t in swap):
            continue
        if sum(from_rack.values()) < min_rack:
            continue
        found.add(tuple(sorted(from_rack.items())))
    return [Counter(dict(k)) for k in sorted(found)]


def _drawn(rng):
    """A new set's numbered tiles (3 or 4, distinct), which of them exchanged a joker, the
    melds (0-4) holding each, the rack's copies, and a meld ``at`` and ``other``."""
    number = rng.randint(1, 13)
    if rng.random() < 0.5:
        colour = rng.choice(COLOURS)
        lo = rng.randint(1, 10)
        numbered = [Tile(colour, k) for k in range(lo, lo + rng.randint(3, 4)) if k <= 13]
    else:
        numbered = [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]
    swap = [t for t in numbered if rng.random() < 0.3]
    melds_of = {t: sorted(rng.sample(range(5), rng.choice((0, 1, 1, 2, 2, 3))))
                for t in numbered}
    rack_count = Counter({t: rng.choice((0, 0, 1, 1, 2)) for t in numbered})
    at, other = rng.sample(range(5), 2)
    return numbered, swap, at, other, melds_of, +rack_count


def test_a_shared_sets_accounts_match_every_way_its_tiles_could_come():
    # 600 drawn sets, every preset's two settings that matter: an exchanging tile from the
    # table or not, and 0-2 rack tiles at least. The search yields each account once, in
    # sorted order.
    rng = random.Random("apart-1")
    told = 0
    for _ in range(600):
        numbered, swap, at, other, melds_of, rack_count = _drawn(rng)
        for from_table, min_rack in ((True, 0), (False, 0), (True, 2), (False, 1)):
            want = _accounts_by_brute_force(numbered, swap, at, other, melds_of, rack_count,
                                            from_table, min_rack)
            got = list(_apart(numbered, swap, at, other, melds_of, rack_count, from_table,
                              min_rack))
            assert got == want, (numbered, swap, at, other, melds_of, rack_count,
                                 from_table, min_rack)
            told += len(want) > 1
    assert told > 100  # the draws reach sets with more than one account


def test_a_shared_set_worked_out_by_hand():
    # O4 O5 O6 as the place of meld 1 (which holds O5 and O6) and the new set of a joker
    # freed from meld 0 (which holds O4). The rack holds O4 and O6; meld 2 holds O4 too.
    # One tile of meld 1: O5 (then O6 from the rack) or O6 (then O5 from nowhere else: no).
    # So O5 comes from meld 1 and O6 from the rack; O4 from the rack or meld 2, never from
    # meld 0 (the joker's own meld): {O6} or {O4, O6}.
    o4, o5, o6 = (Tile(Colour.ORANGE, k) for k in (4, 5, 6))
    melds_of = {o4: [0, 2], o5: [1], o6: [1]}
    rack = Counter({o4: 1, o6: 1})
    got = list(_apart([o4, o5, o6], [], 1, 0, melds_of, rack, True, 0))
    assert got == [Counter({o4: 1, o6: 1}), Counter({o6: 1})]
    # with two rack tiles at least (pressman-1998), only the second account
    assert list(_apart([o4, o5, o6], [], 1, 0, melds_of, rack, True, 2)) == [
        Counter({o4: 1, o6: 1})]
    # O5 exchanged a joker: where the preset forbids exchanges from the table (the Sabra
    # Way), O5 comes from the rack, which has none: no account
    assert list(_apart([o4, o5, o6], [o5], 1, 0, melds_of, rack, False, 0)) == []
    assert list(_apart([o4, o5, o6], [o5], 1, 0, melds_of, rack, True, 0)) == got


class _Counts(NewSets):
    """The state ``_left`` reads: the table's and the rack's numbered tiles."""

    def __init__(self, table_count, rack_count):
        self.table_count, self.rack_count = table_count, rack_count


def test_the_tiles_left_after_the_places_count_the_table_first_then_the_rack():
    # Table: K5 twice, K6 once, K7 once. Rack: K6 twice, K7 once, K8 once.
    # Place 1 takes K5 once and K6 twice (``use``: from the table where it has them, the
    # rest from the rack), and K8 from the rack only (``rack_only``);
    # place 2 takes K6 once more and K7 once, and K7 once from the rack only.
    # K5: the table's second copy is left; the rack has none.
    # K6: three taken, the table's one and two of the rack's: none left on either.
    # K7: the table's copy taken; the rack's copy taken as rack-only: none left.
    # K8: the rack's copy taken as rack-only: none left.
    k5, k6, k7, k8 = (Tile(Colour.BLACK, k) for k in (5, 6, 7, 8))
    counts = _Counts(Counter({k5: 2, k6: 1, k7: 1}), Counter({k6: 2, k7: 1, k8: 1}))
    places = [Place((k5, k6, k6), Counter({k5: 1, k6: 2}), Counter({k8: 1}), 0, 0),
              Place((k6, k7, k7), Counter({k6: 1, k7: 1}), Counter({k7: 1}), 0, 0)]
    table_left, rack_left = counts._left(places)
    assert {t: table_left[t] for t in (k5, k6, k7, k8)} == {k5: 1, k6: 0, k7: 0, k8: 0}
    assert {t: rack_left[t] for t in (k5, k6, k7, k8)} == {k5: 0, k6: 0, k7: 0, k8: 0}
    # with only the first place: K6's table copy and one rack copy taken, K7 untouched
    table_left, rack_left = counts._left(places[:1])
    assert {t: table_left[t] for t in (k5, k6, k7, k8)} == {k5: 1, k6: 0, k7: 1, k8: 0}
    assert {t: rack_left[t] for t in (k5, k6, k7, k8)} == {k5: 0, k6: 1, k7: 1, k8: 0}
    # no places: everything left
    table_left, rack_left = counts._left([])
    assert +table_left == Counter({k5: 2, k6: 1, k7: 1})
    assert +rack_left == Counter({k6: 2, k7: 1, k8: 1})

