"""Security headers on every response, and page errors that are readable pages."""

from __future__ import annotations

import pytest


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
