"""Each preset's values come from a rule text, word for word, and say what the text says.

Each verdict is worked out from the rule texts in ../shared/rules/, and the sentence it rests
on is quoted beside it: 000 and 002 retell the 1998 Pressman rules, 001 and 003 the current
Sabra rules, 004 the Sabra Way leaflet and its tournament rule."""

import pytest

from referee import get_rules

ALL = ("sabra", "pressman-1998", "sabra-way", "tournament")


def codes(v):
    return set(v.codes)


def _texts():
    from tests.conftest import shared_path
    folder = shared_path("rules")
    return {p.name[:3]: " ".join(p.read_text(encoding="utf-8").split())
            for p in folder.glob("*.txt")}


@pytest.mark.parametrize("preset", ALL)
def test_every_preset_value_cites_its_rule_text_word_for_word(preset):
    from referee import PRESETS
    from referee.rules import DEPARTURES
    rules = PRESETS[preset]
    texts = _texts()
    cites = rules.citations()
    needed = {f for f in rules.to_dict() if f not in ("name", "title", "source")}
    if rules.turn_time_limit is None:
        needed -= {"turn_time_limit", "timeout_penalty", "timeout_draw"}
    if rules.timeout_penalty != "draw":
        needed -= {"timeout_draw"}
    assert needed <= set(cites), sorted(needed - set(cites))
    for field, c in list(cites.items()) + [("departure", c) for c in DEPARTURES.get(preset, ())]:
        assert " ".join(c.quote.split()) in texts[c.text], (field, c)


def test_sabra_says_where_it_departs_from_001():
    from referee import get_rules
    from referee.rules import DEPARTURES
    sabra = get_rules("sabra")
    assert "001" in sabra.source and "2-minute" in sabra.source
    said = " ".join(c.quote for c in DEPARTURES["sabra"])
    assert "2 minutes" in said and "in hand" in said and "moved and rearranged" in said
    assert "at least one combination" in said


def test_what_happens_over_time_under_each_preset():
    # 003: "If by the end of 1 minute the player has failed to successfully manipulate tiles
    # on the table, all tilex must be returned to their original position and three tiles
    # must be taken from the pool as a penalty." 004: "A player who plays past the two-minute
    # time limit must draw one tile from the pool." 000 sets no timer.
    assert get_rules("sabra").timeout_outcome() == "restore the table and draw 3"
    assert get_rules("tournament").timeout_outcome() == "restore the table and draw 3"
    assert get_rules("sabra-way").timeout_outcome() == "draw 1"
    assert get_rules("pressman-1998").timeout_outcome() is None
    assert get_rules("sabra").replace(turn_time_limit=None).timeout_outcome() is None
    assert any(line.endswith("over time: draw 1") for line in get_rules("sabra-way").describe())


@pytest.mark.parametrize("preset,points", [("sabra", 30), ("pressman-1998", 30),
                                           ("sabra-way", 30), ("tournament", 30)])
def test_a_joker_left_on_a_rack_costs_30(preset, points):
    # 003: "The joker  has a penalty value of 30 points if it remains on a rack"; 000: "The
    # joker has a penalty value of 30."; 004: "counting 30 points for a joker".
    from referee import rack_value
    assert rack_value("J R5", preset) == points + 5


@pytest.mark.parametrize("preset,legal", [("sabra", True), ("pressman-1998", True),
                                          ("sabra-way", False), ("tournament", True)])
def test_a_joker_counts_the_tile_it_stands_for_in_the_initial_meld(preset, legal):
    # 000: "with the joker (if played) assuming the value of the tile it is being used in
    # place of"; 004: "its point value is the same as the tile it represents when melding"
    # (and 50 points to open); 001: "jokers may be subsitituted for any point value".
    # R9 J R11: the joker is R10, 30 in all.
    from referee import check_turn
    v = check_turn("", "R9 J R11", "R9 J R11", rules=preset, opened=False)
    assert v.initial_points == 30 and v.legal is legal, v.summary()
