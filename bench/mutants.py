"""Mutation testing, one package's module at a time, with mutmut (the `mutation` extra).

mutmut changes the code one small thing at a time (a ``>`` into ``>=``, a constant, a call
dropped) and runs the tests that reach the changed function; a change no test notices (a
*survivor*) is a behaviour nothing checks. Each target below names the files to change and
the tests that should notice, so a run takes minutes on two cores, not hours:

    .venv/bin/python bench/mutants.py referee-turns            # or any target below, or all
    .venv/bin/python bench/mutants.py reader-steps --children 2 --functions '*_drop_odd_sizes*'

The run happens in a scratch copy (``--workdir``, default a folder under the system's
temporary directory), never in the checkout. It prints the count per outcome and each
survivor with its diff (``--diffs``).
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

#: target -> (files mutated, tests run, mutant name patterns (mutmut's naming:
#: ``module.x_function__mutmut_N``; empty: every function of those files)).
TARGETS: dict[str, tuple[list[str], list[str], list[str]]] = {
    "referee-turns": (
        ["referee/turns.py"],
        ["tests/referee/test_turns.py", "tests/referee/test_turn_boundaries.py",
         "tests/referee/test_joker_exchange.py", "tests/referee/test_joker_new_set.py",
         "tests/referee/test_joker_melds.py", "tests/referee/test_joker_readings.py",
         "tests/referee/test_turnlog.py", "tests/referee/test_cases_referee.py",
         "tests/referee/test_verdict_words_and_storage.py", "tests/referee/test_cli.py",
         "tests/referee/test_initial_meld.py", "tests/referee/test_as_laid_turns.py",
         # a property test of corrected logs: 9 s a mutant, and the tests above reach the
         # same lines
         "--deselect", "tests/referee/test_turnlog.py::"
         "test_a_corrected_log_replays_to_what_a_fresh_log_fed_the_corrected_tables_says"],
        []),
    # the notation and the rules of one meld: tiles, melds, tables, the presets, the
    # violation codes and the words of the messages
    "referee-notation": (
        ["referee/tiles.py", "referee/melds.py", "referee/rules.py", "referee/words.py",
         "referee/codes.py"],
        ["tests/referee/test_notation.py", "tests/referee/test_melds.py",
         "tests/referee/test_joker_melds.py", "tests/referee/test_joker_readings.py",
         "tests/referee/test_presets.py", "tests/referee/test_verdict_words_and_storage.py",
         "tests/referee/test_cases_referee.py", "tests/referee/test_scoring.py",
         "tests/referee/test_cli.py"],
        []),
    # the end of a round: racks paid, the winner collects; and what changed between tables
    "referee-scoring": (
        ["referee/scoring.py", "referee/changes.py"],
        ["tests/referee/test_scoring.py", "tests/referee/test_presets.py",
         "tests/referee/test_cli.py", "tests/referee/test_changes.py"],
        []),
    # the joker rules of a turn, judged over every account of where each tile went
    "referee-accounts": (
        ["referee/accounts.py"],
        ["tests/referee/test_joker_exchange.py", "tests/referee/test_joker_new_set.py",
         "tests/referee/test_joker_readings.py", "tests/referee/test_joker_melds.py",
         "tests/referee/test_turns.py", "tests/referee/test_cases_referee.py",
         "tests/referee/test_verdict_words_and_storage.py",
         "tests/referee/test_joker_messages.py",
         "tests/referee/test_joker_accounts_without_reasons.py",
         # the judge's cuts (_replaceable, _apart), held to the whole search
         "tests/referee/test_joker_accounts_cut.py"],
        []),
    # the live referee's log: whose turn, who opened, corrections judged again, stored
    "referee-turnlog": (
        ["referee/turnlog.py"],
        ["tests/referee/test_turnlog.py", "tests/referee/test_turnlog_judging_again.py",
         "tests/referee/test_turnlog_stored_without_state.py",
         # the property test of corrected logs (9 s a mutant): the tests beside it reach the
         # same lines
         "-k", "not corrected_log_replays"],
        []),
    # the exact search and what is built on it directly: arrangements, the one-player
    # puzzle, the initial meld
    "referee-search": (
        ["referee/search.py", "referee/meld_build.py", "referee/solver.py",
         "referee/opening.py"],
        ["tests/referee/test_solver.py", "tests/referee/test_cases_solver.py",
         "tests/referee/test_solver_properties.py", "tests/referee/test_cli.py",
         "tests/referee/test_opening.py", "tests/referee/test_search_floor.py",
         "tests/referee/test_search_shared_moves.py", "tests/referee/test_search_four_runs.py"],
        []),
    # the search's hot methods (`_Search.value`, `alive`: every state of every solve goes
    # through them, and through mutmut's trampoline with them): referee-search's tests
    # without the command line's (test_cli.py: the same arrange and hint calls, printed),
    # to spend the time on more mutants
    "referee-search-hot": (
        ["referee/search.py"],
        ["tests/referee/test_solver.py", "tests/referee/test_cases_solver.py",
         "tests/referee/test_solver_properties.py", "tests/referee/test_opening.py",
         "tests/referee/test_search_shared_moves.py"],
        ["referee.search.x\u01c1_Search\u01c1value*", "referee.search.x\u01c1_Search\u01c1alive*"]),
    # hints: the best legal turn, with freed jokers laid in new sets
    "referee-hints": (
        ["referee/hints.py", "referee/declared.py", "referee/joker_hints.py", "referee/joker_places.py",
         "referee/joker_bounds.py", "referee/joker_sets.py", "referee/move.py",
         "referee/newsets.py", "referee/matching.py"],
        ["tests/referee/test_hints.py", "tests/referee/test_newsets.py",
         "tests/referee/test_hints_declared.py", "tests/referee/test_hints_declared_brute.py",
         "tests/referee/test_matching.py",
         "tests/referee/test_solver.py", "tests/referee/test_cli.py",
         "tests/referee/test_opening.py"],
        []),
    # the hint search's freed jokers: their places, bounds, new sets and the proof that a
    # pattern cannot beat the best (joker_hints, joker_places, joker_meeting, joker_bounds,
    # joker_sets, joker_proof), with the tests that reach them (found by coverage's per-test contexts;
    # the slow property tests stay out); narrow a run with --functions, one module at a time
    "referee-joker-hints": (
        ["referee/joker_proof.py", "referee/joker_sets.py", "referee/joker_bounds.py",
         "referee/joker_places.py", "referee/joker_meeting.py", "referee/joker_hints.py"],
        ["tests/referee/test_joker_proof.py", "tests/referee/test_joker_merges.py",
         "tests/referee/test_joker_third_copies.py", "tests/referee/test_hints.py",
         "tests/referee/test_joker_two_new_sets.py", "tests/referee/test_joker_bounds.py",
         "tests/referee/test_joker_places.py", "tests/referee/test_joker_bounds_remembered.py",
         "tests/referee/test_joker_bounds_before_any_turn.py",
         "tests/referee/test_joker_bounds_stays.py", "tests/referee/test_joker_bounds_rack_joker.py",
         "tests/referee/test_joker_sets_deferred.py", "tests/referee/test_joker_set_sources.py",
         "tests/referee/test_joker_meeting_places.py", "tests/referee/test_joker_hints_first_best.py",
         "tests/referee/test_joker_places_listed.py", "tests/referee/test_joker_proof_caps.py",
         "tests/referee/test_joker_proof_thirds.py", "tests/referee/test_joker_proof_copies.py",
         "tests/referee/test_joker_two_sets_stop.py",
         "tests/referee/test_joker_proof_known_failure.py",
         "tests/referee/test_joker_meld_with_both_jokers.py",
         "tests/referee/test_solver.py::test_every_hint_is_a_legal_turn_under_its_preset",
         "tests/referee/test_cases_solver.py",
         "tests/referee/test_steps.py::"
         "test_both_jokers_of_a_meld_swapped_and_laid_together_in_one_new_set"],
        []),
    # a turn told as steps a person can follow (the hint's and the dispute view's words)
    "referee-steps": (
        ["referee/steps.py"],
        ["tests/referee/test_steps.py", "tests/referee/test_cli.py",
         "tests/referee/test_solver.py::test_a_move_as_the_api_and_the_cli_send_it",
         "tests/referee/test_solver_properties.py::test_module_examples",
         "tests/referee/test_hints.py::test_the_issues_examples"],
        []),
    # the dispute view: could the tiles have been laid, and the nearest valid table
    "referee-dispute": (
        ["referee/dispute.py", "referee/nearest.py"],
        ["tests/referee/test_nearest.py", "tests/referee/test_nearest_budget.py",
         "tests/referee/test_cli.py", "tests/referee/test_turnlog.py",
         "-k", "not corrected_log_replays"],
        []),
    # the matching behind a nearest table cut short (each of its melds continues one of the
    # player's): only the tests whose search runs out of steps reach it, so its mutants need
    # not wait for every dispute test (the rest of nearest.py is under referee-dispute)
    "referee-nearest-matching": (
        ["referee/nearest.py"],
        ["tests/referee/test_nearest.py", "-k",
         "best_assignment or cut_short or too_hard or out_of_steps"],
        ["referee.nearest.x_best_assignment*", "referee.nearest.x\u01c1_Search\u01c1matched*"]),
    # the reader's steps after the networks: duplicates, odd sizes, 6 or 9, melds, sanity,
    # the order tiles are listed in
    "reader-steps": (
        ["vision/reader.py", "vision/melds.py", "vision/order.py"],
        ["tests/vision/test_reader_safeguards.py", "tests/vision/test_reader.py",
         "tests/vision/test_meld_grouping.py", "tests/vision/test_rack_reader.py",
         "tests/vision/test_reading_order.py",
         # the reader given another finder (the file's YOLO model test stays out: -k)
         "tests/vision/test_yolo_finder.py",
         "-k", "safeguards or meld_grouping or group_melds or sanity_check or six_or_nine "
               "or doubtful or upside_down or flip_corners or slanted or closeups or close_up "
               "or finders_threshold or another_finder or reading_order"],
        ["vision.reader.x__suppress_duplicates*", "vision.reader.x__drop_straddling*",
         "vision.reader.x__drop_odd_sizes*",
         "vision.reader.x__area*", "vision.reader.x__six_or_nine_by_neighbours*",
         "vision.reader.x__resized*", "vision.reader.xǁReaderǁdetect*",
         "vision.melds.*", "vision.order.*"]),
    "events": (
        ["webapp/events.py"],
        ["tests/webapp/test_events_server.py",
         # a deleted game's streams hear of it and end
         "tests/webapp/test_game_end.py::"
         "test_phones_following_a_game_hear_of_its_rematch_and_its_deletion"],
        []),
}

#: what the scratch copy needs besides the files mutated
COPIED = ["referee", "vision", "webapp", "tests", "models", "pyproject.toml"]


#: appended to the scratch copy's tests/conftest.py when referee/search.py is mutated.
#: mutmut runs the stats pass in its own process and forks each mutant's test run from it, so
#: the search's process-wide caches (``_OPTIONS``, ``_STEPS``: each colour's moves, computed
#: once per process) would reach every mutant already filled by the unmutated code, and its
#: run-state tables (``_build_states``) were built at import, before any mutant is switched
#: on: the mutants of ``_options``, ``options``, ``children``, ``closings``, ``_steps``, ... would
#: then run only where a test met a situation no earlier test had, and would survive
#: unnoticed. Every test starts with empty caches and freshly built tables instead (the
#: stats pass then also ties each of those functions to every test that reaches it).
SEARCH_CACHES_RESET = '''

@pytest.fixture(autouse=True)
def _search_caches_computed_afresh():
    from referee import search as _search

    _search._OPTIONS.clear()
    _search._STEPS.clear()
    (_search._STATES, _search._TRANS, _search._CLOSABLE, _search._NEED1,
     _search._NEED2) = _search._build_states()
    yield
'''


def _toml_list(xs: list[str]) -> str:
    return "[" + ", ".join(json.dumps(x) for x in xs) + "]"


def _mutant_stem(module: str, node: ast.AST, cls: str | None) -> str:
    """mutmut's name for a function's first mutant (``module.x_f__mutmut_1``, a method:
    ``module.xǁClassǁf__mutmut_1``)."""
    name = f"x\u01c1{cls}\u01c1{node.name}" if cls else f"x_{node.name}"
    return f"{module}.{name}__mutmut_1"


def _selected(stem: str, patterns: list[str]) -> bool:
    """Does a pattern name this function (or one of its mutants, ``...__mutmut_12``)?"""
    function = stem.rsplit("__mutmut_", 1)[0]
    return any(fnmatch.fnmatchcase(stem, p) or p.rsplit("__mutmut_", 1)[0] == function
               for p in patterns)


def leave_unselected_alone(path: Path, module: str, patterns: list[str]) -> bool:
    """Mark every line of the functions of ``path`` that no pattern names with
    ``# pragma: no mutate``, in the scratch copy: mutmut then makes no mutant of them and,
    above all, no trampoline, so they run at full speed under the tests of the selected
    ones (the search's recursive ``value`` through a trampoline is many times slower, and
    deep enough to pass Python's recursion limit). True if some function is selected."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    spans, any_selected = [], False
    for node in tree.body:
        funcs = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs = [(node, None)]
        elif isinstance(node, ast.ClassDef):
            funcs = [(f, node.name) for f in node.body
                     if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for f, cls in funcs:
            if _selected(_mutant_stem(module, f, cls), patterns):
                any_selected = True
            else:
                first = min([f.lineno] + [d.lineno for d in f.decorator_list])
                spans.append((first, f.end_lineno))
    # a comment can end a line only where a token ends it (not inside a string)
    ends = {tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(source).readline)
            if tok.type in (tokenize.NEWLINE, tokenize.NL)}
    quiet = {i for a, b in spans for i in range(a, b + 1) if i in ends}
    lines = source.splitlines(keepends=True)
    for i in quiet:
        line = lines[i - 1]
        body = line.rstrip("\r\n")
        # after a comment already there too: mutmut finds the words anywhere in it
        lines[i - 1] = f"{body}  # pragma: no mutate{line[len(body):]}"
    path.write_text("".join(lines), encoding="utf-8")
    return any_selected


def prepare(workdir: Path, files: list[str], tests: list[str],
            patterns: list[str] | None = None, timeout_multiplier: float | None = None) -> None:
    """A fresh copy of the project in ``workdir`` with mutmut's settings for this target;
    with ``patterns``, only the functions they name are mutated (and only their files)."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    for name in COPIED:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, workdir / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.pyc", "*.sqlite3", "*.egg-info"))
        else:
            shutil.copy2(src, workdir / name)
    if patterns:
        chosen = [f for f in files if leave_unselected_alone(
            workdir / f, f[:-3].replace("/", "."), patterns)]
        files = chosen or files
    # mutmut's trampolines add three frames to every call of a mutated function: the
    # search's recursion (one call per colour and number, 400 deep for numbers to 100)
    # needs room
    with open(workdir / "tests" / "conftest.py", "a", encoding="utf-8") as f:
        f.write("\nimport sys as _sys\n\n_sys.setrecursionlimit(20_000)\n")
        if "referee/search.py" in files:
            f.write(SEARCH_CACHES_RESET)
    packages = sorted({f.split("/")[0] for f in files})
    # models/ beside the package copies, where vision finds them
    extra = ["models"] + [p for p in ("referee", "vision", "webapp") if p not in packages]
    with open(workdir / "pyproject.toml", "a", encoding="utf-8") as f:
        f.write("\n[tool.mutmut]\n"
                f"source_paths = {_toml_list(packages)}\n"
                f"only_mutate = {_toml_list(files)}\n"
                f"also_copy = {_toml_list(extra)}\n"
                f"pytest_add_cli_args_test_selection = {_toml_list(tests)}\n"
                'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q"]\n'
                "use_git_change_detection = false\n")
        if timeout_multiplier is not None:
            f.write(f"timeout_multiplier = {timeout_multiplier}\n")


def counts(workdir: Path, venv_bin: Path) -> tuple[dict[str, int], list[str]]:
    out = subprocess.run([str(venv_bin / "mutmut"), "results", "--all", "true"], cwd=workdir,
                         capture_output=True, text=True).stdout
    tally: dict[str, int] = {}
    survivors = []
    for line in out.splitlines():
        if ":" not in line:
            continue
        name, status = (s.strip() for s in line.rsplit(":", 1))
        tally[status] = tally.get(status, 0) + 1
        if status == "survived":
            survivors.append(name)
    return tally, survivors


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target", choices=[*TARGETS, "all"])
    ap.add_argument("--children", type=int, default=2, help="test processes at once (2)")
    ap.add_argument("--functions", nargs="*", default=None,
                    help="mutant name patterns (default: the target's); only the functions "
                         "they name are mutated, the others run at full speed")
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--diffs", action="store_true", help="print each survivor's change")
    ap.add_argument("--timeout-multiplier", type=float, default=None,
                    help="mutmut's timeout_multiplier (default 15): a mutant is stopped after "
                         "2 x multiplier x (its tests' time + 1 s) of CPU time; a loop that never "
                         "ends (the assignment's `while True`) then costs minutes unless lowered")
    args = ap.parse_args(argv)
    venv_bin = Path(sys.executable).parent
    if not (venv_bin / "mutmut").exists():
        sys.exit("mutmut is not installed: pip install -c constraints.txt -e '.[mutation]'")
    status = 0
    for target in (list(TARGETS) if args.target == "all" else [args.target]):
        files, tests, patterns = TARGETS[target]
        workdir = args.workdir or Path(tempfile.gettempdir()) / f"rummiref-mutants-{target}"
        if args.target == "all" and args.workdir:
            workdir = args.workdir / target
        names = args.functions if args.functions is not None else patterns
        prepare(workdir, files, tests, names, args.timeout_multiplier)
        # the copy is not beside ../shared: point the tests at the checkout's
        from tests.conftest import SHARED

        env = {**os.environ, "PATH": f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}",
               "RUMMIREF_SHARED": str(SHARED)}
        cmd = [str(venv_bin / "mutmut"), "run", "--max-children", str(args.children), *names]
        print(f"== {target}: {' '.join(files)}; tests: {' '.join(tests)}", flush=True)
        run = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout[-3000:], run.stderr[-3000:], sep="\n")
            status = 1
            continue
        tally, survivors = counts(workdir, venv_bin)
        print(f"{target}: {sum(tally.values())} mutants: "
              + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
        for name in survivors:
            print("  survived:", name)
            if args.diffs:
                diff = subprocess.run([str(venv_bin / "mutmut"), "show", name], cwd=workdir,
                                      capture_output=True, text=True).stdout
                print("    " + diff.strip().replace("\n", "\n    "))
    return status


if __name__ == "__main__":
    sys.exit(main())
