"""`rummiref watch` on the camera computer: a --server or --game it can never use is said at
once, on one line (exit 2), before any camera, model or server is touched."""

from __future__ import annotations

import pytest

from referee.cli import main as rummiref


@pytest.mark.parametrize("option, value, says", [
    ("--server", "not a url", "is not a web address"),          # was a urllib traceback
    ("--server", "http://[::1", "is not a web address"),        # was a urlsplit traceback
    ("--server", "club:5000", "is not a web address"),          # no http://: a traceback
    ("--server", "http://club:abc", "is not a web address"),
    ("--game", "../x", "is not a game id"),                     # went into the URL's path
])
def test_watch_refuses_a_server_or_game_it_cannot_use(tmp_path, capsys, option, value, says):
    args = {"--server": "http://127.0.0.1:5000", "--game": "abc", option: value}
    code = rummiref(["watch", "--camera", str(tmp_path), "--token", "t",
                     "--server", args["--server"], "--game", args["--game"]])
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err, err
    assert err.count("\n") == 1
