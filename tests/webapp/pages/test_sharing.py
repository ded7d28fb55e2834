"""The share panel only ever offers a link the server answers, derived from where it really
listens (``webapp.reach``); the README's command itself is tested in test_serve_command.py."""

from __future__ import annotations

import re

from webapp import reach
from webapp.pages import qr_svg


def _new_game(client) -> str:
    r = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    assert r.status_code == 201
    return r.get_json()["id"]


def _share_panel(client, gid: str, host: str = "127.0.0.1:5000") -> dict:
    html = client.get(f"/games/{gid}", headers={"Host": host}).get_data(as_text=True)
    link = re.search(r'id="viewer-link"[^>]*href="([^"]+)"', html).group(1)
    note = re.search(r'id="share-note">([^<]*)<', html)
    return {"link": link, "note": note.group(1) if note else None,
            "warning": 'class="share-warning"' in html, "qr": 'id="viewer-qr"' in html,
            "owner_qr": 'id="owner-qr-show"' in html, "html": html}


def test_a_server_on_this_computer_only_says_why_and_how_to_let_phones_in(app):
    reach.remember(app, "127.0.0.1", 5000)
    client = app.test_client()
    gid = _new_game(client)
    panel = _share_panel(client, gid)
    assert panel["link"] == f"http://127.0.0.1:5000/games/{gid}"   # it does answer, here
    assert panel["warning"] and not panel["qr"] and not panel["owner_qr"]
    assert "Only this computer can open this link" in panel["note"]
    assert "--host 0.0.0.0" in panel["note"]


def test_a_server_on_every_interface_shares_this_computers_network_address(app, monkeypatch):
    monkeypatch.setattr(reach, "lan_address", lambda: "192.168.1.23")
    reach.remember(app, "0.0.0.0", 5123)
    client = app.test_client()
    gid = _new_game(client)
    panel = _share_panel(client, gid, host="localhost:5123")
    assert panel["link"] == f"http://192.168.1.23:5123/games/{gid}"
    assert panel["qr"] and panel["owner_qr"] and not panel["warning"]
    assert str(qr_svg(panel["link"])) in panel["html"]  # the QR code holds that same link
    # A phone that came in by the network address shares the address it used.
    panel = _share_panel(client, gid, host="192.168.1.23:5123")
    assert panel["link"] == f"http://192.168.1.23:5123/games/{gid}" and panel["note"] is None


def test_no_network_no_qr_code(app, monkeypatch):
    monkeypatch.setattr(reach, "lan_address", lambda: None)
    reach.remember(app, "0.0.0.0", 5000)
    client = app.test_client()
    panel = _share_panel(client, _new_game(client))
    assert panel["warning"] and not panel["qr"] and "on no network" in panel["note"]


def test_an_unknown_listening_address_is_never_guessed(app, monkeypatch):
    # Served by something other than `rummiref serve` (no address recorded): a page opened as
    # 127.0.0.1 cannot know the phones' way in, so it offers no QR code for a guess.
    monkeypatch.setattr(reach, "lan_address", lambda: "192.0.2.99")
    client = app.test_client()
    panel = _share_panel(client, _new_game(client))
    assert "192.0.2.99" not in panel["html"]
    assert panel["warning"] and not panel["qr"]


def test_a_public_url_wins(app):
    app.config["PUBLIC_URL"] = "https://scores.example.org/"
    reach.remember(app, "127.0.0.1", 5000)
    client = app.test_client()
    gid = _new_game(client)
    panel = _share_panel(client, gid)
    assert panel["link"] == f"https://scores.example.org/games/{gid}" and panel["qr"]
