"""A union of leagues read from where its grader keeps it, and its lists written.

A union is a folder with a ``leagues.csv`` (columns ``League``, ``Source`` and ``County``:
each league's name, where its season is — a league workbook, a league folder, an ECF results
file or a TRF, relative to the union's folder — and its county), the grader's decisions in
``identities.csv`` (:data:`xlgrade.season.union.IDENTITY_HEADERS`) and, if the union grades
with settings of its own, a ``settings.csv``. The command line also takes the leagues one by
one (:func:`open_union`), or a union's book (:func:`read_union_book`): an ``.xlsx`` whose
**Leagues** sheet has the columns of ``leagues.csv`` (its sources relative to the book's
folder), whose **Identities** sheet has the decisions and whose **Publish** sheet the lists to
publish (``Scope``, ``Name``, ``Categories``). The union's season is graded by
:func:`xlgrade.season.union.grade_union`; its lists, cards, joins and exceptions go to the
union's book (:func:`union_book`, :func:`recalculate_union_book`) and to CSV files
(:func:`union_csv_files`).
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.styles import Font  # type: ignore[import-untyped]

from xlgrade._rounding import quote
from xlgrade.cells import header_key
from xlgrade.errors import FormatError, GradingError
from xlgrade.formats import SETTINGS_FILE
from xlgrade.formats.csvfile import csv_cells, csv_text
from xlgrade.formats.encoding import read_streamed
from xlgrade.season import RAPID, STANDARD, Table
from xlgrade.season.union import (
    IDENTITY_HEADERS,
    Decision,
    LeagueSeason,
    UnionSeason,
)
from xlgrade.settings import Settings
from xlgrade.workbook import layout, styling
from xlgrade.workbook.league import is_book, open_league
from xlgrade.workbook.outputs import cards_sheet

__all__ = [
    "IDENTITIES_FILE",
    "LEAGUES_FILE",
    "LEAGUES_HEADERS",
    "Published",
    "Union",
    "is_union_book",
    "is_union_folder",
    "open_union",
    "read_union_book",
    "recalculate_union_book",
    "reconcile_book",
    "reconcile_csv",
    "relative_source",
    "union_book",
    "union_csv_files",
    "union_template",
]

LEAGUES_FILE: Final = "leagues.csv"
"""The union folder's list of its leagues."""
IDENTITIES_FILE: Final = "identities.csv"
"""The union folder's decisions: which players are one, which are two."""
LEAGUES_HEADERS: Final = ("League", "Source", "County")
"""The columns of ``leagues.csv`` (County may be left out)."""
LEAGUES_SHEET: Final = "Leagues"
"""The union's book's sheet of its leagues (:data:`LEAGUES_HEADERS`)."""
IDENTITIES_SHEET: Final = "Identities"
"""The union's book's sheet of the grader's decisions (:data:`IDENTITY_HEADERS`)."""
PUBLISH_SHEET: Final = "Publish"
"""The union's book's sheet of the lists to publish (:data:`PUBLISH_HEADERS`)."""
PUBLISH_HEADERS: Final = ("Scope", "Name", "Categories")
"""The columns of the Publish sheet: a scope (union, county, league, club), its name, and the
categories (``A, B, C``; blank: all)."""
_INFORMATION: Final = ("Players", "Result rows")
"""The Leagues sheet's columns that the recalculation writes, not read."""
_DECISIONS: Final = {"same": True, "different": False}


@dataclass
class Union:
    """A union's leagues as read.

    Attributes:
        leagues: each league's season.
        sources: where each league was read, by league.
        decisions: the grader's decisions.
        settings: the union's own settings (``None``: the first league's).
        folder: the union's folder, when it was read from one.
        notes: what the grader should know of how it was read.
    """

    leagues: list[LeagueSeason]
    sources: dict[str, str]
    decisions: list[Decision] = field(default_factory=list)
    settings: Settings | None = None
    folder: Path | None = None
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Published:
    """A list to publish: at a scope (:data:`xlgrade.season.union.SCOPES`), named, in some
    categories (none: all)."""

    scope: str = "union"
    name: str = ""
    categories: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """``"union"``, ``"league Calder Valley League"``."""
        return self.scope if self.scope == "union" else f"{self.scope} {self.name}"


def is_union_folder(path: str | os.PathLike[str]) -> bool:
    """``path`` is a folder holding a ``leagues.csv``."""
    return (Path(path) / LEAGUES_FILE).is_file()


def open_union(
    paths: Sequence[str], *, decisions: str | None = None, command: str = "xlgrade"
) -> Union:
    """The union at ``paths``: one union folder, or several leagues, each ``PATH`` (named by
    its file or folder name) or ``NAME=PATH``; ``decisions`` an ``identities.csv`` to apply.

    Raises:
        GradingError: naming the file, its line, or the league, and quoting what is wrong.
        FormatError: a league's file cannot be read (naming the league and the file).
    """
    if not paths:
        union = Union([], {})
    elif len(paths) == 1 and is_union_folder(paths[0]):
        union = _union_folder(Path(paths[0]), command)
    else:
        union = Union([], {})
        for text in paths:
            name, _, path = text.rpartition("=") if "=" in text else ("", "", text)
            where = Path(path)
            name = name.strip() or (where.stem if where.is_file() else where.name)
            _add_league(union, name, where, "", command, "")
    if decisions is not None:
        union.decisions.extend(_read_decisions(Path(decisions)))
    return union


def _union_folder(folder: Path, command: str) -> Union:
    listing = folder / LEAGUES_FILE
    rows = _table(listing, ("League", "Source"), LEAGUES_HEADERS)
    union = Union([], {}, folder=folder)
    for line, cells in rows:
        name, source, county = (
            cells.get("league", ""),
            cells.get("source", ""),
            cells.get("county", ""),
        )
        if not name or not source:
            raise GradingError(
                f"{listing}: line {line}: a league needs a League and a Source "
                f"(League {quote(name)}, Source {quote(source)})"
            )
        _add_league(union, name, folder / source, county, command, f"{listing}: line {line}")
    if not union.leagues:
        raise GradingError(f"{listing}: no league listed")
    if (folder / IDENTITIES_FILE).is_file():
        union.decisions.extend(_read_decisions(folder / IDENTITIES_FILE))
    if (folder / SETTINGS_FILE).is_file():
        union.settings = _settings(folder / SETTINGS_FILE)
    return union


def _add_league(
    union: Union, name: str, where: Path, county: str, command: str, place: str
) -> None:
    """Read one league into ``union``, its errors named by ``place`` (a line of
    ``leagues.csv``, a row of the Leagues sheet; ``""`` for the command line's) and the
    league."""
    where_said = f"{place} (league {quote(name)})" if place else f"league {quote(name)}"
    if any(lg.name.casefold() == name.casefold() for lg in union.leagues):
        raise GradingError(f"{where_said}: two leagues are called {quote(name)}")
    try:
        if is_book(where) or where.is_dir():
            league = open_league(where, command=command, notes=union.notes)
            union.notes.extend(league.notes)
            inputs = league.inputs
            season = LeagueSeason(
                name, inputs.players, inputs.games, inputs.problems,
                inputs.settings if league.has_settings else None, county,
            )  # fmt: skip
        elif where.is_file():
            season = _league_file(name, where, county, union.notes)
        else:
            raise GradingError(f"{where}: no such workbook, folder or file")
    except (GradingError, FormatError) as error:
        raise type(error)(f"{where_said}: {error}") from None
    union.leagues.append(season)
    union.sources[name] = str(where)


def _league_file(name: str, where: Path, county: str, notes: list[str]) -> LeagueSeason:
    """A league (a congress, a tournament) kept as an ECF results file or a TRF."""
    from xlgrade.formats.detect import import_file

    found = import_file(where, str(where), notes)
    if not found.players:
        raise GradingError(
            f"{where}: a {found.kind} has no players: a league's CSV files go in a folder "
            "(players.csv and results.csv)"
        )
    return LeagueSeason(name, found.players, found.games, found.problems, None, county)


def _table(
    path: Path, required: Sequence[str], known: Sequence[str]
) -> list[tuple[int, dict[str, str]]]:
    """A small CSV table of the union's folder: each data line's number and cells by
    :func:`header_key`, its header checked."""
    try:
        text = read_streamed(path, lambda lines: "".join(lines))
    except OSError as error:
        raise GradingError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        rows = csv_cells(text)
    except FormatError as error:
        raise FormatError(f"{path}: {error}") from None
    if not rows:
        raise GradingError(f"{path}: empty: the header is {', '.join(known)}")
    header = [header_key(c) for c in rows[0]]
    missing = [h for h in required if header_key(h) not in header]
    if missing:
        raise GradingError(
            f"{path}: line 1: no {' and no '.join(map(quote, missing))} column "
            f"(the header is {', '.join(map(quote, rows[0]))}; the columns are "
            f"{', '.join(known)})"
        )
    out = []
    for number, cells in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in cells):
            continue
        out.append((number, {h: c.strip() for h, c in zip(header, cells, strict=False)}))
    return out


def _read_decisions(path: Path) -> list[Decision]:
    """The grader's decisions (:data:`IDENTITY_HEADERS`); a line that is not one is refused."""
    return [
        _decision(cells, f"{path}: line {line}", line)
        for line, cells in _table(path, IDENTITY_HEADERS, IDENTITY_HEADERS)
    ]


def _settings(path: Path) -> Settings:
    from xlgrade.formats.folder import read_folder_cells
    from xlgrade.formats.tables import read_inputs

    cells = read_folder_cells(path.parent)
    inputs = read_inputs({"Settings": cells["Settings"]})
    bad = [p for p in inputs.problems if p.sheet == "Settings"]
    if bad:
        raise GradingError(f"{path}: line {bad[0].row}: {bad[0].why}")
    return inputs.settings


def relative_source(where: str | os.PathLike[str], folder: Path) -> str:
    """A league's Source as a union's book names it: relative to the book's folder, or as
    it is where it cannot be (another drive)."""
    try:
        return os.path.relpath(Path(where).resolve(), folder.resolve())
    except ValueError:
        return str(where)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def _lists(
    union: UnionSeason, published: Sequence[Published]
) -> list[tuple[Published, str, Table]]:
    """Each list to publish, standard and (when a rapidplay game was graded) rapid."""
    kinds = [STANDARD] + ([RAPID] if union.result.accounting.rapid_graded else [])
    return [
        (each, kind, union.list_table(kind, each.scope, each.name, each.categories))
        for each in published
        for kind in kinds
    ]


def _leagues_table(union: UnionSeason, sources: dict[str, str], counties: dict[str, str]) -> Table:
    rows: list[tuple[object, ...]] = []
    for lg in union.leagues:
        rows.append(
            (lg.name, sources.get(lg.name, ""), counties.get(lg.name, lg.county) or None,
             len(lg.players), len(lg.games))
        )  # fmt: skip
    return Table((*LEAGUES_HEADERS, *_INFORMATION), rows)


def union_csv_files(
    union: UnionSeason, published: Sequence[Published], folder: Path
) -> dict[Path, bytes]:
    """The union's CSV files, by path in ``folder``: each list (``grading-list.csv``,
    ``grading-list-league-calder-valley-league.csv``, ``rapid-list….csv``), ``cards.csv``,
    ``exceptions.csv``, ``joins.csv`` and ``undecided.csv``; text that would start a formula
    is written with a ``'`` in front, as every CSV xlgrade writes."""
    out: dict[Path, bytes] = {}
    for each, kind, table in _lists(union, published):
        stem = "grading-list" if kind == STANDARD else "rapid-list"
        suffix = "" if each.scope == "union" else f"-{each.scope}-{_slug(each.name)}"
        out[folder / f"{stem}{suffix}.csv"] = _csv(table)
    out[folder / "cards.csv"] = _csv(cards_sheet(union.result))
    out[folder / "exceptions.csv"] = _csv(union.result.exceptions_table())
    out[folder / "joins.csv"] = _csv(union.joins_table())
    out[folder / "undecided.csv"] = _csv(union.undecided_table())
    return out


def _csv(table: Table) -> bytes:
    """A table as CSV, as xlgrade writes every CSV file (neutralised, quoted: ``csv_text``)."""
    return csv_text([table.headers, *table.rows], newline="\n").encode("utf-8")


def union_book(
    union: UnionSeason,
    published: Sequence[Published],
    sources: dict[str, str],
    decisions: Sequence[Decision] = (),
    counties: dict[str, str] | None = None,
    into: bytes | None = None,
) -> bytes:
    """The union's book (``.xlsx``): its input sheets — **Leagues** (with each league's
    players and result rows), **Identities** (the decisions) and **Publish** (the lists) —
    then each list to publish (the union's on the Grading List and the Rapid List, the others
    on sheets named by their scope, ``List league …``), the **Player Cards** (each game's
    league in its Note), the **Exceptions**, the **Joins** and the **Undecided**.

    ``into``: the book to write into, whose every other sheet is kept (a grader's own); its
    output sheets (those above, and any ``List …`` or ``Rapid …`` sheet of an earlier run)
    are written anew.
    """
    wb = _load(into) if into is not None else Workbook()
    if into is None:
        wb.remove(wb.active)
    inputs: list[tuple[str, Table]] = [
        (LEAGUES_SHEET, _leagues_table(union, sources, counties or {})),
        (IDENTITIES_SHEET, _identities_table(decisions)),
        (PUBLISH_SHEET, _publish_table(published)),
    ]
    outputs: list[tuple[str, Table]] = []
    for each, kind, table in _lists(union, published):
        if each.scope == "union" and not each.categories:
            title = layout.GRADING_LIST if kind == STANDARD else layout.RAPID_LIST
        else:
            title = f"{'Rapid' if kind == RAPID else 'List'} {each.title}"
        taken = [name for name, _ in inputs + outputs]
        outputs.append((_sheet_name(title, taken), table))
    outputs += [
        (layout.PLAYER_CARDS, cards_sheet(union.result)),
        (layout.EXCEPTIONS, union.result.exceptions_table()),
        ("Joins", union.joins_table()),
        ("Undecided", union.undecided_table()),
    ]
    for name in list(wb.sheetnames):
        if name in {n for n, _ in inputs + outputs} or name.startswith(("List ", "Rapid ")):
            wb.remove(wb[name])
    bold = Font(bold=True)
    for position, (title, table) in enumerate(inputs + outputs):
        ws = wb.create_sheet(title, position)
        styling.append_row(ws, table.headers)
        for cell in ws[1]:
            cell.font = bold
        for row in table.rows:
            styling.append_row(ws, row)
        ws.freeze_panes = "A2"
        styling.fit_columns(ws)
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _load(content: bytes) -> Workbook:
    from openpyxl import load_workbook

    return load_workbook(io.BytesIO(content))


def _identities_table(decisions: Sequence[Decision]) -> Table:
    rows: list[tuple[object, ...]] = [
        (d.league, d.player, d.other_league, d.other_player, "same" if d.same else "different")
        for d in decisions
    ]
    return Table(IDENTITY_HEADERS, rows)


def _publish_table(published: Sequence[Published]) -> Table:
    rows: list[tuple[object, ...]] = [
        (p.scope, p.name or None, ", ".join(p.categories) or None) for p in published
    ]
    return Table(PUBLISH_HEADERS, rows)


def is_union_book(path: str | os.PathLike[str]) -> bool:
    """``path`` is an ``.xlsx`` with a Leagues sheet and no Results sheet: a union's book."""
    where = Path(path)
    if where.suffix.lower() != ".xlsx" or not where.is_file():
        return False
    import zipfile

    try:
        with zipfile.ZipFile(where) as book:
            text = book.read("xl/workbook.xml").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return False
    names = set(re.findall(r'<sheet [^>]*name="([^"]*)"', text))
    return LEAGUES_SHEET in names and layout.RESULTS not in names


def read_union_book(path: Path, command: str = "xlgrade") -> tuple[Union, list[Published]]:
    """The union in a union's book: its leagues (each read from its Source, relative to the
    book's folder), the decisions and the lists to publish (the union's when none).

    Raises:
        GradingError: naming the sheet and row, quoting what is wrong.
    """
    from openpyxl import load_workbook

    wb = load_workbook(path, read_only=True, data_only=True)
    try:
        sheets = {
            name: [
                ["" if v is None else str(v).strip() for v in row]
                for row in wb[name].iter_rows(values_only=True)
            ]
            for name in (LEAGUES_SHEET, IDENTITIES_SHEET, PUBLISH_SHEET)
            if name in wb.sheetnames
        }
    finally:
        wb.close()
    union = Union([], {}, folder=path.parent)
    place = f"{path} sheet {LEAGUES_SHEET}"
    for row, cells in _book_rows(sheets.get(LEAGUES_SHEET, []), place, ("League", "Source")):
        name, source = cells.get("league", ""), cells.get("source", "")
        if not name or not source:
            raise GradingError(
                f"{place} row {row}: a league needs a League and a Source (League "
                f"{quote(name)}, Source {quote(source)})"
            )
        _add_league(union, name, path.parent / source, cells.get("county", ""), command,
                    f"{place} row {row}")  # fmt: skip
    if not union.leagues:
        raise GradingError(f"{place}: no league listed (columns {', '.join(LEAGUES_HEADERS)})")
    place = f"{path} sheet {IDENTITIES_SHEET}"
    for row, cells in _book_rows(sheets.get(IDENTITIES_SHEET, []), place, IDENTITY_HEADERS):
        union.decisions.append(_decision(cells, f"{place} row {row}", row))
    published = []
    place = f"{path} sheet {PUBLISH_SHEET}"
    for row, cells in _book_rows(sheets.get(PUBLISH_SHEET, []), place, ("Scope",)):
        published.append(_publish(cells, f"{place} row {row}"))
    return union, published or [Published()]


def _book_rows(
    rows: list[list[str]], place: str, required: Sequence[str]
) -> list[tuple[int, dict[str, str]]]:
    if not rows:
        return []
    header = [header_key(c) for c in rows[0]]
    missing = [h for h in required if header_key(h) not in header]
    if missing:
        raise GradingError(f"{place} row 1: no {' and no '.join(map(quote, missing))} column")
    return [
        (number, dict(zip(header, cells, strict=False)))
        for number, cells in enumerate(rows[1:], start=2)
        if any(cells)
    ]


def _decision(cells: dict[str, str], place: str, row: int) -> Decision:
    values = [cells.get(header_key(h), "") for h in IDENTITY_HEADERS]
    decision = values[4].casefold()
    if not all(values[:4]) or decision not in _DECISIONS:
        raise GradingError(
            f"{place}: a decision names a League, a Player, an Other league and an Other "
            f"player, and says 'same' or 'different' (got {', '.join(map(quote, values))})"
        )
    league, player, other_league, other_player = values[:4]
    return Decision(league, player, other_league, other_player, _DECISIONS[decision], row)


def _publish(cells: dict[str, str], place: str) -> Published:
    from xlgrade.season.union import SCOPES

    scope = cells.get("scope", "").casefold()
    name = cells.get("name", "")
    categories = tuple(
        c.strip().upper() for c in cells.get("categories", "").split(",") if c.strip()
    )
    if scope not in SCOPES or (scope != "union" and not name):
        raise GradingError(
            f"{place}: a list to publish has a Scope ({', '.join(SCOPES)}) and, but for the "
            f"union's, a Name (got {quote(scope)}, {quote(name)})"
        )
    wrong = [c for c in categories if c not in {"A", "B", "C", "D", "E", "F", "*"}]
    if wrong:
        raise GradingError(f"{place}: {quote(wrong[0])} is not a category (A to F, or *)")
    return Published(scope, name, categories)


def recalculate_union_book(
    path: Path, out: Path | None = None, command: str = "xlgrade recalc"
) -> UnionSeason:
    """Read the union's book at ``path``, grade its leagues as one season and write its
    output sheets (:func:`union_book`), whole or not at all, to ``out`` (else ``path``)."""
    from xlgrade.formats.files import locked, write_whole
    from xlgrade.season.union import grade_union

    # Locked from the reading to the writing: another run writing the book waits.
    with locked(out or path) as target:
        union, published = read_union_book(path, command)
        season = grade_union(union.leagues, union.decisions, union.settings)
        counties = {lg.name: lg.county for lg in union.leagues}
        sources = {
            name: relative_source(where, path.parent) for name, where in union.sources.items()
        }
        content = union_book(
            season, published, sources, union.decisions, counties, path.read_bytes()
        )
        write_whole(content, target)
    return season


def _sheet_name(title: str, taken: list[str]) -> str:
    """A sheet name Excel takes: 31 characters at most, none of ``[]:*?/\\``, not taken."""
    name = re.sub(r"[\[\]:*?/\\]", " ", title)[:31].strip()
    base, n = name, 2
    while name.casefold() in (t.casefold() for t in taken):
        name = f"{base[: 31 - len(str(n)) - 1]} {n}"
        n += 1
    return name


def reconcile_csv(table: Table) -> bytes:
    """The reconciliation's report as CSV (:func:`xlgrade.season.reconcile.reconcile`)."""
    return _csv(table)


def reconcile_book(table: Table, summary: str) -> bytes:
    """The reconciliation's report as a book: a **Reconcile** sheet, its summary last."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Reconcile"
    styling.append_row(ws, table.headers)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for row in table.rows:
        styling.append_row(ws, row)
    styling.append_row(ws, (None,) * (len(table.headers) - 1) + (summary,))
    ws.freeze_panes = "A2"
    styling.fit_columns(ws)
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def union_template() -> bytes:
    """An empty union's book: the **Leagues** (:data:`LEAGUES_HEADERS`), **Identities**
    (:data:`IDENTITY_HEADERS`) and **Publish** (:data:`PUBLISH_HEADERS`, with the union's own
    list) sheets, their headers bold and frozen, for a grader to fill and ``xlgrade recalc``."""
    wb = Workbook()
    wb.remove(wb.active)
    sheets: tuple[tuple[str, tuple[str, ...], list[tuple[object, ...]]], ...] = (
        (LEAGUES_SHEET, LEAGUES_HEADERS, []),
        (IDENTITIES_SHEET, IDENTITY_HEADERS, []),
        (PUBLISH_SHEET, PUBLISH_HEADERS, [("union", None, None)]),
    )
    for title, headers, rows in sheets:
        ws = wb.create_sheet(title)
        styling.append_row(ws, headers)
        for cell in ws[1]:
            cell.font = Font(bold=True)
        for row in rows:
            styling.append_row(ws, row)
        ws.freeze_panes = "A2"
        for column in "ABCDE"[: len(headers)]:
            ws.column_dimensions[column].width = 24
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()
