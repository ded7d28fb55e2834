"""A scripted game of six turns, rendered as camera frames with the colour-coded test double:
arms reaching in, a hand resting over the table, misread frames."""

from __future__ import annotations

from tests.vision.fakes import render_coded

#: (what happens, table after it, seconds still afterwards, arm over the table meanwhile?)
GAME = [
    # start: the table before the first turn
    ("start", "", 1.5, False),
    # Ann opens with 33 points: valid
    ("ann-opens", "R10 R11 R12", 1.5, False),
    # Ben tries to open with 6 points: invalid (initial meld too low)
    ("ben-fails", "R10 R11 R12 | K1 K2 K3", 1.5, False),
    # Ben takes his tiles back: the table is restored (not a turn)
    ("ben-restores", "R10 R11 R12", 1.5, False),
    # Cy reaches over the table, rests her hand on the run, then lays a group: valid opening
    ("cy-opens", "R10 R11 R12 | K13 B13 O13", 1.5, True),
    # Ann adds R13 to the run: valid
    ("ann-adds", "R10 R11 R12 R13 | K13 B13 O13", 1.5, False),
    # Ben lays B5 B6 on their own: invalid meld
    ("ben-invalid", "R10 R11 R12 R13 | K13 B13 O13 | B5 B6", 1.5, False),
]


def game_frames(fps: float = 10.0, game=GAME, move_s: float = 0.6, hand_rest_s: float = 1.2,
                glitch_every: int = 0):
    """Yield (t, frame, phase) for the scripted game at ``fps``: between tables, an arm moves
    in and out for ``move_s`` seconds (the table changes while it is there); in phases marked
    with a hand, the arm also rests still over the table for ``hand_rest_s`` first.
    ``glitch_every``: every n-th still frame has a tile drawn wrongly (a misread frame)."""
    t, i, prev = 0.0, 0, ""
    dt = 1.0 / fps
    for phase, table, still_s, hand in game:
        if phase != "start":
            n = max(2, round(move_s * fps))
            for k in range(n):  # reaching in and out: the arm moves each frame
                reach = 0.25 + 0.35 * (k / (n - 1) if k < n // 2 else (n - 1 - k) / (n - 1))
                yield t, render_coded(prev if k < n // 2 else table, seed=i, arm=reach), phase
                t += dt
                i += 1
            if hand:
                for k in range(round(hand_rest_s * fps)):  # the hand rests, covering tiles
                    yield t, render_coded(prev, seed=i, arm=0.88), phase
                    t += dt
                    i += 1
                for k in range(n):
                    yield t, render_coded(table, seed=i, arm=0.3 + 0.02 * k), phase
                    t += dt
                    i += 1
        for k in range(round(still_s * fps)):
            glitch = None
            if glitch_every and k % glitch_every == 1 and table:
                first = table.split()[0]
                glitch = {first: "K7" if first != "K7" else "K8"}
            yield t, render_coded(table, seed=i, glitch=glitch), phase
            t += dt
            i += 1
        prev = table
