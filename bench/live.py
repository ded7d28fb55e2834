"""Live referee figures: frames processed per second, CPU use, and the delay from the table
going still to the verdict reaching a phone.

    python bench/live.py [--seconds-still 2.5] [--turns 4] [--fps 30]

A generated game (webapp.live.demo's frames) is played by a paced 30 fps source into the watcher
(sampling 10/s) in its own thread, posting over HTTP to a real server (waitress, in a thread);
a "phone" listens on the game's event stream (SSE). Measured:

* sampling: frames the camera delivered, frames the watcher looked at, frames skipped;
* watcher cost: milliseconds per sampled frame (shrink, motion, hands) and per frame read;
* CPU: process CPU seconds / wall seconds over the run (all threads: source, watcher, reader,
  server), in cores;
* delay: from the moment the last frame of a turn's movement was delivered (the table is
  still from then on) to the moment the phone's event stream delivered the verdict.

The reader is the real tile reader when it can be loaded, else the demo's stand-in that knows
the drawn tables (printed), so the figures then exclude reading time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fps", type=float, default=30.0, help="camera frame rate (default 30)")
    ap.add_argument("--turns", type=int, default=4, help="turns played (default 4)")
    ap.add_argument("--seconds-still", type=float, default=2.5,
                    help="seconds the table stays still after each turn (default 2.5)")
    args = ap.parse_args()

    from vision.http_sink import HttpSink
    from vision.sources import iter_source
    from vision.watch import Watcher, WatchConfig
    from webapp import create_app
    from webapp.live import demo, demo_footage as footage
    from webapp.testing import LiveServer

    tmp = tempfile.mkdtemp(prefix="rummiref-bench-live-")
    app = create_app({"INSTANCE_PATH": tmp, "SECRET_KEY": "bench",
                      "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3"})
    server = LiveServer(app)
    c = app.test_client()
    g = c.post("/api/games", json={"players": demo.PLAYERS}).get_json()
    game_id, token = g["id"], g["token"]

    game = [(p, t, args.seconds_still, h) for p, t, _, h in footage.DEMO_GAME[:args.turns + 1]]
    render, how = footage.renderer(), "vision.synth"
    try:
        from vision.reader import Reader
        reader = Reader().read
        reader_name = "vision tile reader"
    except Exception as e:  # noqa: BLE001 - no model: time the rest of the path
        reader = footage.KnownTablesReader(render, game)
        reader_name = f"stand-in reader (tile reader not available: {e})"

    # Pre-render the frames, remembering when each turn's movement ends (frame index).
    fps = args.fps
    frames, still_starts = [], []
    per_phase = []
    for i, phase in enumerate(game):
        sub = list(footage.demo_frames(fps, game=[game[max(0, i - 1)], phase] if i else [phase],
                                    render=render))
        if i:
            sub = sub[int(game[i - 1][2] * fps):]  # drop the previous table's still part
        moving = len(sub) - int(phase[2] * fps)
        still_starts.append(len(frames) + moving)
        frames.extend(sub)
        per_phase.append(phase[0])
    delivered_at: dict[int, float] = {}

    def paced():
        for k, f in enumerate(frames):
            delivered_at[k] = time.monotonic()
            yield f

    # The phone: listen to the event stream and note when each verdict arrives.
    verdict_at: list[tuple[float, dict]] = []
    stop = threading.Event()

    def phone():
        req = urllib.request.Request(f"{server.url}/api/games/{game_id}/events",
                                     headers={"Accept": "text/event-stream"})
        with urllib.request.urlopen(req, timeout=60) as r:
            event = None
            for raw in r:
                if stop.is_set():
                    return
                line = raw.decode().rstrip("\n")
                if line.startswith("event:"):
                    event = line.split(":", 1)[1].strip()
                elif line.startswith("data:") and event == "live-turn":
                    verdict_at.append((time.monotonic(), json.loads(line[5:])))

    threading.Thread(target=phone, daemon=True).start()
    time.sleep(0.5)
    sink = HttpSink(server.url, game_id, token, device="bench camera")
    source = iter_source(paced(), fps=fps, name="bench footage")
    w = Watcher(source, reader, sink, WatchConfig())
    cpu0, wall0 = os.times(), time.monotonic()
    w.start()
    w.join(len(frames) / fps + 60)
    sink.flush(30)
    wall = time.monotonic() - wall0
    cpu1 = os.times()
    time.sleep(0.5)
    stop.set()
    cpu = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)

    delays = []
    for i, start in enumerate(still_starts):
        t_still = delivered_at.get(start)
        if t_still is None or i >= len(verdict_at):
            continue
        got = [t for t, d in verdict_at if t >= t_still]
        if got:
            delays.append(got[0] - t_still)
    print(f"command: python bench/live.py --fps {fps:g} --turns {args.turns} "
          f"--seconds-still {args.seconds_still:g}")
    print(f"frames: {how}, {frames[0].shape[1]}x{frames[0].shape[0]}; reader: {reader_name}")
    print(f"camera frames delivered: {source.frames_read} in {wall:.1f} s "
          f"({source.frames_read / wall:.1f} fps)")
    print(f"frames sampled by the watcher: {w.stats['samples']} "
          f"({w.stats['samples'] / wall:.1f} per s); skipped (never queued): "
          f"{source.buffer.dropped}")
    print(f"watcher time per sampled frame (reading and posting included): "
          f"{1000 * w.stats['sample_seconds'] / max(1, w.stats['samples']):.1f} ms; "
          f"frames read: {w.stats['reads']} "
          f"({1000 * w.stats['read_seconds'] / max(1, w.stats['reads']):.1f} ms each)")
    print(f"CPU: {cpu:.1f} s over {wall:.1f} s = {cpu / wall:.2f} cores (of {os.cpu_count()})")
    print(f"snapshots posted: {w.stats['snapshots']}; verdict events on the phone: "
          f"{len(verdict_at)} ({', '.join(d.get('result', '?') for _, d in verdict_at)})")
    if delays:
        ds = sorted(delays)
        print(f"table still -> verdict on the phone: median {ds[len(ds) // 2]:.2f} s, "
              f"max {ds[-1]:.2f} s over {len(ds)} turns (start included)")
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
