"""The referee's command line: exit codes, text for people, JSON for programs."""

import json
import subprocess
import sys


from referee.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_valid_invalid_and_bad_input(capsys):
    code, out, _ = run(capsys, "check", "R7 R8 J R10 | K5 B5 O5")
    assert code == 0 and "Valid: 2 melds" in out
    code, out, _ = run(capsys, "check", "R7 R8 R9 | K5 B5")
    assert code == 1 and "BAD  K5 B5: a meld needs at least 3 tiles" in out
    assert "No valid arrangement" in out
    code, out, err = run(capsys, "check", "R7 R8 R14")
    assert code == 2 and "R14" in err and out == ""


def test_check_suggests_a_valid_arrangement_of_the_same_tiles(capsys):
    code, out, _ = run(capsys, "check", "R7 R8 | R9 K5 | B5 O5", "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False
    assert data["valid_arrangement"] is not None
    assert sorted(data["valid_arrangement"].replace("|", " ").split()) == \
        sorted("R7 R8 R9 K5 B5 O5".split())


def test_arrange(capsys):
    code, out, _ = run(capsys, "arrange", "R7 R8 R9 K5 B5 O5 J", "--json")
    data = json.loads(out)
    assert code == 0 and data["arrangeable"]
    code, out, _ = run(capsys, "arrange", "R7 R8 K1")
    assert code == 1 and out.startswith("No")


def test_hint(capsys):
    code, out, _ = run(capsys, "hint", "--table", "R3 R4 R5", "--rack", "R6 K1 K2 K9", "--json")
    data = json.loads(out)
    assert code == 0 and [str(t) for t in data["placed"]] == ["R6"]
    code, out, _ = run(capsys, "hint", "--table", "", "--rack", "R1 R2 R3", "--not-opened")
    assert "No tile can be played" in out        # 6 points do not open


def test_a_hint_cut_short_says_a_better_play_may_exist(capsys, monkeypatch):
    """A hint the search did not prove best (``Move.exact`` False: its time ran out) must
    not read as the best play, nor its draw as "no tile can be played". The moves are real
    hints, marked unproven as a search cut short marks them (tests/referee/test_hints.py
    shows ``cpu_limit=0`` doing so); the CLI's words are what is tested here."""
    from dataclasses import replace

    import referee.cli
    from referee import best_move

    def unproven(*args, **kwargs):
        return replace(best_move(*args, **kwargs), exact=False)

    # 003: R1 R2 may "add to a set": the low end of R3 R4 J
    table, rack = "R3 R4 J | K9 B9 O9", "R1 R2"
    code, out, _ = run(capsys, "hint", "--table", table, "--rack", rack, "--rules", "sabra")
    assert out.startswith("Play R1 R2 (2 tiles):") and "better one" not in out
    monkeypatch.setattr(referee.cli, "best_move", unproven)
    code, out, _ = run(capsys, "hint", "--table", table, "--rack", rack, "--rules", "sabra")
    assert code == 0 and out.startswith("Play R1 R2 (2 tiles):")
    assert out.rstrip().endswith("The best play found in the time allowed; a better one may exist.")
    code, out, _ = run(capsys, "hint", "--table", table, "--rack", "K1", "--rules", "sabra")
    assert out.strip() == "No play found in the time allowed: draw a tile (a play may still exist)."


def test_turn_and_score(capsys):
    code, out, _ = run(capsys, "turn", "--before", "R3 R4 R5", "--after", "R3 R4 R5 R6",
                       "--rack", "K1")
    assert code == 1 and "R6 was added to the table but is not on the player's rack" in out
    code, out, _ = run(capsys, "score", "--winner", "Ann", "Ann=0", "Ben=R5 K13 J", "Cy=12", "--json")
    assert code == 0 and json.loads(out)["scores"] == {"Ann": 60, "Ben": -48, "Cy": -12}
    code, out, err = run(capsys, "score", "--nobody", "Ann=3", "Ben=-4")
    assert code == 2 and "cannot be worth -4" in err
    code, out, err = run(capsys, "score", "--winner", "Ann", "Ann", "Ben=3")
    assert code == 2 and "NAME=RACK" in err


def test_unknown_preset_is_bad_input(capsys):
    code, _, err = run(capsys, "check", "R1 R2 R3", "--rules", "klingon")
    assert code == 2 and "unknown rule preset 'klingon'" in err and "sabra" in err


def test_presets_lists_every_preset(capsys):
    code, out, _ = run(capsys, "presets", "--json")
    assert code == 0 and {"pressman-1998", "sabra", "sabra-way", "tournament"} <= set(json.loads(out))


def test_console_script_is_installed():
    out = subprocess.run([sys.executable, "-m", "referee", "check", "-"], input="K1 K2 K3\nB5 O5 R5",
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Valid: 2 melds" in out.stdout


def test_hint_prints_steps(capsys):
    code, out, _ = run(capsys, "hint", "--table", "R4 J R6 | B6 B7 B8 B9 B10", "--rack",
                       "R5 K9 B9 B8", "--rules", "pressman-1998")
    assert code == 0
    assert "1. Swap the joker in R4 J R6 for your R5, then lay it with K9 B9." in out
    assert "Split B6…B10 at B8." in out
    code, out, _ = run(capsys, "hint", "--table", "R3 R4 R5", "--rack", "R6", "--json")
    assert json.loads(out)["steps"][0]["text"] == "add R6 to R3 R4 R5"


def test_score_refuses_a_winner_who_is_not_playing(capsys):
    code, out, err = run(capsys, "score", "--winner", "Dan", "Ann=0", "Ben=5")
    assert code == 2 and out == ""
    assert "the winner 'Dan' is not one of the players given (Ann, Ben)" in err
    # the winner given with the others is scored as before
    code, out, _ = run(capsys, "score", "--winner", "Ann", "Ann=0", "Ben=5", "--json")
    assert code == 0 and json.loads(out)["scores"] == {"Ann": 5, "Ben": -5}


def test_score_names_a_player_given_twice(capsys):
    code, out, err = run(capsys, "score", "--winner", "Ann", "Ann=0", "Ann=5")
    assert code == 2 and out == ""
    assert "'Ann' is given twice (Ann=0 and Ann=5)" in err
    assert "at least two players" not in err


def test_json_errors_are_json(capsys):
    # a referee error, a notation error (with the token), a missing argument: each one JSON
    # object on standard output, exit 2, nothing on standard error
    for argv, says in [
        (["score", "--winner", "Dan", "Ann=0", "Ben=5", "--json"], "not one of the players"),
        (["check", "R1 R2 X5", "--json"], "'X' is not a colour"),
        (["score", "--winner", "Ann", "--json"], "required: NAME=RACK"),
        (["check", "R1 R2 R3", "--rules", "klingon", "--json"], "unknown rule preset"),
    ]:
        code, out, err = run(capsys, *argv)
        data = json.loads(out)
        assert code == 2 and err == "", argv
        assert data["exit"] == 2 and says in data["error"], data
    code, out, _ = run(capsys, "check", "R1 X5", "--json")
    assert json.loads(out)["token"] == "X5"


def test_counts_are_singular_and_plural(capsys):
    code, out, _ = run(capsys, "arrange", "R7")
    assert code == 1 and out.strip() == "No: 1 tile cannot be laid as a valid meld."
    code, out, _ = run(capsys, "arrange", "R7 K2")
    assert out.strip() == "No: 2 tiles cannot all be laid as valid melds."
    code, out, _ = run(capsys, "check", "R1 R2 R3")
    assert "Valid: 1 meld under" in out and "(s)" not in out
    code, out, _ = run(capsys, "check", "R1 R2 | K1 K2 K3")
    assert "Not valid: 1 of 2 melds breaks the rules." in out
    code, out, _ = run(capsys, "hint", "--table", "R3 R4 R5", "--rack", "R6 K9")
    assert out.startswith("Play R6 (1 tile):")
    code, _, err = run(capsys, "score", "--winner", "Ann", "Ann=1", "Ben=3")
    assert "(it was given as 1 point)" in err


def test_a_huge_bad_token_is_quoted_by_its_start(capsys, monkeypatch):
    import io

    junk = "Z" * 1_000_000
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"K5 K6 {junk}"))
    code, out, err = run(capsys, "check", "-")
    assert code == 2 and out == ""
    assert len(err) < 300 and "'ZZZZ" in err and "999976 more characters" in err
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"K5 K6 {junk}"))
    code, out, _ = run(capsys, "check", "-", "--json")
    data = json.loads(out)
    assert len(out) < 400 and len(data["token"]) <= 40
    # a number thousands of digits long is a tile number out of range, not a crash
    monkeypatch.setattr(sys, "stdin", io.StringIO("K5 K6 R" + "9" * 5000))
    code, _, err = run(capsys, "check", "-")
    assert code == 2 and "tile numbers run from 1 to 13" in err and len(err) < 300


def test_check_says_1_cannot_follow_13(capsys):
    code, out, _ = run(capsys, "check", "K13 K1 K2")
    assert code == 1 and "K1 cannot follow K13" in out and "missing" not in out


def test_hint_retrieves_a_joker_under_every_preset(capsys):
    # R5 takes the joker's place (000: "A player with a tile matching the color and value of a
    # joker may replace the joker with that tile"), and the joker goes with K10 K11 from the
    # rack into a new set (003: "as part of a new set"; 000 and 004: two more rack tiles).
    for preset in ("sabra", "sabra-way", "pressman-1998", "tournament"):
        code, out, _ = run(capsys, "hint", "--table", "R3 R4 J | K9 B9 O9", "--rack",
                           "R5 K10 K11", "--rules", preset)
        assert code == 0 and "draw" not in out.lower(), (preset, out)
        assert "1. Swap the joker in R3 R4 J for your R5, then lay it with K10 K11." in out


def test_score_refuses_a_rack_that_only_looks_like_a_number(capsys):
    # A superscript two (a phone keyboard's long-press on 2) and a doubled sign pass
    # str.isdigit() but are no number: each is bad input (exit 2, one line), not a traceback.
    for rack in ("\u00b2", "+-5", "--5", "-+5"):
        code, out, err = run(capsys, "score", "--winner", "Ann", "Ann=0", f"Ben={rack}")
        assert code == 2 and out == "", rack
        assert err.startswith("rummiref: Ben's rack:") and err.count("\n") == 1, err
    # digits of other scripts are still whole numbers, as before
    code, out, _ = run(capsys, "score", "--winner", "Ann", "Ann=0", "Ben=\u0665", "--json")
    assert code == 0 and json.loads(out)["scores"] == {"Ann": 5, "Ben": -5}


def test_score_json_names_the_bad_token_of_a_rack(capsys):
    # README: bad input under --json carries "token", the piece of text at fault; a rack's
    # bad tile lost it on the way through the scoring error.
    code, out, _ = run(capsys, "score", "--winner", "Ann", "Ann=0", "Ben=R5 X9", "--json")
    data = json.loads(out)
    assert code == 2 and data["token"] == "X9" and "Ben's rack" in data["error"]


def test_json_output_stays_utf8_when_the_input_was_not(capsys, monkeypatch):
    # A byte that is not UTF-8 reaches Python as a lone surrogate (surrogateescape); --json
    # wrote it back as the raw byte, so the "one JSON object" was not UTF-8 and a program
    # reading it strictly failed.
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(b"R1 R2 \xff R3".decode("utf-8",
                                                                        "surrogateescape")))
    code, out, _ = run(capsys, "check", "-", "--json")
    data = json.loads(out.encode("utf-8"))
    assert code == 2 and data["token"] == "\udcff" and "is not a tile" in data["error"]


def test_score_takes_names_whatever_their_case_as_the_scoresheet_does(capsys):
    # "Ann=0 ann=5" was scored as two players (Ann +5, ann -5): one person typed twice. The
    # scoresheet refuses the same pair ("case does not count"); so does the command now.
    code, out, err = run(capsys, "score", "--winner", "Ann", "Ann=0", "ann=5", "Ben=3")
    assert code == 2 and out == ""
    assert "'ann' is given twice (Ann=0 and ann=5)" in err
    # the winner may be typed in another case: the player as given in NAME=RACK wins
    code, out, _ = run(capsys, "score", "--winner", "ann", "Ann=0", "Ben=5", "--json")
    data = json.loads(out)
    assert code == 0 and data["scores"] == {"Ann": 5, "Ben": -5} and data["winner"] == "Ann"


def test_turn_refuses_a_time_that_is_no_duration(capsys):
    # "--elapsed nan" judged every turn in time (NaN is never over the limit) and a negative
    # time was taken as given; each is bad input now, like "--elapsed abc".
    for value in ("nan", "-5", "inf"):
        code, out, err = run(capsys, "turn", "--before", "R1 R2 R3", "--after", "R1 R2 R3 R4",
                             "--rack", "R4", f"--elapsed={value}", "--json")
        assert code == 2 and "--elapsed" in json.loads(out)["error"], value
    code, out, _ = run(capsys, "turn", "--before", "R1 R2 R3", "--after", "R1 R2 R3 R4",
                       "--rack", "R4", "--elapsed=61", "--json")
    assert code == 1 and [v["code"] for v in json.loads(out)["violations"]] == ["time-exceeded"]


def test_jokers_declared_on_the_command_line(capsys):
    # a meld named by its tiles or by its place counting from 1 (001: two jokers in one set
    # "must be explicitly declared")
    code, out, _ = run(capsys, "check", "J K1 J | R5 R6 R7", "--joker", "J K1 J=R1 O1")
    assert code == 0 and "stand for R1 and O1 (as declared)" in out
    code, out, _ = run(capsys, "check", "J K1 J", "--joker", "1=K1 O1")
    assert code == 1 and "declared as K1 O1" in out
    # R1 takes a joker of J K1 J only where one stands for R1 (003)
    turn = ["turn", "--before", "J K1 J", "--after", "K1 R1 J | J R2 R3", "--rack", "R1 R2 R3"]
    assert run(capsys, *turn)[0] == 0
    code, out, _ = run(capsys, *turn, "--joker-before", "1=B1 O1")
    assert code == 1 and "a joker is taken only in exchange for the tile it stands for" in out
    assert run(capsys, *turn, "--joker-before", "J K1 J=O1 R1")[0] == 0
    code, out, _ = run(capsys, *turn, "--joker", "K1 R1 J=B1", "--json")
    assert code == 0 and json.loads(out)["declared"] == {"0": "B1"}
    # the hint keeps the declarations, and its steps name the tile declared
    code, out, _ = run(capsys, "hint", "--table", "J K1 J | R5 R6 R7", "--rack", "B1 O1 R1 R2 R3",
                       "--joker", "1=R1 O1")
    assert code == 0 and "Swap the joker in J K1 J for your O1" in out


def test_a_declaration_that_names_no_single_meld_is_bad_input(capsys):
    for table, item, why in [
            ("J K1 J", "x", "write the meld, '=' and the tiles"),
            ("J K1 J", "2=B1 O1", "the table has 1 meld, counted from 1"),
            ("J K1 J", "0=B1 O1", "the table has 1 meld, counted from 1"),
            ("J K1 J", "K1 J J=B1 O1", "no meld of the table reads K1 J J"),
            ("K5 J K7 | K5 J K7", "K5 J K7=K6", "2 melds read K5 J K7: name one by its place"),
            ("K5 J K7", "1=K6 K8", "declare one numbered tile"),
            ("K5 J K7", "²=K6", "'²' is not a tile")]:
        code, _, err = run(capsys, "check", table, "--joker", item)
        assert code == 2 and why in err, (item, err)
    code, _, err = run(capsys, "check", "K5 J K7", "--joker", "1=K6", "--joker", "K5 J K7=K6")
    assert code == 2 and "meld 1 is declared twice" in err
