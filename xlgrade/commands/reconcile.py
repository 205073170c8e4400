"""``xlgrade reconcile LIST LEAGUE…``: a league's (or a union's) rated season set beside the
ECF's published rating list: for every player, whether xlgrade's figure is the list's, and
when it is not, the likely reason (:mod:`xlgrade.season.reconcile`)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlgrade.errors import FormatError, GradingError

if TYPE_CHECKING:
    from xlgrade.formats.ratinglist import Figure

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``reconcile`` subcommand."""
    parser = subparsers.add_parser(
        "reconcile",
        help="set a rated season beside the ECF's rating list: equal, or the likely reason",
        description=(
            "Rate the season of LEAGUE (a league folder or workbook; several, or a union's "
            "folder or book, as one season) by the ECF rating (2020 rules), and set each "
            "player's rating at the start of the list's month beside LIST, the ECF's rating "
            "list CSV: equal or not, and when not the likely reason — no code or a code not on "
            "the list (and the list player of that name and club, known by another code), the "
            "list's name not his, a list edition that does not match the dates, late results "
            "in the other figure, a category (P or K) that differs, games the ECF has that the "
            "league does not or the other way. The list's month is --month, else the YYYY-MM "
            "in its file name."
        ),
        epilog="Example: xlgrade reconcile examples/ratings-2025-08.csv examples/rated",
    )
    parser.add_argument("list", metavar="LIST", type=Path, help="the ECF's rating list (CSV)")
    parser.add_argument(
        "leagues", metavar="LEAGUE", nargs="+", help="the league, or the union's leagues"
    )
    parser.add_argument("--month", metavar="YYYY-MM", help="the list's month (its edition)")
    parser.add_argument(
        "--revised", action="store_true", help="compare the revised figures, not the original"
    )
    parser.add_argument("--rapid", action="store_true", help="the rapidplay list instead")
    parser.add_argument("--csv", metavar="FILE", type=Path, help="write the report as CSV")
    parser.add_argument("--book", metavar="FILE.xlsx", type=Path, help="write it as a sheet")
    parser.set_defaults(func=run)


_MONTH = re.compile(r"(\d{4})-(\d{2})")


def _edition(text: str | None, list_path: Path) -> Any:
    import datetime as dt

    found = _MONTH.fullmatch(text.strip()) if text else _MONTH.search(list_path.name)
    if found is None:
        where = f"--month {text!r}" if text else f"{list_path.name}: no YYYY-MM in its name"
        raise GradingError(f"{where}: say the list's month with --month YYYY-MM")
    year, month = int(found[1]), int(found[2])
    if not 1 <= month <= 12:
        raise GradingError(f"--month {found[0]!r}: the month is 01 to 12")
    return dt.date(year, month, 1)


def run(args: argparse.Namespace) -> int:
    """Rate the season, read the list, print the report; 0 on success."""
    import dataclasses

    from xlgrade.commands.season import format_table
    from xlgrade.formats.detect import read_file
    from xlgrade.formats.files import write_whole
    from xlgrade.formats.ratinglist import (
        listed_players,
        looks_like_rating_list,
        read_rating_list,
    )
    from xlgrade.season import RAPID, STANDARD
    from xlgrade.season.reconcile import reconcile
    from xlgrade.season.union import grade_union
    from xlgrade.settings import RATING_2020, Settings
    from xlgrade.workbook.union import (
        is_union_book,
        open_union,
        read_union_book,
        reconcile_book,
        reconcile_csv,
    )

    edition = _edition(args.month, args.list)
    try:  # bounded by its size, as a file to import is
        text = read_file(args.list, verb="reads")
    except FormatError as error:
        raise FormatError(f"{args.list}: {error}") from None
    if not looks_like_rating_list(text):
        raise GradingError(
            f"{args.list}: not an ECF rating list (its header has no ECF_code, full_name and "
            "rating columns such as original_standard)"
        )
    ratings = read_rating_list(text, args.list.name)
    figure: Figure = "revised" if args.revised else "original"
    kind = RAPID if args.rapid else STANDARD
    listed = listed_players(ratings, "rapid" if args.rapid else "standard", figure)
    if len(args.leagues) == 1 and is_union_book(args.leagues[0]):
        opened, _ = read_union_book(Path(args.leagues[0]), "xlgrade reconcile")
    else:
        opened = open_union(args.leagues, command="xlgrade reconcile")
    for note in opened.notes:
        print(note if note.startswith("note:") else f"note: {note}")
    settings = opened.settings or opened.leagues[0].settings or Settings()
    rated = settings.system == RATING_2020
    if not rated:
        print(f"note: the season is graded ({settings.system}); it is rated by the ECF rating "
              "(2020 rules) to be set beside the list")  # fmt: skip
        settings = dataclasses.replace(settings, system=RATING_2020)
    union = grade_union(opened.leagues, opened.decisions, settings)
    done = reconcile(union.result, listed, edition, kind)
    print(
        f"{args.list.name} ({ratings.layout} layout, {figure} figures of {edition:%Y-%m}): "
        f"{ratings.accounting}"
    )
    print(format_table(done.table, done.table.headers), end="")
    print(done.summary())
    if args.csv is not None:
        write_whole(reconcile_csv(done.table), args.csv)
        print(f"Wrote {args.csv}")
    if args.book is not None:
        if args.book.suffix.lower() != ".xlsx":
            raise GradingError(f"--book {str(args.book)!r}: the report's book is an .xlsx file")
        write_whole(reconcile_book(done.table, done.summary()), args.book)
        print(f"Wrote {args.book}")
    return 0
