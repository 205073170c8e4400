"""Turn the raw cell values of the Settings, Players and Results sheets into the season's
values, and recalculate.

Both paths share this: ``xlgrade recalc`` (cells read from the file with python-calamine) and
the ribbon's ``recalculate_season()`` (cells read from the live book with xlwings). Columns are
found by header (see :func:`xlgrade.workbook.layout.header_key`), so added or reordered columns
do no harm. Every cell that cannot be read becomes a :class:`~xlgrade.model.Problem` naming the
sheet, the row, the cell and its header, quoting the input, and reaches the Exceptions sheet;
nothing is guessed. A Results row with such a cell is left out of the grading. A Players row
is kept with only that value left out (a bad grade leaves the player ungraded, a bad total
leaves out that season), so that his games are still his; only a row without a name is left
out.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from xlgrade import cells, settings
from xlgrade.errors import GradingError
from xlgrade.model import EarlierSeason, Game, Player, Problem
from xlgrade.season import SeasonResult, Table, recalculate
from xlgrade.settings import Settings
from xlgrade.workbook import layout
from xlgrade.workbook.package import column_letters

__all__ = ["Inputs", "grade_inputs", "output_tables", "read_inputs", "recalculate_tables"]

_NOTHING: Final = {layout.RAPID_LIST: "No rapidplay game was graded this season."}


class _CellError(ValueError):
    """A cell that cannot be read; the message says why, quoting it."""


@dataclass
class Inputs:
    """What the input sheets hold.

    Attributes:
        players: the Players rows that could be read.
        games: the Results rows that could be read.
        settings: the season's settings (defaults where a cell was blank or bad).
        problems: every cell that could not be read, one problem each.
    """

    players: list[Player] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    settings: Settings = field(default_factory=Settings)
    problems: list[Problem] = field(default_factory=list)


_blank = cells.blank
_text = cells.text


def _read(reader: Any) -> Any:
    """``reader`` (a reading of :mod:`xlgrade.cells`) with its refusal as a :class:`_CellError`."""

    def read(value: object) -> Any:
        try:
            return reader(value)
        except GradingError as error:
            raise _CellError(str(error)) from None

    return read


_number = _read(cells.number)
_grade = _read(cells.grade)
_whole = _read(cells.whole)
_date = _read(cells.date)
_yes_no = _read(cells.yes_no)


class _Sheet:
    """One sheet's rows with its columns found by header."""

    def __init__(self, name: str, rows: Sequence[Sequence[object]]) -> None:
        self.name = name
        self.rows = rows
        self.header_row = 0
        while self.header_row < len(rows) and all(_blank(v) for v in rows[self.header_row]):
            self.header_row += 1
        header = rows[self.header_row] if self.header_row < len(rows) else []
        self.columns: dict[str, int] = {}
        self._index: dict[str, int] = {}
        for index, text in enumerate(header):
            key = layout.header_key(text)
            if key and key not in self.columns:
                self.columns[key] = index

    def has(self, header: str) -> bool:
        return layout.header_key(header) in self.columns

    def data(self) -> list[tuple[int, Sequence[object]]]:
        """(sheet row number, cells) of each row under the header."""
        return [(i + 1, row) for i, row in enumerate(self.rows) if i > self.header_row]

    def get(self, row: Sequence[object], header: str) -> object:
        index = self._index.get(header)
        if index is None:
            index = self._index[header] = self.columns.get(layout.header_key(header), -1)
        if index < 0 or index >= len(row):
            return None
        value = row[index]
        return None if _blank(value) else value

    def ref(self, number: int, header: str) -> str:
        index = self.columns.get(layout.header_key(header), 0)
        return f"{column_letters(index)}{number}"


def _problem(sheet: _Sheet, number: int, header: str, what: str, error: Exception) -> Problem:
    return Problem(
        sheet.name, number, what, f"cell {sheet.ref(number, header)} ({header}): {error}"
    )


def _missing(sheet: _Sheet, headers: Sequence[str]) -> list[Problem]:
    return [
        Problem(
            sheet.name,
            sheet.header_row + 1,
            "missing column",
            f"no column headed {header!r} on the {sheet.name} sheet",
        )
        for header in headers
        if not sheet.has(header)
    ]


def _read_settings(sheet: _Sheet, inputs: Inputs) -> None:
    values: dict[str, Any] = {}
    inputs.problems += _missing(sheet, ("Setting", "Value"))
    if not (sheet.has("Setting") and sheet.has("Value")):
        return
    for number, row in sheet.data():
        label = sheet.get(row, "Setting")
        if label is None:
            continue
        spec = settings.by_label(label)
        if spec is None or not spec.on_sheet:
            likely = settings.likely_label(label)
            hint = f": did you mean {likely!r}?" if likely else ""
            inputs.problems.append(
                Problem(
                    sheet.name, number, "unknown setting", f"setting {label!r} is not known{hint}"
                )
            )
            continue
        value = sheet.get(row, "Value")
        if value is None and spec.name in ("season_start", "season_end"):
            # Every result is dated against these: a blank one is said, not assumed.
            default = getattr(Settings(), spec.name)
            inputs.problems.append(
                Problem(
                    sheet.name,
                    number,
                    "blank setting",
                    f"cell {sheet.ref(number, 'Value')} ({spec.label}) is blank: "
                    f"{default.isoformat()} is used",
                )
            )
        try:
            values[spec.name] = settings.read_cell(spec, value)
        except GradingError as error:
            inputs.problems.append(
                _problem(
                    sheet,
                    number,
                    "Value",
                    "bad setting",
                    _CellError(f"{error}: the default is used"),
                )
            )
    inputs.settings = replace(Settings(), **values)


def _read_players(sheet: _Sheet, inputs: Inputs) -> None:
    inputs.problems += _missing(sheet, ("Name",))
    if not sheet.has("Name"):
        return
    for number, row in sheet.data():
        if all(sheet.get(row, h) is None for h in layout.PLAYERS_HEADERS):
            continue

        def cell(
            header: str,
            what: str,
            reader: Any,
            left: str = "left out",
            row: Sequence[object] = row,
            number: int = number,
        ) -> Any:
            value = sheet.get(row, header)
            if value is None:
                return None
            try:
                return reader(value)
            except _CellError as error:
                inputs.problems.append(
                    _problem(sheet, number, header, what, _CellError(f"{error}: {left}"))
                )
                return None

        name = sheet.get(row, "Name")
        code = cell("Code", "bad code", _text)
        if name is None:
            where = f"cell {sheet.ref(number, 'Name')}: blank"
            if not code:
                inputs.problems.append(Problem(sheet.name, number, "no name", where))
                continue
            # His games name him by his code: he is kept, listed under it.
            name = code
            inputs.problems.append(
                Problem(sheet.name, number, "no name", f"{where}: listed under the code {code!r}")
            )
        dob = cell("Date of birth", "bad date of birth", _date)
        junior = cell("Junior", "bad junior flag", _yes_no)
        grade = cell("Grade", "bad grade", _grade)
        estimate = cell("Estimated grade", "bad grade", _grade)
        lapsed = cell("Lapsed grade", "bad grade", _grade)
        seasons: list[EarlierSeason | None] = []
        for which in ("Previous", "Earlier"):
            before = len(inputs.problems)
            left = f"{which.lower()} season left out"
            games = cell(f"{which} games", "bad games", _whole, left)
            points = cell(f"{which} points", "bad points", _number, left)
            if (games is None) != (points is None) and len(inputs.problems) == before:
                missing = f"{which} points" if points is None else f"{which} games"
                inputs.problems.append(
                    Problem(
                        sheet.name,
                        number,
                        "incomplete season",
                        f"cell {sheet.ref(number, missing)} ({missing}) is blank but "
                        f"{which.lower()} season's other total is given: that season left out",
                    )
                )
            both = games is not None and points is not None
            seasons.append(EarlierSeason(games, points) if both else None)
        inputs.players.append(
            Player(
                name=_text(name),
                code=code,
                club=_text(sheet.get(row, "Club") or ""),
                date_of_birth=dob,
                junior=bool(junior),
                grade=grade,
                estimated_grade=estimate,
                lapsed_grade=lapsed,
                previous=seasons[0],
                earlier=seasons[1],
                row=number,
            )
        )


def _read_results(sheet: _Sheet, inputs: Inputs) -> None:
    required = ("Home player", "Result", "Away player")
    inputs.problems += _missing(sheet, required)
    if not all(sheet.has(h) for h in required):
        return
    for number, row in sheet.data():
        if all(sheet.get(row, h) is None for h in layout.RESULTS_HEADERS):
            continue
        problems: list[Problem] = []
        for header in required:
            if sheet.get(row, header) is None:
                problems.append(
                    Problem(
                        sheet.name,
                        number,
                        "incomplete row",
                        f"cell {sheet.ref(number, header)} ({header}) is blank",
                    )
                )
        date: dt.date | None = None
        board: int | None = None
        raw_date = sheet.get(row, "Date")
        if raw_date is not None:
            try:
                date = _date(raw_date)
            except _CellError as error:
                problems.append(_problem(sheet, number, "Date", "bad date", error))
        raw_board = sheet.get(row, "Board")
        if raw_board is not None:
            try:
                board = _whole(raw_board)
            except _CellError as error:
                problems.append(_problem(sheet, number, "Board", "bad board", error))
        result = sheet.get(row, "Result")
        try:
            result = cells.result_text(result)
        except GradingError as error:
            problems.append(_problem(sheet, number, "Result", "bad result", error))
        if problems:
            inputs.problems += problems
            continue
        inputs.games.append(
            Game(
                home=_text(sheet.get(row, "Home player")),
                away=_text(sheet.get(row, "Away player")),
                result=str(result),
                date=date,
                event=_text(sheet.get(row, "Division") or ""),
                match=_text(sheet.get(row, "Match") or ""),
                board=board,
                time_control=_text(sheet.get(row, "Time control") or ""),
                row=number,
            )
        )


def read_inputs(raw: Mapping[str, Sequence[Sequence[object]]]) -> Inputs:
    """Read the Settings, Players and Results sheets' cells (header row first; row ``i`` of a
    sheet's list is sheet row ``i + 1``). A missing sheet is a problem, not an error."""
    inputs = Inputs()
    readers = (
        (layout.SETTINGS, _read_settings),
        (layout.PLAYERS, _read_players),
        (layout.RESULTS, _read_results),
    )
    for name, reader in readers:
        rows = raw.get(name)
        if rows is None:
            inputs.problems.append(
                Problem(name, None, "missing sheet", f"the book has no sheet named {name!r}")
            )
            continue
        cleaned = [[_clean(v) for v in row] for row in rows]
        reader(_Sheet(name, cleaned), inputs)
    return inputs


def _clean(value: object) -> object:
    if isinstance(value, str):
        text = " ".join(value.split())
        return text or None
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def grade_inputs(inputs: Inputs) -> SeasonResult:
    """Grade what :func:`read_inputs` read; its problems reach the Exceptions sheet and the
    accounting."""
    return recalculate(inputs.players, inputs.games, inputs.settings, inputs.problems)


def output_tables(result: SeasonResult) -> dict[str, Table]:
    """Every output sheet's table: the season's, and a one-line note for an output sheet with
    nothing to show this season (the Rapid List when no rapid game was played), so that an
    old list never stays behind."""
    tables = result.tables()
    for name in layout.OUTPUT_SHEETS:
        if name not in tables:
            tables[name] = Table(("Note",), [(_NOTHING.get(name, "Nothing this season."),)])
    return {name: tables[name] for name in layout.OUTPUT_SHEETS} | tables


def recalculate_tables(raw: Mapping[str, Sequence[Sequence[object]]]) -> dict[str, Table]:
    """Grade the season held in ``raw`` (see :func:`read_inputs`): output sheet name → table.

    The tables are those of :meth:`xlgrade.season.SeasonResult.tables` (see
    :func:`output_tables`); the reader's problems are handed to the season so they reach the
    Exceptions sheet and its accounting.
    """
    return output_tables(grade_inputs(read_inputs(raw)))
