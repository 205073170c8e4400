"""A Players table filled from the ECF's rating list (``xlgrade ratings``): which columns take
which of the list's figures, and the table's rows refilled, a sheet's cells or a
``players.csv``.

Each Players row whose ECF code is on the list (:func:`xlgrade.formats.ratinglist.fill_ratings`)
takes, as the season's fixed figures (the list of the month the grader took it from), its
``ECF rating``, ``ECF category``, ``ECF rapid rating`` and ``ECF rapid category``, and ``ECF
blitz rating`` and ``ECF blitz category`` where the table has them (:func:`columns_filled`);
with ``latest``, instead, ``Latest ECF rating``, the live standard rating a division's rules may
ask for (``latest rating``: Croydon fixes the September list for eligibility and uses the latest
for board order), the fixed figures kept. Either way ``ECF member`` is filled from the list's
``member_no``: a player on the list with a member number is a member (``yes``), one on it
without is not (``no``); a player not on the list keeps what he has.

A list of a known month is kept too (:func:`kept_ratings`): each Players row found on it is a
row of the league's Ratings table (the book's ``Ratings`` sheet, a folder's ``ratings.csv``;
:data:`xlgrade.editions.RATINGS_HEADERS`), its code, name, month and figures, so that a
division can take its ratings from a named edition or the one in force on a match's date.
Loading a month again replaces that month's rows; every other month's are kept as they were.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Final

from xlgrade import cells
from xlgrade._rounding import quote
from xlgrade.cells import header_key
from xlgrade.editions import RATINGS_HEADERS
from xlgrade.errors import FormatError, GradingError
from xlgrade.formats.csvfile import column_field, csv_rows, csv_text, delimiter_of, restore
from xlgrade.formats.detect import decode
from xlgrade.formats.ratinglist import Figure, RatingList, RatingsFilled, RowRatings, fill_ratings
from xlgrade.schema import PLAYERS_COLUMNS, PLAYERS_HEADERS, RATING_COLUMNS

__all__ = [
    "BLITZ_HEADERS",
    "FIXED_HEADERS",
    "LATEST_HEADERS",
    "MEMBER_HEADER",
    "PlayersFilled",
    "columns_filled",
    "edition_rows",
    "fill_players_csv",
    "fill_players_sheet",
    "kept_ratings",
    "month_in_name",
    "ratings_csv",
    "row_cells",
]

FIXED_HEADERS: Final = tuple(column.header for column in RATING_COLUMNS[:4])
"""The Players columns of the season's fixed figures, always filled: ECF rating, ECF category,
ECF rapid rating, ECF rapid category."""
BLITZ_HEADERS: Final = ("ECF blitz rating", "ECF blitz category")
"""The Players columns of the blitz list's figures, filled where the table has them."""
_BY_FIELD: Final = {column.field: column.header for column in PLAYERS_COLUMNS}
LATEST_HEADERS: Final = (_BY_FIELD["latest_ecf_rating"],)
"""The Players column of the latest edition (the live standard rating), filled with
``latest``."""
MEMBER_HEADER: Final = _BY_FIELD["ecf_member"]
"""The Players column of ECF membership, filled from the list's ``member_no``."""


def columns_filled(*, latest: bool = False, blitz: bool = False) -> dict[str, tuple[str, ...]]:
    """Each list's Players columns, its rating then its category (``latest``: the standard
    list's rating only, into ``Latest ECF rating``; ``blitz``: the blitz columns too)."""
    if latest:
        return {"standard": LATEST_HEADERS}
    out = {"standard": FIXED_HEADERS[:2], "rapid": FIXED_HEADERS[2:]}
    if blitz:
        out["blitz"] = BLITZ_HEADERS
    return out


def required_headers(latest: bool = False) -> tuple[str, ...]:
    """The columns a Players table must have to be filled (a folder's are added)."""
    return LATEST_HEADERS if latest else FIXED_HEADERS


def row_cells(
    row: RowRatings, *, latest: bool = False, blitz: bool = False, member: bool = True
) -> dict[str, object]:
    """The Players cells of ``row``'s figures, by heading (:func:`columns_filled`), and its
    ``ECF member`` (``yes`` or ``no``) where ``member``."""
    out: dict[str, object] = {}
    for name, headings in columns_filled(latest=latest, blitz=blitz).items():
        out.update(zip(headings, row.figures(name), strict=False))
    if member and row.member is not None:
        out[MEMBER_HEADER] = "yes" if row.member else "no"
    return out


@dataclass(frozen=True)
class PlayersFilled:
    """A Players table filled (:func:`fill_players_sheet`, :func:`fill_players_csv`).

    Attributes:
        filled: what the list gave each row (:class:`RatingsFilled`).
        where: each data row's place, for the report (``Players row 5``, ``players.csv line 5``).
        lists: the lists whose figures were written (``standard``, ``rapid``, ``blitz``).
        member: whether ``ECF member`` was filled (the table has the column).
        latest: the latest edition was filled, not the fixed figures.
        people: each data row's ECF code and name, as looked up.
    """

    filled: RatingsFilled
    where: tuple[str, ...]
    lists: tuple[str, ...]
    member: bool
    latest: bool
    people: tuple[tuple[str, str], ...] = ()


def fill_players_sheet(
    raw: Sequence[Sequence[object]],
    ratings: RatingList,
    figure: Figure = "original",
    *,
    latest: bool = False,
    sheet: str = "Players",
) -> tuple[list[dict[str, object]], int, PlayersFilled]:
    """A Players sheet's cells ``raw`` (header row somewhere above the data) refilled: each data
    row's cells by template heading (:data:`xlgrade.schema.PLAYERS_HEADERS`), the header's row
    index, and what was done. Blitz and ``ECF member`` are filled where the sheet has their
    columns (the book's writer fills the template's columns only).

    Raises:
        FormatError: no ``Name`` column, or a column to fill missing, naming them.
    """
    header_at = next(
        (i for i, row in enumerate(raw) if any(header_key(v) == "name" for v in row)), None
    )
    if header_at is None:
        raise FormatError(f"the {sheet} sheet has no column headed 'Name'")
    header = [header_key(v) for v in raw[header_at]]
    missing = [h for h in required_headers(latest) if header_key(h) not in header]
    if missing:
        raise FormatError(
            f"the {sheet} sheet has no column headed "
            + ", ".join(repr(h) for h in missing)
            + ": add them (a book made from this version's template has them)"
        )
    blitz = all(header_key(h) in header and h in PLAYERS_HEADERS for h in BLITZ_HEADERS)
    member = header_key(MEMBER_HEADER) in header
    column = {key: i for i, key in reversed(list(enumerate(header))) if key}
    body = [list(r) for r in raw[header_at + 1 :]]
    while body and all(v is None for v in body[-1]):
        body.pop()

    def cell(row: Sequence[object], heading: str) -> object:
        i = column.get(header_key(heading))
        return row[i] if i is not None and i < len(row) else None

    people = [
        (str(cell(r, "Code") or "").strip(), str(cell(r, "Name") or "").strip()) for r in body
    ]
    filled = fill_ratings(people, ratings, figure)
    new = {f.row: row_cells(f, latest=latest, blitz=blitz, member=member) for f in filled.filled}
    rows = []
    for i, r in enumerate(body):
        values = {h: cell(r, h) for h in PLAYERS_HEADERS}
        values.update(new.get(i, {}))
        rows.append(values)
    where = tuple(f"{sheet} row {header_at + 2 + i}" for i in range(len(body)))
    lists = tuple(columns_filled(latest=latest, blitz=blitz))
    return rows, header_at, PlayersFilled(filled, where, lists, member, latest, tuple(people))


def fill_players_csv(
    data: bytes,
    ratings: RatingList,
    figure: Figure = "original",
    *,
    latest: bool = False,
    source: str = "players.csv",
    notes: list[str] | None = None,
) -> tuple[bytes, PlayersFilled]:
    """A ``players.csv`` refilled, with its own columns, separator, line endings and byte-order
    mark; the columns to fill (and ``ECF member``) added at its end where missing, blitz filled
    where it has the blitz columns. A file that is not UTF-8 is read as the encoding it most
    likely is, with the note of :func:`xlgrade.formats.encoding.not_utf8_note` to ``notes``,
    and written back as UTF-8.

    Raises:
        FormatError: ``source: line N: …``: an empty file, no ``Name`` column, a broken row.
    """
    text = decode(data, notes)
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise FormatError(f"{source}: the file is empty")
    delimiter = delimiter_of(lines[first])
    newline = "\r\n" if "\r\n" in text else "\n"
    try:
        # Each cell as it reads (restore: a neutralised formula's ``'`` off), written back
        # neutralised again below, so that a row not filled reads as it did.
        table = [[restore(c) for c in r] for r in csv_rows(lines[first:], delimiter, first + 1)]
    except FormatError as error:
        raise FormatError(f"{source}: {error}") from None
    header = table[0]
    fields = [column_field(h) for h in header]
    keys = [header_key(h) for h in header]
    if "name" not in fields:
        raise FormatError(
            f"{source}: line {first + 1}: header {quote(lines[first])} has no Name column"
        )
    blitz = all(header_key(h) in keys for h in BLITZ_HEADERS)
    for heading in (*required_headers(latest), MEMBER_HEADER):
        if header_key(heading) not in keys:
            header.append(heading)
            keys.append(header_key(heading))
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
    filled = fill_ratings(people, ratings, figure)
    for f in filled.filled:
        row = body[f.row][1]
        row.extend([""] * (width - len(row)))
        for heading, value in row_cells(f, latest=latest, blitz=blitz).items():
            row[keys.index(header_key(heading))] = "" if value is None else str(value)
    # Written as xlgrade writes every CSV file: neutralised and quoted (csv_text).
    out = csv_text(table, delimiter, newline)
    bom = "\ufeff" if data.startswith(b"\xef\xbb\xbf") else ""
    prefix = "".join(line + newline for line in lines[:first])
    where = tuple(f"{PurePath(source).name} line {n}" for n, _ in body)
    lists = tuple(columns_filled(latest=latest, blitz=blitz))
    done = PlayersFilled(filled, where, lists, True, latest, tuple(people))
    return (bom + prefix + out).encode("utf-8"), done


_MONTH_IN_NAME: Final = (
    re.compile(r"(?<!\d)(\d{4})[-_. ]?(\d{2})(?!\d)"),
    re.compile(r"([a-z]{3,9})[-_. ]?(\d{4})(?!\d)", re.IGNORECASE),
)
"""A month in a file's name: the year and month in figures, or the month in words and the year."""


def month_in_name(name: str) -> dt.date | None:
    """The month a rating list's file name gives (``ratings-2026-01.csv``, ``ECF 202601.csv``,
    ``september_2025.csv``), or ``None``: the list itself carries no date.

    >>> month_in_name("ratings-2026-01.csv"), month_in_name("list.csv")
    (datetime.date(2026, 1, 1), None)
    """
    stem = PurePath(name).stem
    for figures, pattern in zip((True, False), _MONTH_IN_NAME, strict=True):
        for found in pattern.finditer(stem):
            text = f"{found[1]}-{found[2]}" if figures else f"{found[1]} {found[2]}"
            try:
                return cells.month(text)
            except GradingError:
                continue
    return None


def edition_rows(
    people: Sequence[tuple[str, str]], filled: RatingsFilled, month: dt.date
) -> list[tuple[object, ...]]:
    """The Ratings rows (:data:`xlgrade.editions.RATINGS_HEADERS`) of the Players rows
    ``people`` (``(code, name)``) that the list of ``month`` gave figures."""
    out: list[tuple[object, ...]] = []
    for f in filled.filled:
        code, name = people[f.row]
        out.append(
            (
                "".join(code.split()).upper(),
                name,
                f"{month:%Y-%m}",
                f.standard,
                f.standard_category,
                f.rapid,
                f.rapid_category,
            )
        )
    return out


def kept_ratings(
    existing: Sequence[Sequence[object]] | None,
    month: dt.date,
    new: Sequence[tuple[object, ...]],
) -> list[tuple[object, ...]]:
    """The Ratings table's rows after loading the list of ``month``: the rows of ``existing``
    (its cells, header first; ``None``: no table yet) of every other month as they were, then
    ``new``, by month and name. A row whose ``List`` cannot be read is kept as it is (the
    season's reader reports it).

    Raises:
        FormatError: an existing table without a ``List`` column, quoting its header.
    """
    kept: list[tuple[object, ...]] = []
    rows = [list(r) for r in existing or () if any(not cells.blank(v) for v in r)]
    if rows:
        header = [header_key(v) for v in rows[0]]
        if header_key("List") not in header:
            raise FormatError(
                f"the Ratings table has no column headed 'List' (its header is {rows[0]!r})"
            )
        at = [
            header.index(header_key(h)) if header_key(h) in header else -1 for h in RATINGS_HEADERS
        ]
        for row in rows[1:]:
            picked = tuple(row[i] if 0 <= i < len(row) else None for i in at)
            try:
                same = cells.month(picked[2]) == month
            except GradingError:
                same = False
            if not same:
                kept.append(picked)
    out = [*kept, *new]

    def order(row: tuple[object, ...]) -> tuple[str, str]:
        try:
            when = cells.month(row[2])
        except GradingError:
            when = None
        return (when.isoformat() if when else str(row[2] or "")), str(row[1] or "").casefold()

    return sorted(out, key=order)


def ratings_csv(rows: Sequence[tuple[object, ...]]) -> bytes:
    """A folder's ``ratings.csv``: :data:`xlgrade.editions.RATINGS_HEADERS` and ``rows``."""
    return csv_text([RATINGS_HEADERS, *rows], newline="\n").encode("utf-8")
