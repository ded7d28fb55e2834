"""When a game is over: the target chosen at the start (points or rounds), reached or not, and
who won. Worked out from the totals every time, so an edited or undone round moves the end too.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from .models import TARGET_KINDS

#: The largest target of each kind a game takes.
TARGET_MAX = {"points": 100_000, "rounds": 1_000}


def target_json(kind: Optional[str], value: Optional[int]) -> Optional[dict[str, Any]]:
    if kind not in TARGET_KINDS or not value:
        return None
    return {"kind": kind, "value": int(value)}


def end_of(kind: Optional[str], value: Optional[int], totals: Mapping[str, int],
           rounds: int) -> dict[str, Any]:
    """``{"over": bool, "winners": [...]}``: a points game is over once a total reaches the
    target, a rounds game once that many rounds are played; the highest total wins (a tie
    shares the win). A game without a target is never over."""
    target = target_json(kind, value)
    over = False
    if target and rounds and totals:
        best = max(totals.values())
        over = best >= target["value"] if kind == "points" else rounds >= target["value"]
    winners: list[str] = []
    if over:
        best = max(totals.values())
        winners = [name for name, total in totals.items() if total == best]
    return {"over": over, "winners": winners}


def parse_target(raw: Any, invalid) -> tuple[Optional[str], Optional[int]]:
    """``{"kind": "points", "value": 200}`` (or None: no target) as stored; ``invalid(message)``
    makes the error to raise for anything else."""
    example = '{"kind": "points", "value": 200} or {"kind": "rounds", "value": 8}'
    if raw is None:
        return None, None
    if not isinstance(raw, dict) or set(raw) != {"kind", "value"}:
        return _refuse(invalid, f'"target" is {example}, or null for a game without an end')
    kind, value = raw["kind"], raw["value"]
    if kind not in TARGET_KINDS:
        return _refuse(invalid, f'a target\'s "kind" is "points" or "rounds", like {example}')
    if isinstance(value, bool) or not isinstance(value, int) or \
            not 1 <= value <= TARGET_MAX[kind]:
        return _refuse(invalid, f"a game is played to 1 to {TARGET_MAX[kind]} {kind}: give a "
                                f"whole number")
    return kind, value


def _refuse(invalid, message: str):
    raise invalid(message)
