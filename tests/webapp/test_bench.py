"""bench/web.py still runs: a short load against a real server, no errors, rounds seen over SSE.
(The 30-second figures come from running the script itself; see its docstring.)"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO


def test_bench_runs_briefly_without_errors():
    r = subprocess.run([sys.executable, "bench/web.py", "--clients", "4", "--duration", "2",
                        "--json"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["errors"] == 0 and out["requests"] > 10
    assert out["latency_ms"]["POST round"]["n"] > 0 and out["latency_ms"]["GET game"]["n"] > 0
    assert out["sse"]["rounds_seen"] > 0
