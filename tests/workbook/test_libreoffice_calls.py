"""Every shipped book's live formulas called as Excel calls them.

For every formula of ``workbook/*.xlsx`` and ``*.xlsm`` that calls a worksheet function of
xlgrade, the arguments are worked out from the book's own cells by a real spreadsheet engine:
LibreOffice, headless, computes each argument's expression (table columns, names, ``IF``) in
cells added beside the formula. Each function is then called with those values as both routes
call it (:mod:`xlgrade.workbook.excel_calls`: Office.js through ``xlwings.server``, and classic
xlwings with ``ndim=2``), and every answer is compared with the engine's rule (for
``GRADE_POINTS``, :func:`xlgrade.ecf.game_points` game by game) on every row with a result.
LibreOffice's own value of each formula, computed through the same Office.js call, must agree.

The same is done for the small league's book with each value a grader may leave in the
Settings sheet's Horizon and Floor at zero cells, and the answers compared game by game with
the points of the season ``xlgrade recalc`` reads from that book (or, for a cell it cannot
read, with its Exceptions line's words).

A function name may be stored as Excel stores an Office.js function (``_xldudf_`` before the
name, as the Lite books store it); the formula around the call (``IF``, ``IFERROR``) may change.
"""

from __future__ import annotations

import html
import re
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

import pytest
import xlgrade_udfs as xl

from tests.league import GAMES, PLAYERS, SETTINGS
from tests.live_points import call_arguments, engine_column
from tests.paths import ROOT
from tests.workbook.test_libreoffice import SOFFICE, _convert, _profile
from xlgrade import ecf, settings
from xlgrade.errors import GradingError
from xlgrade.model import Game, Player, Problem
from xlgrade.schema import DIVISIONS_HEADERS, PLAYERS_HEADERS, RESULTS_HEADERS
from xlgrade.season import SeasonResult
from xlgrade.workbook import layout
from xlgrade.workbook.build import build_workbook, members_of, repack
from xlgrade.workbook.excel_calls import OMITTED, classic_call, officejs_call
from xlgrade.workbook.libreoffice import run_soffice
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.read import grade_inputs, read_inputs
from xlgrade.workbook.recalc import read_book_inputs
from xlgrade.workbook.relationships import sheet_parts

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
_TABLES: Final = ("SEASON_POINTS",)
"""The functions that take whole tables: their arguments are computed over a larger extent
than the call's own (:func:`_extent`)."""


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
                    arguments = call_arguments(formula, match.end() - 1)
                    found.append(Call(sheet, _column(letters), int(row), rows, columns,
                                      match.group(1), arguments, formula))  # fmt: skip
    return found


def _extent(call: Call) -> tuple[int, int]:
    """The rows and columns each argument of ``call`` is computed over: the call's own, or for
    a function of whole tables (:data:`_TABLES`) room for a header row and a few more rows
    than the call's (the Settings cells) and for the widest table (the Players table)."""
    if call.function in _TABLES:
        widest = max(len(PLAYERS_HEADERS), len(RESULTS_HEADERS), len(DIVISIONS_HEADERS))
        return call.rows + 30, widest
    return call.rows, call.columns


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
        height, across = _extent(call)
        width = across + 3
        places[number] = (column, width)
        cells = added.setdefault((parts[call.sheet], call.row), [])
        for argument in call.arguments:
            value, rows, columns, logical = (
                _letters(column + i) for i in (0, across, across + 1, across + 2)
            )
            last = _letters(column + across - 1)
            text = html.escape(argument or '""', quote=False)
            ref = f"{value}{call.row}:{last}{call.row + height - 1}"
            # A formula referring to an empty cell shows 0 where a function is handed the
            # empty cell itself (a blank Horizon is not a horizon of 0): kept blank.
            kept = f'IF(ISBLANK({text}),"",{text})'
            cells += [
                f'<c r="{value}{call.row}"><f t="array" ref="{ref}">{kept}</f></c>',
                # ROWS of a single value is an error in LibreOffice: one row.
                f'<c r="{rows}{call.row}"><f>IFERROR(ROWS({text}),1)</f></c>',
                f'<c r="{columns}{call.row}"><f>IFERROR(COLUMNS({text}),1)</f></c>',
                # LibreOffice keeps a TRUE or FALSE as 1 or 0: whether one value is either.
                f'<c r="{logical}{call.row}"><f>IFERROR(ISLOGICAL({text}),FALSE)</f></c>',
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
        out[book.name] = _read_computed(folder / "out" / f"{book.stem}.xlsx", calls, places)
    return out


def _read_computed(
    converted: Path, calls: list[Call], places: dict[int, tuple[int, int]]
) -> list[Computed]:
    """The calls with their arguments as LibreOffice computed them in ``converted``, a copy
    made by :func:`_with_argument_cells` and converted."""
    sheets = read_sheets(converted, sorted({c.sheet for c in calls}))
    found = []
    for number, call in enumerate(calls):
        rows = sheets[call.sheet]
        start, width = places[number]
        extent = _extent(call)
        arguments = []
        for position, _ in enumerate(call.arguments):
            column = start + position * width
            height = int(_block(rows, call.row, column + extent[1], 1, 1))
            across = int(_block(rows, call.row, column + extent[1] + 1, 1, 1))
            assert height <= extent[0], (call, position)
            assert across <= extent[1], (call, position)
            value = _block(rows, call.row, column, height, across)
            logical = _block(rows, call.row, column + extent[1] + 2, 1, 1)
            if (height, across) == (1, 1) and logical and value is not None:
                value = bool(value)  # TRUE or FALSE in Excel
            arguments.append(_as_excel(call.arguments[position], value))
        shown = _block(rows, call.row, call.column, call.rows, call.columns)
        found.append(Computed(call, arguments, shown if isinstance(shown, list) else [[shown]]))
    return found


def _column_of(value: Any) -> list[Any]:
    return [row[0] for row in value] if isinstance(value, list) else [value]


SETTING_ARGUMENTS = (settings.by_name("horizon"), settings.by_name("floor_at_zero"))
"""The settings GRADE_POINTS's last two arguments are."""


def _grade_points(arguments: list[Any]) -> list[Any]:
    """The engine's points for each row of a GRADE_POINTS call: a number where the result is a
    score and the opponent has a grade, else ``None`` (no points for the row)."""
    given = [*arguments, *[OMITTED] * (5 - len(arguments))]
    own, opponent, result = (_column_of(a) for a in given[:3])
    size = max(map(len, (own, opponent, result)))
    own, opponent, result = (c * size if len(c) == 1 else c for c in (own, opponent, result))
    # The horizon and the floor as the Settings reader reads their cells (the books pass them).
    horizon, floor = (
        spec.default if value is OMITTED else settings.read_cell(spec, value)
        for spec, value in zip(SETTING_ARGUMENTS, given[3:], strict=True)
    )
    points: list[Any] = []
    for mine, theirs, score in zip(own, opponent, result, strict=True):
        if not isinstance(score, float | int) or not isinstance(theirs, float | int):
            points.append(None)
            continue
        grade = mine if isinstance(mine, float | int) else None
        points.append(ecf.game_points(grade, theirs, score, horizon=horizon,
                                      floor_at_zero=floor).points)  # fmt: skip
    return points


def _season_points(arguments: list[Any]) -> list[Any]:
    """The season's points for each row of a SEASON_POINTS call: its tables read and graded
    as ``xlgrade recalc`` reads and grades a book's (:mod:`xlgrade.formats.tables`,
    :func:`xlgrade.season.recalculate`), the points of the row's side on the standard or
    rapid list, else ``None`` (a row not graded, which shows its reason)."""
    results, players, season, side = arguments
    raw = {layout.SETTINGS: season, layout.PLAYERS: players, layout.RESULTS: results}
    header = f"{side.capitalize()} points"
    column = engine_column(grade_inputs(read_inputs(raw)), header, len(results) - 1)
    return [p if isinstance(p, float) else None for p in column]


ENGINE = {"GRADE_POINTS": _grade_points, "SEASON_POINTS": _season_points}
"""Each function the books call, and its rule in the engine, row by row."""


def test_every_shipped_book_is_checked(computed: dict[str, list[Computed]]) -> None:
    assert sorted(computed) == sorted(NAMES)
    assert len(BOOKS) == 4
    for lite in (b for b in NAMES if b.endswith(".xlsx")):
        # the Lite books store each call as Excel stores an add-in's function
        assert all(f"_xldudf_{c.call.function}(" in c.call.formula for c in computed[lite]), lite
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


# --------------------------------------------------------------------------------------------
# The Settings sheet's cells, read alike by the live points and by xlgrade recalc

SETTING_CELLS: tuple[object, ...] = (
    None, 40, 25, "none", "off", "yes", "no", "n", "false", 0, False, True,
)  # fmt: skip
"""What a grader may leave in the Horizon or the Floor at zero cell (FALSE, TRUE: Excel's
booleans, as typing FALSE gives)."""
_LOW = (
    Player("Low, Ann", None, "Cuxton", grade=20.0, row=len(PLAYERS) + 2),
    Player("Lower, Bob", None, "Cuxton", grade=10.0, row=len(PLAYERS) + 3),
)
"""Two players graded low enough for the floor to matter."""
_LOW_GAMES = (
    # Bob loses to a 20: 20 − 50 = −30 points, 0 with the floor.
    ("Low, Ann", "1-0", "Lower, Bob"),
    # Bob (10) loses to Smith (142): the horizon counts Smith as 10 + 40 = 50 (0 points), as
    # 35 with 25 (−15: the floor again), 10 with 0; Smith counts Bob as 142 − 40 = 102 + 50.
    ("Lower, Bob", "0-1", "123456A"),
)


def _league_with_low_players() -> tuple[tuple[Player, ...], tuple[Game, ...]]:
    extra = tuple(
        replace(GAMES[-1], home=home, away=away, result=result, row=len(GAMES) + 2 + i)
        for i, (home, result, away) in enumerate(_LOW_GAMES)
    )
    return (*PLAYERS, *_LOW), (*GAMES, *extra)


def _cell_xml(ref: str, value: object) -> str:
    if value is None:
        return f'<c r="{ref}"/>'
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, int | float):
        return f'<c r="{ref}" t="n"><v>{value}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t>{html.escape(str(value))}</t></is></c>'


def _with_setting_cell(package: bytes, name: str, value: object) -> bytes:
    """``package`` with the Settings sheet's Value cell of setting ``name`` holding ``value``."""
    spec = settings.by_name(name)
    ref = f"B{layout.SETTING_ROWS.index(spec) + 2}"  # the table's rows follow the header
    members = members_of(package)
    part = sheet_parts(package)[layout.SETTINGS]
    text = members[part].decode("utf-8")
    cell = re.compile(rf'<c r="{ref}"[^>]*?(?:/>|>.*?</c>)', re.S)
    assert cell.search(text), ref
    members[part] = cell.sub(lambda _: _cell_xml(ref, value), text, count=1).encode("utf-8")
    return repack(members)


@dataclass
class SettingCase:
    """One Settings cell in one book: the live columns' calls and the recalculated season."""

    name: str
    value: object
    computed: list[Computed]
    result: SeasonResult
    problems: list[Problem]


@pytest.fixture(scope="module")
def setting_cases(tmp_path_factory: pytest.TempPathFactory) -> list[SettingCase]:
    """The small league's book (and two low-graded players) with each of
    :data:`SETTING_CELLS` in the Horizon cell, and in the Floor at zero cell: each book's
    points formulas' arguments computed by LibreOffice (one run for all), and the book read and
    graded as ``xlgrade recalc`` reads and grades it."""
    folder = tmp_path_factory.mktemp("settings")
    url = _profile(folder / "profile")
    players, games = _league_with_low_players()
    package = build_workbook(players, games, SETTINGS)
    books = []
    for name in ("horizon", "floor_at_zero"):
        for number, value in enumerate(SETTING_CELLS):
            book = folder / f"{name}-{number}.xlsm"
            book.write_bytes(_with_setting_cell(package, name, value))
            calls = [c for c in _calls(book) if c.rows > 1]  # the points columns
            copy = folder / "copies" / book.name
            copy.parent.mkdir(exist_ok=True)
            books.append((name, value, book, copy, calls, _with_argument_cells(book, calls, copy)))
    out = folder / "out"
    assert SOFFICE is not None
    arguments = [f"-env:UserInstallation={url}", "--headless", "--convert-to", "xlsx",
                 "--outdir", str(out), *(str(b[3]) for b in books)]  # fmt: skip
    run_soffice(SOFFICE, arguments, folder / "soffice.log", done=out / f"{books[-1][3].stem}.xlsx")
    cases = []
    for name, value, book, copy, calls, places in books:
        inputs = read_book_inputs(book.read_bytes(), book)
        cases.append(
            SettingCase(
                name,
                value,
                _read_computed(out / f"{copy.stem}.xlsx", calls, places),
                grade_inputs(inputs),
                list(inputs.problems),
            )
        )
    return cases


def _recalculated_points(result: SeasonResult) -> dict[tuple[int, str], float]:
    """The season's points of each graded game, by (Results row, points header)."""
    graded = result.standard
    points: dict[tuple[int, str], float] = {}
    for i, game in enumerate(graded.rows.tolist()):
        row = result.games[game].row
        assert row is not None
        points[row, "Home points"] = float(graded.white_points[i])
        points[row, "Away points"] = float(graded.black_points[i])
    return points


def _spread(answer: Any, rows: int) -> list[list[Any]]:
    """A function's answer over a formula of ``rows`` rows: one value (a message for the whole
    call) fills every row, as the array formula around the call spreads it."""
    grid = answer if isinstance(answer, list) else [[answer]]
    return grid * rows if len(grid) == 1 else grid


def test_a_settings_cell_gives_the_live_points_the_season_gives(
    setting_cases: list[SettingCase],
) -> None:
    assert len(setting_cases) == 2 * len(SETTING_CELLS)
    for case in setting_cases:
        spec = settings.by_name(case.name)
        try:
            settings.read_cell(spec, case.value)
            refused = None
        except GradingError as error:
            refused = str(error)
        # xlgrade recalc: a cell it cannot read is reported, quoted, and the default used.
        said = [p.why for p in case.problems if p.sheet == layout.SETTINGS]
        ref = f"B{layout.SETTING_ROWS.index(spec) + 2}"
        reported = f"cell {ref} (Value): {refused}: the default is used"
        assert said == ([] if refused is None else [reported]), case
        season = _recalculated_points(case.result)
        compared = 0
        for found in case.computed:
            header = "Home points" if found.call.arguments[3] == '"home"' else "Away points"
            arguments = _as_typed(found.arguments, spec.label, case.value)
            lite = _spread(officejs_call(found.call.function, *arguments), found.call.rows)
            classic = _spread(classic_call(found.call.function, *arguments), found.call.rows)
            for i, (mine, theirs, shown) in enumerate(zip(lite, classic, found.shown, strict=True)):
                row = found.call.row + i
                if (row, header) not in season:
                    # Not graded: the row says why, as its Exceptions line does.
                    assert str(mine[0]).startswith("not graded: "), (case, row, header)
                    assert theirs[0] == shown[0] == mine[0], (case, row, header)
                    continue
                # A cell the season cannot read is its default, in the live points too.
                points = season[row, header]
                assert mine[0] == pytest.approx(points), (case.name, case.value, row, header)
                assert theirs[0] == pytest.approx(points), (case.name, case.value, row, header)
                # LibreOffice hands a TRUE or FALSE cell to its Basic function as 1 or 0 (a
                # horizon of 1 or 0); Excel hands the boolean over.
                if not isinstance(case.value, bool):
                    assert shown[0] == pytest.approx(points), (case.name, case.value, row, header)
                compared += 1
        assert compared >= 22, (case.name, case.value)  # 11 games graded, both sides


def _as_typed(arguments: list[Any], label: str, value: object) -> list[Any]:
    """A SEASON_POINTS call's arguments with the Settings cells' Value of the setting
    ``label`` as Excel hands it over: a TRUE or FALSE typed there, which LibreOffice computes
    as 1 or 0 in the cells beside the call."""
    if not isinstance(value, bool):
        return arguments
    season = [list(row) for row in arguments[2]]
    for row in season:
        if row[0] == label:
            row[1] = value
    return [*arguments[:2], season, *arguments[3:]]
