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


def test_each_preset_describes_its_rules_in_plain_sentences():
    # What `rummiref presets` and the scoresheet print: each line says what the preset's text
    # says. 000 (Pressman): "he must play a set with a value of at least 30 points"; "The
    # joker has a penalty value of 30."; "The joker must be played that same turn in a set
    # with at least two other tiles from the player's rack."; no timer; "the player with the
    # least number of tiles in their rack is the winner. Scoring is then carried out in the
    # normal manner."; "pick up three tiles as a penalty".
    assert get_rules("pressman-1998").describe() == [
        "Initial meld: at least 30 points in a single set, from rack tiles only",
        "Joker left on a rack: 30 points",
        "Melds holding a joker may be rearranged",
        "Joker retrieval: replace it with the tile it stands for (from the rack); play the "
        "joker in a new set that turn, with at least 2 other tiles from the rack",
        "No turn timer",
        "Invalid table at the end of a turn: restore it, take back your tiles and draw 3",
        "Pool exhausted, nobody out: the fewest tiles wins; scored like a normal round",
    ]
    # 004 (Sabra Way): "an initial meld of 50 points in one or more sets"; "A meld containing
    # a Joker may not be manipulated."; "Two minutes per turn"; "must draw one tile from the
    # pool"; "Each of the losers adds up his total remaining tile value, subtracts the
    # winner's total".
    assert get_rules("sabra-way").describe() == [
        "Initial meld: at least 50 points in one or more sets, from rack tiles only",
        "Joker left on a rack: 30 points",
        "Melds holding a joker may only be added to until the joker is retrieved",
        "Joker retrieval: replace it with the tile it stands for (from the rack); play the "
        "joker in a new set that turn, with at least 2 other tiles from the rack",
        "Turn timer: 120 s; over time: draw 1",
        "Invalid table at the end of a turn: restore it, take back your tiles and draw 3",
        "Pool exhausted, nobody out: the lowest rack wins; each loser scores minus the "
        "difference to the winner's rack",
    ]
    # 003 (Sabra): "The tile used to replace the joker can come from the player's rack or
    # from the table."; "a time limit of 1 minute per turn". 004's tournament rule: "a Joker
    # taken from a group of three tiles must be replaced with both missing tiles".
    sabra = get_rules("sabra").describe()
    assert sabra[3] == ("Joker retrieval: replace it with the tile it stands for (from the "
                        "rack or table); play the joker in a new set that turn")
    assert sabra[4] == "Turn timer: 60 s; over time: restore the table and draw 3"
    assert get_rules("tournament").describe()[3] == (
        sabra[3] + "; from a group of three, only by adding both missing colours")
    # the house variant where a joker counts nothing toward the initial meld (an option, in
    # no preset) says so on its first line
    zero = get_rules().replace(initial_meld_joker_value="zero").describe()
    assert zero[0] == ("Initial meld: at least 30 points in one or more sets, from rack tiles "
                       "only (a joker counts 0)")


def test_a_changed_preset_is_named_as_changed():
    # A round scored or a turn judged under changed rules must not be shown under the
    # preset's own name: "sabra" with a 25-point joker is "sabra+custom", however often
    # changed, unless the change names it.
    from referee import settle_round
    custom = get_rules("sabra").replace(joker_penalty=25)
    assert custom.name == "sabra+custom"
    assert custom.replace(joker_penalty=20).name == "sabra+custom"
    assert get_rules("sabra").replace(name="house", joker_penalty=25).name == "house"
    # and cites no rule text: the preset's sentences may not say what it does any more
    assert custom.citations() == {} and get_rules("sabra").citations()
    assert settle_round({"A": 0, "B": "J"}, winner="A", rules=custom).rules == "sabra+custom"


def test_rules_stored_as_data_read_back_and_unknown_options_are_named():
    # the live referee's log stores its rules as data (TurnLog.to_dict): every preset and a
    # changed one read back equal; an option no Rules has is refused by name, not dropped
    from referee import Rules
    from referee.rules import UnknownRulesError
    for preset in ALL:
        assert Rules.from_dict(get_rules(preset).to_dict()) == get_rules(preset)
    custom = get_rules("sabra-way").replace(joker_penalty=25)
    assert Rules.from_dict(custom.to_dict()) == custom
    with pytest.raises(UnknownRulesError) as e:
        Rules.from_dict({**custom.to_dict(), "jokers_wild": True, "a_timer": 5})
    assert str(e.value) == "unknown rule options: a_timer, jokers_wild"


def test_presets_are_found_by_the_names_people_use():
    # 000 is "the 1998 Pressman American edition": "pressman" and "us" name it; 003's rules
    # are the "Original" ones; case and spaces do not matter
    from referee import DEFAULT_PRESET
    from referee.rules import UnknownRulesError
    for name in ("us", "US", "pressman", " Pressman-1998 "):
        assert get_rules(name).name == "pressman-1998"
    assert get_rules("original").name == "sabra" and get_rules("Sabra-Way").name == "sabra-way"
    assert get_rules("default").name == DEFAULT_PRESET == get_rules(None).name
    with pytest.raises(UnknownRulesError) as e:
        get_rules("house")
    assert str(e.value) == ("unknown rule preset 'house'; choose one of: pressman-1998, sabra, "
                            "sabra-way, tournament")
