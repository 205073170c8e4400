"""``xlgrade ratings LIST.csv --into BOOK|FOLDER``: fill the Players table's ECF ratings,
categories and membership from the ECF's published rating list, by ECF code.

LIST is recognised by its content (:func:`xlgrade.formats.ratinglist.looks_like_rating_list`).
Each Players row whose code is on the list gets the season's fixed figures, its ``ECF rating``,
``ECF category``, ``ECF rapid rating`` and ``ECF rapid category``, from the list's original
figures (``--revised``: the revised ones), and ``ECF blitz rating`` and ``ECF blitz category``
where the Players table has those columns (a target without them is told so); with
``--latest``, instead, ``Latest ECF rating`` (the live rating a division's ``latest rating``
asks for), the fixed figures kept. ``ECF member`` is filled either way: ``yes`` for a player
the list gives a member number, ``no`` for one it gives none. What was filled is counted by
category, list by list. Every other row keeps what it has and is reported: a code not on the
list, a code that fails its check letter, a row without a code. A row whose name is not the
list's is filled (the code identifies the player) and reported for the grader to check. Which
columns take what is :mod:`xlgrade.formats.ratingfill`'s.

Into a workbook the Players rows are refilled where they stand with every other cell as it
was, the grader's own columns included (:mod:`xlgrade.workbook.inputs`, ``in_place``); into a
folder ``players.csv`` is rewritten with its own columns, separator and line endings, the
columns filled added at its end if missing. Either way the new file is written beside the old
and renamed over it: whole or not at all.

The list's month (``--month 2026-01``, else the month its file name gives, such as
``ratings-2026-01.csv``) makes it an edition the league keeps: each Players row found on it is
a row of the Ratings sheet (``ratings.csv`` in a folder), code, name, month and figures, that
month's rows replaced and every other month's kept. A division's ``Rating list`` and ``Board
order list`` take their ratings from it (a named edition, or the one in force on a match's
date: :mod:`xlgrade.editions`). A list of no known month is filled as before and not kept,
said so.

``Last rated month`` is left as it is: the ECF's list has no such column. A player on a
month's list is active (a rated result in the 36 months before it), and a blank ``Last rated
month`` is read so by the season (the month before it starts: :mod:`xlgrade.season.rating`);
the season's rating fills it in for next season (``xlgrade new-season``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlgrade._rounding import quote
from xlgrade.errors import FormatError, GradingError
from xlgrade.formats import RATINGS_FILE

if TYPE_CHECKING:
    import datetime as dt

    from xlgrade.formats.ratingfill import PlayersFilled
    from xlgrade.formats.ratinglist import RatingList
    from xlgrade.season import Table

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``ratings`` subcommand."""
    parser = subparsers.add_parser(
        "ratings",
        help="fill the Players table's ECF ratings and membership from the ECF's rating list CSV",
        description=(
            "Read LIST, the ECF's rating list CSV (recognised by its columns), and fill the "
            "ECF rating, ECF category, ECF rapid rating and ECF rapid category of each Players row "
            "whose ECF code is on it: the season's fixed figures (with --latest, the Latest ECF "
            "rating instead, the fixed ones kept). ECF member is filled too: yes for a player "
            "the list gives a member number, no for one it gives none. Codes not on the list, "
            "codes that fail their check letter, rows without a code and names that differ from "
            "the list's are printed; those rows keep what they have. The file is rewritten "
            "whole or not at all."
        ),
        epilog=(
            "Example: xlgrade ratings ratings-2026-01.csv --into league.xlsm --latest\n"
            "(a later list as the latest, for board order; the fixed figures stay the "
            "September list's, as Croydon's rules ask)"
        ),
    )
    parser.add_argument("list", metavar="LIST", type=Path, help="the ECF rating list CSV")
    parser.add_argument(
        "--into",
        metavar="TARGET",
        type=Path,
        required=True,
        help="a league workbook (.xlsm, .xlsx) or a folder holding players.csv",
    )
    parser.add_argument(
        "--revised",
        action="store_true",
        help="take the revised ratings (default: the original ratings of the list's month)",
    )
    parser.add_argument(
        "--latest",
        action="store_true",
        help=(
            "fill Latest ECF rating (the live rating a division's 'latest rating' uses) from "
            "the list's standard ratings, keeping the fixed ECF rating and categories"
        ),
    )
    parser.add_argument(
        "--month",
        metavar="MONTH",
        help=(
            "the list's edition (2026-01, 'January 2026'), kept on the Ratings sheet "
            "(ratings.csv) for divisions that take a named list or the one in force on the "
            "match date; default: the month the file's name gives"
        ),
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read the list, fill the target's ratings, print the report; 0 on success."""
    from xlgrade.formats.detect import read_file
    from xlgrade.formats.files import locked
    from xlgrade.formats.ratingfill import BLITZ_HEADERS, MEMBER_HEADER
    from xlgrade.formats.ratinglist import looks_like_rating_list, read_rating_list
    from xlgrade.workbook.league import is_book

    source: Path = args.list
    target: Path = args.into
    latest = bool(getattr(args, "latest", False))
    notes: list[str] = []
    try:  # bounded by its size, as a file to import is
        text = read_file(source, notes, "reads")
    except FormatError as error:
        raise FormatError(f"{source}: {error}") from None
    for note in notes:  # first, as an import says it
        print(f"note: {source.name}: {note}")
    if not looks_like_rating_list(text):
        raise FormatError(
            f"{source}: not an ECF rating list (its header has no ECF_code, full_name and "
            "rating columns such as original_standard)"
        )
    ratings = read_rating_list(text, source.name)
    month = _month(getattr(args, "month", None), source.name)
    figure = "revised" if args.revised else "original"
    print(f"{source.name} (ECF rating list, {ratings.layout} layout): {ratings.accounting}")
    if ratings.ignored:
        print(f"columns not read: {', '.join(ratings.ignored)}")
    for line, why in ratings.refused:
        print(f"list line {line} not read: {why}")
    if is_book(target):
        done = _into_book(target, ratings, figure, latest, month)
    else:  # the folder locked from the reading to the writing, as an import into it is
        with locked(target, folder=True) if target.is_dir() else contextlib.nullcontext():
            done = _into_folder(target, ratings, figure, latest, month)
    _report(target, done, figure)
    for name in ("standard",) if latest else ("standard", "rapid", "blitz"):
        if name not in done.lists:
            print(f"blitz: no {BLITZ_HEADERS[0]!r} and {BLITZ_HEADERS[1]!r} columns: not filled")
            continue
        counts = done.filled.by_category(name)
        shown = f"{name} (latest)" if latest else name
        print(
            f"{shown}: {counts['A']} A, {counts['K']} K, {counts['P']} P, "
            f"{counts['none']} without a category, {counts['no rating']} with no {name} rating"
        )
    if not done.member:
        print(f"membership: no {MEMBER_HEADER!r} column: not filled")
    if done.member:
        members = sum(1 for f in done.filled.filled if f.member)
        print(
            f"ECF member: {members} yes (a member number on the list), "
            f"{len(done.filled.filled) - members} no"
        )
    kept = "the Ratings sheet" if is_book(target) else RATINGS_FILE
    if month is None:
        print(
            f"not kept by month: {source.name} names no month (give --month 2026-01 to keep "
            f"it in {kept} for divisions that take a named list or the one in force)"
        )
    else:
        print(
            f"kept in {kept} as the {month:%B %Y} list: {len(done.filled.filled)} players "
            f"(that month's rows replaced)"
        )
    print(f"Wrote {target}")
    return 0


def _month(given: str | None, name: str) -> dt.date | None:
    """The list's month: ``--month``, else its file name's (``None``: neither gives one).

    Raises:
        GradingError: ``--month`` is not a month, quoting it.
    """
    from xlgrade import cells
    from xlgrade.formats.ratingfill import month_in_name

    if given is None:
        return month_in_name(name)
    try:
        month = cells.month(given)
    except GradingError as error:
        raise GradingError(f"--month: {error} (write it 2026-01 or 'January 2026')") from None
    if month is None:
        raise GradingError(f"--month {quote(given)} is blank: give a month such as 2026-01")
    return month


def _report(target: Path, done: PlayersFilled, figure: str) -> None:
    filled, where = done.filled, done.where
    total = (
        len(filled.filled) + len(filled.not_on_list) + len(filled.bad_code) + len(filled.no_code)
    )
    what = f"the {figure} ratings" + (" as the latest" if done.latest else "")
    print(
        f"{target}: {total} players: {len(filled.filled)} filled with {what}, "
        f"{len(filled.not_on_list)} not on the list, {len(filled.bad_code)} with a bad code, "
        f"{len(filled.no_code)} without a code"
    )
    for row, code, name in filled.not_on_list:
        print(f"not on the list: {where[row]}: {code} {quote(name)}")
    for row, code, name, why in filled.bad_code:
        print(f"bad code: {where[row]}: {quote(name)}: ECF code {quote(code)} {why}")
    for row, name in filled.no_code:
        print(f"no code: {where[row]}: {quote(name)}")
    for row, name, listed in filled.names_differ:
        print(f"check the name: {where[row]}: {quote(name)} is {quote(listed)} on the list")


def _into_book(
    book: Path, ratings: RatingList, figure: str, latest: bool, month: dt.date | None
) -> PlayersFilled:
    from xlgrade.formats.files import locked
    from xlgrade.workbook import layout
    from xlgrade.workbook.package import write_package, write_sheets

    # Locked from the reading to the writing, as recalc and import hold it: another run that
    # writes the book waits, and what it wrote is read here, never overwritten.
    with locked(book) as target:
        data = Path(target).read_bytes()
        package, done, kept = _filled_book(book, data, ratings, figure, latest, month)
        if kept is None:
            write_package(package, target)
        else:  # the Players rows and the Ratings sheet in one write
            write_sheets(target, {layout.RATINGS: kept}, data=package)
    return done


def _filled_book(
    book: Path, data: bytes, ratings: RatingList, figure: str, latest: bool, month: dt.date | None
) -> tuple[bytes, PlayersFilled, Table | None]:
    """The book ``data`` with its Players rows filled from ``ratings``, what was filled, and
    the book's Ratings table with the list of ``month`` kept (``None``: no month)."""
    from xlgrade.formats.ratingfill import edition_rows, fill_players_sheet, kept_ratings
    from xlgrade.season import Table
    from xlgrade.workbook import layout
    from xlgrade.workbook.inputs import InputRows, book_sheets, input_rows_package
    from xlgrade.workbook.package import read_sheets

    try:
        book_sheets(data)
        try:
            raw = read_sheets(data, [layout.PLAYERS]).get(layout.PLAYERS)
        except Exception as error:  # the reader's own error types
            raise FormatError(f"the book cannot be read: {error}") from None
        if raw is None:
            raise FormatError(f"the book has no sheet named {quote(layout.PLAYERS)}")
        rows, _, done = fill_players_sheet(
            raw,
            ratings,
            figure,  # type: ignore[arg-type]
            latest=latest,
            sheet=layout.PLAYERS,
        )
        package, _ = input_rows_package(
            data, {layout.PLAYERS: InputRows(rows, keep=0, in_place=True)}
        )
        kept = None
        if month is not None:
            existing = read_sheets(data, [layout.RATINGS]).get(layout.RATINGS)
            new = edition_rows(done.people, done.filled, month)
            kept = Table(layout.RATINGS_HEADERS, kept_ratings(existing, month, new))
    except FormatError as error:
        raise FormatError(f"{book}: {error}") from None
    return package, done, kept


def _into_folder(
    folder: Path, ratings: RatingList, figure: str, latest: bool, month: dt.date | None
) -> PlayersFilled:
    from xlgrade.formats.detect import decode
    from xlgrade.formats.files import folder_file, write_whole
    from xlgrade.formats.ratingfill import (
        edition_rows,
        fill_players_csv,
        kept_ratings,
        ratings_csv,
    )

    path = folder / "players.csv"
    if not folder_file(path):
        raise GradingError(f"{folder}: no players.csv there, nor a workbook (.xlsm, .xlsx)")
    notes: list[str] = []
    try:
        data, done = fill_players_csv(
            path.read_bytes(),
            ratings,
            figure,  # type: ignore[arg-type]
            latest=latest,
            source=str(path),
            notes=notes,
        )
    finally:
        for note in notes:
            print(f"note: {path}: {note}")
    kept: bytes | None = None
    if month is not None:
        history = folder / RATINGS_FILE
        existing = None
        if folder_file(history):
            text = decode(history.read_bytes())
            existing = list(csv.reader(io.StringIO(text)))
        try:
            rows = kept_ratings(existing, month, edition_rows(done.people, done.filled, month))
        except FormatError as error:
            raise FormatError(f"{history}: {error}") from None
        kept = ratings_csv(rows)
    write_whole(data, path)
    if kept is not None:
        write_whole(kept, folder / RATINGS_FILE)
    return done
