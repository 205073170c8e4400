"""``xlgrade ratings LIST.csv --into BOOK|FOLDER``: fill the Players table's ECF ratings and
categories from the ECF's published rating list, by ECF code.

LIST is recognised by its content (:func:`xlgrade.formats.ratinglist.looks_like_rating_list`).
Each Players row whose code is on the list gets its ``ECF rating``, ``ECF category``,
``ECF rapid rating`` and ``ECF rapid category`` from the list's original figures (``--revised``: the
revised ones), and ``ECF blitz rating`` and ``ECF blitz category`` where the Players table has
those columns (:data:`BLITZ_HEADERS`; a target without them is told so); what was filled is
counted by category, list by list. Every other row keeps what it has and is reported: a code
not on the list, a code that fails its check letter, a row without a code. A row whose name is
not the list's is filled (the code identifies the player) and reported for the grader to check.

Into a workbook the Players rows are refilled where they stand with every other cell as it
was, the grader's own columns included (:mod:`xlgrade.workbook.inputs`, ``in_place``); into a
folder ``players.csv`` is rewritten with its own columns, separator and line endings, the
rating columns added at its end if missing. Either way the new file is written beside the old
and renamed over it: whole or not at all.

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
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from xlgrade._rounding import quote
from xlgrade.errors import FormatError, GradingError

if TYPE_CHECKING:
    from xlgrade.formats.ratinglist import RatingList, RatingsFilled, RowRatings

__all__ = ["BLITZ_HEADERS", "filled_headers", "register", "run"]

BLITZ_HEADERS: Final = ("ECF blitz rating", "ECF blitz category")
"""The Players columns of the blitz list's figures, filled where the table has them."""


def filled_headers() -> tuple[str, ...]:
    """The Players columns this command always fills: ECF rating, ECF category, ECF rapid
    rating, ECF rapid category (a function, so that the command's help loads no table)."""
    from xlgrade.workbook import layout

    return tuple(layout.RATING_HEADERS[:4])


def _headings() -> dict[str, tuple[str, ...]]:
    """Each list's Players columns: its rating and its category."""
    filled = filled_headers()
    return {"standard": filled[:2], "rapid": filled[2:], "blitz": BLITZ_HEADERS}


_BOOKS: Final = (".xlsm", ".xlsx")


def register(subparsers: Any) -> None:
    """Add the ``ratings`` subcommand."""
    parser = subparsers.add_parser(
        "ratings",
        help="fill the Players table's ECF ratings from the ECF's rating list CSV",
        description=(
            "Read LIST, the ECF's rating list CSV (recognised by its columns), and fill the "
            "ECF rating, ECF category, ECF rapid rating and ECF rapid category of each Players row "
            "whose ECF code is on it. Codes not on the list, codes that fail their check "
            "letter, rows without a code and names that differ from the list's are printed; "
            "those rows keep what they have. The file is rewritten whole or not at all."
        ),
        epilog="Example: xlgrade ratings ratings-2025-08.csv --into league.xlsm",
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
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read the list, fill the target's ratings, print the report; 0 on success."""
    from xlgrade.formats.detect import decode
    from xlgrade.formats.files import locked
    from xlgrade.formats.ratinglist import looks_like_rating_list, read_rating_list

    source: Path = args.list
    target: Path = args.into
    text = decode(source.read_bytes())
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
    if target.suffix.lower() in _BOOKS:
        filled, where, blitz = _into_book(target, ratings, figure)
    else:  # the folder locked from the reading to the writing, as an import into it is
        with locked(target, folder=True) if target.is_dir() else contextlib.nullcontext():
            filled, where, blitz = _into_folder(target, ratings, figure)
    _report(target, filled, where, figure)
    for name in ("standard", "rapid", "blitz"):
        if name == "blitz" and not blitz:
            print(f"blitz: no {BLITZ_HEADERS[0]!r} and {BLITZ_HEADERS[1]!r} columns: not filled")
            continue
        counts = filled.by_category(name)
        print(
            f"{name}: {counts['A']} A, {counts['K']} K, {counts['P']} P, "
            f"{counts['none']} without a category, {counts['no rating']} with no {name} rating"
        )
    print(f"Wrote {target}")
    return 0


def _report(target: Path, filled: RatingsFilled, where: Sequence[str], figure: str) -> None:
    total = (
        len(filled.filled) + len(filled.not_on_list) + len(filled.bad_code) + len(filled.no_code)
    )
    print(
        f"{target}: {total} players: {len(filled.filled)} filled with the {figure} ratings, "
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


def _values(row: RowRatings, blitz: bool) -> dict[str, object]:
    """The Players cells of ``row``'s figures, by heading (the blitz ones if ``blitz``)."""
    out: dict[str, object] = {}
    for name, headings in _headings().items():
        if name != "blitz" or blitz:
            out.update(zip(headings, row.figures(name), strict=True))
    return out


def _into_book(
    book: Path, ratings: RatingList, figure: str
) -> tuple[RatingsFilled, list[str], bool]:
    from xlgrade.formats.files import check_target
    from xlgrade.formats.ratinglist import fill_ratings
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
        header_at = next(
            (i for i, row in enumerate(raw) if any(layout.header_key(v) == "name" for v in row)),
            None,
        )
        if header_at is None:
            raise FormatError(f"the {layout.PLAYERS} sheet has no column headed 'Name'")
        header = [layout.header_key(v) for v in raw[header_at]]
        missing = [h for h in filled_headers() if layout.header_key(h) not in header]
        if missing:
            raise FormatError(
                f"the {layout.PLAYERS} sheet has no column headed "
                + ", ".join(repr(h) for h in missing)
                + ": add them (a book made from this version's template has them)"
            )
        # The book's writer fills the template's columns only: blitz once the layout has them.
        blitz = all(
            layout.header_key(h) in header and h in layout.PLAYERS_HEADERS for h in BLITZ_HEADERS
        )
        column = {key: i for i, key in reversed(list(enumerate(header))) if key}
        body = raw[header_at + 1 :]
        while body and all(v is None for v in body[-1]):
            body.pop()

        def cell(row: Sequence[object], heading: str) -> object:
            i = column.get(layout.header_key(heading))
            return row[i] if i is not None and i < len(row) else None

        people = [
            (str(cell(r, "Code") or "").strip(), str(cell(r, "Name") or "").strip()) for r in body
        ]
        filled = fill_ratings(people, ratings, figure)  # type: ignore[arg-type]
        new = {f.row: _values(f, blitz) for f in filled.filled}
        rows = []
        for i, r in enumerate(body):
            values = {h: cell(r, h) for h in layout.PLAYERS_HEADERS}
            values.update(new.get(i, {}))
            rows.append(values)
        package, _ = input_rows_package(
            data, {layout.PLAYERS: InputRows(rows, keep=0, in_place=True)}
        )
    except FormatError as error:
        raise FormatError(f"{book}: {error}") from None
    write_package(package, book)
    where = [f"{layout.PLAYERS} row {header_at + 2 + i}" for i in range(len(body))]
    return filled, where, blitz


def _into_folder(
    folder: Path, ratings: RatingList, figure: str
) -> tuple[RatingsFilled, list[str], bool]:
    from xlgrade.formats.csvfile import column_field, csv_rows, delimiter_of, neutralise
    from xlgrade.formats.detect import decode
    from xlgrade.formats.files import write_whole
    from xlgrade.formats.ratinglist import fill_ratings
    from xlgrade.workbook import layout

    path = folder / "players.csv"
    if not path.is_file():
        raise GradingError(f"{folder}: no players.csv there, nor a workbook (.xlsm, .xlsx)")
    data = path.read_bytes()
    text = decode(data)
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise FormatError(f"{path}: the file is empty")
    delimiter = delimiter_of(lines[first])
    newline = "\r\n" if "\r\n" in text else "\n"
    try:
        table = csv_rows(lines[first:], delimiter, first + 1)
    except FormatError as error:
        raise FormatError(f"{path}: {error}") from None
    header = table[0]
    fields = [column_field(h) for h in header]
    keys = [layout.header_key(h) for h in header]
    if "name" not in fields:
        raise FormatError(
            f"{path}: line {first + 1}: header {quote(lines[first])} has no Name column"
        )
    blitz = all(layout.header_key(h) in keys for h in BLITZ_HEADERS)
    for heading in filled_headers():
        if layout.header_key(heading) not in keys:
            header.append(heading)
            keys.append(layout.header_key(heading))
    width = len(header)
    body = [(n, r) for n, r in enumerate(table[1:], start=first + 2) if any(c.strip() for c in r)]
    code_at = fields.index("code") if "code" in fields else None
    name_at = fields.index("name")
    people = [
        (
            r[code_at].strip() if code_at is not None and code_at < len(r) else "",
            r[name_at].strip() if name_at < len(r) else "",
        )
        for _, r in body
    ]
    filled = fill_ratings(people, ratings, figure)  # type: ignore[arg-type]
    for f in filled.filled:
        row = body[f.row][1]
        row.extend([""] * (width - len(row)))
        for heading, value in _values(f, blitz).items():
            row[keys.index(layout.header_key(heading))] = neutralise(
                "" if value is None else str(value)
            )
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=delimiter, lineterminator=newline)
    writer.writerow(header)
    writer.writerows(table[1:])
    bom = "\ufeff" if data.startswith(b"\xef\xbb\xbf") else ""
    prefix = "".join(line + newline for line in lines[:first])
    write_whole((bom + prefix + out.getvalue()).encode("utf-8"), path)
    return filled, [f"players.csv line {n}" for n, _ in body], blitz
