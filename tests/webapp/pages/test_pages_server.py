"""The page routes without a browser (Flask's test client): what the server renders."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from webapp.pages import chart_svg, cumulative, signed


@pytest.fixture
def client(app):
    return app.test_client()


def _game(client, players=("Ann", "Ben", "Cy"), rules="sabra"):
    r = client.post("/api/games", json={"players": list(players), "rules": rules})
    assert r.status_code == 201, r.get_json()
    data = r.get_json()
    return data["id"], {"Authorization": "Bearer " + data["token"]}


def _round(client, gid, headers, winner, racks):
    r = client.post(f"/api/games/{gid}/rounds", json={"winner": winner, "racks": racks}, headers=headers)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_signed_numbers():
    assert [signed(5), signed(-12), signed(0), signed(None)] == ["+5", "\u221212", "0", ""]


def test_chart_follows_the_running_totals():
    rounds = [{"scores": {"Ann": 60, "Ben": -12, "Cy": -48}}, {"scores": {"Ann": -6, "Ben": 9, "Cy": -3}}]
    assert cumulative(["Ann", "Ben", "Cy"], rounds) == {"Ann": [0, 60, 54], "Ben": [0, -12, -3],
                                                      "Cy": [0, -48, -51]}
    svg = ET.fromstring(str(chart_svg(["Ann", "Ben", "Cy"], rounds, standalone=True)))
    ns = {"s": "http://www.w3.org/2000/svg"}
    lines = svg.findall(".//s:g[@class='series']/s:polyline", ns)
    assert len(lines) == 3
    ys = [[float(p.split(",")[1]) for p in pl.get("points").split()] for pl in lines]
    # Screen y grows downwards: Ann's line goes up, Cy's down; all start on the zero line.
    assert ys[0][1] < ys[0][0] and ys[2][1] > ys[2][0]
    assert len({y[0] for y in ys}) == 1
    assert ys[0][2] > ys[0][1] and ys[1][2] < ys[1][1]  # Ann drops 6, Ben climbs 9
    # No rounds yet: still a valid chart, no lines.
    empty = ET.fromstring(str(chart_svg(["Ann", "Ben"], [], standalone=True)))
    assert not empty.findall(".//s:polyline", ns)


def test_chart_escapes_names():
    svg = str(chart_svg(["<b>x</b>", 'q"&'], [{"scores": {"<b>x</b>": 3, 'q"&': -3}}], standalone=True))
    assert "<b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg
    ET.fromstring(svg)  # still well-formed XML


def test_sheet_pages_render_the_api_state(client):
    gid, h = _game(client)
    _round(client, gid, h, "Ann", {"Ben": 12, "Cy": "R5 K13 J"})
    page = client.get(f"/games/{gid}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Sabra (current Original rules)" in html
    assert re.search(r'data-player="Ann">\+60<', html) and "R5 K13 J" in html
    assert "Ben: rack 12, scores -12" in html  # the server's explanation of the arithmetic
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    sheet = client.get(f"/games/{gid}/sheet")
    assert sheet.status_code == 200 and sheet.headers["Cache-Control"] == "no-store"
    assert 'id="sheet"' in sheet.get_data(as_text=True) and "<html" not in sheet.get_data(as_text=True)
    chart = client.get(f"/games/{gid}/chart.svg")
    assert chart.mimetype == "image/svg+xml"
    ET.fromstring(chart.get_data(as_text=True))
    qr = client.get(f"/games/{gid}/qr.svg")
    assert qr.mimetype == "image/svg+xml" and "<path" in qr.get_data(as_text=True)


def test_unknown_game_is_a_readable_404(client):
    for path in ("/games/nosuchgame", "/games/nosuchgame/sheet", "/games/nosuchgame/audit",
                 "/games/nosuchgame/chart.svg"):
        r = client.get(path)
        assert r.status_code == 404, path
    assert "no game with this link" in client.get("/games/nosuchgame").get_data(as_text=True)


def test_pages_take_no_form_posts(client):
    gid, h = _game(client)
    before = client.get(f"/api/games/{gid}").get_json()["version"]
    for path in ("/", f"/games/{gid}", f"/games/{gid}/sheet", "/history"):
        assert client.post(path, data={"winner": "Ann"}).status_code == 405, path
    # /qr draws a QR code from JSON only; a form cannot reach it.
    assert client.post("/qr", data={"text": "x"}).status_code == 415
    assert client.post("/qr", data='{"text": "x"}', content_type="text/plain").status_code == 415
    assert client.post("/qr", json={"text": ""}).status_code == 400
    assert client.post("/qr", json={"text": "x" * 601}).status_code == 413
    ok = client.post("/qr", json={"text": f"http://table.local/games/{gid}#token=abc"})
    assert ok.status_code == 200 and ok.mimetype == "image/svg+xml"
    assert client.get(f"/api/games/{gid}").get_json()["version"] == before


def test_history_lists_games_and_records(client):
    gid, h = _game(client, ("Ann", "Ben"))
    _round(client, gid, h, "Ben", {"Ann": 7})
    gid2, h2 = _game(client, ("ann", "Cy"))
    _round(client, gid2, h2, "ann", {"Cy": 3})
    html = client.get("/history").get_data(as_text=True)
    assert html.count('class="past-game"') == 2
    # "Ann" and "ann" are one player: two games, one won.
    row = re.search(r'<tr data-player="[Aa]nn">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r"<td[^>]*>([^<]*)</td>", row)[:2] == ["2", "1"]  # games, won
    # One player's games only (any case), escaped like everything else.
    only = client.get("/history?player=CY").get_data(as_text=True)
    assert only.count('class="past-game"') == 1 and "Games with <bdi>CY</bdi>" in only
    assert "&lt;b&gt;" in client.get("/history?player=<b>").get_data(as_text=True)
    assert client.get("/history?page=abc").status_code == 200
    assert client.get("/history?page=5").status_code == 200
