"""The end of a game on the server-rendered pages: the winner screen in the sheet the phones
refetch, the result picture, the history's titles and winners."""

from __future__ import annotations

import io

from tests.webapp.webhelpers import new_game


def play(client, g, winner, racks):
    r = client.post(f"/api/games/{g['id']}/rounds", headers=g["headers"],
                    json={"winner": winner, "racks": racks})
    assert r.status_code == 201, r.get_json()


def test_the_sheet_brings_the_winner_screen_once_the_game_is_over(client):
    g = new_game(client, ("Ann", "Ben"), target={"kind": "rounds", "value": 2}, title="Friday")
    play(client, g, "Ann", {"Ben": 4})
    sheet = client.get(f"/games/{g['id']}/sheet").get_data(as_text=True)
    assert 'id="winner-slot"' in sheet and 'id="winner"' not in sheet
    assert "Round 2 starts with" in sheet
    play(client, g, "Ann", {"Ben": 3})
    sheet = client.get(f"/games/{g['id']}/sheet").get_data(as_text=True)
    assert '<h2 id="winner-headline">Ann wins</h2>' in sheet
    assert "2 rounds \u00b7 played to 2 rounds" in sheet
    assert "starts with" not in sheet
    page = client.get(f"/games/{g['id']}").get_data(as_text=True)
    assert "<title>Friday \u00b7 rummiref</title>" in page
    assert page.index('id="winner"') < page.index('id="timer"')  # at the top, not under the timer


def test_a_tie_shares_the_win_in_words(client):
    g = new_game(client, ("Ann", "Ben", "Cy"), target={"kind": "rounds", "value": 2})
    play(client, g, "Ann", {"Ben": 1, "Cy": 2})   # Ann 3, Ben -1, Cy -2
    play(client, g, "Ben", {"Ann": 1, "Cy": 2})   # Ann 2, Ben 2, Cy -4
    sheet = client.get(f"/games/{g['id']}/sheet").get_data(as_text=True)
    assert "Ann and Ben share the win" in sheet


def test_the_result_picture_is_a_png_with_a_row_per_player(client):
    from PIL import Image

    g = new_game(client, ("Ann", "Ben", "Cy"), target={"kind": "points", "value": 10})
    play(client, g, "Cy", {"Ann": 4, "Ben": 9})
    r = client.get(f"/games/{g['id']}/result.png")
    assert r.status_code == 200 and r.mimetype == "image/png"
    assert r.headers["Content-Disposition"] == f'inline; filename="rummiref-{g["id"]}.png"'
    img = Image.open(io.BytesIO(r.data)).convert("RGB")
    two = new_game(client, ("Ann", "Ben"))
    small = Image.open(io.BytesIO(client.get(f"/games/{two['id']}/result.png").data))
    assert img.width == small.width == 720
    assert img.height - small.height == 64          # one more row
    # the winner's row (the first) is highlighted, the others are not
    first_row_y = 36 + 150 + 10
    assert img.getpixel((200, first_row_y)) == (0xff, 0xf3, 0xc4)
    assert img.getpixel((200, first_row_y + 64)) == (255, 255, 255)
    # before the end there is no highlighted row
    plain = Image.open(io.BytesIO(client.get(f"/games/{two['id']}/result.png").data)).convert("RGB")
    assert plain.getpixel((200, first_row_y)) == (255, 255, 255)
    assert client.get("/games/nosuchgame/result.png").status_code == 404


def test_history_shows_titles_and_who_won(client):
    g = new_game(client, ("Ann", "Ben"), target={"kind": "rounds", "value": 1}, title="Friday <b>")
    play(client, g, "Ben", {"Ann": 2})
    page = client.get("/history").get_data(as_text=True)
    assert '<span class="title"><bdi>Friday &lt;b&gt;</bdi></span>' in page
    assert '<span class="done">Ben won</span>' in page
    assert "The game was deleted." not in page
    assert "The game was deleted." in client.get("/history?deleted=1").get_data(as_text=True)


def test_the_winner_screen_speaks_the_phones_language(client):
    g = new_game(client, ("Ann", "Ben", "Cy"), target={"kind": "points", "value": 5})
    play(client, g, "Ann", {"Ben": 3, "Cy": 3})
    de = client.get(f"/games/{g['id']}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<h2 id="winner-headline">Ann gewinnt</h2>' in de
    assert "1 Runde \u00b7 gespielt bis 5 Punkte" in de and "Gespielt bis 5 Punkte" in de
    assert "Revanche: dieselben Spieler" in de
    nl = client.get(f"/games/{g['id']}/sheet", headers={"Accept-Language": "nl"}).get_data(as_text=True)
    assert "Uitslag delen" in nl
    # a shared win, its names listed as the language lists them
    tie = new_game(client, ("Ann", "Ben"), target={"kind": "rounds", "value": 2})
    play(client, tie, "Ann", {"Ben": 3})
    play(client, tie, "Ben", {"Ann": 3})
    de = client.get(f"/games/{tie['id']}/sheet", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Ann und Ben gewinnen gemeinsam" in de
    he = client.get(f"/games/{tie['id']}/result.png", headers={"Accept-Language": "he"})
    assert he.status_code == 200 and he.data[:8] == b"\x89PNG\r\n\x1a\n"
