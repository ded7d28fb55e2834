"""The README's examples are run, so they cannot drift from what rummiref really prints."""

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README should show the referee in Python"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README block {i}", str(README), 0)
        runner.run(test)
    assert runner.failures == 0


def test_ci_runs_the_readme_test_command():
    lines = [l[6:] for l in README.read_text(encoding="utf-8").splitlines() if l.startswith("    $ ")]
    assert len(lines) == 2, "the README's set-up is exactly two commands"
    assert "pytest" in lines[1] and "serve" in lines[0]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "sed -n 2p" in ci and "README.md" in ci
