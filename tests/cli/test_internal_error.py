"""The command line's last line of defence: a fault in xlgrade (an exception that is not a
refusal of the input) is ``Error: internal error (…); please report it`` with its own exit code,
and under the test suite it raises instead, so that no test passes through it unseen."""

from __future__ import annotations

import argparse
import os

import pytest

from xlgrade import cli


def _broken(args: argparse.Namespace) -> int:
    del args
    raise KeyError("no such part")


@pytest.fixture
def broken_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``card`` subcommand replaced by one that fails with a KeyError."""
    real = cli.build_parser

    def parser() -> argparse.ArgumentParser:
        built = real()
        built.set_defaults(func=_broken)
        sub = next(a for a in built._actions if isinstance(a, argparse._SubParsersAction))
        for choice in sub.choices.values():
            choice.set_defaults(func=_broken)
        return built

    monkeypatch.setattr(cli, "build_parser", parser)


def test_the_suite_runs_with_faults_raised() -> None:
    # conftest.py sets the variable for every test and every subprocess a test starts.
    assert os.environ.get(cli.RAISE_INTERNAL) == "1"


@pytest.mark.usefixtures("broken_card")
def test_a_fault_raises_under_the_suite() -> None:
    with pytest.raises(KeyError, match="no such part"):
        cli.main(["card", "x.txt"])


@pytest.mark.usefixtures("broken_card")
def test_a_fault_is_an_internal_error_for_the_grader(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(cli.RAISE_INTERNAL)
    code = cli.main(["card", "x.txt"])
    captured = capsys.readouterr()
    assert code == cli.INTERNAL_ERROR == 70
    assert captured.err == "Error: internal error (KeyError: 'no such part'); please report it\n"
    assert "Traceback" not in captured.err
