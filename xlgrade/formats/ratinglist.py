"""The ECF's published rating list (CSV), and filling a Players table's ratings from it.

The ECF rating system publishes its list as a CSV download (its API's ``rating_list_csv``,
one row a player). The columns, by the names public code reading the file uses: ``ECF_code``,
``full_name`` ("Surname, Forenames"), ``member_no``, ``FIDE_no``, ``gender``, ``nation``,
``club_code``, ``club_name``, ``title`` (FIDE and NM titles, "added to download May 2024",
the ECF's API help page) and, for each list, an original and a revised rating with its
category: ``original_standard``, ``revised_standard``, ``revised_rapid``, ``revised_blitz``
and so on. Decisions where no source seen names the column: a category is the rating's column
name followed by ``_category`` (``original_standard_category``), and the online lists are
``standard_online``, ``rapid_online``, ``blitz_online`` (``original_standard_online``…).
Headers are compared without regard to case, spaces, ``_`` or ``-``; other columns are ignored.
A file is recognised by its content (:func:`looks_like_rating_list`), never by its name.

The ECF's rating help: "The Original Rating will never change. It is copied from the Revised
Rating published on the first day of the stated month"; "for eligibility purposes … the ECF
will use Original August ratings". So the original figure is the one filled by default.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from xlgrade._rounding import quote
from xlgrade.codes import ecf_code_letter
from xlgrade.ecf_rating import MAX_RATING
from xlgrade.errors import CodeError, FormatError
from xlgrade.formats.csvfile import csv_rows, delimiter_of
from xlgrade.formats.names import canonical_code, names_compatible
from xlgrade.workbook.layout import header_key

__all__ = [
    "HEADER",
    "LISTS",
    "MAX_RATING",
    "Figure",
    "ListRating",
    "RatingEntry",
    "RatingList",
    "RatingsFilled",
    "RowRatings",
    "fill_ratings",
    "looks_like_rating_list",
    "read_rating_list",
    "write_rating_list",
]

LISTS: Final = (
    "standard",
    "rapid",
    "blitz",
    "standard_online",
    "rapid_online",
    "blitz_online",
)
"""The lists a rating list carries a rating for, by the name its columns use."""
HEADER: Final = (
    "ECF_code", "full_name", "member_no", "FIDE_no", "gender", "nation", "club_code",
    "club_name",
    *(
        f"{figure}_{name}{suffix}"
        for name in LISTS
        for figure in ("original", "revised")
        for suffix in ("", "_category")
    ),
    "title",
)  # fmt: skip
"""The columns :func:`write_rating_list` writes, in the order the issue's description of the
ECF's file gives them (identity, club, the lists' figures, the title last)."""
Figure = Literal["original", "revised"]
"""Which of a list's two figures: the original (issued on the 1st, never changed) or revised."""

_IDENTITY: Final = {
    "ecfcode": "code",
    "fullname": "name",
    "memberno": "member_no",
    "fideno": "fide_no",
    "gender": "gender",
    "nation": "nation",
    "title": "title",
    "clubcode": "club_code",
    "clubname": "club_name",
}
_CATEGORIES: Final = frozenset("ABCDEFHKPX")
"""Category letters read: today's A, H, K, P, and the letters of lists before 2022."""


@dataclass(frozen=True)
class ListRating:
    """One list's figures for a player: ``None`` where the list has none.

    Attributes:
        original, original_category: the rating issued on the 1st of the month, and its
            category.
        revised, revised_category: the revised rating (late results taken in), and its
            category.
    """

    original: int | None = None
    original_category: str | None = None
    revised: int | None = None
    revised_category: str | None = None

    def figure(self, which: Figure) -> tuple[int | None, str | None]:
        """The rating and category of ``which`` figure."""
        if which == "original":
            return self.original, self.original_category
        return self.revised, self.revised_category


@dataclass(frozen=True)
class RatingEntry:
    """One player of the rating list.

    Attributes:
        code: the ECF code (six digits and its check letter, checked).
        name: the full name as the list writes it ("Surname, Forenames").
        member_no, fide_no, gender, nation, title, club_code, club_name: as on the list
            (``""`` where blank).
        ratings: the player's figures by list name (:data:`LISTS`).
        line: the line of the file.
    """

    code: str
    name: str
    member_no: str
    fide_no: str
    gender: str
    nation: str
    title: str
    club_code: str
    club_name: str
    ratings: Mapping[str, ListRating]
    line: int


@dataclass(frozen=True)
class RatingList:
    """A rating list read: its players by code, and the rows it could not take.

    Attributes:
        entries: the players, by canonical ECF code.
        rows: data rows read.
        refused: ``(line, why)`` for each row not taken (a code that fails its check letter,
            a code given twice); every row is an entry or refused.
        lists: the lists the file has a column for.
    """

    entries: Mapping[str, RatingEntry]
    rows: int
    refused: tuple[tuple[int, str], ...]
    lists: tuple[str, ...]

    @property
    def accounting(self) -> str:
        """One line: every row is a player or refused."""
        return f"{self.rows} rows: {len(self.entries)} players, {len(self.refused)} refused"


def _header(text: str) -> tuple[int, list[str], str] | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            delimiter = delimiter_of(line)
            try:
                return number, csv_rows([line], delimiter, number)[0], delimiter
            except FormatError:  # a cell past the CSV reader's limit: no rating list header
                return None
    return None


def _rating_columns(header: Sequence[str]) -> dict[tuple[str, str], int]:
    """``(list, field)`` → column, for the rating and category columns of ``header``."""
    keys = [header_key(h) for h in header]
    out: dict[tuple[str, str], int] = {}
    for name in LISTS:
        base = header_key(name)
        for figure in ("original", "revised"):
            for field, key in (
                (figure, f"{figure}{base}"),
                (f"{figure}_category", f"{figure}{base}category"),
            ):
                if key in keys:
                    out[(name, field)] = keys.index(key)
    return out


def looks_like_rating_list(text: str) -> bool:
    """Whether ``text`` is an ECF rating list: its header row names ``ECF_code``, ``full_name``
    and at least one original or revised rating column."""
    found = _header(text)
    if found is None:
        return False
    keys = {header_key(h) for h in found[1]}
    return {"ecfcode", "fullname"} <= keys and bool(_rating_columns(found[1]))


def _rating(value: str, where: str, column: str) -> int | None:
    text = value.strip()
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        number = -1.0
    if not (number.is_integer() and 0 <= number <= MAX_RATING):
        raise FormatError(f"{where}: {column} {quote(value)} is not a rating (0 to {MAX_RATING})")
    return int(number)


def _category(value: str, where: str, column: str) -> str | None:
    text = value.strip().upper()
    if not text:
        return None
    if text not in _CATEGORIES:
        raise FormatError(f"{where}: {column} {quote(value)} is not a rating category")
    return text


def read_rating_list(text: str, source: str) -> RatingList:
    """Read an ECF rating list CSV (see the module docstring).

    The separator is a comma, a semicolon or a tab, whichever the header uses most. A row with
    a code that fails its check letter (GRADING-RULES.md §8), or a code already given, is
    refused and listed, not read; a rating or category that is not one is an error.

    Raises:
        FormatError: ``source: line N: …`` quoting the cell, or a header without ``ECF_code``,
            ``full_name`` and a rating column.
    """
    found = _header(text)
    if found is None or not looks_like_rating_list(text):
        first = "" if found is None else ",".join(found[1])[:80]
        raise FormatError(
            f"{source}: line {1 if found is None else found[0]}: header {quote(first)} is not an "
            f"ECF "
            "rating list's (it needs ECF_code, full_name and a rating column such as "
            "original_standard)"
        )
    header_line, header, delimiter = found
    keys = [header_key(h) for h in header]
    identity = {field: keys.index(key) for key, field in _IDENTITY.items() if key in keys}
    ratings = _rating_columns(header)
    lists = tuple(name for name in LISTS if any(k[0] == name for k in ratings))
    lines = text.splitlines()
    entries: dict[str, RatingEntry] = {}
    refused: list[tuple[int, str]] = []
    rows = 0
    try:
        table = csv_rows(lines[header_line:], delimiter, header_line + 1)
    except FormatError as error:
        raise FormatError(f"{source}: {error}") from None
    for offset, cells in enumerate(table, start=header_line + 1):
        if not any(c.strip() for c in cells):
            continue
        rows += 1
        where = f"{source}: line {offset}"
        if len(cells) > len(header):
            raise FormatError(f"{where}: {len(cells)} cells, the header has {len(header)}")
        cells = cells + [""] * (len(header) - len(cells))

        def cell(field: str, cells: list[str] = cells) -> str:
            return cells[identity[field]].strip() if field in identity else ""

        raw_code = cell("code")
        code = canonical_code(raw_code)
        if code is None:
            refused.append((offset, f"ECF code {quote(raw_code)} {_code_fault(raw_code)}"))
            continue
        if code in entries:
            refused.append((offset, f"ECF code {code} is on line {entries[code].line} already"))
            continue
        figures: dict[str, ListRating] = {}
        for name in lists:
            values: dict[str, object] = {}
            for field in ("original", "revised"):
                column = ratings.get((name, field))
                if column is not None:
                    values[field] = _rating(cells[column], where, header[column])
                column = ratings.get((name, f"{field}_category"))
                if column is not None:
                    values[f"{field}_category"] = _category(cells[column], where, header[column])
            figures[name] = ListRating(**values)  # type: ignore[arg-type]
        entries[code] = RatingEntry(
            code=code,
            name=cell("name"),
            member_no=cell("member_no"),
            fide_no=cell("fide_no"),
            gender=cell("gender"),
            nation=cell("nation"),
            title=cell("title"),
            club_code=cell("club_code"),
            club_name=cell("club_name"),
            ratings=figures,
            line=offset,
        )
    return RatingList(entries, rows, tuple(refused), lists)


def _code_fault(code: str) -> str:
    """Why ``code`` is not a valid ECF code: its check letter, or its form."""
    text = code.strip()
    if len(text) == 7 and text[:6].isdigit() and text[6].isalpha():
        try:
            return f"fails its check letter ({text[:6]} needs {quote(ecf_code_letter(text[:6]))})"
        except CodeError:  # pragma: no cover - six digits always have a letter
            pass
    return "is not six digits and a check letter"


@dataclass(frozen=True)
class RowRatings:
    """The ratings to write on one Players row.

    Attributes:
        row: the row's index among the table's data rows (0 for the first).
        standard, standard_category, rapid, rapid_category: from the list.
    """

    row: int
    standard: int | None
    standard_category: str | None
    rapid: int | None
    rapid_category: str | None


@dataclass(frozen=True)
class RatingsFilled:
    """What :func:`fill_ratings` did, row by row: every Players row is in exactly one of
    ``filled``, ``not_on_list``, ``bad_code`` and ``no_code``.

    Attributes:
        filled: the rows whose code is on the list, with their ratings.
        names_differ: ``(row, name, list name)`` for filled rows whose name is not the list's.
        not_on_list: ``(row, code, name)``: a valid code the list does not have.
        bad_code: ``(row, code, name, why)``: a code that fails its check letter or its form.
        no_code: ``(row, name)``: no code, so nothing to look up.
    """

    filled: tuple[RowRatings, ...]
    names_differ: tuple[tuple[int, str, str], ...]
    not_on_list: tuple[tuple[int, str, str], ...]
    bad_code: tuple[tuple[int, str, str, str], ...]
    no_code: tuple[tuple[int, str], ...]


def fill_ratings(
    players: Sequence[tuple[str, str]], ratings: RatingList, figure: Figure = "original"
) -> RatingsFilled:
    """Look up each Players row, given as ``(code, name)``, on the rating list.

    A row whose code is on the list takes its standard and rapid ratings and categories
    (``figure``: the original, by default, or the revised); a name that is not the list's
    (:func:`xlgrade.formats.names.names_compatible`: same surname, forenames agreeing as far as
    they go) is reported, the ratings still filled (the code identifies the player). Rows with
    no code, a bad code or a code not on the list are reported and keep what they have (a
    decision: a list extract may leave players out).
    """
    filled: list[RowRatings] = []
    differ: list[tuple[int, str, str]] = []
    missing: list[tuple[int, str, str]] = []
    bad: list[tuple[int, str, str, str]] = []
    blank: list[tuple[int, str]] = []
    for row, (raw_code, name) in enumerate(players):
        text = (raw_code or "").strip()
        if not text:
            blank.append((row, name))
            continue
        code = canonical_code(text)
        if code is None:
            bad.append((row, text, name, _code_fault(text)))
            continue
        entry = ratings.entries.get(code)
        if entry is None:
            missing.append((row, code, name))
            continue
        standard = entry.ratings.get("standard", ListRating()).figure(figure)
        rapid = entry.ratings.get("rapid", ListRating()).figure(figure)
        filled.append(RowRatings(row, standard[0], standard[1], rapid[0], rapid[1]))
        if name.strip() and not names_compatible(name, entry.name):
            differ.append((row, name, entry.name))
    return RatingsFilled(tuple(filled), tuple(differ), tuple(missing), tuple(bad), tuple(blank))


def write_rating_list(entries: Sequence[RatingEntry]) -> str:
    """A rating list CSV of ``entries`` under :data:`HEADER` (comma-separated, ``\n`` line
    ends), which :func:`read_rating_list` reads back."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for e in entries:
        row: list[object] = [
            e.code, e.name, e.member_no, e.fide_no, e.gender, e.nation, e.club_code, e.club_name,
        ]  # fmt: skip
        for name in LISTS:
            figures = e.ratings.get(name, ListRating())
            for which in ("original", "revised"):
                rating, category = figures.figure(which)
                row += ["" if rating is None else rating, category or ""]
        row.append(e.title)
        writer.writerow(row)
    return out.getvalue()
