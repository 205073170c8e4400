"""Every command's ``--help``: it exists, describes the command and shows an example that parses.

The commands are those of :data:`xlgrade.cli.COMMANDS`, whatever they are: a new command module
is checked as soon as it is listed there.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import re
import runpy
import shlex
import subprocess
import sys

import pytest

from tests.paths import EXAMPLES
from xlgrade import __version__
from xlgrade.cli import COMMANDS, build_parser, main

EXAMPLE = re.compile(r"Examples?:\s*(?P<examples>.+)", re.DOTALL)
HEAVY = ("numpy", "openpyxl", "python_calamine")
"""What the help of a command needs none of: each command imports them when it runs."""


def registered(module: str) -> dict[str, argparse.ArgumentParser]:
    """The subcommands one module of :mod:`xlgrade.commands` registers, by name."""
    parser = argparse.ArgumentParser(prog="xlgrade")
    subparsers = parser.add_subparsers()
    importlib.import_module(f"xlgrade.commands.{module}").register(subparsers)
    return dict(subparsers.choices)


def listed_help() -> dict[str, str | None]:
    """Each subcommand of the real parser and the one line ``xlgrade --help`` shows for it."""
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: choice.help for choice in action._choices_actions}
    raise AssertionError("xlgrade has no subcommands")


def words(text: str) -> str:
    """The text with each run of white space made one space, as help wraps it."""
    return " ".join(text.split())


def run(arguments: list[str]) -> tuple[int, str]:
    """Run the command line; its exit code and what it printed to standard output."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), pytest.raises(SystemExit) as exit_:
        main(arguments)
    code = exit_.value.code
    return (code if isinstance(code, int) else int(code is not None)), printed.getvalue()


def examples(parser: argparse.ArgumentParser) -> list[str]:
    """The example command lines in a parser's description and epilog (after ``Example:``)."""
    found: list[str] = []
    for text in (parser.description or "", parser.epilog or ""):
        match = EXAMPLE.search(text)
        if match:
            found += [
                line.strip().removeprefix("$ ")
                for line in match["examples"].splitlines()
                if line.strip().removeprefix("$ ").startswith("xlgrade ")
            ]
    return found


COMMAND_PARSERS = [
    pytest.param(module, name, parser, id=name)
    for module in COMMANDS
    for name, parser in registered(module).items()
]


def test_each_command_module_registers_a_command() -> None:
    unregistered = [module for module in COMMANDS if not registered(module)]
    assert not unregistered, f"modules that add no subcommand: {unregistered}"


@pytest.mark.parametrize(("module", "name", "parser"), COMMAND_PARSERS)
def test_command_help_describes_it_and_shows_an_example(
    module: str, name: str, parser: argparse.ArgumentParser
) -> None:
    code, printed = run([name, "--help"])
    assert code == 0
    assert printed.startswith(f"usage: xlgrade {name} ")
    assert parser.description, f"xlgrade {name} (xlgrade/commands/{module}.py) has no description"
    assert words(parser.description) in words(printed)
    shown = examples(parser)
    assert shown, (
        f"xlgrade {name} --help shows no example: give its parser "
        f"epilog='Example: xlgrade {name} …' (xlgrade/commands/{module}.py)"
    )
    for example in shown:
        assert example.startswith(f"xlgrade {name} "), example
        assert words(example) in words(printed)


@pytest.mark.parametrize(("module", "name", "parser"), COMMAND_PARSERS)
def test_every_option_says_what_it_is(
    module: str, name: str, parser: argparse.ArgumentParser
) -> None:
    bare = [
        "/".join(action.option_strings) or action.dest
        for action in parser._actions
        if not action.help and not isinstance(action, argparse._HelpAction)
    ]
    assert not bare, f"xlgrade {name} options without help (xlgrade/commands/{module}.py): {bare}"


def test_the_export_event_options_are_described(capsys: pytest.CaptureFixture[str]) -> None:
    code, printed = run(["export", "--help"])
    assert code == 0
    lines = " ".join(printed.split())
    assert "--event-code TEXT the code the ECF gave the event" in lines
    assert "--minutes-for-game N minutes each for all the moves (e.g. 25 for a rapidplay)" in lines
    assert "--seconds-per-move N increment in seconds per move" in lines


@pytest.mark.parametrize(("module", "name", "parser"), COMMAND_PARSERS)
def test_command_help_examples_parse(
    module: str, name: str, parser: argparse.ArgumentParser
) -> None:
    for example in examples(parser):
        arguments = [word for word in shlex.split(example)[1:] if word not in {"...", "…"}]
        printed = io.StringIO()
        with contextlib.redirect_stderr(printed):
            try:
                parsed = build_parser().parse_args(arguments)
            except SystemExit:
                pytest.fail(f"the example {example!r} does not parse:\n{printed.getvalue()}")
        assert parsed.command == name


def test_xlgrade_help_lists_every_command_with_its_summary() -> None:
    code, printed = run(["--help"])
    assert code == 0
    assert printed.startswith("usage: xlgrade ")
    listed = listed_help()
    commands = [name for module in COMMANDS for name in registered(module)]
    assert list(listed) == commands
    for name, summary in listed.items():
        assert summary, f"xlgrade {name} has no one-line help for `xlgrade --help`"
        assert re.search(rf"^\s+{re.escape(name)}\s", printed, re.MULTILINE), name
        assert words(summary) in words(printed)


def test_xlgrade_version() -> None:
    code, printed = run(["--version"])
    assert code == 0
    assert printed == f"xlgrade {__version__}\n"


def test_no_command_is_a_usage_error() -> None:
    printed = io.StringIO()
    with contextlib.redirect_stderr(printed), pytest.raises(SystemExit) as exit_:
        main([])
    assert exit_.value.code == 2
    assert "the following arguments are required: COMMAND" in printed.getvalue()


def test_an_unknown_command_is_a_usage_error() -> None:
    printed = io.StringIO()
    with contextlib.redirect_stderr(printed), pytest.raises(SystemExit) as exit_:
        main(["no-such-command"])
    assert exit_.value.code == 2
    assert "invalid choice: 'no-such-command'" in printed.getvalue()


def test_python_m_xlgrade_is_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["xlgrade", "--help"])
    monkeypatch.delitem(sys.modules, "xlgrade.__main__", raising=False)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), pytest.raises(SystemExit) as exit_:
        runpy.run_module("xlgrade", run_name="__main__", alter_sys=True)
    assert exit_.value.code == 0
    assert printed.getvalue().startswith("usage: ")
    for name in listed_help():
        assert name in printed.getvalue()


def imported_by_help(arguments: list[str]) -> list[str]:
    """The modules of :data:`HEAVY` in ``sys.modules`` once ``xlgrade ARGUMENTS --help`` has
    printed, in a new Python as the shell starts it."""
    code = (
        "import contextlib, io, sys\n"
        "from xlgrade.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    main({[*arguments, '--help']!r})\n"
        f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.split()


@pytest.mark.parametrize(
    "arguments",
    [pytest.param([], id="xlgrade")]
    + [pytest.param([name], id=name) for module in COMMANDS for name in registered(module)],
)
def test_help_imports_neither_numpy_nor_openpyxl(arguments: list[str]) -> None:
    assert imported_by_help(arguments) == []


def test_a_command_imports_what_it_needs_when_it_runs() -> None:
    """The other side of the help's lightness: the same check sees numpy once a command has
    run (``xlgrade card`` of the YCA player)."""
    code = (
        "import contextlib, io, sys\n"
        "from xlgrade.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['card', {str(EXAMPLES / 'yca-player.csv')!r}])\n"
        "print('numpy' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == ["True"]
