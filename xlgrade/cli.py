"""The ``xlgrade`` command: a thin layer that parses arguments, calls the library, prints, and
turns the library's errors into ``Error: …`` on standard error with exit code 1.

Anything else that goes wrong is a fault in xlgrade, not in the input: it is reported as
``Error: internal error (…); please report it`` with exit code :data:`INTERNAL_ERROR`, never as
a traceback. With the environment variable :data:`RAISE_INTERNAL` set (the test suite sets
it) the exception is raised instead, so that no test can pass through this line of defence.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Final

from xlgrade import __version__
from xlgrade.errors import GradingError

__all__ = ["COMMANDS", "INTERNAL_ERROR", "RAISE_INTERNAL", "build_parser", "main"]

INTERNAL_ERROR: Final = 70
"""The exit code of a fault in xlgrade itself (``EX_SOFTWARE`` of the BSD ``sysexits.h``)."""
RAISE_INTERNAL: Final = "XLGRADE_RAISE_INTERNAL"
"""The environment variable that makes a fault raise its exception instead of reporting it."""

COMMANDS: tuple[str, ...] = (
    "card",
    "season",
    "recalc",
    "eligibility",
    "lineup",
    "template",
    "newseason",
    "importing",
    "export",
    "ratings",
    "reconcile",
)
"""Subcommand modules under :mod:`xlgrade.commands`, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="xlgrade",
        description="Chess grading for league graders: ECF grading, FIDE Elo and Glicko.",
    )
    parser.add_argument("--version", action="version", version=f"xlgrade {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"xlgrade.commands.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 success, 1 bad input, 2 bad usage,
    :data:`INTERNAL_ERROR` a fault in xlgrade)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except GradingError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        where = f": {error.filename}" if error.filename is not None else ""
        print(f"Error: {error.strerror or error}{where}", file=sys.stderr)
        return 1
    except Exception as error:
        if os.environ.get(RAISE_INTERNAL):
            raise
        print(
            f"Error: internal error ({type(error).__name__}: {error}); please report it",
            file=sys.stderr,
        )
        return INTERNAL_ERROR
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
