"""Look-alike names: invisible and bidi control characters are refused, one form is stored,
and names that need joiners or emoji are kept."""

from __future__ import annotations

import pytest

from tests.webapp.webhelpers import new_game, post_round, snapshot


@pytest.mark.parametrize("name, shown", [
    ("Ann\u200b", "U+200B ZERO WIDTH SPACE"),
    ("\ufeffAnn", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("Ann\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("\u202dAnn", "U+202D LEFT-TO-RIGHT OVERRIDE"),
    ("An\u200en", "U+200E LEFT-TO-RIGHT MARK"),
    ("Ann\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("Ann\u00ad", "U+00AD SOFT HYPHEN"),
    ("Ann\u2060", "U+2060 WORD JOINER"),
    ("Ann\u200d", "U+200D ZERO WIDTH JOINER"),
    ("Ann\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
    ("Ann\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
    ("\u3164", "HANGUL"),
    ("Ann\ue000", "U+E000"),
])
def test_invisible_and_bidi_characters_in_names_are_refused(client, app, name, shown):
    before = snapshot(app)
    r = client.post("/api/games", json={"players": ["Ann", name, "Cy"]})
    assert r.status_code == 422, r.get_json()
    err = r.get_json()["error"]
    assert err.startswith("player 2's name holds an invisible or text-direction character (")
    assert shown in err and "type the name with letters, digits and spaces" in err
    assert snapshot(app) == before


@pytest.mark.parametrize("other", ["Ａｎｎ", "ANN", "Ann\u00a0", " Ann"])
def test_look_alike_names_are_one_player(client, app, other):
    before = snapshot(app)
    r = client.post("/api/games", json={"players": ["Ann", other]})
    assert r.status_code == 422 and "two players are called 'Ann'" in r.get_json()["error"]
    assert snapshot(app) == before


def test_names_are_stored_in_one_form_and_count_as_one_player(client):
    a = new_game(client, players=["Ann\u00a0Lee", "Ben"])
    b = new_game(client, players=["ａｎｎ  lee", "Cy"])
    assert [p["name"] for p in a["data"]["game"]["players"]] == ["Ann Lee", "Ben"]
    assert [p["name"] for p in b["data"]["game"]["players"]] == ["ann lee", "Cy"]
    post_round(client, a, {"winner": "ANN LEE", "racks": {"Ben": 4}})
    r = post_round(client, b, {"winner": "ＡＮＮ\u00a0LEE", "racks": {"Cy": 4}})  # typed another way
    assert r.status_code == 201 and r.get_json()["round"]["winner"] == "ann lee"
    records = {p["name"].casefold(): p for p in client.get("/api/players").get_json()["players"]}
    assert records["ann lee"]["games"] == 2 and records["ann lee"]["won"] == 2


def test_names_that_need_joiners_and_emoji_are_kept(client):
    g = new_game(client, players=["\u0645\u0627\u0647\u200c\u0631\u062e", "\U0001f468\u200d\U0001f469\u200d\U0001f467",
                                  "\u2764\ufe0f Zoë"])
    assert [p["name"] for p in g["data"]["game"]["players"]] == [
        "\u0645\u0627\u0647\u200c\u0631\u062e", "\U0001f468\u200d\U0001f469\u200d\U0001f467",
        "\u2764\ufe0f Zoë"]
