"""Times as the API writes them: ISO 8601 in UTC with milliseconds and a ``Z``."""

from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Optional


def iso(dt: Optional[datetime]) -> Optional[str]:
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def iso_ms(ms: Optional[int]) -> Optional[str]:
    return None if ms is None else iso(datetime.fromtimestamp(ms / 1000, timezone.utc))


def now_ms() -> int:
    return int(time.time() * 1000)
