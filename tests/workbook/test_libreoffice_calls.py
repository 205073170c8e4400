"""Every shipped book's live formulas called as Excel calls them.

For every formula of ``workbook/*.xlsx`` and ``*.xlsm`` that calls a worksheet function of
xlgrade, the arguments are worked out from the book's own cells by a real spreadsheet engine:
LibreOffice, headless, computes each argument's expression (table columns, names, ``IF``) in
cells added beside the formula. Each function is then called with those values as both routes
call it (:mod:`xlgrade.workbook.excel_calls`: Office.js through ``xlwings.server``, and classic
xlwings with ``ndim=2``), and every answer is compared with the engine's rule (for
``GRADE_POINTS``, :func:`xlgrade.ecf.game_points` game by game) on every row with a result.
LibreOffice's own value of each formula, computed through the same Office.js call, must agree.

A function name may be stored as Excel stores an Office.js function (``_xldudf_`` before the
name, as the Lite books store it); the formula around the call (``IF``, ``IFERROR``) may change.
"""

from __future__ import annotations

import html
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import xlgrade_udfs as xl

from tests.paths import ROOT
from tests.workbook.test_libreoffice import _convert, _profile
from xlgrade import ecf
from xlgrade.workbook.excel_calls import OMITTED, classic_call, officejs_call
from xlgrade.workbook.package import read_sheets, sheet_parts

BOOKS = sorted([*ROOT.glob("workbook/*.xlsx"), *ROOT.glob("workbook/*.xlsm")])
NAMES = [b.name for b in BOOKS]

_CALL = re.compile(
    r"(?<![A-Za-z0-9_.])(?:_xldudf_\w*?)?(" + "|".join(sorted(xl.FUNCTIONS, key=len)[::-1]) + r")\("
)
"""A call of one of the functions, its name plain or as Excel stores an Office.js function."""
_CELL = re.compile(r'<c r="([A-Z]+)(\d+)"[^>]*?><f([^>]*)>([^<]*)</f>')
_REF = re.compile(r'ref="([A-Z]+)(\d+):([A-Z]+)(\d+)"')
_FIRST_COLUMN = 200
"""Where the cells computing the arguments start: column 200 (GR), past every sheet's cells."""


@dataclass
class Call:
    """One call of a function in a formula."""

    sheet: str
    column: int
    row: int
    rows: int
    columns: int
    function: str
    arguments: list[str]
    formula: str


def _column(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - 64
    return number


def _letters(number: int) -> str:
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _arguments(text: str, start: int) -> list[str]:
    """The arguments of the call whose ``(`` is at ``start``, split at the top-level commas."""
    depth, quoted, arguments, begun = 0, False, [], start + 1
    for position in range(start, len(text)):
        char = text[position]
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth == 0:
                arguments.append(text[begun:position].strip())
                return arguments
        elif char == "," and depth == 1:
            arguments.append(text[begun:position].strip())
            begun = position + 1
    raise AssertionError(f"no end to the call at {start} in {text!r}")


def _compares(argument: str) -> bool:
    """Whether an argument's expression is a comparison at its top level (``FloorAtZero<>"no"``):
    Excel gives TRUE or FALSE, where LibreOffice keeps 1 or 0 in the cell."""
    depth, quoted = 0, False
    for char in argument:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "([":
            depth += 1
        elif not quoted and char in ")]":
            depth -= 1
        elif not quoted and depth == 0 and char in "<>=":
            return True
    return False


def _as_excel(argument: str, value: Any) -> Any:
    """An argument's value as Excel computes it: a comparison's 1 or 0 as TRUE or FALSE."""
    if _compares(argument) and isinstance(value, float | int) and not isinstance(value, bool):
        return bool(value)
    return value


def _calls(book: Path) -> list[Call]:
    data = book.read_bytes()
    found: list[Call] = []
    with zipfile.ZipFile(book) as package:
        for sheet, part in sheet_parts(data).items():
            xml = package.read(part).decode("utf-8")
            for letters, row, attributes, raw in _CELL.findall(xml):
                formula = html.unescape(raw)
                size = _REF.search(attributes)
                rows = int(size.group(4)) - int(size.group(2)) + 1 if size else 1
                columns = _column(size.group(3)) - _column(size.group(1)) + 1 if size else 1
                for match in _CALL.finditer(formula):
                    arguments = _arguments(formula, match.end() - 1)
                    found.append(Call(sheet, _column(letters), int(row), rows, columns,
                                      match.group(1), arguments, formula))  # fmt: skip
    return found


def _with_argument_cells(book: Path, calls: list[Call], target: Path) -> dict[int, tuple[int, int]]:
    """A copy of ``book`` computing each argument of each call beside it: its value as an array
    formula over the call's own extent, its rows and its columns. Returns where each call's
    cells start (column) and how many columns each argument takes."""
    data = book.read_bytes()
    parts = sheet_parts(data)
    added: dict[tuple[str, int], list[str]] = {}
    places: dict[int, tuple[int, int]] = {}
    column = _FIRST_COLUMN
    for number, call in enumerate(calls):
        width = call.columns + 2
        places[number] = (column, width)
        cells = added.setdefault((parts[call.sheet], call.row), [])
        for argument in call.arguments:
            value, rows, columns = (
                _letters(column + i) for i in (0, call.columns, call.columns + 1)
            )
            last = _letters(column + call.columns - 1)
            text = html.escape(argument or '""', quote=False)
            ref = f"{value}{call.row}:{last}{call.row + call.rows - 1}"
            cells += [
                f'<c r="{value}{call.row}"><f t="array" ref="{ref}">{text}</f></c>',
                # ROWS of a single value is an error in LibreOffice: one row.
                f'<c r="{rows}{call.row}"><f>IFERROR(ROWS({text}),1)</f></c>',
                f'<c r="{columns}{call.row}"><f>IFERROR(COLUMNS({text}),1)</f></c>',
            ]
            column += width
    with zipfile.ZipFile(book) as source, zipfile.ZipFile(target, "w") as copy:
        for item in source.infolist():
            content = source.read(item)
            for (part, row), cells in added.items():
                if item.filename == part:
                    pattern = re.compile(rf'(<row r="{row}"[^>]*>.*?)(</row>)', re.S)
                    text = content.decode("utf-8")
                    found = pattern.search(text)
                    assert found, (part, row)
                    end = found.end(1)
                    content = (text[:end] + "".join(cells) + text[end:]).encode("utf-8")
            copy.writestr(item, content)
    return places


@dataclass
class Computed:
    """A call with its arguments as LibreOffice computed them and the formula's own values."""

    call: Call
    arguments: list[Any]
    shown: list[list[Any]]


def _block(rows: list[list[Any]], row: int, column: int, height: int, width: int) -> Any:
    """Cells ``height`` × ``width`` from (row, column), 1-based; one cell as its value."""

    def cell(r: int, c: int) -> Any:
        line = rows[r - 1] if r - 1 < len(rows) else []
        return line[c - 1] if c - 1 < len(line) else None

    block = [[cell(row + i, column + j) for j in range(width)] for i in range(height)]
    return block[0][0] if (height, width) == (1, 1) else block


@pytest.fixture(scope="module")
def computed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Computed]]:
    folder = tmp_path_factory.mktemp("calls")
    url = _profile(folder / "profile")
    out: dict[str, list[Computed]] = {}
    for book in BOOKS:
        calls = _calls(book)
        copy = folder / book.name
        places = _with_argument_cells(book, calls, copy)
        _convert(url, copy, folder / "out", folder / f"{book.stem}.log")
        sheets = read_sheets(folder / "out" / f"{book.stem}.xlsx", sorted({c.sheet for c in calls}))
        found = []
        for number, call in enumerate(calls):
            rows = sheets[call.sheet]
            start, width = places[number]
            arguments = []
            for position, _ in enumerate(call.arguments):
                column = start + position * width
                height = int(_block(rows, call.row, column + call.columns, 1, 1))
                across = int(_block(rows, call.row, column + call.columns + 1, 1, 1))
                assert height <= call.rows, (call, position)
                assert across <= call.columns, (call, position)
                value = _block(rows, call.row, column, height, across)
                arguments.append(_as_excel(call.arguments[position], value))
            shown = _block(rows, call.row, call.column, call.rows, call.columns)
            found.append(Computed(call, arguments, shown if isinstance(shown, list) else [[shown]]))
        out[book.name] = found
    return out


def _column_of(value: Any) -> list[Any]:
    return [row[0] for row in value] if isinstance(value, list) else [value]


def _grade_points(arguments: list[Any]) -> list[Any]:
    """The engine's points for each row of a GRADE_POINTS call: a number where the result is a
    score and the opponent has a grade, else ``None`` (no points for the row)."""
    given = [*arguments, *[OMITTED] * (5 - len(arguments))]
    own, opponent, result = (_column_of(a) for a in given[:3])
    size = max(map(len, (own, opponent, result)))
    own, opponent, result = (c * size if len(c) == 1 else c for c in (own, opponent, result))
    horizon = ecf.DEFAULT_HORIZON if given[3] is OMITTED else given[3]
    floor = True if given[4] in (OMITTED, None) else bool(given[4])
    points: list[Any] = []
    for mine, theirs, score in zip(own, opponent, result, strict=True):
        if not isinstance(score, float | int) or not isinstance(theirs, float | int):
            points.append(None)
            continue
        grade = mine if isinstance(mine, float | int) else None
        points.append(ecf.game_points(grade, theirs, score, horizon=horizon,
                                      floor_at_zero=floor).points)  # fmt: skip
    return points


ENGINE = {"GRADE_POINTS": _grade_points}
"""Each function the books call, and its rule in the engine, row by row."""


def test_every_shipped_book_is_checked(computed: dict[str, list[Computed]]) -> None:
    assert sorted(computed) == sorted(NAMES)
    assert len(BOOKS) == 4
    for lite in (b for b in NAMES if b.endswith(".xlsx")):
        # the Lite books store each call as Excel stores an add-in's function
        assert all("_xldudf_GRADE_POINTS(" in c.call.formula for c in computed[lite]), lite
    for book, calls in computed.items():
        assert calls, book
        assert {c.call.function for c in calls} <= set(ENGINE), book


@pytest.mark.parametrize("book", NAMES)
def test_every_call_answers_as_the_engine_in_both_routes(
    computed: dict[str, list[Computed]], book: str
) -> None:
    graded = 0
    for found in computed[book]:
        call = found.call
        want = ENGINE[call.function](found.arguments)
        lite = officejs_call(call.function, *found.arguments)
        classic = classic_call(call.function, *found.arguments)
        classic = classic if isinstance(classic, list) else [[classic]]
        assert len(lite) == len(want), call
        for row, points in enumerate(want):
            if points is None:
                continue
            graded += 1
            assert lite[row][0] == pytest.approx(points), (call.sheet, call.row + row, lite[row])
            assert classic[row][0] == pytest.approx(points), (call.sheet, call.row + row)
    assert graded  # the template's probe at least: GRADE_POINTS(100, 100, 1) is 100 + 50


@pytest.mark.parametrize("book", NAMES)
def test_libreoffice_shows_the_same_numbers(computed: dict[str, list[Computed]], book: str) -> None:
    # Where the formula around the call shows the call's answer (a number), LibreOffice's value
    # of the formula, computed through the same Office.js call, is the engine's.
    for found in computed[book]:
        if found.call.rows == 1:
            continue  # the add-in probe: its formula shows TRUE or FALSE, not the answer
        want = ENGINE[found.call.function](found.arguments)
        for row, points in enumerate(want):
            shown = found.shown[row][0]
            if isinstance(shown, float | int) and not isinstance(shown, bool):
                assert points is not None, (book, row)
                assert shown == pytest.approx(points), (book, row)


def test_the_example_league_grades_every_game_on_both_sides(
    computed: dict[str, list[Computed]],
) -> None:
    for name in ("example-league.xlsm", "example-league.xlsx"):
        columns = [f for f in computed[name] if f.call.rows > 1]
        assert len(columns) == 2  # Home points and Away points
        for found in columns:
            graded = [p for p in ENGINE[found.call.function](found.arguments) if p is not None]
            shown = [r[0] for r in found.shown if isinstance(r[0], float | int)]
            assert len(graded) > 20, (name, found.call.arguments)
            assert len(shown) == len(graded), (name, found.call.arguments)
