"""What ``rummiref serve --camera SOURCE`` and ``rummiref serve --demo`` start: a watcher in the
server's process (:mod:`.camera`, :mod:`.demo`)."""

from __future__ import annotations

import sys
from typing import Callable, Optional

from vision.reading import Reading

from .camera import start_camera
from .demo import start_demo


def attach(app, camera: Optional[str] = None, demo: bool = False, game: Optional[str] = None,
           reader: Optional[Callable[..., Reading]] = None):
    """``rummiref serve --camera SOURCE`` / ``--demo``: start the watcher in this process.
    A camera or reader that cannot be used is reported and the scoresheet served anyway.
    Returns the watcher (the demo: its :class:`~webapp.live.demo.Demo`), or None."""
    try:
        if demo:
            return start_demo(app, reader=reader)
        if camera:
            return start_camera(app, camera, game, reader)
    except Exception as e:  # noqa: BLE001 - serve the scoresheet whatever the camera does
        print(f"rummiref: the live referee could not start: {e}. Serving the scoresheet only.",
              file=sys.stderr)
    return None
