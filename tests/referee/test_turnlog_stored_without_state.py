"""A stored turn log lacking the state fields (``opened``, ``restore_pending``, a turn's
``unrestored``), as an older writer or a hand-made log would leave it: read back, it goes on
as the log it was stored from, because its state is followed from its stored turns."""

import pytest

from referee import Code, Outcome, Turn, TurnLog, turnlog

PLAYERS = ["Ann", "Ben", "Cy"]
START = "K5 B5 O5"
ANN_OPENS = "K5 B5 O5 | R10 R11 R12"                   # 33 points: 001, "at least 30"
BEN_FAILS = "K5 B5 O5 | R10 R11 R12 | B1 B2 B3"        # 6 points: no initial meld


def stripped(data, state=(), turn=()):
    """``data`` as a writer that never wrote the ``state`` keys ``state`` (None: no state at
    all) and the turn keys ``turn`` would have stored it."""
    out = {k: v for k, v in data.items() if k not in ("state", "turns")}
    if state is not None:
        out["state"] = {k: v for k, v in data["state"].items() if k not in state}
    out["turns"] = [{k: v for k, v in t.items() if k not in turn} for t in data["turns"]]
    return out


def read_back(stored, monkeypatch):
    """The stored log read back, without judging any stored turn again."""
    monkeypatch.setattr(turnlog, "check_turn", lambda *a, **k: pytest.fail("judged again"))
    log = TurnLog.from_dict(stored)
    monkeypatch.undo()
    return log


def test_a_player_who_opened_in_a_log_stored_without_opened_is_not_asked_to_open_again(
        monkeypatch):
    log = TurnLog(PLAYERS, "sabra", start=START)
    log.push(ANN_OPENS)                   # Ann opens
    log.push(ANN_OPENS)                   # Ben draws: he has not opened
    log.push(ANN_OPENS)                   # Cy draws
    data = log.to_dict()
    for stored in (stripped(data, state=("opened",)), stripped(data, state=None)):
        back = read_back(stored, monkeypatch)
        assert back.opened == {"Ann"} and back.to_dict() == data
        # 000: "Once a player has made his initial meld, he can, on each turn, play one or
        # more tiles from his rack, making or adding to groups and/or runs."
        assert back.push("K5 B5 O5 | R10 R11 R12 R13").legal            # Ann adds R13
        # 000: "The initial meld cannot build on previously played tiles": Ben has not opened
        ben = back.push("K5 B5 O5 | R9 R10 R11 R12 R13")
        assert ben.legal is False and Code.TABLE_TOUCHED_BEFORE_OPENING in ben.codes


def test_opened_before_the_log_and_an_opening_left_unrestored_are_told_apart(monkeypatch):
    # Cy had opened before the camera joined; Ann's opening is illegal (6 points), so she
    # has not opened even though her table still lies there
    log = TurnLog(PLAYERS, "sabra", start=START, opened=["Cy"])
    log.push("K5 B5 O5 | B1 B2 B3")
    data = log.to_dict()
    back = read_back(stripped(data, state=("opened",)), monkeypatch)
    assert back.opened == {"Cy"} and back.to_dict() == data


def test_a_failed_turn_left_on_the_table_in_a_log_stored_without_restore_pending(monkeypatch):
    log = TurnLog(PLAYERS, "sabra", start=START)
    log.push(ANN_OPENS)
    log.push(BEN_FAILS)                   # Ben fails: his table must be put back
    data = log.to_dict()
    back = read_back(stripped(data, state=("restore_pending",)), monkeypatch)
    assert back.restore_pending and back.to_dict() == data
    # the table as it was before Ben's turn is the restore, not a turn by Cy
    assert back.observe("R10 R11 R12 | K5 B5 O5").outcome is Outcome.RESTORED
    assert not back.restore_pending and back.to_move == "Cy"

    # ... and when his table was put back before the log was stored, nothing is pending:
    # the same table seen again is no turn
    log.observe("R10 R11 R12 | K5 B5 O5")
    data = log.to_dict()
    back = read_back(stripped(data, state=("restore_pending",)), monkeypatch)
    assert not back.restore_pending and back.to_dict() == data
    assert back.observe(ANN_OPENS).outcome is Outcome.UNCHANGED


def test_turns_stored_without_unrestored_say_again_which_were_judged_on_a_table_left(
        monkeypatch):
    log = TurnLog(PLAYERS, "sabra", start=START)
    log.push(ANN_OPENS)
    log.push(BEN_FAILS)                              # Ben fails; nobody puts it back
    log.push(BEN_FAILS + " | K1 K2 K3", ref="cy")    # Cy, judged against Ann's table: fails
    assert [t.unrestored for t in log.turns] == [False, False, True]
    data = log.to_dict()
    back = read_back(stripped(data, state=("restore_pending",), turn=("unrestored",)),
                     monkeypatch)
    assert [t.unrestored for t in back.turns] == [False, False, True]
    # what the live page reads for its "the table was not put back" note
    assert [t["unrestored"] for t in back.to_dict()["turns"]] == [False, False, True]
    assert back.to_dict() == data
    # the next turn goes on from the table as it should be (Ann's), still unrestored
    step = back.observe(BEN_FAILS + " | K1 K2 K3 | O7 O8 O9")
    assert step.turn.player == "Ann" and step.turn.unrestored
    assert str(step.turn.before) == ANN_OPENS


def test_a_turn_read_back_alone_is_the_same_turn():
    log = TurnLog(PLAYERS, "sabra", start=START)
    log.push(ANN_OPENS, elapsed=4.5, ref="a")
    log.push(BEN_FAILS)
    log.push(BEN_FAILS + " | K1 K2 K3")
    for t in log.turns:
        assert Turn.from_dict(t.to_dict()) == t
    # a turn alone cannot know what came before it: without ``unrestored`` it was judged
    # against the table as it should have been (the module's notes on stored logs)
    lone = {k: v for k, v in log.turns[2].to_dict().items() if k != "unrestored"}
    assert not Turn.from_dict(lone).unrestored


def test_the_stored_state_tells_a_reader_where_the_game_stands():
    # the log is read back from its turns; its "state" is written for whoever reads the
    # stored log without this library: whose turn, who opened, what is to be put back, and
    # what the jokers of the table as it should be stand for
    log = TurnLog(PLAYERS, "sabra", start="K1 J J | R10 R11 R12", opened=["Cy"])
    log.declare(0, 0, "B1 O1")
    log.push("K1 J J | R10 R11 R12 | K9 K10 K11")             # Ann opens: 30
    log.push("K1 J J | R10 R11 R12 | K9 K10 K11 | B1 B2")     # Ben: B1 B2 is no set
    assert log.to_dict()["state"] == {"table_entry": 1, "seat": 2, "opened": ["Ann", "Cy"],
                                      "restore_pending": True, "declared": {"0": "B1 O1"}}
