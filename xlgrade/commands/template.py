"""``xlgrade template OUT.xlsm``: write the empty template workbook."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from xlgrade.formats.files import write_whole
from xlgrade.workbook.build import build_workbook

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``template`` subcommand."""
    parser = subparsers.add_parser(
        "template",
        help="write the template workbook with the Grading ribbon tab",
        description="Write the empty league template workbook (Settings, Players, Results, "
        "output sheets, the Grading ribbon tab and its macros) to OUT.",
        epilog="Example: xlgrade template my-league.xlsm",
    )
    parser.add_argument("out", metavar="OUT.xlsm", help="where to write it")
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")
    parser.add_argument(
        "--example",
        action="store_true",
        help="fill it with the example league (xlgrade.generate) and recalculate it",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the template (or the recalculated example league); 1 if OUT exists and
    ``--force`` is not given."""
    if os.path.exists(args.out) and not args.force:
        print(f"Error: {args.out} exists; use --force to replace it", file=sys.stderr)
        return 1
    if args.example:
        from xlgrade.generate import generate_league
        from xlgrade.workbook.recalc import recalculate_book

        season = generate_league()
        write_whole(build_workbook(season.players, season.games, season.settings), args.out)
        recalculate_book(args.out)
    else:
        write_whole(build_workbook(), args.out)
    print(f"Wrote {args.out}")
    return 0
