"""The ``xlgrade`` command: a thin layer that parses arguments, calls the library, prints, and
turns the library's errors into ``Error: …`` on standard error with exit code 1."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from xlgrade import __version__
from xlgrade.errors import GradingError

__all__ = ["COMMANDS", "build_parser", "main"]

COMMANDS: tuple[str, ...] = (
    "card",
    "season",
    "recalc",
    "template",
    "newseason",
    "importing",
    "export",
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
    """Run the command line; returns the exit code (0 success, 1 bad input, 2 bad usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except GradingError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"Error: {error.strerror or error}: {error.filename}", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
