"""Lost updates: rounds carry versions, an ETag on GET, and If-Match honoured by PUT and DELETE.
Runs on SQLite and PostgreSQL (the ``app`` fixture)."""

from __future__ import annotations

from tests.webapp.webhelpers import post_round, snapshot


def test_a_stale_edit_does_not_overwrite_a_round_entered_again(client, app, game):
    """Phone A opens round 1 to edit it; phone B undoes round 1 and enters a new round 1; A
    saves: refused with who did what, and B's round is intact."""
    gid = game["id"]
    assert post_round(client, game, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}}).status_code == 201
    a_read = client.get(f"/api/games/{gid}/rounds/1")            # phone A opens the edit form
    a_etag = a_read.headers["ETag"]
    assert a_etag == f'"{a_read.get_json()["version"]}"'
    b_headers = {**game["headers"], "X-Rummiref-Device": "Ben's phone"}
    b_read = client.get(f"/api/games/{gid}/rounds/1")
    undo = client.delete(f"/api/games/{gid}/rounds/1",
                         headers={**b_headers, "If-Match": b_read.headers["ETag"]})
    assert undo.status_code == 200
    again = client.post(f"/api/games/{gid}/rounds", headers=b_headers,
                        json={"winner": "Ben", "racks": {"Ann": 10, "Cy": 2}})
    assert again.status_code == 201 and again.get_json()["round"]["number"] == 1
    assert again.headers["ETag"] != a_etag
    before = snapshot(app)
    stale = client.put(f"/api/games/{gid}/rounds/1",
                       headers={**game["headers"], "If-Match": a_etag, "X-Rummiref-Device": "A"},
                       json={"winner": "Cy", "racks": {"Ann": 1, "Ben": 1}})
    assert stale.status_code == 412, stale.get_json()
    err = stale.get_json()
    assert err["error"].startswith('round 1 was entered again by "Ben\'s phone" at ')
    assert "nothing was changed. Reload the sheet" in err["error"]
    assert err["changed_by"] == "Ben's phone" and err["round"] == 1
    assert snapshot(app) == before
    kept = client.get(f"/api/games/{gid}/rounds/1").get_json()
    assert kept["winner"] == "Ben" and kept["scores"] == {"Ann": -10, "Ben": 12, "Cy": -2}
    # The stale copy cannot undo it either; the fresh one can edit it.
    r = client.delete(f"/api/games/{gid}/rounds/1", headers={**game["headers"], "If-Match": a_etag})
    assert r.status_code == 412 and snapshot(app) == before
    fresh = client.get(f"/api/games/{gid}/rounds/1").headers["ETag"]
    r = client.put(f"/api/games/{gid}/rounds/1", headers={**game["headers"], "If-Match": fresh},
                   json={"winner": "Cy", "racks": {"Ann": 1, "Ben": 1}})
    assert r.status_code == 200 and r.headers["ETag"] != fresh
    assert r.headers["ETag"] == f'"{r.get_json()["round"]["version"]}"'


def test_an_edit_made_meanwhile_is_not_overwritten(client, app, game):
    gid = game["id"]
    post_round(client, game, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}})
    etag = client.get(f"/api/games/{gid}/rounds/1").headers["ETag"]
    first = client.put(f"/api/games/{gid}/rounds/1", headers={**game["headers"], "If-Match": etag,
                                                              "X-Rummiref-Device": "Cy"},
                       json={"winner": "Ann", "racks": {"Ben": 6, "Cy": 7}})
    assert first.status_code == 200
    before = snapshot(app)
    second = client.put(f"/api/games/{gid}/rounds/1",
                        headers={**game["headers"], "If-Match": etag},
                        json={"winner": "Ann", "racks": {"Ben": 5, "Cy": 9}})
    assert second.status_code == 412
    assert second.get_json()["error"].startswith('round 1 was edited by "Cy" at ')
    assert snapshot(app) == before
    # A round undone meanwhile: 412 too, naming the undo.
    undo = client.delete(f"/api/games/{gid}/rounds/1", headers=game["headers"])
    assert undo.status_code == 200
    r = client.put(f"/api/games/{gid}/rounds/1", headers={**game["headers"], "If-Match": etag},
                   json={"winner": "Ann", "racks": {"Ben": 5, "Cy": 9}})
    assert r.status_code == 412 and 'round 1 was undone by "owner"' in r.get_json()["error"]


def test_if_match_is_optional_and_star_matches_any(client, game):
    gid = game["id"]
    post_round(client, game, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}})
    r = client.put(f"/api/games/{gid}/rounds/1", headers=game["headers"],
                   json={"winner": "Ann", "racks": {"Ben": 6, "Cy": 7}})
    assert r.status_code == 200
    r = client.put(f"/api/games/{gid}/rounds/1", headers={**game["headers"], "If-Match": "*"},
                   json={"winner": "Ann", "racks": {"Ben": 7, "Cy": 7}})
    assert r.status_code == 200
    r = client.put(f"/api/games/{gid}/rounds/2", headers={**game["headers"], "If-Match": "*"},
                   json={"winner": "Ann", "racks": {"Ben": 7, "Cy": 7}})
    assert r.status_code == 404  # no such round, ever


def test_the_game_and_its_rounds_carry_their_versions(client, game):
    gid = game["id"]
    r = client.get(f"/api/games/{gid}")
    assert r.headers["ETag"] == f'"{r.get_json()["version"]}"'
    post_round(client, game, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}})
    state = client.get(f"/api/games/{gid}")
    assert state.headers["ETag"] != r.headers["ETag"]
    rnd = state.get_json()["rounds"][0]
    assert client.get(f"/api/games/{gid}/rounds/1").headers["ETag"] == f'"{rnd["version"]}"'
    assert f'data-version="{rnd["version"]}"' in client.get(f"/games/{gid}/sheet").get_data(as_text=True)
