"""Declaring what the jokers of a live turn's meld stand for (``POST .../turns/<n>/declare``).

Rules text 001: "If you choose to use two jokers in a single combination they must be explicitly
declared which tiles they represent", and the first turn's sets "add up to at least 30 points".
Under ``sabra`` a joker in the initial meld is worth the tile it represents.

Ann opens with ``K1 J J | R7 R8 R9``: as laid, K1 J J is the run K1 K2 K3 (6) or a group of
ones (3, its jokers two of B1 O1 R1). Counted as the run, 6 + 24 = 30: enough. Declared as the
group B1 O1, 3 + 24 = 27: short of 30, so the turn is not valid."""

from __future__ import annotations

from .conftest import post_snapshot as snap


def _open(client, game):
    assert snap(client, game, "").status_code == 200
    r = snap(client, game, "K1 J J | R7 R8 R9")
    assert r.status_code == 201
    return r.get_json()["turn"]


def test_a_declaration_judges_the_turn_again_and_is_kept(client, game):
    turn = _open(client, game)
    assert turn["legal"] is True and turn["verdict"]["initial_points"] == 30
    meld = turn["verdict"]["melds"][0]
    assert meld["assumed"] is True and meld["stands_for"] == ["K1", "K2", "K3"]

    r = client.post(game["api"] + "/turns/1/declare", headers=game["headers"],
                    json={"meld": 0, "tiles": "B1 O1"})
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["turn"]["legal"] is False
    assert out["turn"]["verdict"]["initial_points"] == 27
    assert [v["code"] for v in out["turn"]["verdict"]["violations"]] == ["initial-meld-too-low"]
    assert out["recomputed"] == [1]
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["verdict"]["declared"] == {"0": "B1 O1"}
    assert d["corrections"][-1]["kind"] == "declaration"
    assert d["corrections"][-1]["declared"] == "B1 O1"
    assert (d["corrections"][-1]["legal_before"], d["corrections"][-1]["legal_after"]) == \
        (True, False)
    # The log of the round keeps it: whose turn it is follows the verdict.
    st = client.get(game["api"]).get_json()
    assert st["restore_pending"] is True

    # Taken back: the reading worth most again.
    r = client.post(game["api"] + "/turns/1/declare", headers=game["headers"],
                    json={"meld": 0, "tiles": None})
    assert r.status_code == 200
    assert r.get_json()["turn"]["legal"] is True
    assert client.get(game["api"] + "/turns/1").get_json()["verdict"]["declared"] == {}


def test_the_live_page_says_what_was_assumed_and_offers_each_reading(client, game):
    _open(client, game)
    page = client.get(f"/games/{game['id']}/live").get_data(as_text=True)
    assert "Assumed: the jokers in K1 J J stand for K2 K3." in page
    for label in ("K2 K3 (a run)", "B1 O1 (a group)", "B1 R1 (a group)", "O1 R1 (a group)"):
        assert label in page
    assert "O1 B1 (a group)" not in page   # the same two colours, offered once
    client.post(game["api"] + "/turns/1/declare", headers=game["headers"],
                json={"meld": 0, "tiles": "B1 O1"})
    page = client.get(f"/games/{game['id']}/live/panel").get_data(as_text=True)
    assert "Declared: the jokers in K1 J J stand for B1 O1." in page
    assert "Not valid: the initial meld is worth 27 points, 30 are needed" in page


def test_a_declaration_no_reading_allows_is_refused(client, game):
    _open(client, game)
    api, h = game["api"] + "/turns/1/declare", game["headers"]
    r = client.post(api, headers=h, json={"meld": 0, "tiles": "K5 K6"})
    assert r.status_code == 422 and r.get_json()["field"] == "tiles"
    assert "K2 K3" in r.get_json()["error"] and "B1 O1" in r.get_json()["error"]
    r = client.post(api, headers=h, json={"meld": 0, "tiles": "B1"})   # one tile, two jokers
    assert r.status_code == 422 and r.get_json()["field"] == "tiles"
    r = client.post(api, headers=h, json={"meld": 0, "tiles": "X9 Q"})
    assert r.status_code == 422
    r = client.post(api, headers=h, json={"meld": 2, "tiles": "B1 O1"})
    assert r.status_code == 422 and r.get_json()["field"] == "meld"
    r = client.post(api, headers=h, json={"meld": True, "tiles": "B1 O1"})
    assert r.status_code == 422 and r.get_json()["field"] == "meld"
    r = client.post(api, headers=h, json={"meld": 0, "tiles": 11})
    assert r.status_code == 422 and r.get_json()["field"] == "tiles"
    r = client.post(api, headers=h, json=["B1 O1"])
    assert r.status_code == 422
    r = client.post(game["api"] + "/turns/7/declare", headers=h, json={"meld": 0, "tiles": "B1 O1"})
    assert r.status_code == 404
    # Nothing was changed by any of these.
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["legal"] is True and d["corrections"] == []


def test_only_the_owner_declares(client, game):
    _open(client, game)
    api = game["api"] + "/turns/1/declare"
    assert client.post(api, json={"meld": 0, "tiles": "B1 O1"}).status_code == 401
    r = client.post(api, json={"meld": 0, "tiles": "B1 O1"},
                    headers={"Authorization": "Bearer not-the-token"})
    assert r.status_code in (401, 403)
    assert client.get(game["api"] + "/turns/1").get_json()["verdict"]["declared"] == {}


def test_a_misspelt_or_missing_tiles_field_does_not_take_a_declaration_back(client, game):
    # Only "tiles": null takes a declaration back. A body without "tiles" (or with "tile",
    # misspelt) was read as null: the declaration vanished and the turn was judged again, 200.
    _open(client, game)
    api, h = game["api"] + "/turns/1/declare", game["headers"]
    assert client.post(api, headers=h, json={"meld": 0, "tiles": "B1 O1"}).status_code == 200
    for body, field in [({"meld": 0, "tile": "K2 K3"}, "tile"), ({"meld": 0}, "tiles"),
                        ({"meld": 0, "tiles": "K2 K3", "side ": "after"}, "side ")]:
        r = client.post(api, headers=h, json=body)
        assert r.status_code == 422, (body, r.get_json())
        assert r.get_json()["field"] == field
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["verdict"]["declared"] == {"0": "B1 O1"} and d["legal"] is False
    assert len(d["corrections"]) == 1


def test_a_correction_with_a_field_it_does_not_take_changes_nothing(client, game):
    _open(client, game)
    api, h = game["api"] + "/turns/1/correct", game["headers"]
    r = client.post(api, headers=h, json={"index": 1, "tile": "K2", "sdie": "before"})
    assert r.status_code == 422 and r.get_json()["field"] == "sdie"
    d = client.get(game["api"] + "/turns/1").get_json()
    assert d["corrections"] == [] and d["after"]["table"] == "K1 J J | R7 R8 R9"


def test_whose_turn_needs_a_name(client, game):
    _open(client, game)
    api, h = game["api"] + "/next-player", game["headers"]
    for body in ({}, {"player": None}, {"player": 5}, {"name": "Ben"}):
        r = client.post(api, headers=h, json=body)
        assert r.status_code == 422 and r.get_json()["field"] == "player", body
        assert "None" not in r.get_json()["error"]
    r = client.post(api, headers=h, json={"player": "Ben", "device": "Ann's phone"})
    assert r.status_code == 200 and r.get_json() == {"next_player": "Ben"}
