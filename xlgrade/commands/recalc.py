"""``xlgrade recalc BOOK [--out FILE]``: recalculate a league workbook without Excel."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from xlgrade.commands import unread_notes

if TYPE_CHECKING:
    from xlgrade.model import Problem
    from xlgrade.workbook.recalc import RecalcSummary

__all__ = ["print_unread", "register", "run", "summary_lines"]


def register(subparsers: Any) -> None:
    """Add the ``recalc`` subcommand."""
    parser = subparsers.add_parser(
        "recalc",
        help="recalculate a league workbook's grading list, cards and exceptions",
        description=(
            "Read the Settings, Players, Results and Divisions sheets of BOOK, grade the season "
            "and rewrite the Grading List, Rapid List, Player Cards, Exceptions and Violations "
            "(breaches of the Divisions sheet's rules) sheets. "
            "Nothing else in the file changes; no Excel is needed. A union's book (an .xlsx "
            "with a Leagues sheet, as `xlgrade season UNION --book` writes it) has its "
            "leagues graded as one season and its lists, cards, exceptions, joins and "
            "undecided players written again."
        ),
        epilog="Example: xlgrade recalc workbook/example-league.xlsm --out my-league.xlsm",
    )
    parser.add_argument("book", metavar="BOOK", help="the workbook (.xlsm or .xlsx)")
    parser.add_argument(
        "--out", metavar="FILE", help="write the recalculated book here; BOOK is left as it is"
    )
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Recalculate, printing progress and a summary; 0 on success.

    Raises:
        GradingError: BOOK is a folder (``xlgrade season`` grades a folder of CSV files), or
            the book cannot be graded.
    """
    import contextlib
    import os

    from xlgrade.errors import GradingError
    from xlgrade.workbook.recalc import recalculate_book

    if os.path.isdir(args.book):
        raise GradingError(
            f"{args.book} is a folder: xlgrade recalc rewrites a workbook (.xlsm, .xlsx); "
            f"`xlgrade season {args.book}` grades a league kept as CSV files"
        )

    from xlgrade.commands import refuse_to_replace
    from xlgrade.formats.files import locked
    from xlgrade.workbook.union import is_union_book

    out = getattr(args, "out", None)
    force = getattr(args, "force", False)
    if out is not None:
        refuse_to_replace([out], force)
    with locked(out) if out is not None else contextlib.nullcontext():
        if out is not None:  # again under the lock: another run may have made it
            refuse_to_replace([out], force)
        if is_union_book(args.book):
            return _union(args)
        summary = recalculate_book(
            args.book, args.out, progress=lambda line: print(line, file=sys.stderr)
        )
    for line in summary_lines(summary):
        print(line)
    print_unread(summary.unread, "the Exceptions sheet lists them all")
    for note in summary.mended:
        print(note)
    print(f"Wrote {args.out or args.book}")
    return 0


def _union(args: argparse.Namespace) -> int:
    """A union's book (:mod:`xlgrade.workbook.union`): its leagues graded as one season."""
    from pathlib import Path

    from xlgrade.workbook.union import recalculate_union_book

    union = recalculate_union_book(
        Path(args.book), Path(args.out) if args.out else None, "xlgrade recalc"
    )
    leagues = ", ".join(lg.name for lg in union.leagues)
    print(f"{len(union.result.players)} players of {len(union.leagues)} leagues ({leagues}), "
          f"{union.result.accounting.summary()}")  # fmt: skip
    print(
        f"{len(union.joins)} players joined across leagues (Joins), "
        f"{len(union.undecided)} not decided (Undecided)"
    )
    print(f"Wrote {args.out or args.book}")
    return 0


def summary_lines(summary: RecalcSummary) -> list[str]:
    """The two lines that say what a recalculation graded, whose counts add up: the players
    and the result rows (graded, rapidplay and not graded, which make the rows), then the
    lines of the Exceptions sheet (one for each row not graded, and the others by sheet).

    >>> from xlgrade.workbook.recalc import RecalcSummary
    >>> summary = RecalcSummary(40, 300, 286, 16, (), "300 result rows: 284 graded, "
    ...     "2 rapidplay, 14 not graded (14 default)", (), 14, (("Players", 2),))
    >>> print("\\n".join(summary_lines(summary)))
    40 players, 300 result rows: 284 graded, 2 rapidplay, 14 not graded (14 default)
    16 exceptions: 14 for the result rows not graded, 2 on Players
    """
    from xlgrade.workbook import layout

    done = "rated" if summary.rated else "graded"
    parts = [f"{summary.not_graded} for the result rows not {done}"] + [
        f"{count} more on {sheet}" if sheet == layout.RESULTS else f"{count} on {sheet}"
        for sheet, count in summary.other_exceptions
    ]
    return [
        f"{summary.players} players, {summary.accounting}",
        f"{summary.exceptions} exception{'' if summary.exceptions == 1 else 's'}: "
        + ", ".join(parts),
    ]


def print_unread(unread: Sequence[Problem], where: str) -> None:
    """Print the Settings and Players cells that could not be read: their count, the first
    few, and ``where`` the rest are."""
    header = (
        "{cells} of Settings and Players could not be read, each value left out and the rest "
        f"of its row kept ({where}):"
    )
    sheets = {"Settings": "Settings", "Players": "Players"}
    for line in unread_notes(unread, sheets, header):
        print(line)
