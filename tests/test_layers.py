"""The layers stay apart (import-linter's contracts in pyproject.toml): ``referee`` imports
neither ``vision`` nor ``webapp``, and ``vision`` never imports ``webapp``."""

from pathlib import Path

from importlinter import cli

REPO = Path(__file__).resolve().parent.parent


def test_the_import_contracts_hold(monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    code = cli.lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "2 kept, 0 broken" in out
