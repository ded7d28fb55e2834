"""Boundaries of a turn that must be exact: each test breaks when its comparison is changed.

Each verdict is worked out from the rule texts in ../shared/rules/, and the sentence it rests
on is quoted beside it: 000 and 002 retell the 1998 Pressman rules, 001 and 003 the current
Sabra rules, 004 the Sabra Way leaflet and its tournament rule."""

import pytest

from referee import Code, check_meld, check_turn
from referee.turns import TimingError

ALL = ("sabra", "pressman-1998", "sabra-way", "tournament")


def codes(v):
    return set(v.codes)


def test_the_timer_allows_exactly_the_limit():
    before, after = "R3 R4 R5", "R3 R4 R5 R6"
    assert check_turn(before, after, "R6", elapsed=60, rules="sabra").legal
    assert not check_turn(before, after, "R6", elapsed=60.5, rules="sabra").legal
    assert check_turn(before, after, "R6", elapsed=120, rules="sabra-way").legal


def test_an_old_invalid_meld_excuses_only_itself():
    # R3 R4 was already broken; a second R3 R4 laid this turn is this player's mistake.
    v = check_turn("R3 R4 | K7 B7 O7", "R3 R4 | R3 R4 | K7 B7 O7", "R3 R4")
    assert not v.legal and v.codes == (Code.INVALID_MELD,)
    assert any("already invalid" in n for n in v.notes)


def test_two_identical_old_invalid_melds_are_both_excused():
    # 000: "the offending player must return all sets on the table to their original state":
    # both R3 R4 were broken before the turn, so this player restores nothing of theirs
    v = check_turn("R3 R4 | R3 R4 | K7 B7 O7", "R3 R4 | R3 R4 | K7 B7 O7 R7", "R7")
    assert v.legal, v.summary()
    assert len(v.notes) == 2 and all("R3 R4 was already invalid" in n for n in v.notes)


def test_the_note_on_an_old_invalid_meld_says_why_it_is_invalid():
    # 000: "Runs are composed of three or more, same-colored tiles, in consecutive number
    # order": R3 R4 R6 lacks R5; the note gives the whole reason, not a part of it
    reason = check_meld("R3 R4 R6").reason
    assert reason.startswith("R3 R4 R6: ") and "R5 missing" in reason
    v = check_turn("R3 R4 R6 | K7 B7 O7", "R3 R4 R6 | K7 B7 O7 R7", "R7")
    assert v.legal and v.notes == (
        f"R3 R4 R6 was already invalid before this turn ({reason.removeprefix('R3 R4 R6: ')})",)
    assert v.summary().splitlines()[-1] == "Note: " + v.notes[0]


@pytest.mark.parametrize("elapsed", [float("nan"), float("inf"), -1.0])
def test_a_turn_s_time_that_is_no_time_is_refused(elapsed):
    # a NaN compared with the limit is never over it, so a broken timer read every turn as in
    # time: the judge says the time is wrong instead of a verdict
    before, after = "R3 R4 R5", "R3 R4 R5 R6"
    with pytest.raises(TimingError, match="a finite number of 0 or more"):
        check_turn(before, after, "R6", elapsed=elapsed, rules="sabra")
    assert check_turn(before, after, "R6", elapsed=0, rules="sabra").legal
