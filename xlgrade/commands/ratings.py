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

``Last rated month`` is left as it is: the ECF's list has no such column. A player on a
month's list is active (a rated result in the 36 months before it), and a blank ``Last rated
month`` is read so by the season (the month before it starts: :mod:`xlgrade.season.rating`);
the season's rating fills it in for next season (``xlgrade new-season``).
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlgrade._rounding import quote
from xlgrade.errors import FormatError, GradingError

if TYPE_CHECKING:
    from xlgrade.formats.ratingfill import PlayersFilled
    from xlgrade.formats.ratinglist import RatingList

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
    figure = "revised" if args.revised else "original"
    print(f"{source.name} (ECF rating list, {ratings.layout} layout): {ratings.accounting}")
    if ratings.ignored:
        print(f"columns not read: {', '.join(ratings.ignored)}")
    for line, why in ratings.refused:
        print(f"list line {line} not read: {why}")
    if is_book(target):
        done = _into_book(target, ratings, figure, latest)
    else:  # the folder locked from the reading to the writing, as an import into it is
        with locked(target, folder=True) if target.is_dir() else contextlib.nullcontext():
            done = _into_folder(target, ratings, figure, latest)
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
    print(f"Wrote {target}")
    return 0


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


def _into_book(book: Path, ratings: RatingList, figure: str, latest: bool) -> PlayersFilled:
    from xlgrade.formats.files import check_target
    from xlgrade.formats.ratingfill import fill_players_sheet
    from xlgrade.workbook import layout
    from xlgrade.workbook.inputs import InputRows, book_sheets, input_rows_package
    from xlgrade.workbook.package import read_sheets, write_package

    check_target(book)
    data = book.read_bytes()
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
    except FormatError as error:
        raise FormatError(f"{book}: {error}") from None
    write_package(package, book)
    return done


def _into_folder(folder: Path, ratings: RatingList, figure: str, latest: bool) -> PlayersFilled:
    from xlgrade.formats.files import write_whole
    from xlgrade.formats.ratingfill import fill_players_csv

    path = folder / "players.csv"
    if not path.is_file():
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
    write_whole(data, path)
    return done
