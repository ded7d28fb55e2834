"""The app's tile reader, loaded once and shared by the rack photos and the camera in this
process."""

from __future__ import annotations

import threading
from typing import Callable

from vision.reading import Reading

from ..service import ServiceError

_LOCK = threading.Lock()


class ReaderUnavailable(ServiceError):
    """The tile reader cannot be loaded (no model, or the vision extra is missing)."""

    status = 503


def get_reader(app) -> Callable[..., Reading]:
    """``vision.Reader().read``, loaded on first use (a test may set its own in
    ``app.extensions["rummiref_live"]["reader"]``); ReaderUnavailable says why it cannot."""
    ext = app.extensions["rummiref_live"]
    if ext.get("reader") is None:
        with _LOCK:
            if ext.get("reader") is None:
                try:
                    from vision.reader import Reader

                    ext["reader"] = Reader().read
                except Exception as e:  # noqa: BLE001 - a missing model or extra: say which
                    raise ReaderUnavailable(
                        f"the tile reader could not be loaded ({e}); install the vision extra "
                        f"(pip install 'rummiref[vision]') and keep models/ beside it") from None
    return ext["reader"]
