"""The places the hint search lists for a meld holding a joker (``Places.of``), held to a
brute force written from the module's own promise and the rule texts in ``shared/rules/``:
every run window or group of the tiles that keeps a tile of the meld and holds each joker's
tile (the joker itself where it stays, the tile where it was exchanged), under every pattern
(what each joker stands for, and which of them are exchanged), that the table and the rack
can fill.

A place missing can hide the best turn (every turn is built on one place per joker meld), so
the listing must hold *every* such meld. The brute force tries every window of 1..13 and
every set of colours, and keeps those the rules allow:

- The Sabra Way (004): "A meld containing a Joker may not be manipulated. After a Joker has
  been taken from a meld as shown above, the meld may be manipulated": a meld whose jokers
  all stay keeps all its tiles; "You may take a Joker from a run or group in exchange for a
  tile of the same value from your hand" (the exchanged tile comes from the rack). Under the
  presets that follow 003 (``joker_replacement_from_table``): "The tile used to replace the
  joker can come from the player's rack or from the table."
- The tournament rule (004): "a Joker taken from a group of three tiles must be replaced
  with both missing tiles"; and (003) a set holding a joker "can ... be split apart", so the
  two missing tiles may end in two groups, each with one of the group's own tiles.
- A meld holding two jokers may have one taken and the other kept: each is taken on its own
  ("You may take a Joker from a run or group", 004), and the one not taken stays in the meld.

No rack jokers here: a tile is there when the table and the rack together hold it.
"""

import itertools
from collections import Counter

import pytest

from referee import PRESETS, parse_tiles
from referee.joker_places import Places
from referee.melds import meld_readings
from referee.tiles import COLOURS, JOKER, Meld, Tile


def _there(need: Counter, table: Counter, rack: Counter, from_rack: Counter) -> bool:
    """Can the table and the rack give ``need`` (tiles laid), ``from_rack`` of them from
    the rack only?"""
    return (all(table[t] + rack[t] >= k for t, k in need.items())
            and all(rack[t] >= k for t, k in from_rack.items()))


def brute_places(meld, rules, table: Counter, rack: Counter) -> set:
    """Every (pattern, tiles as laid, more melds) the rules allow for ``meld``."""
    slots = [p for p, t in enumerate(meld) if t.is_joker]
    real = [t for t in meld if not t.is_joker]
    out = set()
    readings = {tuple(r.stands_for[p] for p in slots): r.kind
                for r in meld_readings(meld, rules)}
    for stands, kind in readings.items():
        for fate in itertools.product((False, True), repeat=len(slots)):
            stay = {s for s, f in zip(stands, fate) if not f}
            swap = [s for s, f in zip(stands, fate) if f]
            whole = not rules.joker_melds_manipulable and not swap
            candidates = []
            if kind == "run":
                colour = stands[0].colour
                for lo in range(1, 14):
                    for hi in range(lo + 2, 14):
                        nums = set(range(lo, hi + 1))
                        if not {s.number for s in stands} <= nums:
                            continue
                        if not any(t.number in nums for t in real):
                            continue  # keeps no tile of the meld
                        if whole and not all(t.number in nums for t in real):
                            continue
                        candidates.append([Tile(colour, k) for k in range(lo, hi + 1)])
            else:
                number = stands[0].number
                have = {t.colour for t in real}
                both_missing = rules.joker_group_needs_both_missing and swap and len(meld) == 3
                for size in (3, 4):
                    for cols in itertools.combinations(COLOURS, size):
                        cs = set(cols)
                        if not {s.colour for s in stands} <= cs or not cs & have:
                            continue
                        if whole and not have <= cs:
                            continue
                        if both_missing and not set(COLOURS) - have <= cs:
                            continue
                        candidates.append([Tile(c, number) for c in cols])
            for tiles in candidates:
                laid = tuple(JOKER if t in stay else t for t in tiles)
                need = Counter(t for t in tiles if t not in stay)
                from_rack = Counter() if rules.joker_replacement_from_table else Counter(swap)
                if _there(need, table, rack, from_rack):
                    out.add(((stands, fate), laid, ()))
            if (kind == "group" and rules.joker_group_needs_both_missing and len(swap) == 1
                    and len(meld) == 3 and len(real) == 2):
                # split: the exchanged joker's tile with one of the group's tiles, the other
                # missing colour with the other, each in a group of 3 or 4 of the number
                s = swap[0]
                number = s.number
                (other,) = [Tile(c, number) for c in COLOURS
                            if c not in {t.colour for t in real} | {s.colour}]
                groups = [[Tile(c, number) for c in cols] for size in (3, 4)
                          for cols in itertools.combinations(COLOURS, size)]
                for a, b in ((real[0], real[1]), (real[1], real[0])):
                    for first in groups:
                        if not {a, s} <= set(first):
                            continue
                        for second in groups:
                            if not {b, other} <= set(second):
                                continue
                            if _there(Counter(first) + Counter(second), table, rack, Counter()):
                                out.add(((stands, fate), tuple(first), (tuple(second),)))
    return out


def listed(meld, rules, table: Counter, rack: Counter) -> set:
    places = Places(rules, table, rack, 0).of(meld)
    return {(p.pattern, p.tiles, p.more) for p in places}


def _case(preset, meld, table, rack):
    rules = PRESETS[preset]
    m = Meld(parse_tiles(meld))
    return m, rules, Counter(parse_tiles(table)), Counter(parse_tiles(rack))


@pytest.mark.parametrize("preset, meld, table, rack", [
    # a run whose joker (R7) stays: its places start at R5 or R6 (the meld's R5 or R6 their
    # lowest kept tile) and reach R8 or R9 (R8 from the rack)
    ("sabra", "R5 R6 J", "R5 R6 R4 R3", "R8 R9"),
    # the joker (R7) ahead of R8 R9: windows from R5 up whose only kept tile is R8, their
    # end (R5 R6 J R8), and those that reach it only past a window with no tile of the meld
    ("pressman-1998", "J R8 R9", "R5 R6 R8 R9", "R7 R10"),
    # two jokers: one exchanged (the rack's R6 or R7), the other staying
    ("sabra", "R5 J J R8", "R5 R8 R4", "R6 R7 R9"),
    ("pressman-1998", "R5 J J R8", "R5 R8", "R6 R7 R4"),
    # the Sabra Way: a meld whose joker stays is kept whole
    ("sabra-way", "B4 B5 J B7", "B4 B5 B7 B3", "B6 B8"),
    # the tournament: a group of three whose joker is taken needs both missing colours; the
    # two may be split into two groups of three or four
    ("tournament", "J R13 O13", "R13 O13", "B13 K13 B13 K13 R13 O13"),
    ("tournament", "K5 J B5", "K5 B5 K5", "O5 R5 R5 B5"),
    ("tournament", "R2 O2 J", "R2 O2", "K2 B2 K2 O2"),
    # a group of four keeps its tiles; a group of three whose joker stays may lose one
    ("tournament", "K9 B9 J R9", "K9 B9 R9", "O9"),
    ("sabra", "K9 B9 J", "K9 B9 R9", "O9 R9"),
])
def test_every_place_the_tiles_allow_is_listed(preset, meld, table, rack):
    m, rules, t, r = _case(preset, meld, table, rack)
    want = brute_places(m, rules, t, r)
    got = listed(m, rules, t, r)
    assert want, "a case with no place tells nothing"
    assert got == want, (sorted(map(str, want - got)), sorted(map(str, got - want)))
