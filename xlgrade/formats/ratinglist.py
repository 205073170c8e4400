"""The ECF's published rating list (CSV), and filling a Players table's ratings from it.

The ECF rating system publishes its list as a CSV download (its API's ``rating_list``, one row
a player). Two layouts of its header are known, both as public readers of the file give them
(RogerMarsh/chessreports ``constants.py``, ``PLAYERS_RATINGS_COLUMN_NAMES_2022_10`` and
``PLAYERS_RATINGS_COLUMN_NAMES_ORIGINAL``; docs/rules.md §12):

October 2022 (:data:`LAYOUT_2022_10`)
    ``ECF_code``, ``full_name``, ``member_no``, ``FIDE_no``, ``gender``, ``nation``; then for
    each list of :data:`LISTS` ``original_<list>``, ``<list>_original_category``,
    ``revised_<list>``, ``<list>_revised_category``; then ``club_code``, ``club_name`` and
    ``title`` (FIDE and NM titles, "added to download May 2024", the ECF's API help page, so a
    file from before then has no ``title``).
original (:data:`LAYOUT_ORIGINAL`)
    the same identity columns; ``original_standard``, ``revised_standard``,
    ``standard_category``, the same three for rapid, the original and revised figures of the
    three online lists (no category, no blitz), ``club_code``, ``club_name``. Its one category
    of a list is read as the category of both figures.

A file is recognised by its content (:func:`looks_like_rating_list`), never by its name, and
its layout by its header: every column of one layout must be there (headers compared without
regard to case, spaces, ``_`` or ``-``, in any order); columns of neither layout are listed
(:attr:`RatingList.ignored`), and a header that is neither layout is refused naming the columns
found and those missing. The bytes are decoded by :func:`xlgrade.formats.detect.decode`
(UTF-8 with or without a byte-order mark, else Windows-1252); cells may be quoted.

The ECF's rating help: "The Original Rating will never change. It is copied from the Revised
Rating published on the first day of the stated month"; "for eligibility purposes … the ECF
will use Original August ratings". So the original figure is the one filled by default.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from xlgrade._rounding import quote
from xlgrade.cells import header_key
from xlgrade.codes import ecf_code_letter
from xlgrade.ecf_rating import MAX_RATING, MIN_RATING
from xlgrade.errors import CodeError, FormatError
from xlgrade.formats.csvfile import csv_rows, delimiter_of
from xlgrade.names import canonical_code, names_compatible
from xlgrade.season.reconcile import ListedPlayer

__all__ = [
    "HEADER",
    "LAYOUTS",
    "LAYOUT_2022_10",
    "LAYOUT_ORIGINAL",
    "LISTS",
    "MAX_RATING",
    "Figure",
    "ListRating",
    "RatingEntry",
    "RatingList",
    "RatingsFilled",
    "RowRatings",
    "fill_ratings",
    "listed_players",
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
_IDENTITY_COLUMNS: Final = ("ECF_code", "full_name", "member_no", "FIDE_no", "gender", "nation")
LAYOUT_2022_10: Final = (
    *_IDENTITY_COLUMNS,
    *(
        column
        for name in LISTS
        for column in (
            f"original_{name}",
            f"{name}_original_category",
            f"revised_{name}",
            f"{name}_revised_category",
        )
    ),
    "club_code",
    "club_name",
    "title",
)
"""The ECF's header since October 2022 (``title`` since May 2024), in its order."""
LAYOUT_ORIGINAL: Final = (
    *_IDENTITY_COLUMNS,
    *(
        column
        for name in ("standard", "rapid")
        for column in (f"original_{name}", f"revised_{name}", f"{name}_category")
    ),
    *(
        f"{figure}_{name}"
        for name in ("standard_online", "rapid_online", "blitz_online")
        for figure in ("original", "revised")
    ),
    "club_code",
    "club_name",
)
"""The ECF's header before October 2022, in its order."""
LAYOUTS: Final[Mapping[str, tuple[str, ...]]] = {
    "October 2022": LAYOUT_2022_10,
    "original": LAYOUT_ORIGINAL,
}
"""The known layouts by name, the newest first."""
_OPTIONAL: Final = frozenset({header_key("title")})
"""Columns a layout may lack: ``title`` came in May 2024."""
HEADER: Final = LAYOUT_2022_10
"""The columns :func:`write_rating_list` writes: the ECF's current layout."""
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
_CATEGORIES: Final = frozenset("AHKP")
"""Category letters read: A, K, P, and H (a rating carried over from the 2020 grades and not
played on, which the ECF ended in December 2022)."""


def _targets(layout: Sequence[str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Column key → the ``(list, field)`` figures it gives, for the rating columns of
    ``layout``: a category column of the original layout gives both figures' category."""
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    for name in LISTS:
        for figure in ("original", "revised"):
            out[header_key(f"{figure}_{name}")] = ((name, figure),)
            out[header_key(f"{name}_{figure}_category")] = ((name, f"{figure}_category"),)
        out[header_key(f"{name}_category")] = (
            (name, "original_category"),
            (name, "revised_category"),
        )
    keys = {header_key(c) for c in layout}
    return {k: v for k, v in out.items() if k in keys}


_LAYOUT_TARGETS: Final = {name: _targets(columns) for name, columns in LAYOUTS.items()}


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
        layout: the layout of its header (a key of :data:`LAYOUTS`).
        ignored: the header's columns that are in neither layout (not read).
    """

    entries: Mapping[str, RatingEntry]
    rows: int
    refused: tuple[tuple[int, str], ...]
    lists: tuple[str, ...]
    layout: str = "October 2022"
    ignored: tuple[str, ...] = ()

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


def looks_like_rating_list(text: str) -> bool:
    """Whether ``text`` is an ECF rating list: its header row names ``ECF_code``, ``full_name``
    and at least one original or revised rating column (of any layout: the reader then says
    whether it knows the layout)."""
    found = _header(text)
    if found is None:
        return False
    keys = {header_key(h) for h in found[1]}
    ratings = {
        header_key(f"{figure}_{name}") for name in LISTS for figure in ("original", "revised")
    }
    return {"ecfcode", "fullname"} <= keys and bool(keys & ratings)


def _layout(header: Sequence[str]) -> str | None:
    """The layout whose every column (``title`` may be missing) ``header`` has, or ``None``."""
    keys = {header_key(h) for h in header}
    for name, columns in LAYOUTS.items():
        if {header_key(c) for c in columns} - _OPTIONAL <= keys:
            return name
    return None


def _unknown_layout(source: str, line: int, header: Sequence[str]) -> FormatError:
    keys = {header_key(h) for h in header}
    missing = {
        name: [c for c in columns if header_key(c) not in keys and header_key(c) not in _OPTIONAL]
        for name, columns in LAYOUTS.items()
    }
    nearest = min(missing, key=lambda name: len(missing[name]))
    return FormatError(
        f"{source}: line {line}: the header is neither of the ECF rating list's layouts: its "
        f"columns are {', '.join(header)}; the {nearest} layout would also need "
        f"{', '.join(missing[nearest])}"
    )


def _rating(value: str, where: str, column: str) -> int | None:
    text = value.strip()
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not (number.is_integer() and MIN_RATING <= number <= MAX_RATING):
        raise FormatError(
            f"{where}: {column} {quote(value)} is not a rating ({MIN_RATING} to {MAX_RATING})"
        )
    return int(number)


def _category(value: str, where: str, column: str) -> str | None:
    text = value.strip().upper()
    if not text:
        return None
    if text not in _CATEGORIES:
        raise FormatError(
            f"{where}: {column} {quote(value)} is not a rating category (A, K, P or H)"
        )
    return text


def read_rating_list(text: str, source: str) -> RatingList:
    """Read an ECF rating list CSV in either of its layouts (see the module docstring).

    The separator is a comma, a semicolon or a tab, whichever the header uses most. A row with
    a code that fails its check letter (docs/rules.md §8), or a code already given, is
    refused and listed, not read; a rating or category that is not one is an error.

    Raises:
        FormatError: ``source: line N: …`` quoting the cell; a header without ``ECF_code``,
            ``full_name`` and a rating column; a header of neither layout, naming its columns
            and those missing.
    """
    found = _header(text)
    if found is None or not looks_like_rating_list(text):
        first = "" if found is None else ",".join(found[1])[:80]
        raise FormatError(
            f"{source}: line {1 if found is None else found[0]}: header {quote(first)} is not an "
            "ECF rating list's (it needs ECF_code, full_name and a rating column such as "
            "original_standard)"
        )
    header_line, header, delimiter = found
    layout = _layout(header)
    if layout is None:
        raise _unknown_layout(source, header_line, header)
    keys = [header_key(h) for h in header]
    known = {header_key(c) for c in LAYOUTS[layout]}
    identity = {field: keys.index(key) for key, field in _IDENTITY.items() if key in keys}
    targets = _LAYOUT_TARGETS[layout]
    columns = [(keys.index(key), figures) for key, figures in targets.items()]
    lists = tuple(name for name in LISTS if any(f[0][0] == name for _, f in columns))
    ignored = tuple(h for h, k in zip(header, keys, strict=True) if k not in known)
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
        values: dict[str, dict[str, object]] = {name: {} for name in lists}
        for at, figures in columns:
            for name, field in figures:
                read = (
                    _category(cells[at], where, header[at])
                    if field.endswith("_category")
                    else _rating(cells[at], where, header[at])
                )
                values[name][field] = read
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
            ratings={name: ListRating(**v) for name, v in values.items()},  # type: ignore[arg-type]
            line=offset,
        )
    return RatingList(entries, rows, tuple(refused), lists, layout, ignored)


def _code_fault(code: str) -> str:
    """Why ``code`` is not a valid ECF code: its check letter, or its form."""
    text = code.strip()
    if len(text) == 7 and text[:6].isdigit() and text[6].isalpha():
        try:
            return f"fails its check letter ({text[:6]} needs {quote(ecf_code_letter(text[:6]))})"
        except CodeError:  # pragma: no cover - six digits always have a letter
            pass
    return "is not six digits and a check letter"


FILLED_LISTS: Final = ("standard", "rapid", "blitz")
"""The lists whose figures a Players row takes (the online lists are not played over the
board)."""


@dataclass(frozen=True)
class RowRatings:
    """The ratings to write on one Players row.

    Attributes:
        row: the row's index among the table's data rows (0 for the first).
        standard, standard_category, rapid, rapid_category, blitz, blitz_category: from the
            list; a category H (a rating carried over from the 2020 grades, updated by the K
            method) is written K, the category the Players table and the season know for it.
        member: whether the player is an ECF member: the list gives him a member number
            (``member_no``); ``None`` where not known.
    """

    row: int
    standard: int | None
    standard_category: str | None
    rapid: int | None
    rapid_category: str | None
    blitz: int | None = None
    blitz_category: str | None = None
    member: bool | None = None

    def figures(self, name: str) -> tuple[int | None, str | None]:
        """The rating and category of the list ``name`` (one of :data:`FILLED_LISTS`)."""
        if name == "standard":
            return self.standard, self.standard_category
        if name == "rapid":
            return self.rapid, self.rapid_category
        return self.blitz, self.blitz_category


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

    def by_category(self, name: str) -> dict[str, int]:
        """How many filled rows have each category on the list ``name``: ``"A"``, ``"K"``,
        ``"P"``, ``"none"`` (a rating without a category) and ``"no rating"``."""
        out = {"A": 0, "K": 0, "P": 0, "none": 0, "no rating": 0}
        for f in self.filled:
            rating, category = f.figures(name)
            out["no rating" if rating is None else (category or "none")] += 1
        return out


def _filled_category(category: str | None) -> str | None:
    return "K" if category == "H" else category


def fill_ratings(
    players: Sequence[tuple[str, str]], ratings: RatingList, figure: Figure = "original"
) -> RatingsFilled:
    """Look up each Players row, given as ``(code, name)``, on the rating list.

    A row whose code is on the list takes its standard, rapid and blitz ratings and categories
    (``figure``: the original, by default, or the revised; H written K, :class:`RowRatings`)
    and whether he is an ECF member (a member number on the list);
    a name that is not the list's (:func:`xlgrade.names.names_compatible`: same
    surname, forenames agreeing as far as they go) is reported, the ratings still filled (the
    code identifies the player). Rows with no code, a bad code or a code not on the list are
    reported and keep what they have (a decision: a list extract may leave players out).
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
        got: dict[str, object] = {}
        for list_name in FILLED_LISTS:
            rating, category = entry.ratings.get(list_name, ListRating()).figure(figure)
            got[list_name] = rating
            got[f"{list_name}_category"] = _filled_category(category)
        filled.append(RowRatings(row, **got, member=bool(entry.member_no)))  # type: ignore[arg-type]
        if name.strip() and not names_compatible(name, entry.name):
            differ.append((row, name, entry.name))
    return RatingsFilled(tuple(filled), tuple(differ), tuple(missing), tuple(bad), tuple(blank))


def listed_players(
    ratings: RatingList, list_name: str = "standard", figure: Figure = "original"
) -> list[ListedPlayer]:
    """The list's players as a reconciliation reads them
    (:class:`xlgrade.season.reconcile.ListedPlayer`): each one's ``figure`` of ``list_name``
    (H written K) and the other figure beside it."""
    other: Figure = "revised" if figure == "original" else "original"
    out = []
    for entry in ratings.entries.values():
        figures = entry.ratings.get(list_name, ListRating())
        rating, category = figures.figure(figure)
        second, second_category = figures.figure(other)
        out.append(
            ListedPlayer(
                entry.code,
                entry.name,
                entry.club_name,
                rating,
                _filled_category(category),
                second,
                _filled_category(second_category),
                entry.line,
            )
        )
    return out


def write_rating_list(entries: Sequence[RatingEntry]) -> str:
    """A rating list CSV of ``entries`` under :data:`HEADER` as the ECF writes it: every header
    and text cell quoted, numbers bare, comma-separated, ``\\n`` line ends. It reads back with
    :func:`read_rating_list`."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(HEADER)
    for e in entries:
        row: list[object] = [
            e.code, e.name, _number(e.member_no), _number(e.fide_no), e.gender, e.nation
        ]  # fmt: skip
        for name in LISTS:
            figures = e.ratings.get(name, ListRating())
            for which in ("original", "revised"):
                rating, category = figures.figure(which)
                row += ["" if rating is None else rating, category or ""]
        row += [e.club_code, e.club_name, e.title]
        writer.writerow(row)
    return out.getvalue()


def _number(text: str) -> int | str:
    """A number column's cell: the number, bare, or ``""`` quoted where blank."""
    return int(text) if text.isdigit() else text
