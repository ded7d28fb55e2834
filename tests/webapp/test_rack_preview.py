"""The keypad's rack preview: a value, and nothing saved."""

from __future__ import annotations

from tests.webapp.webhelpers import snapshot


def test_rack_value_preview_saves_nothing(client, app):
    before = snapshot(app)
    r = client.post("/api/rack-value", json={"tiles": "r5 k13, j", "rules": "sabra"})
    assert r.status_code == 200
    assert r.get_json() == {"tiles": "R5 K13 J", "value": 48, "count": 3, "rules": "sabra"}
    r = client.post("/api/rack-value", json={"tiles": ["B1", "B2"]})
    assert r.get_json()["value"] == 3 and r.get_json()["rules"] == "sabra"
    r = client.post("/api/rack-value", json={"tiles": "R5 X9"})
    assert r.status_code == 422 and r.get_json()["token"] == "X9"
    r = client.post("/api/rack-value", json={"tiles": "R5 R5 R5"})
    assert r.status_code == 422 and "third R5" in r.get_json()["error"]
    r = client.post("/api/rack-value", json={"tiles": "R5", "rules": "nope"})
    assert r.status_code == 422 and r.get_json()["field"] == "rules"
    assert snapshot(app) == before
