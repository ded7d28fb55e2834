"""What a stranger on the table's network, or a flaky phone, can do: each bad input gets a clear
answer and changes nothing. Lost updates, tokens at rest, strict JSON and bounded numbers,
security headers, look-alike names, rate limits, oversized bodies. Runs on SQLite and
PostgreSQL where a database is involved (the ``app`` fixture)."""

from __future__ import annotations

import json
import resource
import socket
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from flask import Blueprint, request
from sqlalchemy import select

from webapp import idempotency
from webapp.models import IdempotencyKey
from tests.conftest import REPO
from tests.webapp.webhelpers import http_request, new_game, snapshot, unique_key


def post_round(client, game, body, **headers):
    return client.post(f"/api/games/{game['id']}/rounds", json=body,
                       headers={**game["headers"], **headers})


# --- lost updates: rounds have versions; If-Match is honoured --------------------------------------

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


# --- the edit token is never stored; idempotency answers expire --------------------------------

def _stored(app) -> str:
    return json.dumps(snapshot(app), default=str, ensure_ascii=False)


def test_a_keyed_create_stores_no_token_and_a_retry_gets_it_again(client, app):
    key = unique_key()
    body = {"players": ["Ann", "Ben"]}
    first = client.post("/api/games", json=body, headers={"Idempotency-Key": key})
    assert first.status_code == 201
    token = first.get_json()["token"]
    assert len(token) >= 30
    stored = _stored(app)
    assert token not in stored and token[:12] not in stored
    with app.extensions["rummiref"]["engine"].connect() as conn:
        row = conn.execute(select(IdempotencyKey.body)).scalar_one()
    assert "token" not in row and row["id"] == first.get_json()["id"]
    again = client.post("/api/games", json=body, headers={"Idempotency-Key": key})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()  # the same token, made again
    assert list(again.get_json()) == ["id", "token", "url", "game"]
    assert _stored(app) == stored
    game = {"id": first.get_json()["id"], "headers": {"Authorization": f"Bearer {token}"}}
    assert post_round(client, game, {"winner": "Ann", "racks": {"Ben": 3}}).status_code == 201
    assert client.get("/api/games").get_json()["total"] == 1


def test_a_retried_create_after_the_secret_key_changed_is_told_to_start_again(make_app):
    app = make_app()
    key = unique_key()
    assert app.test_client().post("/api/games", json={"players": ["Ann", "Ben"]},
                                  headers={"Idempotency-Key": key}).status_code == 201
    other = make_app(SECRET_KEY="another key")
    before = snapshot(other)
    r = other.test_client().post("/api/games", json={"players": ["Ann", "Ben"]},
                                 headers={"Idempotency-Key": key})
    assert r.status_code == 409 and "start a new game" in r.get_json()["error"]
    assert "token" not in r.get_json()
    assert snapshot(other) == before


def test_idempotency_answers_expire_and_are_deleted(make_app, monkeypatch):
    app = make_app(IDEMPOTENCY_TTL_SECONDS=3600)
    client = app.test_client()
    g = new_game(client)
    key, old_key = unique_key(), unique_key()
    body = {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}}
    assert post_round(client, g, body, **{"Idempotency-Key": old_key}).status_code == 201
    assert post_round(client, g, body, **{"Idempotency-Key": key}).status_code == 201
    later = idempotency.utcnow() + timedelta(hours=2)
    monkeypatch.setattr(idempotency, "utcnow", lambda: later)
    monkeypatch.setattr(idempotency, "_purged_at", 0.0)
    # The same key two hours on is a new request: a new round, and the expired answers go.
    again = post_round(client, g, body, **{"Idempotency-Key": key})
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert again.get_json()["round"]["number"] == 3
    with app.extensions["rummiref"]["engine"].connect() as conn:
        keys = conn.execute(select(IdempotencyKey.key)).scalars().all()
    assert keys == [key]  # old_key was purged, key stored anew


# --- strict JSON, bounded numbers ---------------------------------------------------------------

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


# --- headers on every response; readable page errors --------------------------------------------

SECURITY_HEADERS = {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "no-referrer"}


def test_every_response_carries_the_security_headers(client, game):
    gid = game["id"]
    responses = {
        "start page": client.get("/"), "history": client.get("/history"),
        "sheet": client.get(f"/games/{gid}"), "sheet part": client.get(f"/games/{gid}/sheet"),
        "chart": client.get(f"/games/{gid}/chart.svg"), "live page": client.get(f"/games/{gid}/live"),
        "turn log": client.get(f"/games/{gid}/live/log"),
        "static": client.get("/ui-static/app.css"), "api": client.get(f"/api/games/{gid}"),
        "api 404": client.get("/api/nothing"), "page 404": client.get("/no/such/page"),
        "live 404": client.get("/games/nosuchgame/live"),
        "405": client.post("/history", data={"x": 1}),
    }
    for what, r in responses.items():
        for name, value in SECURITY_HEADERS.items():
            assert r.headers.get(name) == value, (what, name)
        csp = r.headers.get("Content-Security-Policy", "")
        assert "script-src 'self';" in csp and "frame-ancestors 'none'" in csp, what
        assert "object-src 'none'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        assert "Strict-Transport-Security" not in r.headers, what  # plain HTTP on the LAN
        assert r.status_code != 302, what  # no redirect to HTTPS
        r.close()


def test_hsts_only_over_tls(client):
    r = client.get("/", base_url="https://table.example")
    assert r.status_code == 200 and r.headers["Strict-Transport-Security"].startswith("max-age=")


@pytest.mark.parametrize("path, sentence", [
    ("/no/such/page", "There is nothing at this address"),
    ("/games/nosuchgame", "There is no game with this link"),
    ("/games/nosuchgame/live", "There is nothing at this address"),
    ("/games/nosuchgame/live/log", "There is nothing at this address"),
])
def test_page_errors_are_readable_pages_in_the_sites_style(client, path, sentence):
    r = client.get(path)
    html = r.get_data(as_text=True)
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert sentence in html
    assert "app.css" in html and 'class="brand"' in html  # the site's header and style
    assert "Werkzeug" not in html and "The requested URL was not found" not in html


# --- look-alike names -----------------------------------------------------------------------------

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


# --- oversized bodies, rate limit -----------------------------------------------------------------

def test_413_names_the_limit_that_applied(make_app):
    app = make_app()
    bp = Blueprint("upload", __name__)

    @bp.post("/api/upload-probe")
    def upload():
        request.max_content_length = 1024 * 1024  # as a photo upload raises it
        return {"size": len(request.get_data())}

    app.register_blueprint(bp)
    client = app.test_client()
    r = client.post("/api/upload-probe", data=b"x" * (2 * 1024 * 1024),
                    content_type="application/octet-stream")
    assert r.status_code == 413 and r.get_json()["error"] == ("the request body is too large: "
                                                              "1 MiB at most")
    assert client.post("/api/upload-probe", data=b"x" * 1000,
                       content_type="application/octet-stream").get_json() == {"size": 1000}
    r = client.post("/api/games", data=b"{" * (100 * 1024), content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"].endswith(": 64 KiB at most")


def test_game_creation_is_rate_limited(make_app):
    app = make_app(RATELIMIT_ENABLED=True, GAME_CREATION_LIMIT="3 per minute")
    client = app.test_client()
    games = [new_game(client, players=["Ann", "Ben"]) for _ in range(3)]
    before = snapshot(app)
    r = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    assert r.status_code == 429, r.get_json()
    assert r.get_json()["error"] == ("too many requests of this kind from this address (3 per 1 "
                                     "minute); try again in a moment")
    assert 0 < int(r.headers["Retry-After"]) <= 60
    assert snapshot(app) == before
    # Everything else still works, for this address too; other addresses can still create.
    assert post_round(client, games[0], {"winner": "Ann", "racks": {"Ben": 2}}).status_code == 201
    assert client.get("/api/games").status_code == 200
    other = client.post("/api/games", json={"players": ["Ann", "Ben"]},
                        environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201


def test_the_game_creation_limit_can_be_set_from_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("RUMMIREF_GAME_CREATION_LIMIT", "1 per minute")
    client = make_app(RATELIMIT_ENABLED=True).test_client()
    new_game(client, players=["Ann", "Ben"])
    assert client.post("/api/games", json={"players": ["Ann", "Ben"]}).status_code == 429



# --- connections: idle sockets cannot take the table offline -----------------------------------

def _serve(tmp_path, *args: str):
    proc = subprocess.Popen([sys.executable, "-m", "webapp.cli", "serve", "--port", "0",
                             "--instance", str(tmp_path / "inst"), *args], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("rummiref scoresheet: http://127.0.0.1:"), line
    return proc, line.split(": ", 1)[1].strip().rstrip("/")


def _idle_sockets(url: str, n: int) -> list[socket.socket]:
    """``n`` connections that never finish a request: half send nothing, half half a request."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n + 200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, n + 200), hard))
    port = int(url.rsplit(":", 1)[1])
    socks = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if i % 2:
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: table\r\nContent-Length: 100\r\n")
        socks.append(s)
    return socks


def test_hundreds_of_idle_connections_do_not_take_the_server_offline(tmp_path):
    proc, url = _serve(tmp_path)
    socks: list[socket.socket] = []
    try:
        socks = _idle_sockets(url, 600)
        time.sleep(0.3)
        t0 = time.perf_counter()
        status, _, presets = http_request(url + "/api/presets", timeout=10)
        assert status == 200 and presets["default"]
        status, _, created = http_request(url + "/api/games", "POST", {"players": ["A", "B"]},
                                          timeout=10)
        assert status == 201 and created["token"]
        assert time.perf_counter() - t0 < 2.0
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.communicate(timeout=15)


def test_idle_connections_over_the_limit_are_closed_after_the_idle_timeout(tmp_path):
    proc, url = _serve(tmp_path, "--connection-limit", "40", "--idle-timeout", "2")
    socks: list[socket.socket] = []
    try:
        socks = _idle_sockets(url, 60)  # more than the limit: the server stops accepting
        t0 = time.perf_counter()
        status, _, _ = http_request(url + "/api/presets", timeout=15)
        waited = time.perf_counter() - t0
        assert status == 200 and waited < 8.0, waited  # 2 s idle + the next clean-up
        closed = 0
        for s in socks:
            s.settimeout(0.5)
            try:
                closed += s.recv(1) == b""
            except OSError:
                pass
        assert closed >= 30  # the idle ones the server had accepted were hung up on
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.communicate(timeout=15)
