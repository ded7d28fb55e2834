"""``rummiref serve --demo``: a short generated game played through the live referee's real
path (rendered frames -> frame source -> watcher -> tile reader -> live API -> phones), so a new
user sees verdicts arrive without a camera.

The frames are generated (``vision.synth.render_table`` when the tile reader's package has it,
otherwise a plain drawing of the tiles made here); nothing recorded is shipped. A hand reaches
over the table between turns. When the tile reader cannot be loaded (no trained model yet), the
demo says so and sends the tables it drew instead of reading them.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Iterator

import numpy as np

log = logging.getLogger(__name__)

PLAYERS = ["Ann", "Ben", "Cy"]

#: (what happens, the table afterwards, seconds still, a hand rests over the table first)
DEMO_GAME = [
    ("start", "K5 B5 O5", 3.0, False),
    ("Ann opens with 33", "K5 B5 O5 | R10 R11 R12", 4.0, False),
    ("Ben tries to open with 6", "K5 B5 O5 | R10 R11 R12 | B1 B2 B3", 4.0, False),
    ("Ben restores the table", "K5 B5 O5 | R10 R11 R12", 3.0, False),
    ("Cy opens with a group", "K5 B5 O5 | R10 R11 R12 | K13 B13 O13", 4.0, True),
    ("Ann adds R13", "K5 B5 O5 | R10 R11 R12 R13 | K13 B13 O13", 4.0, False),
    ("Ben lays B7 B8 alone", "K5 B5 O5 | R10 R11 R12 R13 | K13 B13 O13 | B7 B8", 4.0, False),
]

DEMO_SEED = 11

_INK = {"K": (30, 30, 30), "B": (170, 90, 20), "O": (0, 130, 235), "R": (30, 30, 200)}


def draw_table(table: str, size=(960, 640)) -> tuple[np.ndarray, list[dict]]:
    """A plain generated picture of ``table`` (cream tiles with coloured numbers on green
    felt) and its labels, for when ``vision.synth`` is not available."""
    import cv2

    import referee

    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (45, 105, 50)
    labels = []
    tw, th, gap = 44, 60, 4
    x, y = 40, 50
    melds = referee.parse_table(table).melds if table.strip() else []
    for m_i, meld in enumerate(melds):
        width = len(meld) * (tw + gap)
        if x + width > w - 40:
            x, y = 40, y + th + 40
        for p, t in enumerate(meld):
            x0 = x + p * (tw + gap)
            cv2.rectangle(img, (x0, y), (x0 + tw, y + th), (215, 230, 240), -1)
            cv2.rectangle(img, (x0, y), (x0 + tw, y + th), (150, 160, 170), 1)
            text = "J" if t.is_joker else str(t.number)
            ink = (30, 30, 200) if t.is_joker else _INK[str(t)[0]]
            cv2.putText(img, text, (x0 + 6, y + 38), cv2.FONT_HERSHEY_SIMPLEX, 0.9, ink, 2)
            labels.append({"tile": str(t), "confidence": 1.0, "meld": m_i, "pos": p,
                           "corners": [[x0, y], [x0 + tw, y], [x0 + tw, y + th], [x0, y + th]]})
        x += width + 30
    return img, labels


def renderer() -> tuple[Callable[[str, int], tuple[np.ndarray, Any]], str]:
    """(render(table, seed) -> (image, labels), what draws): ``vision.synth`` if present."""
    from functools import lru_cache

    try:
        from vision.synth import render_table
    except ImportError:
        return lru_cache(maxsize=32)(lambda table, seed: draw_table(table)), "drawn tiles"
    # One seed for the whole game: the same table cloth, tile edition and camera every turn.
    # Fixed camera and no per-picture photo effects: a camera over a table sees the same light
    # from one turn to the next.
    return (lru_cache(maxsize=32)(lambda table, seed: render_table(
        table, seed=DEMO_SEED, angle=2.0, tilt=0.04, tile_width=64.0, quality=False)),
            "vision.synth")


def _labels_reading(labels: Any) -> dict:
    """The reading a perfect reader would give, from a renderer's labels: ``vision.synth``'s
    ``[(tile, corners), ...]`` with ``.melds``, or this module's list of dicts."""
    if isinstance(labels, dict) and "tiles" in labels:
        return labels
    tiles = []
    by_meld: dict[int, list[int]] = {}
    for i, lab in enumerate(labels or []):
        if isinstance(lab, dict):
            tile, corners, meld = lab["tile"], lab["corners"], lab.get("meld", i)
            by_meld.setdefault(meld, []).append(i)
        else:
            tile, corners = lab[0], lab[1]
        tiles.append({"tile": str(tile), "confidence": 1.0,
                      "corners": np.asarray(corners, float).reshape(-1, 2).tolist()})
    melds = getattr(labels, "melds", None)
    if melds is None:
        melds = [by_meld[k] for k in sorted(by_meld)]
    return {"tiles": tiles, "melds": [list(m) for m in melds], "uncertain": []}


def demo_frames(fps: float = 15.0, game=DEMO_GAME, render=None) -> Iterator[np.ndarray]:
    """The demo's frames in order, with a skin-coloured arm moving between tables."""
    import cv2

    render = render or renderer()[0]
    rng = np.random.default_rng(7)
    noise = None
    prev_img = None
    for seed, (phase, table, still_s, hand) in enumerate(game):
        img, _ = render(table, seed)
        h, w = img.shape[:2]

        def arm(base, reach, x):
            out = base.copy()
            top = int(h * (1 - reach))
            cv2.rectangle(out, (x - w // 14, top + h // 20), (x + w // 14, h), (120, 160, 220), -1)
            cv2.ellipse(out, (x, top + h // 20), (w // 12, h // 14), 0, 0, 360,
                        (120, 160, 220), -1)
            return out

        if prev_img is not None:
            n = int(fps * 1.2)
            for k in range(n):
                reach = 0.3 + 0.4 * min(k, n - k) / (n / 2)
                yield arm(prev_img if k < n // 2 else img, reach, w // 2 + (k - n // 2) * 6)
            if hand:
                for k in range(int(fps * 1.5)):
                    yield arm(prev_img, 0.85, w // 4)
        if noise is None or noise[0].shape != img.shape:
            noise = [rng.integers(0, 3, img.shape, dtype=np.uint8) for _ in range(4)]
        for k in range(int(still_s * fps)):
            yield cv2.add(img, noise[k % 4])  # a little sensor noise
        prev_img = img


class _KnownTablesReader:
    """Stand-in when no trained reader can be loaded: answers with the labels of the table
    the demo drew (found by comparing the frame with the drawn tables)."""

    def __init__(self, render, game):
        self.tables = []
        for seed, (_, table, _, _) in enumerate(game):
            img, labels = render(table, seed)
            small = _small(img)
            self.tables.append((small, _labels_reading(labels)))

    def __call__(self, image):
        s = _small(image)
        best = min(self.tables, key=lambda t: float(np.abs(t[0] - s).mean()))
        return best[1]


def _small(img):
    import cv2

    return cv2.resize(img, (96, 64), interpolation=cv2.INTER_AREA).astype(np.float32)


def start_demo(app, fps: float = 15.0) -> dict:
    """Create a demo game and play :data:`DEMO_GAME` through the watcher in a thread.
    Returns {"game", "token", "url", "watcher"}."""
    from vision.sources import iter_source
    from vision.watch import Watcher, WatchConfig
    from vision.watch_cli import FlaskTransport, LiveClient

    client = app.test_client()
    r = client.post("/api/games", json={"players": PLAYERS, "device": "demo"})
    if r.status_code != 201:
        raise RuntimeError(f"could not create the demo game: {r.get_json()}")
    data = r.get_json()
    game_id, token = data["id"], data["token"]
    render, how = renderer()
    try:
        from vision.watch_cli import make_reader

        reader = make_reader()
        reader_name = "the tile reader"
    except Exception as e:  # noqa: BLE001
        reader = _KnownTablesReader(render, DEMO_GAME)
        reader_name = f"the tables as drawn (the tile reader is not available: {e})"
    sink = LiveClient(FlaskTransport(app), game_id, token, device="demo camera")
    source = iter_source(demo_frames(fps, render=render), fps=fps, name="demo footage")
    w = Watcher(source, reader, sink, WatchConfig())
    app.extensions.setdefault("rummiref_live", {}).setdefault("watchers", []).append(w)
    w.start()
    url = f"/games/{game_id}/live"
    print(f"live referee demo: a generated game ({how}, read by {reader_name})", flush=True)
    return {"game": game_id, "token": token, "url": url, "watcher": w}
