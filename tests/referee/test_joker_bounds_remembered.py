"""The hint search's bounds (``referee.joker_bounds``) remembered as the best turn found grows.

A bound is only compared with the best turn found, so its solve stops at the first weight
above that best: remembered, that weight says the bound beats any best below it, and nothing
about a best at or above it (the bound's most may be more). Asked more with such a best, the
bound must be solved more, not read as "ruled out": here each answer of one ``Bounds``, asked
with a growing best as the hint search asks, is held to the answer of a fresh ``Bounds`` that
remembers nothing."""

import itertools
import random
from collections import Counter

import pytest

from referee import PRESETS, Table
from referee.joker_bounds import Bounds
from referee.joker_meeting import MeetingPlaces
from referee.search import Leaning
from tests.referee.random_tables import random_table_with_jokers
from tests.referee.test_hints import PRESET_NAMES


def _draw(rng):
    melds, free = random_table_with_jokers(rng, longest_run=5)
    pool = [t for t, k in free.items() for _ in range(k)]
    rack = rng.sample(pool, rng.randint(4, 16))
    return Table(melds), rack


def _bests(ask, fresh):
    """Ask ``ask(best)`` with a growing best, from below everything to each weight it gave,
    and check every answer (beats the best or not) morest ``fresh(best)``. Returns how many
    times the bound beat a weight it had given before (that weight was not its most)."""
    best, more = -1, 0
    while True:
        got, want = ask(best), fresh(best)
        assert (got > best) == (want > best), (best, got, want)
        if got <= best:
            return more
        more += best >= 0
        best = int(got)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_remembered_bounds_answer_as_fresh_ones_as_the_best_grows(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"joker-bounds-{preset}")
    asked = more = 0
    while asked < 40:
        table, rack = _draw(rng)
        table_count = Counter(t for t in table.tiles if not t.is_joker)
        rack_count = Counter(t for t in rack if not t.is_joker)
        rack_j = sum(t.is_joker for t in rack)
        jmelds = [m for m in table if any(t.is_joker for t in m)]
        places = MeetingPlaces(rules, table_count, rack_count, rack_j)

        def bounds():
            return Bounds(rules, table_count, rack_count, rack_j, Leaning())

        kept = bounds()
        options = [places.of(m) for m in jmelds]
        for pattern in itertools.product(*[places.patterns(m) for m in jmelds]):
            # the pattern alone (no place fixed), as the proof's sets are asked
            more += _bests(lambda b: kept.of_sets(pattern, [], 0, b),
                            lambda b: bounds().of_sets(pattern, [], 0, b))
            asked += 1
        # a place of the first joker meld, the others relaxed as their patterns say
        combos = [c for c in itertools.product(*options) if places.fits(c)]
        for combo in rng.sample(combos, min(4, len(combos))):
            more += _bests(lambda b: kept.place(list(combo), 0, b),
                            lambda b: bounds().place(list(combo), 0, b))
            asked += 1
    # the draws do hold bounds whose first weight above the best was not their most
    assert more > 0
