"""Import a file's players and games into a league workbook and recalculate it, in one write.

The book's Players and Results are read; new players are added as Players rows and every game
as a Results row, with the live formulas of the template (:mod:`xlgrade.workbook.inputs`).
Round entries that are not games (byes, absences, pairings the two sides disagree on) and the
file's own faults are listed on the book's **Import notes** sheet (file, line, what, why),
after the earlier imports' notes. The season is then graded from the new rows and the output
sheets written, so that Grading List and Exceptions show each imported game graded or
excepted with the reason (a forfeit is a game with a default result, excepted as a default).
The whole book is written once, through a temporary file renamed into place (or to ``out``):
a failure leaves the book as it was.

The command line's ``xlgrade import FILE --into BOOK`` calls :func:`import_into_book`; what it
did comes back as a :class:`BookImport`. The xlwings Lite book's Import script works on the open
book instead of its file (:func:`xlgrade.workbook.live.import_file`), through the same steps:
:func:`plan_import` (what the file adds to the sheets), :func:`notes_rows` and
:func:`excepted_rows`. Nothing here needs openpyxl (the template's builder): the looked-up
formulas of new Results rows are imported from it only when a file is written.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from xlgrade.errors import FormatError
from xlgrade.formats.detect import Imported
from xlgrade.formats.files import locked
from xlgrade.formats.importing import Merged, merge, refuse_repeat
from xlgrade.formats.tables import Inputs
from xlgrade.model import Game, Player, Problem
from xlgrade.season import SeasonResult, Table
from xlgrade.settings import Settings
from xlgrade.workbook import layout
from xlgrade.workbook.inputs import InputRows, book_sheets, input_rows_package
from xlgrade.workbook.package import read_sheets, write_sheets
from xlgrade.workbook.read import grade_inputs, output_tables, read_inputs
from xlgrade.workbook.recalc import RecalcSummary, mend_book, read_book_inputs, summarise

__all__ = [
    "IMPORT_NOTES",
    "IMPORT_NOTES_HEADERS",
    "BookImport",
    "ImportPlan",
    "excepted_rows",
    "game_row",
    "import_into_book",
    "notes_rows",
    "plan_import",
    "player_row",
]

IMPORT_NOTES: Final = "Import notes"
"""The workbook sheet listing the imported round entries that are not games."""
IMPORT_NOTES_HEADERS: Final = ("File", "Line", "What", "Why")
"""Its columns: the imported file, the line of the entry, what it is and why not graded."""


@dataclass(frozen=True)
class BookImport:
    """What importing a file into a league workbook did.

    Attributes:
        target: the book written (the book itself, or ``out``), as given.
        merged: the players and games added (:class:`~xlgrade.formats.importing.Merged`).
        first_row: the Results row of the first game added.
        notes: the entries listed on the Import notes sheet.
        repeated: games that were already in the book (added all the same: ``again``).
        excepted: the Results row of each added game that was not graded → the reason (the
            first of the Exceptions sheet's lines for the row).
        summary: the recalculation of the whole book.
        settings: the book's settings, as read.
    """

    target: str
    merged: Merged
    first_row: int
    notes: tuple[Problem, ...]
    repeated: int
    excepted: dict[int, str]
    summary: RecalcSummary
    settings: Settings

    @property
    def rows(self) -> range:
        """The Results rows of the games added."""
        return range(self.first_row, self.first_row + len(self.merged.games))


@dataclass(frozen=True)
class ImportPlan:
    """What a file adds to a book's Players and Results sheets.

    Attributes:
        merged: the players and games added (:class:`~xlgrade.formats.importing.Merged`).
        repeated: games that were already in the book (added all the same: ``again``).
        players: a Players row by header for each new player (:func:`player_row`).
        games: a Results row by header for each game (:func:`game_row`).
    """

    merged: Merged
    repeated: int
    players: tuple[dict[str, object], ...]
    games: tuple[dict[str, object], ...]


def plan_import(
    where: str | os.PathLike[str], before: Inputs, imported: Imported, *, again: bool = False
) -> ImportPlan:
    """The rows that adding ``imported`` to the book ``where``, whose sheets read as
    ``before``, appends: its players matched to the book's
    (:func:`~xlgrade.formats.importing.merge`), a file imported before refused
    (:func:`~xlgrade.formats.importing.refuse_repeat`).

    Raises:
        RepeatedImportError: games of the file are already in the book and ``again`` is false.
    """
    merged = merge(before.players, imported)
    repeated = refuse_repeat(where, before.games, merged.games, again)
    return ImportPlan(
        merged,
        repeated,
        tuple(player_row(p) for p in merged.added),
        tuple(game_row(g) for g in merged.games),
    )


def excepted_rows(result: SeasonResult, rows: range) -> dict[int, str]:
    """The Results row of each of ``rows`` that the season did not grade → the reason (the
    first of the Exceptions sheet's lines for the row)."""
    excepted: dict[int, str] = {}
    for problem in result.problems:
        if problem.sheet == layout.RESULTS and problem.row is not None and problem.row in rows:
            excepted.setdefault(problem.row, problem.what)
    return excepted


def import_into_book(
    imported: Imported,
    book: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    again: bool = False,
) -> BookImport:
    """Add ``imported`` to the league workbook at ``book``, recalculate it and write it back
    (or to ``out``), as the module docstring says.

    Raises:
        FormatError: ``BOOK: …``: the file is not a workbook, not a league workbook, or cannot
            take the rows without losing data.
        RepeatedImportError: games of the file are already in the book and ``again`` is false;
            nothing is written.
        InUseError: the book is open in Excel or LibreOffice, or another run kept it locked.
        OSError: the book cannot be read, or cannot be written where asked, naming the path.
    """
    where = os.fspath(book)
    # Locked from the reading to the writing, so that two imports at once both land; the
    # book's path is resolved once (and checked before any work: read-only, open in Excel).
    with locked(out if out is not None else book) as target:
        source = where if out is not None else target
        with open(source, "rb") as stream:
            data = stream.read()
        try:
            book_sheets(data)
            try:
                raw = read_sheets(data, layout.READ_SHEETS)
            except Exception as error:  # the reader's own error types
                raise FormatError(f"the book cannot be read: {error}") from None
            before = read_inputs(raw)
            plan = plan_import(where, before, imported, again=again)
            package, first = input_rows_package(
                data,
                {
                    layout.PLAYERS: InputRows(plan.players),
                    layout.RESULTS: InputRows(plan.games),
                },
            )
        except FormatError as error:
            raise FormatError(f"{where}: {error}") from None
        if out is not None and os.path.abspath(out) != os.path.abspath(where):
            from xlgrade.workbook.lite import with_fresh_ids

            package = with_fresh_ids(package)  # a book of its own (xlwings Lite keeps ids)
        inputs = read_book_inputs(package, where)
        package, mended = mend_book(package, where)  # a Lite book saved by LibreOffice
        result = grade_inputs(inputs)
        tables = output_tables(result, inputs.divisions, inputs.rating_history, inputs.lineup)
        sheets: dict[str, Table] = dict(tables)
        if imported.problems:
            old = read_sheets(package, [IMPORT_NOTES]).get(IMPORT_NOTES, [])
            sheets[IMPORT_NOTES] = Table(IMPORT_NOTES_HEADERS, notes_rows(old, imported.problems))
        # Written as any book is: atomically, its permissions kept.
        write_sheets(source, sheets, target, data=package)
    rows = range(first[layout.RESULTS], first[layout.RESULTS] + len(plan.games))
    return BookImport(
        target=os.fspath(out if out is not None else book),
        merged=plan.merged,
        first_row=first[layout.RESULTS],
        notes=imported.problems,
        repeated=plan.repeated,
        excepted=excepted_rows(result, rows),
        summary=summarise(inputs, result, tuple(tables), mended),
        settings=before.settings,
    )


def player_row(player: Player) -> dict[str, object]:
    """A Players row, by header (:data:`~xlgrade.workbook.layout.PLAYERS_HEADERS`)."""
    return {
        "Code": player.code,
        "Name": player.name,
        "Club": player.club or None,
        "Date of birth": player.date_of_birth,
        "Junior": "yes" if player.junior else None,
        "Grade": player.grade,
        "Estimated grade": player.estimated_grade,
        "Previous games": player.previous.games if player.previous else None,
        "Previous points": player.previous.points if player.previous else None,
        "Earlier games": player.earlier.games if player.earlier else None,
        "Earlier points": player.earlier.points if player.earlier else None,
        "Lapsed grade": player.lapsed_grade,
        "Estimated rating": player.estimated_rating,
        "Latest ECF rating": player.latest_rating,
        "Registered team": player.registered_team or None,
        "Registered from": player.registered_from,
        "FIDE rating": player.fide_rating,
        "ECF member": None if player.ecf_member is None else ("yes" if player.ecf_member else "no"),
        "League registered": player.league_registered,
    }


def game_row(game: Game) -> dict[str, object]:
    """A Results row, by header (:data:`~xlgrade.workbook.layout.RESULTS_HEADERS`)."""
    return {
        "Date": game.date,
        "Division": game.event or None,
        "Match": game.match or None,
        "Board": game.board,
        "Home player": game.home,
        "Result": game.result,
        "Away player": game.away,
        "Time control": game.time_control or None,
    }


def _whole(value: object) -> object:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def notes_rows(
    old: Sequence[Sequence[object]], problems: Sequence[Problem]
) -> list[tuple[object, ...]]:
    """The Import notes sheet's rows: those of its cells ``old`` (header first), then
    ``problems``."""
    rows = [tuple(_whole(v) for v in row) for row in old[1:] if any(v is not None for v in row)]
    return rows + [(p.sheet, p.row, p.what, p.why) for p in problems]
