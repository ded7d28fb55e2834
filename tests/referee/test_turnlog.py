"""The turn log: the live referee's game state, judged turn by turn, corrected and replayed."""

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import referee
from referee import Code, EntryKind, Outcome, TurnKind, TurnLog, TurnVerdict, check_turn
from referee import changes, dispute, turnlog

PLAYERS = ["Ann", "Ben", "Cy"]
START = "K5 B5 O5"
ANN_OPENS = "K5 B5 O5 | R10 R11 R12"
BEN_FAILS = "K5 B5 O5 | R10 R11 R12 | B1 B2 B3"


def test_module_examples():
    for module in (turnlog, changes, dispute):
        assert doctest.testmod(module).failed == 0


def test_a_round_as_the_camera_sees_it():
    log = TurnLog(PLAYERS, "sabra")
    assert not log.started and log.to_move == "Ann"
    assert log.observe(START, ref=1).outcome is Outcome.START
    assert log.observe("B5 K5 O5", ref=2).outcome is Outcome.UNCHANGED   # order aside
    assert log.entries[-1].ref == 1                                       # nothing recorded

    step = log.observe(ANN_OPENS, ref=3)
    assert step.outcome is Outcome.TURN and step.turn.player == "Ann"
    assert step.turn.legal and step.turn.verdict.kind is TurnKind.OPENING
    assert step.turn.before_ref == 1 and step.turn.after_ref == 3
    assert log.opened == {"Ann"} and log.to_move == "Ben" and log.table_ref == 3

    step = log.observe(BEN_FAILS, ref=4)
    assert step.turn.player == "Ben" and step.turn.legal is False
    assert Code.INITIAL_MELD_TOO_LOW in step.turn.verdict.codes
    assert log.restore_pending and str(log.table) == ANN_OPENS and log.table_ref == 3
    assert log.opened == {"Ann"} and log.to_move == "Cy"

    assert log.observe("R10 R11 R12 | K5 B5 O5", ref=5).outcome is Outcome.RESTORED
    assert not log.restore_pending and log.table_ref == 5 and len(log.turns) == 2
    assert log.observe(ANN_OPENS, ref=6).outcome is Outcome.UNCHANGED


def test_a_failed_turn_left_on_the_table_is_judged_against_the_table_before_it():
    log = TurnLog(PLAYERS, start=START)
    log.push(ANN_OPENS)
    log.push(BEN_FAILS)                       # Ben fails and nobody puts the table back
    step = log.observe(BEN_FAILS + " | K1 K2")
    turn = step.turn
    assert turn.player == "Cy" and turn.unrestored
    assert str(turn.before) == ANN_OPENS      # judged against the table as it should be
    assert turn.legal is False and Code.INVALID_MELD in turn.verdict.codes
    assert set(turn.verdict.placed) == set(referee.parse_tiles("B1 B2 B3 K1 K2"))
    assert any("not restored after turn 2" in n for n in turn.verdict.notes)


def test_end_turn_on_an_unchanged_table_is_a_draw_and_passes_the_turn():
    log = TurnLog(PLAYERS, start=START)
    step = log.observe(START, end_turn=True)
    assert step.outcome is Outcome.TURN and step.turn.verdict.kind is TurnKind.DRAW
    assert step.turn.legal and log.to_move == "Ben"


def test_seat_order_wraps_and_a_person_can_say_whose_turn_it_is():
    log = TurnLog(PLAYERS, start=START, first_seat=2)
    assert log.to_move == "Cy"
    log.push(START)
    assert log.to_move == "Ann"
    log.set_to_move("Ben")
    assert log.to_move == "Ben" and log.entries[-1].kind is EntryKind.SEAT
    assert log.push(START).legal and log.turns[-1].player == "Ben"
    with pytest.raises(ValueError, match="Dan"):
        log.set_to_move("Dan")


def test_only_a_legal_initial_meld_opens_a_player():
    log = TurnLog(["Ann", "Ben"], start="")
    assert not log.push("B1 B2 B3").legal                    # Ann: 6 points, not an opening
    assert log.observe("").outcome is Outcome.RESTORED
    assert log.opened == frozenset() and log.to_move == "Ben"
    assert log.push("R10 R11 R12").legal                      # Ben opens with 33
    assert log.opened == {"Ben"}
    v = log.push("R10 R11 R12 R13")                           # Ann has still not opened
    assert not v.legal and Code.TABLE_TOUCHED_BEFORE_OPENING in v.codes


def test_a_log_started_late_knows_who_had_opened():
    log = TurnLog(["Ann", "Ben"], start="R10 R11 R12", opened=["Ann"])
    assert log.push("R10 R11 R12 R13").legal
    with pytest.raises(ValueError, match="Dan"):
        TurnLog(["Ann", "Ben"], opened=["Dan"])


def test_the_timer_goes_into_the_verdict():
    log = TurnLog(PLAYERS, "sabra", start=START)
    assert log.push(START + " | R1 R2 R3", elapsed=60).legal is False    # not opened: too low
    log2 = TurnLog(PLAYERS, "sabra", start=ANN_OPENS, opened=["Ann"])
    v = log2.push(ANN_OPENS.replace("R12", "R12 R13"), elapsed=61)
    assert not v.legal and v.codes == (Code.TIME_EXCEEDED,)


def test_a_misreading_is_no_verdict_until_corrected():
    log = TurnLog(PLAYERS, start="R1 R2 R3 | R1 R2 R3")
    step = log.observe("R1 R2 R3 | R1 R2 R3 | R1 K1 B1")   # a third R1: misread
    assert step.turn.verdict is None and step.turn.legal is None
    assert "R1" in step.turn.problem and "cannot be judged" in step.turn.summary()
    assert log.to_move == "Ben"                             # the game goes on
    changed = log.correct(step.turn.entry, "R1 R2 R3 | R1 R2 R3 | O1 K1 B1")
    assert changed == [1]
    assert log.turns[0].legal is False                      # Ann had not opened: 3 points


def test_a_correction_judges_the_later_turns_again():
    log = TurnLog(["Ann", "Ben"], start="")
    log.push("R10 R11 R13")                  # misread: R12 read as R13, so "invalid"
    assert log.restore_pending and log.opened == frozenset()
    log.push("R10 R11 R13 | K1 K2 K3")       # Ben judged against the empty table
    first = log.turns[1]
    assert first.unrestored and str(first.before) == ""
    changed = log.correct(log.turns[0].entry, "R10 R11 R12")
    assert changed == [1, 2]
    assert log.turns[0].legal and log.opened == {"Ann"}
    second = log.turns[1]
    assert not second.unrestored and str(second.before) == "R10 R11 R12"
    assert second.before_entry == log.turns[0].entry


def test_pop_takes_back_the_last_input():
    log = TurnLog(PLAYERS, start=START)
    log.push(ANN_OPENS)
    entry = log.pop()
    assert entry.kind is EntryKind.TURN and str(entry.table) == ANN_OPENS
    assert log.turns == [] and log.to_move == "Ann" and str(log.table) == START
    with pytest.raises(IndexError):
        TurnLog(PLAYERS).pop()


def test_json_round_trip_keeps_everything_without_judging_again(monkeypatch):
    log = TurnLog(PLAYERS, referee.get_rules("sabra").replace(turn_time_limit=30), start=START,
                  start_ref=1)
    log.push(ANN_OPENS, elapsed=12.5, ref=2)
    log.push(BEN_FAILS, ref=3)
    log.push("K5 B5 O5 | R10 R11 R12 | R1 R2 R3", ref=4)
    data = log.to_dict()
    monkeypatch.setattr(turnlog, "check_turn", lambda *a, **k: pytest.fail("judged again"))
    back = TurnLog.from_dict(data)
    monkeypatch.undo()
    assert back.to_dict() == data
    assert back.rules.turn_time_limit == 30 and back.opened == log.opened
    assert [t.summary() for t in back.turns] == [t.summary() for t in log.turns]
    inputs_only = {k: v for k, v in data.items() if k not in ("turns", "state")}
    assert TurnLog.from_dict(inputs_only).to_dict() == data


def test_verdicts_round_trip():
    v = check_turn("R3 R4 J R6 | K9 B9 O9", "R3 R4 R5 R6 | K9 B9 O9 | J R7 R8",
                   "R5 R7 R8", rules="pressman-1998")
    back = TurnVerdict.from_dict(v.to_dict())
    assert back == v and back.summary() == v.summary()
    assert all(isinstance(c, Code) for c in back.codes)


RUNS = ["R1 R2 R3", "K4 K5 K6", "B7 B8 B9", "O10 O11 O12"]
GROUPS = ["K13 B13 O13", "R8 K8 B8", "O2 R2 K2"]
ADDS = {"R1 R2 R3": "R4", "K4 K5 K6": "K7", "B7 B8 B9": "B10", "O10 O11 O12": "O13",
        "K13 B13 O13": "R13", "R8 K8 B8": "O8"}


@st.composite
def games(draw):
    """A start table and a few turns: each adds a meld, extends one, breaks one, or draws."""
    melds = draw(st.lists(st.sampled_from(RUNS + GROUPS), min_size=1, max_size=3, unique=True))
    tables = [" | ".join(melds)]
    for _ in range(draw(st.integers(1, 6))):
        cur = tables[-1].split(" | ")
        move = draw(st.sampled_from(["add", "extend", "break", "draw", "junk"]))
        spare = [m for m in RUNS + GROUPS if m not in cur and not any(
            t in " ".join(cur).split() for t in m.split())]
        if move == "add" and spare:
            cur = cur + [draw(st.sampled_from(spare))]
        elif move == "extend":
            grow = [m for m in cur if m in ADDS]
            if grow:
                m = draw(st.sampled_from(grow))
                cur = [x + " " + ADDS[m] if x == m else x for x in cur]
        elif move == "break":
            m = draw(st.sampled_from(cur))
            cur = [" ".join(m.split()[:2]) if x == m else x for x in cur]
        elif move == "junk":
            cur = cur + ["J K1"]
        tables.append(" | ".join(cur))
    fix_at = draw(st.integers(1, len(tables) - 1))
    fix_to = draw(st.sampled_from([tables[fix_at - 1], tables[fix_at] + " | R11 R12 R13"]))
    opened = draw(st.booleans())
    return tables, fix_at, fix_to, opened


@settings(max_examples=150, deadline=None)
@given(games(), st.sampled_from(sorted(referee.PRESETS)))
def test_a_corrected_log_replays_to_what_a_fresh_log_fed_the_corrected_tables_says(game, preset):
    tables, fix_at, fix_to, opened = game
    log = TurnLog(PLAYERS, preset, start=tables[0], opened=PLAYERS if opened else ())
    for t in tables[1:]:
        log.push(t)
    log.correct(fix_at, fix_to)

    corrected = tables[:fix_at] + [fix_to] + tables[fix_at + 1:]
    fresh = TurnLog(PLAYERS, preset, start=corrected[0], opened=PLAYERS if opened else ())
    for t in corrected[1:]:
        fresh.push(t)
    assert [t.to_dict() for t in log.turns] == [t.to_dict() for t in fresh.turns]
    assert (log.table, log.seat, log.opened, log.restore_pending) == \
        (fresh.table, fresh.seat, fresh.opened, fresh.restore_pending)


def test_outcome_of_says_what_a_table_would_be_and_changes_nothing():
    log = TurnLog(PLAYERS, "sabra")
    assert log.outcome_of(START) is Outcome.START and not log.started
    log.observe(START, ref=1)
    before = log.to_dict()
    assert log.outcome_of("O5 K5 B5") is Outcome.UNCHANGED
    assert log.outcome_of("O5 K5 B5", end_turn=True) is Outcome.TURN   # a draw
    assert log.outcome_of(ANN_OPENS) is Outcome.TURN
    assert log.to_dict() == before
    log.push(ANN_OPENS)
    log.push(BEN_FAILS)
    assert log.outcome_of(ANN_OPENS) is Outcome.RESTORED
    assert log.outcome_of(BEN_FAILS) is Outcome.TURN
    # observe agrees with it, table after table
    for table in (ANN_OPENS, BEN_FAILS + " | K1 K2"):
        expected = log.outcome_of(table)
        assert log.observe(table).outcome is expected


def test_declared_jokers_are_judged_carried_on_and_kept_in_json():
    # 001: two jokers in one set "must be explicitly declared which tiles they represent"
    log = TurnLog(["Ann", "Ben"], start="K1 J J | R10 R11 R12", opened=["Ann", "Ben"])
    log.declare(0, 0, "B1 O1")                      # the group K1 B1 O1
    assert log.declared == {0: tuple(referee.parse_tiles("B1 O1"))}
    v = log.push("K1 K2 J | J R5 R6 | R10 R11 R12")  # K2 frees no joker of a group
    assert not v.legal and Code.JOKER_NOT_REPLACED in v.codes
    assert log.declare(0, 0, "K2 K3") == [1]         # it was the run K1 K2 K3
    assert log.turns[0].legal
    assert log.declared == {0: tuple(referee.parse_tiles("K3"))}   # the K3 joker stayed
    data = log.to_dict()
    assert data["entries"][0]["jokers"] == {"0": "K2 K3"}
    back = TurnLog.from_dict(data)
    assert back.to_dict() == data and back.declared == log.declared
    assert TurnLog.from_dict({k: v for k, v in data.items()
                              if k not in ("turns", "state")}).to_dict() == data
    with pytest.raises(referee.DeclarationError):
        log.push("K1 K2 J | J R5 R6 | R10 R11 R12 R13", jokers={7: "K3"})
