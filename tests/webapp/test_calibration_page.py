"""Calibration from a phone: the page, the upload (owner only for a game, bad photos refused
with nothing stored) and the server's readers using what was stored."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from tests.grid_photos import held_out_grid  # noqa: E402
from tests.webapp.webhelpers import new_game  # noqa: E402


@pytest.fixture(scope="module")
def real_reader():
    from vision.reader import Reader

    return Reader()


def _png(image) -> bytes:
    ok, buf = cv2.imencode(".png", image)
    assert ok
    return buf.tobytes()


def _stored(app) -> list[str]:
    folder = Path(app.instance_path) / "calibration"
    return sorted(p.name for p in folder.glob("*.npz")) if folder.is_dir() else []


def test_the_page_shows_the_grid_in_the_phones_language(client, game):
    html = client.get(f"/games/{game['id']}/calibrate").get_data(as_text=True)
    assert 'capture="environment"' in html and f"/api/games/{game['id']}/calibration" in html
    assert html.count('class="tile tile-K"') == 13 and html.count('class="tile tile-J"') == 2
    de = client.get("/calibrate", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Meine Steine lernen" in de and "/api/calibration" in de
    assert client.get("/games/nosuchgame/calibrate").status_code == 404


def test_a_grid_photo_is_learned_for_the_game_of_its_owner_only(app, client, game, real_reader):
    app.extensions["rummiref_live"]["reader"] = real_reader.read
    image, _ = held_out_grid()
    url = f"/api/games/{game['id']}/calibration"

    def post(data, headers=None):
        return client.post(url, data={"photo": (BytesIO(data), "grid.png")},
                           headers=headers or {})

    assert post(_png(image)).status_code == 401
    assert post(_png(image), {"Authorization": "Bearer nottherightone"}).status_code == 403
    r = post(b"this is text", game["headers"])
    assert r.status_code == 422 and r.get_json()["field"] == "photo"
    flat = np.full((300, 400, 3), 180, np.uint8)
    r = post(_png(flat), game["headers"])
    assert r.status_code == 422 and "nothing was stored" in r.get_json()["error"]
    assert "black 1 to 13" in r.get_json()["error"]
    assert _stored(app) == []
    r = post(_png(image), game["headers"])
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["game"] == game["id"] and out["found"] >= 52
    assert _stored(app) == [f"game-{game['id']}.npz"]


def test_only_the_serving_computer_sets_the_default(app, client, real_reader):
    """A phone on the table's Wi-Fi cannot replace the tile set every other game reads with."""
    app.extensions["rummiref_live"]["reader"] = real_reader.read
    image, _ = held_out_grid()

    def post(addr):
        return client.post("/api/calibration", data={"photo": (BytesIO(_png(image)), "grid.png")},
                           environ_base={"REMOTE_ADDR": addr})

    r = post("192.0.2.7")
    assert r.status_code == 403 and "computer running rummiref" in r.get_json()["error"]
    assert _stored(app) == []
    r = post("127.0.0.1")
    assert r.status_code == 200, r.get_json()
    assert _stored(app) == ["default.npz"]


def test_the_rack_photo_of_a_game_is_read_with_its_calibration(app, client, game, real_reader):
    from vision import calibration as cal
    from vision.geometry import N_TILES
    from vision.labels import TILES
    from vision.synth import render_table

    app.extensions["rummiref_live"]["reader"] = real_reader.read
    photo = _png(render_table([["R5", "K9"]], seed=4, tile_width=90)[0])
    url = f"/api/games/{game['id']}/live/rack-photo"
    plain = client.post(url, data={"photo": (BytesIO(photo), "rack.png")}, headers=game["headers"])
    assert plain.status_code == 200 and "O13" not in plain.get_json()["tiles"]
    # a calibration that reads every tile as O13, stored for this game only
    w = np.zeros((2 * N_TILES + 1, 192), np.float32)
    b = np.zeros(2 * N_TILES + 1, np.float32)
    b[TILES.index("O13")] = 50.0
    cal.save(cal.Calibration(w, b, cal.model_id(real_reader)), app.instance_path, game["id"])
    r = client.post(url, data={"photo": (BytesIO(photo), "rack.png")}, headers=game["headers"])
    assert r.status_code == 200 and r.get_json()["tiles"] == "O13 O13"
    other = new_game(client)
    r = client.post(f"/api/games/{other['id']}/live/rack-photo",
                    data={"photo": (BytesIO(photo), "rack.png")}, headers=other["headers"])
    assert r.get_json()["tiles"] == plain.get_json()["tiles"]
