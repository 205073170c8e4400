"""CSV files of players and of results, as clubs exchange them and as xlgrade writes them.

Two tables, told apart by their header row:

* **players**: ``name`` (required), ``code`` (ECF grading reference code), ``club``,
  ``date_of_birth``, ``junior``, ``grade``, ``lapsed_grade``, ``estimated_grade``,
  ``previous_games``, ``previous_points``, ``earlier_games``, ``earlier_points``, and the ECF
  rating's ``ECF rating``, ``ECF category``, ``ECF rapid rating``, ``ECF rapid category``,
  ``Last rated month``, and the divisions' rules' ``Estimated rating``, ``Latest ECF rating``,
  ``Registered team``, ``Registered from``, ``FIDE rating``, ``ECF member`` — the fields of
  :class:`xlgrade.model.Player`;
* **results**: ``home``, ``away``, ``result`` (required), ``date``, ``event``, ``match``,
  ``board``, ``time_control`` — the fields of :class:`xlgrade.model.Game`, the result as typed.

Decisions (CSV has no standard for these; RFC 4180 gives only the quoting):

* Header names are matched without regard to case, spaces, ``_`` or ``-``, and common other
  names are accepted (``ECF code``, ``Grading code``, ``White``/``Black``, ``Round``…);
  columns with other names are ignored, except a header close to a known one (``Grading``
  for ``Grade``), which is refused (:mod:`xlgrade.formats.tables`), and one naming a grade,
  which is listed. Files are written with the template workbook's headers (``Code``,
  ``Name``, …, ``Home player``, ``Result``, ``Away player``; see :data:`HEADERS`), the
  spelling of ``examples/league``, so that ``xlgrade season`` reads them back. The separator
  is a comma, a semicolon or a tab, whichever the header row uses most; a UTF-8 byte-order
  mark is dropped.
* Dates are written ``YYYY-MM-DD``; every cell is read as a workbook's is
  (:mod:`xlgrade.cells`): dates day first in every form a grader types (``1/9/25``,
  ``1 Sept 2025``…), ``junior`` yes/no/y/n/true/false/1/0/J/junior/x or blank.
* **Formula neutralising** (OWASP, "CSV injection"): every written cell that begins with
  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a ``'`` in front, so that no
  spreadsheet runs it as a formula; on reading, a ``'`` followed by one of those characters
  is taken off again, so that a file written here reads back exactly.
* A row with more cells than the header is an error; a shorter row is read as if padded
  with blank cells (spreadsheets drop trailing blanks). Blank rows are skipped.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from xlgrade import schema
from xlgrade._rounding import quote
from xlgrade.cells import EXCEL_CELL_CHARACTERS, EXCEL_ROWS, header_key, without_time_of_day
from xlgrade.errors import FormatError
from xlgrade.formats.encoding import read_streamed
from xlgrade.model import Game, Player, Problem
from xlgrade.schema import column_letters

__all__ = [
    "HEADERS",
    "MAX_CSV_CELL",
    "MAX_CSV_LINES",
    "PLAYER_COLUMNS",
    "RESULT_COLUMNS",
    "CsvRecords",
    "CsvTable",
    "column_field",
    "csv_cell",
    "csv_cells",
    "csv_records",
    "csv_rows",
    "csv_text",
    "delimiter_of",
    "first_line",
    "game_cells",
    "neutralise",
    "player_cells",
    "read_csv",
    "read_csv_file",
    "read_csv_lines",
    "restore",
    "template_headers",
    "text_lines",
    "typed_text",
    "without_time_of_day",
    "write_players_csv",
    "write_results_csv",
]

PLAYER_COLUMNS: Final = tuple(column.field for column in schema.PLAYERS_COLUMNS)
"""Columns of a players CSV, in the order they are written (the template's Players sheet's,
:data:`xlgrade.schema.PLAYERS_COLUMNS`): the ECF rating's last, as ``ECF rating``, ``ECF
category``, ``ECF rapid rating``, ``ECF rapid category`` and ``Last rated month``
(``2025-08``)."""
RESULT_COLUMNS: Final = tuple(column.field for column in schema.RESULTS_COLUMNS)
"""Columns of a results CSV, in the order they are written
(:data:`xlgrade.schema.RESULTS_COLUMNS`)."""
HEADERS: Final[Mapping[str, str]] = {
    column.field: column.header for column in (*schema.PLAYERS_COLUMNS, *schema.RESULTS_COLUMNS)
}
"""The header each column is written with: the template workbook's Players and Results
headers (:data:`xlgrade.schema.PLAYERS_HEADERS`, ``RESULTS_HEADERS``), so that
``xlgrade season`` reads every file written here."""

_FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")
_AFTER_SEPARATOR: Final = re.compile(r"([,;\t])(?='*[=+\-@\t\r])")
_NEUTRALISED_AFTER_SEPARATOR: Final = re.compile(r"([,;\t])'(?='*[=+\-@\t\r])")
_A_LINE: Final = re.compile(r"([^\r\n]*)(?:\r\n|\r|\n|\Z)")
_LINE_WITH_END: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
MAX_CSV_LINES: Final = EXCEL_ROWS
"""The most lines a CSV file read may have: the rows of an Excel sheet
(:data:`xlgrade.cells.EXCEL_ROWS`), which a book's Players or Results sheet could not hold
more of."""
MAX_CSV_CELL: Final = EXCEL_CELL_CHARACTERS
"""The most characters a cell of a CSV file read may hold: the most an Excel cell holds
(:data:`xlgrade.cells.EXCEL_CELL_CHARACTERS`)."""


@dataclass(frozen=True)
class CsvTable:
    """What a CSV file held: players or results (the other is empty).

    Attributes:
        kind: ``"players"`` or ``"results"``.
        players: the players, each with its line as ``row``.
        games: the games, each with its line as ``row``.
        problems: read leniently, the cells that could not be read (the file's name as
            their sheet); none when read strictly.
    """

    kind: str
    players: tuple[Player, ...] = ()
    games: tuple[Game, ...] = ()
    problems: tuple[Problem, ...] = ()


def delimiter_of(header_line: str) -> str:
    """The separator a header row uses most: a comma, or the semicolon or tab a spreadsheet
    set to another locale writes."""
    return max((",", ";", "\t"), key=header_line.count)


def neutralise(cell: str) -> str:
    """A cell safe to open in a spreadsheet: ``'`` in front of text that begins with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return (OWASP, "CSV injection"), and in front of
    text that already looks neutralised (``'=``), so that :func:`restore` gives it back.

    The same after each ``,``, ``;`` or tab inside the cell: a spreadsheet whose list
    separator is another than the file's splits the line there, quotes or not (a quote in
    the middle of what it takes for a cell is just a character), so ``Laura;=2+5;Redfern``
    is written ``Laura;'=2+5;Redfern``."""
    cell = "'" + cell if cell.lstrip("'").startswith(_FORMULA_START) else cell
    return _AFTER_SEPARATOR.sub(r"\1'", cell)


def typed_text(value: object) -> object:
    """A value to hand Excel through xlwings (COM or Office.js), both of which take a text as
    if it were typed into the cell: text that begins as :func:`neutralise` says, or with
    ``'``, gets a ``'`` in front, Excel's prefix that keeps what follows as text (the prefix
    is not part of the cell's value), so that a name ``=HYPERLINK(…)`` or a result ``+/-``
    stays text and a name ``'Bob`` keeps its mark. Anything else is as it was."""
    if isinstance(value, str) and value.startswith((*_FORMULA_START, "'")):
        return "'" + value
    return value


def restore(cell: str) -> str:
    """Undo :func:`neutralise`: one ``'`` off text of ``'`` marks and then a formula start,
    at the cell's start and after each separator inside it."""
    cell = _NEUTRALISED_AFTER_SEPARATOR.sub(r"\1", cell)
    return (
        cell[1:] if cell.startswith("'") and cell.lstrip("'").startswith(_FORMULA_START) else cell
    )


_QUOTED: Final = frozenset(',;\t"\r\n')
"""What makes :func:`csv_text` quote a cell: the separator of every locale a spreadsheet
splits a CSV file by (``,``; ``;`` where the decimal mark is a comma, as in German, French or
Dutch settings; a tab), a quote mark, a line break."""


def csv_cell(value: object, delimiter: str = ",") -> str:
    """One cell as xlgrade writes it in every CSV file (:func:`csv_text`)."""
    cell = neutralise("" if value is None else str(value))
    if delimiter in cell or not _QUOTED.isdisjoint(cell):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def csv_text(rows: Iterable[Iterable[object]], delimiter: str = ",", newline: str = "\r\n") -> str:
    """The CSV text of ``rows``: the one way xlgrade writes a CSV file, so that none runs as
    a formula in a spreadsheet, whatever its list separator. Every cell is neutralised
    (:func:`neutralise`, OWASP's "CSV injection": a ``'`` in front of ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return; numbers too, since ``-5`` and ``-2+3`` start alike;
    the readers take the ``'`` off again) and quoted when it holds a separator of any locale
    (``,``, ``;``, a tab), so that a spreadsheet splitting by ``;`` does not find a formula
    inside a name such as ``Laura;=2+5;Redfern``. ``None`` is a blank cell."""
    return "".join(
        delimiter.join(csv_cell(value, delimiter) for value in row) + newline for row in rows
    )


def player_cells(player: Player) -> dict[str, str]:
    """A player's cells as written, by column (:data:`PLAYER_COLUMNS`), not yet neutralised."""
    return schema.csv_text(player)


def game_cells(game: Game) -> dict[str, str]:
    """A game's cells as written, by column (:data:`RESULT_COLUMNS`), not yet neutralised."""
    return schema.game_csv_text(game)


def write_players_csv(players: Sequence[Player]) -> str:
    """The players as CSV under the template's headers (:data:`PLAYER_COLUMNS`,
    :data:`HEADERS`), every cell neutralised."""
    rows = (player_cells(p) for p in players)
    return _write(
        [HEADERS[c] for c in PLAYER_COLUMNS], ([r[c] for c in PLAYER_COLUMNS] for r in rows)
    )


def write_results_csv(games: Sequence[Game]) -> str:
    """The games as CSV under the template's headers (:data:`RESULT_COLUMNS`,
    :data:`HEADERS`), every cell neutralised."""
    rows = (game_cells(g) for g in games)
    return _write(
        [HEADERS[c] for c in RESULT_COLUMNS], ([r[c] for c in RESULT_COLUMNS] for r in rows)
    )


def read_csv(text: str, source: str = "CSV", *, strict: bool = True) -> CsvTable:
    """Read a players or results CSV held as text: :func:`read_csv_lines` on its lines.

    Raises:
        FormatError: as :func:`read_csv_lines`.
        HeaderError: as :func:`read_csv_lines`.
    """
    return read_csv_lines(text_lines(text), source, strict=strict)


def read_csv_file(
    path: str | os.PathLike[str],
    source: str = "CSV",
    *,
    strict: bool = True,
    notes: list[str] | None = None,
) -> CsvTable:
    """Read the players or results CSV file at ``path`` as a stream (:func:`read_csv_lines`),
    decoded as it is read (:func:`xlgrade.formats.encoding.read_streamed`: its note, for a
    file that is not UTF-8, to ``notes``).

    Raises:
        FormatError: as :func:`read_csv_lines`.
        HeaderError: as :func:`read_csv_lines`.
        OSError: the file cannot be read.
    """
    return read_streamed(path, lambda lines: read_csv_lines(lines, source, strict=strict), notes)


def read_csv_lines(lines: Iterable[str], source: str = "CSV", *, strict: bool = True) -> CsvTable:
    """Read a players or results CSV (told apart by the header; see the module docstring) from
    its lines, in blocks of rows (:meth:`xlgrade.formats.tables._Sheet.columns_of`), with the
    one reader of tables,
    :func:`xlgrade.formats.tables.read_table`, strictly (the first bad cell raises) or
    leniently (every bad cell a problem of :attr:`CsvTable.problems`). The header is checked
    before any other row is read, and each row as it is read (:func:`csv_records`): no more
    of the file is held than the table read from it and one block of its rows.

    Raises:
        FormatError: ``line N: …`` quoting the cell, for a header with neither table's
            required columns, a row longer than the header, a cell or a file past Excel's
            limits (:data:`MAX_CSV_CELL`, :data:`MAX_CSV_LINES`), or (strict) a number, date
            or yes/no that cannot be read.
        HeaderError: a header not known but close to a known one (``Grading``).
    """
    records = csv_records(lines, templated=True, within_header=True)
    header, number = records.header, records.header_line
    if header is None:
        raise FormatError(f"line {number}: the CSV file is empty")
    kind = _kind(header, number - 1, records.delimiter)
    from xlgrade.formats.tables import read_table  # imported once the header is known good

    read = read_table("Players" if kind == "players" else "Results", records, strict=strict)
    problems = tuple(p._replace(sheet=source) for p in read.problems)
    if kind == "results":
        return CsvTable("results", games=tuple(read.games), problems=problems)
    return CsvTable("players", players=tuple(read.players), problems=problems)


class CsvRecords:
    """A CSV file's rows, read from its lines as they are iterated, the header row read (and
    checked by the caller) first; made by :func:`csv_records`.

    Iterating gives each row once, row ``i`` line ``i + 1`` of the file (a cell holding a line
    break aside): the blank rows before the header, the header, then the rest, each checked
    as it is read.

    Attributes:
        header: the header row (the first with a cell that is not blank), or ``None`` for a
            file with none.
        header_line: its line (for a file without one, 1).
        delimiter: the separator the header row uses most (:func:`delimiter_of`).
    """

    def __init__(self, lines: Iterable[str], templated: bool, within_header: bool) -> None:
        self._lines = iter(lines)
        self._within_header = within_header
        self._blank = 0  # blank lines before the first that is not, counted, not kept
        self._number = 0  # the rows read, so the row last read
        self._before: list[list[str]] = []  # rows the reader split before the header
        self.delimiter = ","
        self.header: list[str] | None = None
        self.header_line = 1
        first = self._first_line()
        if first is None:
            return
        self.delimiter = delimiter_of(first)
        self._reader = csv.reader(
            itertools.chain([first], self._lines), delimiter=self.delimiter, strict=True
        )
        while (row := self._next()) is not None:
            if any(cell.strip() for cell in row):
                self.header, self.header_line = row, self._number
                if templated:
                    template_headers([row])
                return
            self._before.append(row)

    def _first_line(self) -> str | None:
        """The first line that is not blank (a byte-order mark dropped)."""
        for number, line in enumerate(self._lines):
            text = line.removeprefix("\ufeff") if number == 0 else line
            if text.strip():
                self._blank = self._number = number
                return text
            _check_lines(number + 1)
        return None

    def _next(self) -> list[str] | None:
        """The next row as read (formula neutralising undone), checked; ``None`` at the end."""
        reader = self._reader
        try:
            row = next(reader, None)
        except csv.Error as error:
            line = self._blank + reader.line_num
            if "field larger than field limit" in str(error):
                raise FormatError(
                    f"line {line}: a cell holds more than the {MAX_CSV_CELL:,} characters a "
                    f"cell of Excel holds ({error})"
                ) from None
            raise FormatError(f"line {line}: not readable as CSV: {error}") from None
        if row is None:
            return None
        self._number += 1
        if self._blank + reader.line_num > MAX_CSV_LINES:
            _check_lines(self._blank + reader.line_num)
        # The row's cells joined, to ask once of them all whether one may be too long or
        # hold a "'" (a name such as O'Brien asks each cell again).
        joined = "\n".join(row)
        if len(joined) > MAX_CSV_CELL and max(map(len, row)) > MAX_CSV_CELL:
            self._too_long(row)
        if "'" in joined:  # a mark of neutralise's, at a cell's start or after a separator
            return [restore(cell) for cell in row]
        return row

    def _too_long(self, row: list[str]) -> None:
        number = self._number
        index, cell = next((i, c) for i, c in enumerate(row) if len(c) > MAX_CSV_CELL)
        named = ""
        if self.header is not None and index < len(self.header):
            named = f" ({self.header[index]})"
        raise FormatError(
            f"line {number}: cell {column_letters(index)}{number}{named} holds "
            f"{quote(cell)}: more than the {MAX_CSV_CELL:,} characters a cell of Excel holds"
        )

    def __iter__(self) -> Iterator[list[str]]:
        yield from itertools.repeat([], self._blank)
        before, self._before = self._before, []
        yield from before
        if self.header is None:
            return
        yield self.header
        width = len(self.header)
        while (row := self._next()) is not None:
            if self._within_header and len(row) > width and any(c.strip() for c in row[width:]):
                # Empty cells past the header (a spreadsheet's "Save as CSV" leaves them) are
                # nothing; a value there has no column.
                raise FormatError(
                    f"line {self._number}: {len(row)} cells where the header has {width}: "
                    f"{quote(self.delimiter.join(row))}"
                )
            yield row


def _check_lines(lines: int) -> None:
    """Refuse a file at its line past :data:`MAX_CSV_LINES`."""
    if lines > MAX_CSV_LINES:
        raise FormatError(
            f"line {lines:,}: the file has more lines than the {MAX_CSV_LINES:,} rows of an "
            "Excel sheet (see docs/limits.md)"
        )


def csv_records(
    lines: Iterable[str], *, templated: bool = False, within_header: bool = False
) -> CsvRecords:
    """A CSV file's rows read from its lines (:class:`CsvRecords`), its header row read
    first: a byte-order mark dropped, the separator the header row uses most
    (:func:`delimiter_of`), formula neutralising undone. With ``templated``, the header's
    cells that are other spellings of a column get the template's header
    (:func:`template_headers`); with ``within_header``, a row with a value past the header's
    cells is refused.

    The rows are checked as they are read, and a bad one raises when it is reached.

    Raises:
        FormatError: ``line N: …`` for quoting that CSV does not allow, a cell longer than
            :data:`MAX_CSV_CELL` characters, a line past :data:`MAX_CSV_LINES`, or (with
            ``within_header``) a value past the header's cells.
    """
    return CsvRecords(lines, templated, within_header)


def _kind(header: Sequence[str], first: int, delimiter: str = ",") -> str:
    """``"results"`` or ``"players"``: the table a header row (line ``first + 1``) heads.

    Raises:
        FormatError: it heads neither, quoting it.
    """
    columns = {column_field(name) for name in header}
    if {"home", "away", "result"} <= columns:
        return "results"
    if "name" in columns:
        return "players"
    raise FormatError(
        f"line {first + 1}: header {quote(delimiter.join(header))} has neither a 'name' "
        f"column (players) nor 'home', 'away' and 'result' columns (results)"
    )


def text_lines(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its line end (``\\n``, ``\\r\\n`` or ``\\r``), one at a
    time, as a file opened with ``newline=""`` gives them: a large text is neither copied
    nor split whole.

    >>> list(text_lines("a\\r\\nb\\rc\\nd"))
    ['a\\r\\n', 'b\\r', 'c\\n', 'd']
    """
    for found in _LINE_WITH_END.finditer(text):
        yield found.group()


def first_line(text: str) -> tuple[int, str] | None:
    """The first line of ``text`` that is not blank, and its number, read line by line up
    to it (a byte-order mark dropped): a large file is not split to find its header."""
    at, number = (1 if text.startswith("\ufeff") else 0), 1
    while at < len(text):
        found = _A_LINE.match(text, at)
        assert found is not None  # the pattern matches anywhere, the empty line at the end too
        if found.group(1).strip():
            return number, found.group(1)
        at, number = found.end(), number + 1
    return None


def csv_cells(text: str) -> list[list[str]]:
    """A CSV file's cells, row ``i`` of the list line ``i + 1`` of the file (a cell holding a
    line break aside), as :func:`csv_records` reads them.

    Raises:
        FormatError: as :func:`csv_records`.
    """
    return list(csv_records(text_lines(text)))


def csv_rows(lines: Sequence[str], delimiter: str, first: int = 1) -> list[list[str]]:
    """The cells of ``lines`` (the first is line ``first`` of its file) as Python's CSV reader
    splits them, nothing undone.

    Raises:
        FormatError: ``line N: not readable as CSV: …`` for a cell the reader refuses (one
            longer than its field limit of 131,072 characters, say), N the file's line.
    """
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    try:
        return list(reader)
    except csv.Error as error:
        raise FormatError(
            f"line {first + reader.line_num - 1}: not readable as CSV: {error}"
        ) from None


def _spelling(name: str) -> str:
    """A header as :func:`column_field` compares it: no spaces, underscores or hyphens, no
    byte-order mark, case folded."""
    return re.sub(r"[\s_\-]", "", name.strip().removeprefix("\ufeff")).casefold()


_FIELD_OF: Final[Mapping[str, str]] = {
    _spelling(spelling): column.field
    for column in (*schema.PLAYERS_COLUMNS, *schema.RESULTS_COLUMNS)
    for spelling in (column.field, column.header, *column.aliases)
}
"""Each spelling of a Players or Results column's header a CSV file may have: its field, its
header and its aliases (:attr:`xlgrade.schema.Column.aliases`)."""


def column_field(name: str) -> str:
    """The column a header cell names (``"Home player"``, ``home`` and ``White`` all give
    ``"home"``), or ``""`` for one that is not read."""
    return _FIELD_OF.get(_spelling(name), "")


def template_headers(rows: list[list[str]]) -> None:
    """Give each header cell of the first non-blank row that is another spelling of a column
    (:func:`column_field`: ``home``, ``White``, ``ECF code``, ``date_of_birth``…) the template's
    header (:data:`HEADERS`), unless the row has that header too (in place): the reader of
    tables knows the template's headers."""
    header = next((row for row in rows if any(c.strip() for c in row)), None)
    if header is None:
        return
    keys = {header_key(c) for c in header}
    for index, cell in enumerate(header):
        field = column_field(cell)
        if field and header_key(HEADERS[field]) not in keys:
            header[index] = HEADERS[field]
            keys.add(header_key(HEADERS[field]))


def _write(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """The CSV text of ``rows`` under ``headers``, every cell neutralised, a row made at a
    time (a large league's rows are never all held as cells at once)."""
    out = io.StringIO(newline="")
    out.write(csv_text([headers]))
    for row in rows:
        out.write(csv_text([row]))
    return out.getvalue()
