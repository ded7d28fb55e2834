"""The places where two joker melds meet, as the joker hint search lists them
(``referee.joker_meeting.MeetingPlaces``): ``merged``, one meld holding a tile of each joker
meld and, for each joker, the joker still standing for its tile or that tile itself; and
``borrowing``, a place of one joker meld that also holds a freed joker of the other, as that
joker's new set. Each list is worked out by hand below from those definitions and the rule
texts (``shared/rules/``); a place missing from the list can hide the best turn (every place
listed is judged afterwards, so the lists are checked whole).

The rule texts read here:
- sabra (003): "The tile used to replace the joker can come from the player's rack or from
  the table." and "A joker that has been replaced must be used in the player's same turn as
  part of a new set."
- the Sabra Way (004): "You may not take a tile away from a meld which includes a Joker.
  You may take a Joker from a run or group in exchange for a tile of the same value from
  your hand. You must use the Joker immediately with 2 more tiles from your hand to make
  another meld onto the table."
- tournament (004): "Under tournament rules, a Joker taken from a group of three tiles must
  be replaced with both missing tiles."
"""

from collections import Counter

from referee import PRESETS, parse_table, parse_tiles
from referee.joker_meeting import MeetingPlaces


def _setup(table, rack, preset):
    melds = parse_table(table)
    table_count = Counter(t for m in melds for t in m if not t.is_joker)
    melds_of = {}
    for i, m in enumerate(melds):
        for t in m:
            if not t.is_joker:
                melds_of.setdefault(t, []).append(i)
    places = MeetingPlaces(PRESETS[preset], table_count, Counter(parse_tiles(rack)), 0)
    return melds, places, melds_of


def _pattern(places, meld, stands, exchanged):
    """The pattern of a one-joker meld: the joker stands for ``stands``, exchanged or not."""
    (got,) = [p for p in places.patterns(meld)
              if str(p[0][0]) == stands and p[1] == (exchanged,)]
    return got


def _listed(places):
    """Each place as (laid tiles, tiles from the table or rack, tiles from the rack only)."""
    return sorted((" ".join(map(str, p.tiles)), " ".join(sorted(map(str, p.use.elements()))),
                   " ".join(sorted(map(str, p.rack_only.elements())))) for p in places)


# B5 O5 J (its joker stands for R5) and K5 J O5 R5 (its joker stands for B5): the second
# joker exchanged by a B5.
GROUPS = "B5 O5 J | K5 J O5 R5"


def _merged_groups(rack, preset, first_taken):
    """``merged`` on GROUPS: the first joker (for R5) exchanged or not, the second (for B5)
    exchanged."""
    melds, places, _ = _setup(GROUPS, rack, preset)
    return places.merged(melds[0], melds[1], _pattern(places, melds[0], "R5", first_taken),
                         _pattern(places, melds[1], "B5", True))


def test_merged_groups_of_three_and_four_where_the_first_joker_stays():
    # sabra: both melds may change. The merged group holds the first joker (for R5) and the
    # B5 that exchanges the second, a tile of the first meld (B5 or O5) and a different tile
    # of the second (K5 or O5; its R5 is the first joker's place): of three, K5 B5 J and
    # B5 O5 J (K5 B5 O5 has no place for the joker's R5); of four, K5 B5 O5 J.
    # Each frees the second meld's joker: ``merged`` = (0 of the first, 1 of the second).
    got = _merged_groups("", "sabra", False)
    assert _listed(got) == [("B5 O5 J", "B5 O5", ""), ("K5 B5 J", "B5 K5", ""),
                            ("K5 B5 O5 J", "B5 K5 O5", "")]
    assert all(p.merged == (0, 1) for p in got)
    # tournament: the first meld is a group of three, but its joker stays: nothing more is
    # needed of it (the rule is about a joker taken from a group of three); the second is a
    # group of four. The same three places.
    got = _merged_groups("", "tournament", False)
    assert _listed(got) == [("B5 O5 J", "B5 O5", ""), ("K5 B5 J", "B5 K5", ""),
                            ("K5 B5 O5 J", "B5 K5 O5", "")]


def test_merged_groups_where_the_meld_holding_its_joker_stays_whole():
    # Sabra Way: the first meld keeps its joker, so it loses no tile: the merged group
    # holds its B5 and O5 and its joker; the second meld's joker is exchanged by the hand's
    # B5, and that meld may then change (it holds a joker no more). B5 O5 J and
    # K5 B5 O5 J; the exchanging B5 from the hand only.
    got = _merged_groups("B5", "sabra-way", False)
    assert _listed(got) == [("B5 O5 J", "O5", "B5"), ("K5 B5 O5 J", "K5 O5", "B5")]
    assert all(p.merged == (0, 1) for p in got)


def test_merged_group_of_three_after_a_group_of_three_gives_up_its_joker_under_tournament():
    # Both jokers exchanged. Tournament: the first meld is a group of three, so its joker
    # (for R5) is replaced with both missing tiles, K5 and R5; the second's (for B5) by B5.
    # K5 B5 R5 (B5 is the first meld's tile, K5 the second's) and K5 B5 O5 R5, each
    # freeing one joker of each meld.
    got = _merged_groups("", "tournament", True)
    assert _listed(got) == [("K5 B5 O5 R5", "B5 K5 O5 R5", ""), ("K5 B5 R5", "B5 K5 R5", "")]
    assert all(p.merged == (1, 1) for p in got)


def test_borrowing_with_the_exchanging_tile_from_another_meld():
    # sabra: R5 R6 J (joker for R7) gives up its joker for the R7 of R7 R8 R9 R10 (from the
    # table, 003); the freed joker of J K9 O9 goes into R5 R6 J's place as its new set: one
    # tile of R5 R6 J, the others from elsewhere, none of J K9 O9. With an empty rack:
    # J R6 R7, R5 J R7, R6 R7 J (R7 from the long run). Not R5 R6 R7 J (two tiles of one
    # meld), not R6 R7 R8 J (R7 and R8 both of the long run).
    melds, places, melds_of = _setup("R5 R6 J | J K9 O9 | R7 R8 R9 R10", "", "sabra")
    got = places.borrowing(melds[0], _pattern(places, melds[0], "R7", True), 0, 1, melds_of)
    assert _listed(got) == [("J R6 R7", "R6 R7", ""), ("R5 J R7", "R5 R7", ""),
                            ("R6 R7 J", "R6 R7", "")]
    assert all(p.borrowed == 1 for p in got)


def test_borrowing_under_the_sabra_way_needs_the_joker_gone_and_two_hand_tiles():
    # Sabra Way: R5 R6 J's joker exchanged by the hand's R7; the other meld's freed joker
    # joins one tile of R5 R6 J and at least two from the hand (R7, R8, R9).
    melds, places, melds_of = _setup("R5 R6 J | J K9 O9", "R7 R8 R9", "sabra-way")
    got = places.borrowing(melds[0], _pattern(places, melds[0], "R7", True), 0, 1, melds_of)
    assert _listed(got) == [
        ("J R6 R7 R8", "R6", "R7 R8"), ("J R6 R7 R8 R9", "R6", "R7 R8 R9"),
        ("R5 J R7 R8", "R5", "R7 R8"), ("R5 J R7 R8 R9", "R5", "R7 R8 R9"),
        ("R6 R7 J R9", "R6", "R7 R9"), ("R6 R7 R8 J", "R6", "R7 R8"),
        ("R6 R7 R8 R9 J", "R6", "R7 R8 R9")]
    # while its joker stays, R5 R6 J loses no tile: no place of it holds another joker
    assert places.borrowing(melds[0], _pattern(places, melds[0], "R7", False), 0, 1,
                            melds_of) == []


def test_borrowing_a_group_of_three_that_gave_up_its_joker_under_tournament():
    # Tournament: B5 O5 J gives up its joker (for R5), so both missing tiles, K5 and R5,
    # come in (from the rack here). The other meld's freed joker takes the place of the
    # group's B5 or O5 (the group keeps one tile of its own): K5 J O5 R5, K5 B5 J R5. Of
    # three, K5 R5 and the joker hold no tile of B5 O5 J: not its place.
    melds, places, melds_of = _setup("B5 O5 J | J K9 O9", "K5 R5", "tournament")
    got = places.borrowing(melds[0], _pattern(places, melds[0], "R5", True), 0, 1, melds_of)
    assert _listed(got) == [("K5 B5 J R5", "B5", "K5 R5"), ("K5 J O5 R5", "O5", "K5 R5")]
