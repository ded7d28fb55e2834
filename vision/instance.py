"""The instance folder rummiref keeps its data in (the scoresheet's database, calibrations):
``$RUMMIREF_INSTANCE``, else the per-user data folder. One rule for the server and the command
line (standard library only)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def default_instance() -> Path:
    """``$RUMMIREF_INSTANCE``, else the per-user data folder of this system."""
    env = os.environ.get("RUMMIREF_INSTANCE")
    if env:
        return Path(env).expanduser().resolve()
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return (base / "rummiref").resolve()
