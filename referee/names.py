"""What makes two names one player, wherever names are compared: the scoresheet, the live
table and the ``rummiref score`` command."""

from __future__ import annotations

import unicodedata


def name_key(name: str) -> str:
    """What makes two names one player: compatibility forms (full-width letters, ligatures),
    case and runs of spaces do not count. The web app stores it for each player
    (``players.name_key``; migration 0002 wrote it for the names stored before), so it must
    not change."""
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    return unicodedata.normalize("NFKC", text.casefold())
