"""Strict JSON and bounded numbers: non-finite numbers, absurd racks and huge ids get a clear
answer and change nothing."""

from __future__ import annotations

import json

import pytest
from flask import Blueprint

from tests.webapp.webhelpers import post_round, snapshot


@pytest.mark.parametrize("text, fragment", [
    ('{"winner": "Ann", "racks": {"Ben": NaN, "Cy": 1}}', "NaN is not allowed"),
    ('{"winner": "Ann", "racks": {"Ben": Infinity, "Cy": 1}}', "Infinity is not allowed"),
    ('{"winner": "Ann", "racks": {"Ben": -Infinity, "Cy": 1}}', "-Infinity is not allowed"),
    ('{"winner": "Ann", "racks": {"Ben": 1e400, "Cy": 1}}', "1e400 is too large a number"),
    ('{"winner": "Ann", "racks": {"Ben": ' + "9" * 5000 + ', "Cy": 1}}', "not valid JSON"),
])
def test_non_finite_numbers_are_refused(client, app, game, text, fragment):
    before = snapshot(app)
    r = client.post(f"/api/games/{game['id']}/rounds", data=text,
                    headers={**game["headers"], "Content-Type": "application/json"})
    assert r.status_code == 400, r.get_json()
    assert fragment in r.get_json()["error"]
    assert snapshot(app) == before


def test_absurd_rack_numbers_are_refused(client, app, game):
    before = snapshot(app)
    for value in (1e308, -1e308, 10**300, 0.5):
        r = post_round(client, game, {"winner": "Ann", "racks": {"Ben": value, "Cy": 1}})
        assert r.status_code == 422, (value, r.get_json())
        json.dumps(r.get_json(), allow_nan=False)
    assert snapshot(app) == before


def test_huge_numbers_in_paths_and_queries_are_404_or_400(client, app, game):
    gid = game["id"]
    post_round(client, game, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}})
    before = snapshot(app)
    for n in ("9223372036854775808", "99999999999999999999", "1000000000"):
        for method in ("get", "put", "delete"):
            r = getattr(client, method)(f"/api/games/{gid}/rounds/{n}", headers=game["headers"],
                                        json={"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}})
            assert r.status_code == 404 and r.is_json, (method, n, r.status_code)
    r = client.get(f"/api/games/{gid}/live/snapshots/9223372036854775808.jpg")
    assert r.status_code == 404 and r.is_json
    page = client.get("/history?page=100000000000000000000")
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "The history has no page 100000000000000000000" in page.get_data(as_text=True)
    assert client.get("/history?page=99999").status_code == 200
    r = client.get(f"/api/games/{gid}/events?after=99999999999999999999")
    assert r.status_code == 400 and "game version" in r.get_json()["error"]
    assert snapshot(app) == before


def test_every_int_in_a_route_is_bounded_app_wide(make_app):
    """A blueprint registered after the app is built (as the live referee's is) gets the
    bounded converter too."""
    app = make_app()
    bp = Blueprint("probe", __name__)
    seen = []

    @bp.get("/probe/<int:n>")
    def probe(n):
        seen.append(n)
        return {"n": n}

    app.register_blueprint(bp)
    client = app.test_client()
    assert client.get("/probe/123456789").get_json() == {"n": 123456789}
    r = client.get("/probe/9223372036854775808")
    assert r.status_code == 404 and "There is nothing at this address" in r.get_data(as_text=True)
    assert seen == [123456789]


@pytest.mark.parametrize("rack", ["\u00b2", "+-5", "--5"])
def test_a_rack_that_only_looks_like_a_number_is_a_422(client, app, game, rack):
    # "²" (a superscript two) and "+-5" passed str.isdigit() and then broke int(): a 500
    # instead of a sentence naming the rack.
    before = snapshot(app)
    r = post_round(client, game, {"winner": "Ann", "racks": {"Ben": rack, "Cy": 1}})
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["error"].startswith("Ben's rack:")
    assert snapshot(app) == before


@pytest.mark.parametrize("text, key", [
    ('{"winner": "Ann", "racks": {"Ben": 5, "Ben": 60, "Cy": 1}}', '"Ben"'),
    ('{"winner": "Ann", "winner": "Ben", "racks": {"Ann": 5, "Ben": 0, "Cy": 1}}', '"winner"'),
])
def test_a_key_given_twice_in_the_body_is_refused(client, app, game, text, key):
    # JSON parsers keep the last of two equal keys: Ben's 5 became 60 with no word, where
    # "Ben" and "ben" are refused as a rack given twice.
    before = snapshot(app)
    r = client.post(f"/api/games/{game['id']}/rounds", data=text,
                    headers={**game["headers"], "Content-Type": "application/json"})
    assert r.status_code == 400, r.get_json()
    assert f"{key} is given twice" in r.get_json()["error"]
    assert snapshot(app) == before
