"""``xlgrade new-season BOOK OUT``: start next season's book from this one."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from xlgrade.commands.recalc import print_unread

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``new-season`` command."""
    parser = subparsers.add_parser(
        "new-season",
        help="start next season's workbook from this one",
        description=(
            "Grade the season in BOOK and write OUT, a new book for the season after it: every "
            "player carried on with his published grade and this season's games and points as "
            "his previous season (a season rated by the ECF rating also his ratings, categories "
            "and last rated month after it), no results, and the season's dates a year on. "
            "An xlwings Lite OUT (.xlsx) carries the xlgrade engine of BOOK's code on, so both "
            "seasons are graded by the same code, where that engine is this xlgrade's or a "
            "released xlgrade's (by its digest, kept in this xlgrade, not in BOOK); else it "
            "carries this xlgrade's engine. A note says which. OUT has ids of its own."
        ),
        epilog="Example: xlgrade new-season workbook/example-league.xlsm 2026-27.xlsm",
    )
    parser.add_argument("book", metavar="BOOK", help="this season's workbook")
    parser.add_argument("out", metavar="OUT", help="where to write next season's workbook")
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")
    parser.add_argument(
        "--new-engine",
        action="store_true",
        help="an xlwings Lite OUT carries this xlgrade's engine instead of BOOK's",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the new book; 1 if OUT exists and ``--force`` is not given."""
    from xlgrade.commands import refuse_to_replace
    from xlgrade.formats.files import locked
    from xlgrade.workbook.recalc import new_season_book

    refuse_to_replace([args.out], args.force)
    with locked(args.out):
        refuse_to_replace([args.out], args.force)  # again: another run may have made it
        players, name, unread, notes = new_season_book(
            args.book,
            args.out,
            progress=lambda line: print(line, file=sys.stderr),
            keep_engine=not args.new_engine,
        )
    print_unread(unread, "they are left out of the new book")
    for note in notes:
        print(note)
    print(f"Wrote {args.out}: season {name}, {players} players carried on")
    return 0
