"""The live referee on the scoresheet server: a watcher's snapshots in, verdicts out to phones.

The path of a frame: a camera's frames go to a watcher (``vision.watch``), which hands a
``vision.snapshot.Snapshot`` (its ``vision.Reading`` and picture) to a sink: an HTTP sink on a
camera computer of its own (``rummiref watch``), or the in-process sink (:mod:`.camera`) for
``rummiref serve --camera`` / ``--demo``. Both end in :func:`.snapshots.receive`, which stores
the snapshot and lets the round's ``referee.TurnLog`` (kept by :mod:`.store`) decide; the phones
hear of it through the game's event stream (``live-turn``, ``live-status``, ``live-fix`` and
``live-reset`` events).

JSON under ``/api/games/<id>/live`` (:mod:`.routes`; changes need the game's edit token):

``GET  .../live``                    the live state: camera, whose turn, last verdict, table
``POST .../live/snapshots``          (watcher) a snapshot: {reading, picture, reason, end_turn,
                                     still_for, frames}, with an ``Idempotency-Key``
``POST .../live/status``             (watcher) its state: connecting/live/stalled/...
``POST .../live/end-turn``           (phone) "End turn": the watcher reads the table now
``POST .../live/reset``              (phone) a new round: forget the table, start again
``POST .../live/next-player``        (phone) whose turn it is now {player}
``GET  .../live/turns``              the turn log
``GET  .../live/turns/<n>``          one turn, with the dispute view's data
``POST .../live/turns/<n>/correct``  fix a misread tile {side, index, tile}; every turn judged again
``POST .../live/turns/<n>/declare``  what a meld's jokers stand for {side, meld, tiles}; judged again
``GET  .../live/snapshots/<id>.jpg`` the picture; ``?annotated=1`` drawn by ``vision.annotate``
``POST .../live/hint``               (any phone) a rack {rack, player} -> the best play as steps
``POST .../live/rack-photo``         (phone) a photo of a rack -> its tiles and their value

Pages (:mod:`.pages`): ``/games/<id>/live``, ``/games/<id>/live/log`` and
``/games/<id>/live/turns/<n>``; ``/games/<id>/live/panel`` is the live page's verdict and
picture alone, which the page fetches again when something changes.
"""

from __future__ import annotations

__all__ = ["init_app"]


def init_app(app, *, pages: bool = True) -> None:
    """Register the live referee's routes (and its pages, with ``pages``)."""
    from . import pages as live_pages
    from . import routes

    app.extensions.setdefault("rummiref_live", {"reader": None, "watchers": []})
    if "live_api" not in app.blueprints:
        app.register_blueprint(routes.bp)
    if pages and "live" not in app.blueprints:
        app.register_blueprint(live_pages.bp)

