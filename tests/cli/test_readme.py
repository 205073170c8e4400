"""The README's examples, run as they are written, so the README cannot drift from the code.

Every fenced block is read, whatever it holds:

- a shell block (```` ```sh ````, ```` ```text ````, ```` ```console ````, …) with lines that
  start ``$ `` is a terminal session: each ``$ xlgrade …`` (or ``$ python -m xlgrade …``) is run
  and what it prints, standard output and error as a terminal interleaves them, must match the
  lines shown under it up to the next ``$`` line. A line ``...`` stands for any run of lines
  (none included), so a long card can be cut. An example that shows ``Error:`` or ``usage:``
  must fail (a non-zero exit code); any other must succeed.
- a Python block with ``>>>`` prompts is a doctest (``...`` in an answer matches anything).

The examples run in the order of the README in one temporary folder holding a copy of
``examples/``, as a reader would type them in a fresh checkout: a file written by one example
is there for the next, and nothing is written into the repository.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.paths import ROOT
from xlgrade.cli import main

README = ROOT / "README.md"
COPIED = ("examples",)
"""Folders of the checkout the examples may name, copied into the examples' folder."""

SHELL_LANGUAGES = frozenset({"", "sh", "shell", "bash", "console", "shell-session", "text"})
PYTHON_LANGUAGES = frozenset({"python", "py", "pycon", "python3"})
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")
PROMPT = "$ "
SKIP = "..."
FAILURE_MARKS = ("Error:", "usage:")
COMMAND_PREFIXES: tuple[tuple[str, ...], ...] = (
    ("xlgrade",),
    ("python", "-m", "xlgrade"),
    ("python3", "-m", "xlgrade"),
)


@dataclass(frozen=True)
class Block:
    """One fenced block of a Markdown file."""

    language: str
    line: int
    """Line number of the block's first line of content (after the fence), from 1."""
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        """The block's content as one text."""
        return "".join(line + "\n" for line in self.lines)


@dataclass(frozen=True)
class Command:
    """One ``$`` line of a shell block and the output shown under it."""

    line: int
    command: str
    expected: tuple[str, ...]


def fenced_blocks(text: str) -> list[Block]:
    """The fenced blocks of a Markdown text, in order."""
    blocks: list[Block] = []
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        opening = FENCE.match(lines[number])
        number += 1
        if opening is None:
            continue
        fence = opening["fence"]
        indent = len(opening["indent"])
        language = opening["info"].strip().split(" ")[0].lower() if opening["info"] else ""
        start = number
        content: list[str] = []
        while number < len(lines):
            closing = FENCE.match(lines[number])
            if (
                closing is not None
                and closing["fence"][0] == fence[0]
                and len(closing["fence"]) >= len(fence)
                and not closing["info"].strip()
            ):
                break
            text_line = lines[number]
            content.append(text_line[indent:] if text_line.startswith(" " * indent) else text_line)
            number += 1
        number += 1  # the closing fence
        blocks.append(Block(language, start + 1, tuple(content)))
    return blocks


def shell_commands(block: Block) -> list[Command]:
    """The ``$`` lines of a shell block, each with the lines shown under it."""
    commands: list[Command] = []
    for offset, line in enumerate(block.lines):
        if line.startswith(PROMPT):
            commands.append(Command(block.line + offset, line[len(PROMPT) :].strip(), ()))
        elif commands:
            last = commands[-1]
            commands[-1] = Command(last.line, last.command, (*last.expected, line))
    return commands


def matches(expected: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether ``actual`` matches ``expected`` line for line, where an ``...`` line of
    ``expected`` matches any run of lines of ``actual``, none included.

    >>> matches(["a", "...", "d"], ["a", "b", "c", "d"])
    True
    >>> matches(["a", "...", "d"], ["a", "d"])
    True
    >>> matches(["a", "...", "d"], ["a", "b", "c"])
    False
    >>> matches(["a"], ["a", "b"])
    False
    """
    # reachable[j]: the lines of `expected` seen so far can match actual[:j].
    reachable = [True] + [False] * len(actual)
    for pattern in expected:
        if pattern.strip() == SKIP:
            seen = False
            for j in range(len(reachable)):
                seen = seen or reachable[j]
                reachable[j] = seen
        else:
            reachable = [False] + [
                reachable[j] and actual[j].rstrip() == pattern.rstrip() for j in range(len(actual))
            ]
    return reachable[-1]


def trimmed(lines: Sequence[str]) -> list[str]:
    """The lines without trailing spaces and without blank lines at the end."""
    result = [line.rstrip() for line in lines]
    while result and not result[-1]:
        result.pop()
    return result


def command_arguments(command: str) -> list[str] | None:
    """The arguments after ``xlgrade`` of a README command, or None if it runs something else."""
    words = shlex.split(command)
    for prefix in COMMAND_PREFIXES:
        if tuple(words[: len(prefix)]) == prefix:
            arguments = words[len(prefix) :]
            shell = [word for word in arguments if word in {"|", ">", ">>", "<", "&&", ";"}]
            assert not shell, f"{command!r}: shell operators {shell} are not run by this test"
            return arguments
    return None


def run_xlgrade(arguments: list[str]) -> tuple[int, list[str]]:
    """Run the command line in this process; its exit code and what it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        try:
            code = main(arguments)
        except SystemExit as exit_:  # argparse: --help, --version, bad usage
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    return code, printed.getvalue().splitlines()


def readme_examples() -> list[Block]:
    """The README's blocks that this test runs."""
    return [
        block
        for block in fenced_blocks(README.read_text(encoding="utf-8"))
        if (block.language in SHELL_LANGUAGES and shell_commands(block))
        or (block.language in PYTHON_LANGUAGES and any(">>>" in line for line in block.lines))
    ]


EXAMPLES = readme_examples()


@pytest.fixture(scope="module")
def example_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder all the README's examples run in, with a copy of the checkout's examples."""
    folder = tmp_path_factory.mktemp("readme")
    for name in COPIED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def doctest_globals() -> dict[str, Any]:
    """The names the README's Python examples define, shared from block to block."""
    return {"__name__": "README"}


def test_the_readme_has_examples_to_run() -> None:
    assert EXAMPLES, f"no runnable example found in {README.name}: is the block syntax read?"


@pytest.mark.parametrize("block", EXAMPLES, ids=[f"README.md:{block.line}" for block in EXAMPLES])
def test_readme_example(
    block: Block,
    example_folder: Path,
    doctest_globals: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(example_folder)
    if block.language in PYTHON_LANGUAGES:
        run_doctest(block, doctest_globals)
    else:
        run_session(block)


def run_session(block: Block) -> None:
    """Run each ``$`` command of a shell block and compare its output with the block's."""
    for command in shell_commands(block):
        arguments = command_arguments(command.command)
        assert arguments is not None, (
            f"README.md:{command.line}: {command.command!r} is not an xlgrade command; "
            "only `xlgrade …` and `python -m xlgrade …` examples can be run"
        )
        code, printed = run_xlgrade(arguments)
        expected = trimmed(command.expected)
        actual = trimmed(printed)
        if not matches(expected, actual):
            pytest.fail(
                f"README.md:{command.line}: `{command.command}` printed\n"
                + "\n".join(actual)
                + "\n\nbut the README shows\n"
                + "\n".join(expected),
                pytrace=False,
            )
        should_fail = any(line.lstrip().startswith(FAILURE_MARKS) for line in expected)
        if should_fail:
            assert code != 0, f"README.md:{command.line}: `{command.command}` exited 0"
        else:
            assert code == 0, f"README.md:{command.line}: `{command.command}` exited {code}"


def run_doctest(block: Block, globs: dict[str, Any]) -> None:
    """Run a Python block's ``>>>`` examples as a doctest."""
    name = f"README.md:{block.line}"
    test = doctest.DocTestParser().get_doctest(block.text, globs, name, str(README), block.line - 1)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    result = runner.run(test, out=report.write, clear_globs=False)
    assert result.failed == 0, report.getvalue()


# The matcher and the reader are this test's own logic: a wrong one would pass a stale README.


def test_a_skip_line_matches_any_run_of_lines() -> None:
    assert matches(["a", "...", "z"], ["a", "z"])
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert matches(["...", "z"], ["a", "z"])
    assert matches(["a", "..."], ["a", "b"])
    assert matches(["   ..."], [])
    assert matches(["a", "...", "c", "...", "e"], ["a", "b", "c", "d", "e"])


def test_the_matcher_refuses_missing_extra_and_changed_lines() -> None:
    assert not matches(["a", "b"], ["a"])
    assert not matches(["a"], ["a", "b"])
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a", "...", "z"], ["a", "b"])
    assert not matches(["a", "...", "c", "d"], ["a", "b", "c"])


def test_the_reader_finds_blocks_commands_and_their_output() -> None:
    text = (
        "Intro\n\n```sh\npip install .\n```\n\n"
        "```text\n$ xlgrade card x.csv\nline one\n...\n$ xlgrade --version\nxlgrade 0\n```\n\n"
        "```python\n>>> 1 + 1\n2\n```\n"
    )
    blocks = fenced_blocks(text)
    assert [(block.language, block.line) for block in blocks] == [
        ("sh", 4),
        ("text", 8),
        ("python", 16),
    ]
    assert shell_commands(blocks[0]) == []
    assert shell_commands(blocks[1]) == [
        Command(8, "xlgrade card x.csv", ("line one", "...")),
        Command(11, "xlgrade --version", ("xlgrade 0",)),
    ]
    assert command_arguments("python -m xlgrade card 'a b.csv'") == ["card", "a b.csv"]
    assert command_arguments("pip install .") is None


def test_a_wrong_example_fails_with_what_was_printed() -> None:
    block = Block("text", 1, ("$ xlgrade --version", "xlgrade 0.0.0-not-this"))
    with pytest.raises(pytest.fail.Exception, match="but the README shows"):
        run_session(block)


def test_an_example_showing_an_error_must_fail() -> None:
    block = Block("text", 1, ("$ xlgrade card no-such-file.csv", "..."))
    with pytest.raises(AssertionError, match="exited 1"):
        run_session(block)


def test_a_wrong_python_example_fails() -> None:
    with pytest.raises(AssertionError, match="Expected"):
        run_doctest(Block("python", 1, (">>> 1 + 1", "3")), {})
    run_doctest(Block("python", 1, (">>> x = [1, 2, 3]", ">>> x", "[1, ...]")), {})


def test_the_quick_start_prints_what_the_readme_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The Quick start's first command, and the output block under "it prints what it did".
    text = README.read_text(encoding="utf-8")
    command = "xlgrade recalc workbook/example-league.xlsm --out my-league.xlsm"
    assert command in text
    shown = next(b for b in fenced_blocks(text[text.index("it prints what it did") :]))
    monkeypatch.chdir(tmp_path)
    book = ROOT / "workbook" / "example-league.xlsm"
    assert main(["recalc", str(book), "--out", "my-league.xlsm"]) == 0
    assert capsys.readouterr().out.splitlines() == list(shown.lines)


def test_ci_runs_the_quick_start_as_the_readme_writes_it() -> None:
    # .ci/run reads the Quick start's commands from README.md and runs them in a new venv in a
    # fresh clone: it holds no copy of them that could drift, and no editable install, which
    # would hide a file the package leaves out.
    text = README.read_text(encoding="utf-8")
    (quick, *_) = fenced_blocks(text[text.index("\n## Quick start\n") :])
    assert quick.language == "sh"
    assert quick.lines[0].startswith("pip install . && xlgrade recalc ")
    assert quick.lines[-1] == "pip install '.[test]' && python -m pytest"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "/^## Quick start/" in ci
    assert "python3 -m venv" in ci
    assert "git clone" in ci
    for line in quick.lines:
        assert line not in ci
    assert "install -e" not in ci
    assert "--editable" not in ci
