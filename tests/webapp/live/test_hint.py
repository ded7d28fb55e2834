"""The best play for a rack on the live table (``POST /api/games/<id>/live/hint``): the table
as the round's turn log has it, the game's rules, whether the player has made the initial meld;
steps in the page's language; bad input refused with the field named; nothing stored.

The expected plays are worked out from the rule texts in ../shared/rules/ (003: the current
Sabra rules, the game's preset here), each quoted beside it."""

from __future__ import annotations

import pytest

import referee

from .conftest import post_snapshot


@pytest.fixture
def opened(client, game):
    """Ann has opened with ``R4 J R6 | K10 B10 O10`` (15 + 30 points); Ben is to move."""
    assert post_snapshot(client, game, "").status_code == 200
    t = post_snapshot(client, game, "R4 J R6 | K10 B10 O10").get_json()["turn"]
    assert (t["player"], t["legal"]) == ("Ann", True)
    return "R4 J R6 | K10 B10 O10"


def ask(client, game, body, **headers):
    return client.post(game["api"] + "/hint", json=body, headers=headers)


def test_a_player_who_has_opened_may_take_the_joker_with_the_tile_it_stands_for(
        client, game, opened):
    # 003: "A joker can be retrieved from a set by placing it with a tile of the same numerical
    # value and colour it represents" and "A joker that has been replaced must be used in the
    # player's same turn as part of a new set". Ann's K9 and B9 can only be laid with a joker
    # (no other 9 is on the table), so laying all three of her tiles takes R4 J R6's joker
    # with her R5 and lays it with K9 B9.
    # the name as the app matches names everywhere: case, spaces and full-width letters aside
    r = ask(client, game, {"rack": "R5 K9 B9", "player": " \uff41nn "})
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert (out["player"], out["opened"], out["table"]) == ("Ann", True, opened)
    move = out["move"]
    assert sorted(move["placed"]) == ["B9", "K9", "R5"] and move["exact"]
    melds = {frozenset(m.split()) for m in move["melds"]}
    assert frozenset({"R4", "R5", "R6"}) in melds and frozenset({"K9", "B9", "J"}) in melds
    v = referee.check_turn(opened, move["table"], "R5 K9 B9", rules="sabra", opened=True)
    assert v.legal, v.summary()
    words = out["words"]
    assert words["headline"] == "Play K9 B9 R5: 3 tiles."
    assert words["steps"] == ["Swap the joker in R4 J R6 for your R5, then lay it with K9 B9."]
    assert words["table"] == move["table"] and words["note"] is None


def test_the_player_to_move_who_has_not_opened_gets_an_initial_meld_from_the_rack_alone(
        client, game, opened):
    # 003: the initial meld is "valued at least 30 points" and made of the player's own tiles
    # ("the player may not use tiles already on the table" before it). Ben is to move: K11
    # B11 O11 is 33 points; R2 R3 could join R4 only after the initial meld.
    out = ask(client, game, {"rack": "R2 R3 K11 B11 O11"}).get_json()
    assert (out["player"], out["opened"]) == ("Ben", False)
    move = out["move"]
    assert sorted(move["placed"]) == ["B11", "K11", "O11"]
    assert (move["opening"], move["initial_points"]) == (True, 33)
    assert out["words"]["headline"] == \
        "Open with K11 B11 O11: 3 tiles, 33 points toward the initial meld."
    # 6 points cannot open: draw, and the page says why
    out = ask(client, game, {"rack": "R1 R2 R3 K5"}).get_json()
    assert out["move"]["draws"] and out["move"]["exact"]
    assert out["words"] == {"headline": "No initial meld of 30 points can be made from this "
                                        "rack: draw a tile.",
                            "steps": [], "table": None, "note": None}


def test_before_the_camera_saw_the_table_the_hint_is_an_opening_from_an_empty_table(client, game):
    out = ask(client, game, {"rack": "B12 B13 J K1"}).get_json()
    assert (out["player"], out["opened"], out["table"]) == ("Ann", False, "")
    # B12 B13 J (12 + 13 + a joker standing for B11) is 36 points (003: "the value of the
    # joker is that of the tile it represents")
    assert out["move"]["initial_points"] == 36 and out["move"]["remaining"] == ["K1"]


def test_the_steps_are_in_the_phones_language(client, game, opened):
    out = ask(client, game, {"rack": "R5 K9 B9", "player": "Ann"},
              **{"Accept-Language": "de-DE,de;q=0.9"}).get_json()
    assert out["words"]["headline"] == "K9 B9 R5 legen: 3 Steine."
    assert out["words"]["steps"] == [
        "Den Joker in R4 J R6 gegen R5 von deiner Bank tauschen, dann mit K9 B9 auslegen."]
    # the data stays in notation and English for programs
    assert out["move"]["steps"][0]["text"] == \
        "swap the joker in R4 J R6 for your R5, then lay it with K9 B9"


def test_every_step_the_referee_can_tell_has_a_sentence_in_every_language(live_app):
    from flask_babel import force_locale

    from referee.steps import PHRASES
    from webapp.live import hint

    args = {"meld": "R1 R2 R3", "tiles": "R4", "rest": "K4 B4", "sources": "R4 R5 R6",
            "tile": "R2", "target": "R4 R5 R6", "moved": [("R4", "R4 R5 R6 R7")]}
    step = referee.MoveStep("lay", (), None, None, "lay-with", args)
    with live_app.test_request_context():
        assert set(hint.phrases()) == set(PHRASES)
        for lang in ("en", "de", "nl", "he"):
            with force_locale(lang):
                said = {p: hint.step_words(referee.MoveStep("x", (), None, None, p, args))
                        for p in PHRASES}
                # each sentence names the melds and tiles it is about
                for p, text in said.items():
                    for name in set(PHRASES[p].replace("}", "{").split("{")[1::2]) - {"moved"}:
                        assert args[name] in text, (lang, p, text)
                assert "R4 R5 R6 R7" in hint.step_words(step)
                if lang != "en":
                    assert said["split"] != "Split R1 R2 R3 at R2.", lang


def test_a_table_that_cannot_be_laid_is_a_conflict_that_names_the_cause(client, game):
    # the camera began on a table with a misread tile: R1 R2 is no meld
    assert post_snapshot(client, game, "R1 R2 | K7 K8 K9").status_code == 200
    r = ask(client, game, {"rack": "B5"})
    assert r.status_code == 409
    assert "correct the misread tile" in r.get_json()["error"]


@pytest.mark.parametrize("body, field, says", [
    ({"rack": "R14"}, "rack", "tile numbers run from 1 to 13"),
    ({"rack": "R5 X3"}, "rack", "X3"),
    ({"rack": ""}, "rack", "the rack is empty"),
    ({"rack": "  "}, "rack", "the rack is empty"),
    ({"rack": "R5 " * 200}, "rack", "up to 106 tiles"),
    ({"rack": ["R5"] * 107}, "rack", "up to 106 tiles"),
    ({"rack": [5]}, "rack", "up to 106 tiles"),
    ({"rack": "R5", "player": "Zed"}, "player", "'Zed' is not a player in this game"),
    ({"rack": "R5", "player": 3}, "player", "a player's name"),
    ({"rack": "R5", "seat": 1}, "seat", 'unknown field "seat"'),
    ({"tiles": "R5"}, "rack", 'send {"rack"'),
    (["R5"], "rack", 'send {"rack"'),
])
def test_bad_input_is_refused_with_the_field_named(client, game, body, field, says):
    r = ask(client, game, body)
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["field"] == field and says in r.get_json()["error"]


def test_a_rack_that_does_not_fit_the_table_is_refused(client, game, opened):
    # the table holds one joker; a set has two (003: "106 tiles ... 2 jokers")
    r = ask(client, game, {"rack": "J J R1"})
    assert r.status_code == 422 and r.get_json()["field"] == "rack"
    assert "joker" in r.get_json()["error"]
    r = client.post(game["api"] + "/hint", data="rack=R5",
                    content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415


def test_a_hint_stores_nothing_and_tells_no_other_phone(client, game, opened):
    # the phones hear of changes by the game's version (its event stream sends each new one)
    before = client.get(game["api"]).get_json()
    turns = client.get(game["api"] + "/turns").get_json()
    for body in ({"rack": "R5 K9 B9", "player": "Ann"}, {"rack": "K11 B11 O11"}):
        assert ask(client, game, body).status_code == 200
    assert client.get(game["api"]).get_json() == before
    assert client.get(game["api"] + "/turns").get_json() == turns
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == before["version"]


def test_hints_are_rate_limited_per_phone(live_app, client, game):
    live_app.config["HINT_LIMIT"] = "2 per minute"
    assert [ask(client, game, {"rack": "R1"}).status_code for _ in range(3)] == [200, 200, 429]
    r = ask(client, game, {"rack": "R1"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    # another phone is not held up
    other = client.post(game["api"] + "/hint", json={"rack": "R1"},
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200


def test_a_hint_cut_short_says_so(live_app, client, game, monkeypatch):
    """A hint the search did not prove best (its CPU time ran out: ``Move.exact`` False)
    must not read as the best play, nor its draw as "no tile can be played". The moves are
    real hints, marked unproven as a search cut short marks them (how much a cut search
    finds depends on what the process has solved before, so the cut is not left to time)."""
    from dataclasses import replace

    # Ann opens with R3 R4 J | K9 B9 O9 (3 + 4 + 5 + 27 points); R1 R2 go on the low end of
    # R3 R4 J (003: players may "add to a set")
    post_snapshot(client, game, "")
    assert post_snapshot(client, game, "R3 R4 J | K9 B9 O9").get_json()["turn"]["legal"]
    ann = {"rack": "R1 R2", "player": "Ann"}
    out = ask(client, game, ann).get_json()
    assert out["words"]["headline"] == "Play R1 R2: 2 tiles." and out["words"]["note"] is None
    assert out["words"]["steps"] == ["Add R1 R2 to R3 R4 J."]
    limits, best_move = [], referee.best_move

    def unproven(*args, **kwargs):
        limits.append(kwargs["cpu_limit"])
        return replace(best_move(*args, **kwargs), exact=False)

    monkeypatch.setattr(referee, "best_move", unproven)
    live_app.config["HINT_CPU_SECONDS"] = 0.25
    out = ask(client, game, ann).get_json()
    assert out["words"]["headline"] == "Play R1 R2: 2 tiles."
    assert out["words"]["note"] == \
        "The best play found in the time the referee may take; a better one may exist."
    out = ask(client, game, {"rack": "K1", "player": "Ann"}).get_json()
    assert out["move"]["draws"] and not out["move"]["exact"]
    assert out["words"]["headline"] == \
        "No play found in the time the referee may take: draw a tile."
    assert out["words"]["note"] == "A play may still exist; look for one yourself before drawing."
    assert limits == [0.25, 0.25]


def test_a_declared_joker_is_taken_only_with_the_tile_it_was_declared_as(client, game):
    # Ann opens with J K1 J (whose jokers may be any two of B1 O1 R1) and K10 B10 O10 R10;
    # 001: two jokers in one set "must be explicitly declared", and 003: a joker is retrieved
    # "by placing it with a tile of the same numerical value and colour it represents"
    post_snapshot(client, game, "")
    assert post_snapshot(client, game, "J K1 J | K10 B10 O10 R10").get_json()["turn"]["legal"]
    ann = {"rack": "R1 K5 K6", "player": "Ann"}
    out = ask(client, game, ann).get_json()
    assert sorted(out["move"]["placed"]) == ["K5", "K6", "R1"]    # a joker read as R1
    r = client.post(game["api"] + "/turns/1/declare", headers=game["headers"],
                    json={"meld": 0, "tiles": "B1 O1"})
    assert r.status_code == 200, r.get_json()
    out = ask(client, game, ann).get_json()
    move = out["move"]
    assert [s["action"] for s in move["steps"]] != ["swap"] and "K5" not in move["placed"]
    assert referee.check_turn("J K1 J | K10 B10 O10 R10", move["table"], "R1 K5 K6",
                              rules="sabra", jokers_before={0: "B1 O1"}).legal
    assert not move["exact"] and out["words"]["note"] is not None
