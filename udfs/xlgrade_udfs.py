"""Excel worksheet functions for xlgrade, defined once and registered for both Excel routes.

Every grading rule becomes a worksheet function: ``=GRADE_POINTS(C2:C500, F2:F500, D2:D500)``
beside the results, ``=SEASON_GRADE(...)`` beside a player, ``=ECF_TO_ELO(...)`` in a list. Each
function is one definition here, registered twice from the same name, description and argument
help:

- **classic xlwings** (Windows desktop Excel with Python and the xlwings add-in): name this
  module (``xlgrade_udfs``) in the book's ``UDF Modules`` setting; :func:`worksheet_function`
  applies ``xw.func``/``xw.arg`` as the module is imported;
- **xlwings Lite** (Excel 365/2021+ on Windows, macOS and the web, no Python to install):
  the book's ``main.py`` imports :mod:`xlgrade_lite`, which registers each function of
  :data:`FUNCTIONS` with ``xlwings.server`` through :func:`lite_function`, and the buttons as
  scripts.

**Adding a function** is one definition in this module, decorated with
:func:`worksheet_function` and a help line for every argument::

    @worksheet_function(grade="An ECF grade.", games="Games it is based on.")
    def MY_FUNCTION(grade: Any, games: Any = None) -> Any:
        '''One line for the function wizard (Excel shows it).

        docs/rules.md §… through :func:`xlgrade.….…`.
        '''
        return _each(one, {"grade": grade, "games": games})

and its name in ``__all__``. Both routes pick it up: it lands in :data:`FUNCTIONS`, which
:mod:`xlgrade_lite` registers for Lite; nothing else is edited. The function holds no grading
rule of its own. It turns the cells Excel passes into numbers, text and results, calls
:mod:`xlgrade`, and turns the answer into something a cell can show:

- **Whole columns at once.** Wherever an argument is one value a row, a range may be given
  instead; the answer is a range of the same shape that spills (Excel's dynamic arrays), and a
  single value beside ranges applies to every row. One formula serves a whole column.
- **Blank in, blank out.** A row whose required cells are empty gives an empty text (``""``).
- **Bad input** gives ``#VALUE!`` and a short message that names the argument and quotes the
  value (``#VALUE! result 'x' not understood``); a default gives ``not graded: …``. Only the
  refusals of :mod:`xlgrade` (:class:`~xlgrade.errors.GradingError`) become messages; a
  programming error is raised, never hidden. An error cell (``#N/A``…) passed in is quoted the
  same way, so the error is seen, not taken for a blank.
- **Discoverable.** Each function carries a one-line description (the first line of its
  docstring) and help for every argument, in the category ``xlgrade`` of the function wizard.

Both routes declare every parameter a range (classic ``ndim=2``, Office.js ``matrix``), so a
single value arrives as a range of one cell (``[[TRUE]]``), a range as rows of cells; classic
xlwings passes numbers as floats, empty cells as ``None`` and dates as ``datetime``, Office.js
whole numbers as integers, empty cells as ``""`` and dates as serial numbers. Every function
reads its arguments through one coercion (:func:`_taking_cells`, applied by
:func:`worksheet_function`): a parameter meant for one value for the whole call is annotated
:data:`One` and takes a cell or a range of one cell (a larger range is refused naming it);
numpy arrays and tuples are taken as lists; a ragged or nested range, NaN, an infinity or a
number past :data:`LARGEST` gets the message naming the argument, before any rule is applied.
xlwings is optional: without it the functions work the same from Python and keep their help in
:data:`FUNCTIONS` (``xlgrade_info`` on each function). This module imports only the standard
library, numpy and :mod:`xlgrade`'s engine, so it runs under Pyodide.
"""

from __future__ import annotations

import datetime as dt
import inspect
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from typing import Annotated, Any, Final, TypeVar, get_type_hints

import numpy as np

from xlgrade import (
    bulk_ecf,
    cells,
    convert,
    ecf,
    ecf_rating,
    editions,
    elo,
    glicko,
    schema,
    settings,
)
from xlgrade.errors import CodeError, GradeError, GradingError, ResultError, SettingError
from xlgrade.model import EarlierSeason
from xlgrade.teams import Board, Division, board_order, team_breaches, team_total

xw: Any
try:  # xlwings registers the functions with Excel; the module works without it.
    import xlwings as xw
except ImportError:  # pragma: no cover - xlwings is in the test extra
    xw = None

__all__ = [
    "BOARD_ORDER",
    "CATEGORY",
    "ECF_CODE_LETTER",
    "ECF_CODE_VALID",
    "ECF_EXPECTED",
    "ECF_NEW_RATING",
    "ECF_P_RATING",
    "ECF_RATING_CHANGE",
    "ECF_RATING_TO_FIDE",
    "ECF_TO_ELO",
    "ELO_CHANGE",
    "ELO_DP",
    "ELO_EXPECTED",
    "ELO_INITIAL",
    "ELO_K",
    "ELO_LISTED",
    "ELO_MARCH_2024",
    "ELO_NEW_RATING",
    "ELO_PERFORMANCE",
    "ELO_TO_ECF",
    "FIDE_TO_ECF_RATING",
    "FIDE_TO_USCF",
    "FUNCTIONS",
    "GLICKO",
    "GLICKO2",
    "GRADE_CATEGORY",
    "GRADE_EXPECTED",
    "GRADE_POINTS",
    "GRADE_TO_ECF_RATING",
    "JUNIOR_ENHANCEMENT",
    "LIST_RATING",
    "PERFORMANCE_GRADE",
    "RATING_CLASS",
    "SEASON_GRADE",
    "SEASON_POINTS",
    "TEAM_ELIGIBLE",
    "TEAM_TOTAL",
    "USCF_TO_FIDE",
    "Argument",
    "FunctionInfo",
    "lite_function",
    "recalculate_season",
    "worksheet_function",
]

CATEGORY: Final = "xlgrade"
"""The function wizard's category of every function here."""
BLANK: Final = ""
"""What a function returns for a blank row: an empty text, as ``=IF(A2="", "", …)`` would."""
ERROR_PREFIX: Final = "#VALUE! "
"""Start of every message for bad input."""
NOT_GRADED: Final = "not graded: "
"""Start of the answer for a default, a bye or a game with no move made."""

_F = TypeVar("_F", bound=Callable[..., Any])


# --------------------------------------------------------------------------------------------
# Help for the function wizard


@dataclass(frozen=True)
class Argument:
    """One argument as the function wizard shows it.

    Attributes:
        name: the argument's name, as in the Python signature.
        doc: the help line shown while the argument is being filled in.
        optional: whether it may be left out.
    """

    name: str
    doc: str
    optional: bool


@dataclass(frozen=True)
class FunctionInfo:
    """A worksheet function's help: what Excel's function wizard shows.

    Attributes:
        name: the function's name in Excel.
        description: the one-line description (the docstring's first line).
        arguments: the arguments in order.
        category: the wizard's category (:data:`CATEGORY`).
    """

    name: str
    description: str
    arguments: tuple[Argument, ...]
    category: str


FUNCTIONS: Final[dict[str, Callable[..., Any]]] = {}
"""Every worksheet function of this module by name, in the order defined."""

_ONE_VALUE: Final = "one value for the whole call"
One = Annotated[Any, _ONE_VALUE]
"""The annotation of a parameter that takes one value for the whole call (a setting such as
``floor_at_zero``, a player's rating before a period): a cell, or a range of one cell, which is
what both routes hand over for one value (``[[x]]``); a larger range is refused naming the
argument. Every other parameter takes a cell or a range."""


def worksheet_function(**docs: str) -> Callable[[_F], _F]:
    """Define a worksheet function: its help, :data:`FUNCTIONS`, and classic xlwings' decorators
    where xlwings is installed (:func:`lite_function` registers the same help for Lite).

    Every parameter must have a help line; the first line of the docstring is the description.
    Ranges are asked for as two-dimensional lists (``ndim=2``) so that a row and a column keep
    their shape in Excel.
    """

    def register(function: _F) -> _F:
        names = list(inspect.signature(function).parameters.values())
        missing = {p.name for p in names} ^ set(docs)
        if missing:
            raise TypeError(f"{function.__name__}: help and parameters differ on {missing}")
        description = (function.__doc__ or "").strip().splitlines()[0]
        info = FunctionInfo(
            function.__name__,
            description,
            tuple(
                Argument(p.name, docs[p.name], p.default is not inspect.Parameter.empty)
                for p in names
            ),
            CATEGORY,
        )
        wrapped: Any = _taking_cells(function)
        wrapped.xlgrade_info = info
        if xw is not None:
            for p in reversed(names):
                wrapped = xw.arg(p.name, ndim=2, doc=docs[p.name])(wrapped)
            wrapped = xw.func(category=CATEGORY)(wrapped)
            xlfunc = getattr(wrapped, "__xlfunc__", None)
            if xlfunc is not None:  # Excel on Windows: show the one line, not the docstring
                xlfunc["ret"]["doc"] = description
        FUNCTIONS[function.__name__] = wrapped
        return wrapped  # type: ignore[no-any-return]

    return register


def lite_function(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (one of :data:`FUNCTIONS`) registered for xlwings Lite (Office.js).

    A new function object that calls ``function``, with its name, signature and help
    (:class:`FunctionInfo`) given to ``xlwings.server``'s ``func`` and ``arg``: every argument a
    range of rows (``ndim=2``, as Excel's matrix parameters arrive), error cells passed in as
    their text (``#N/A``) so that they are quoted, never taken for blanks. The classic
    registration on ``function`` itself is left as it is: the two never share an object.
    """
    from xlwings import server

    info: FunctionInfo = function.xlgrade_info  # type: ignore[attr-defined]

    def call(*cells: Any) -> Any:
        return function(*cells)

    call.__name__ = call.__qualname__ = info.name
    call.__doc__ = info.description  # Office.js shows the whole text: the one line
    call.__module__ = "xlgrade_lite"
    call.__signature__ = inspect.signature(function)  # type: ignore[attr-defined]
    call.__wrapped__ = function  # type: ignore[attr-defined]
    registered: Callable[..., Any] = call
    for argument in reversed(info.arguments):
        registered = server.arg(argument.name, ndim=2, doc=argument.doc, err_to_str=True)(
            registered
        )
    return server.func(registered)


# --------------------------------------------------------------------------------------------
# Cells in


_NotGraded = cells.NotGraded
"""A result that is a default, a bye or a game with no move made."""

_Shape = tuple[int, int]
_REAL: Final = (int, float, np.integer, np.floating)
"""Number types a cell may hold (``bool`` is an ``int`` too, and is refused before)."""

# The cells are read by xlgrade.cells, as the workbook and the CSV files read them; these
# helpers put the argument's name in front of its refusal.
_quote = cells.quote
_is_blank = cells.blank


def _named(name: str, error: GradingError) -> str:
    return f"{name} {error}"


LARGEST: Final = 1e15
"""The largest number, either side of 0, that an argument of a function takes: past it a cell
no longer holds every whole number (Excel keeps 15 digits), and no grade, rating, count of
games or season's points comes near it. Larger numbers, infinities and NaN are refused, naming
the argument, before any rule is applied."""

_CELL_TYPES: Final = (str, bool, int, float, dt.date, type(None))
"""What one cell of an argument may be (numpy's scalars are taken as the Python value)."""
_RANGE_TYPES: Final = (list, tuple, np.ndarray)


def _cell_in(value: object, name: str) -> object:
    """One cell of an argument as a function takes it: the same value, a numpy scalar as its
    Python value; an infinity, NaN, a number past :data:`LARGEST` or what no cell holds (a
    range within a range, an object) raises :class:`GradeError` naming the argument."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, int | float) and not isinstance(value, bool):
        if not -LARGEST <= value <= LARGEST:  # NaN fails both comparisons
            if isinstance(value, float) and not np.isfinite(value):
                raise GradeError(f"{name} {_quote(value)} is not a finite number")
            shown = repr(value) if isinstance(value, float) else _quote(value)
            raise GradeError(
                f"{name} {shown} is out of range: a number here is at most "
                f"{LARGEST:g} either side of 0"
            )
        return value
    if isinstance(value, _RANGE_TYPES):
        raise GradeError(f"{name}: a range must be rows of cells, not ranges within a range")
    if not isinstance(value, _CELL_TYPES):
        raise GradeError(f"{name} {_quote(value)} is not a value a cell holds")
    return value


class _Cells(list[Any]):
    """The cells of an argument, row by row, as :func:`_argument` checked them, with what the
    check found kept for the readers after it (:func:`_numbers`, :func:`_scores`), so that a
    column is looked at once: ``kinds`` the types of its cells, ``floats`` (a column of numbers
    and blanks) its cells as floats with NaN for a blank, ``distinct`` (a column with text)
    its distinct cells. ``None`` where not found."""

    kinds: set[type] | None = None
    floats: np.ndarray | None = None
    distinct: set[Any] | None = None


class _Range(list[Any]):
    """A range as :func:`_argument` hands it to a function: its rows (a list, as before), with
    its cells row by row (:class:`_Cells`) and its width kept for :func:`_grid`."""

    cells: _Cells
    width: int


def _plain_cells(cells: _Cells) -> bool:
    """Whether every cell of a column is text, a blank, TRUE/FALSE or a number within
    :data:`LARGEST`: the common case, checked without a look at each cell in Python. What it
    finds is kept on ``cells`` (:class:`_Cells`)."""
    kinds = cells.kinds = set(map(type, cells))
    if not kinds <= _PLAIN:
        return False
    if float in kinds or int in kinds:
        if kinds <= _NUMERIC and len(cells) > _FEW:
            try:
                floats = np.array(cells, dtype=np.float64)  # a blank (None) is NaN
            except OverflowError:  # an integer past any float
                return False
            with np.errstate(invalid="ignore"):
                inside = np.abs(floats) <= LARGEST  # False for NaN, an infinity, a giant
            outside = np.flatnonzero(~inside).tolist()
            if outside:  # each must be a blank, not a NaN, an infinity or a number too large
                found = itemgetter(*outside)(cells) if len(outside) > 1 else (cells[outside[0]],)
                if found.count(None) != len(found):
                    return False
            cells.floats = floats
            return True
        if len(cells) > _FEW:
            cells.distinct = set(cells)
        numbers = [c for c in cells.distinct or cells if type(c) is float or type(c) is int]
        if not (min(numbers) >= -LARGEST and max(numbers) <= LARGEST):
            return False  # an infinity, a giant integer (or a NaN, which max may keep)
        total = sum(numbers)
        if total != total:  # a NaN that min and max passed over
            return False
    return True


_PLAIN: Final = frozenset({str, type(None), bool, float, int})
_NUMERIC: Final = frozenset({type(None), float, int})
_FEW: Final = 16
"""Up to this many cells, a range is checked cell by cell in Python, which is quicker there
than numpy's arrays or a set of its cells."""


def _argument(value: object, name: str, one: bool) -> object:
    """An argument as the functions take it: a cell, or a range as rows of cells.

    The one reading of what either route hands over (classic xlwings and xlwings Lite both
    pass every argument as rows of cells, ``ndim=2``): a numpy array or tuples become lists, a
    flat list is a column, every cell is checked by :func:`_cell_in`, and for a parameter
    annotated :data:`One` a range of one cell becomes that cell while a larger range is
    refused. A range whose rows differ in length, or that holds ranges, is refused naming the
    argument.
    """
    if type(value) is list and len(value) == 1 and type(value[0]) is list and len(value[0]) == 1:
        # One cell as both routes hand it over, [[x]]: the common case of a cell's formula
        cell = _cell_in(value[0][0], name)
        if one:
            return cell
        checked = _Range([[cell]])
        checked.cells, checked.width = _Cells([cell]), 1
        return checked
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, list | tuple):
        return _cell_in(value, name)
    rows: list[Any]
    kinds = set(map(type, value))
    if kinds <= {list}:
        rows = value if isinstance(value, list) else list(value)  # as handed over: not copied
    elif not kinds & set(_RANGE_TYPES):
        rows = [[cell] for cell in value]  # a flat list: a column
    elif kinds <= set(_RANGE_TYPES):
        rows = [row.tolist() if isinstance(row, np.ndarray) else list(row) for row in value]
    else:
        raise GradeError(f"{name}: a range must be rows of cells, not cells and rows mixed")
    width = len(rows[0]) if rows else 1
    cells = None
    if width == 1:  # a column, the common case: unpacking checks that each row is one cell
        with suppress(ValueError):  # a row of another length: the check below names it
            cells = _Cells([cell for (cell,) in rows])
    if cells is None:
        widths = set(map(len, rows))
        if len(widths) > 1 or 0 in widths:
            raise GradeError(f"{name}: a range must be rows of cells of the same length")
        cells = _Cells(chain.from_iterable(rows))
    if not _plain_cells(cells):
        cells = _Cells(
            _cell_in(cell, f"{name} item {item + 1}" if len(cells) > 1 else name)
            for item, cell in enumerate(cells)
        )
        rows = [cells[r : r + width] for r in range(0, len(cells), width)]
    checked = _Range(rows)
    checked.cells, checked.width = cells, width
    if one:
        return _single(checked, name)
    return checked


def _taking_cells(function: _F) -> _F:
    """``function`` taking its arguments through :func:`_argument`, each as its parameter is
    annotated: one place for both routes and every function, so that a parameter added later
    is read the same way. A refusal is the call's message."""
    signature = inspect.signature(function)
    hints = get_type_hints(function, include_extras=True)
    single = {
        name
        for name in signature.parameters
        if _ONE_VALUE in getattr(hints.get(name), "__metadata__", ())
    }

    names = list(signature.parameters)
    positional = all(p.kind is p.POSITIONAL_OR_KEYWORD for p in signature.parameters.values())

    def call(*args: Any, **kwargs: Any) -> Any:
        if positional and not kwargs and len(args) <= len(names):  # as both routes call
            given = dict(zip(names, args, strict=False))
        else:
            given = signature.bind(*args, **kwargs).arguments
        try:
            cells = {name: _argument(value, name, name in single) for name, value in given.items()}
        except GradingError as error:
            return _message(error)
        return function(**cells)

    call.__name__ = call.__qualname__ = function.__name__
    call.__doc__ = function.__doc__
    call.__module__ = function.__module__
    call.__signature__ = signature  # type: ignore[attr-defined]
    call.xlgrade_one_value = frozenset(single)  # type: ignore[attr-defined]
    return call  # type: ignore[return-value]


def _number(value: object, name: str) -> float | None:
    """A cell as a finite float; ``None`` when blank. Text holding a number counts, as does an
    estimated grade in brackets (``"[136]"``, docs/rules.md §6): :func:`xlgrade.cells.grade`."""
    try:
        return cells.grade(value)
    except GradingError as error:
        raise GradeError(_named(name, error)) from None


def _whole(value: object, name: str) -> int | None:
    """A cell as a whole number (a count of games), :func:`xlgrade.cells.whole`; ``None`` when
    blank."""
    try:
        return cells.whole(value)
    except GradingError as error:
        raise GradeError(_named(name, error)) from None


def _choice(value: object, name: str, default: str) -> str:
    """A setting's name from a cell, lower case; ``default`` when blank. The engine checks it."""
    if _is_blank(value):
        return default
    if not isinstance(value, str):
        raise SettingError(f"{name} {_quote(value)} is not a name")
    return value.strip().lower()


def _flag(value: object, name: str) -> bool:
    """A yes/no cell, :func:`xlgrade.cells.yes_no`: TRUE/FALSE, 1/0, yes/no, y/n; blank is no."""
    try:
        return bool(cells.yes_no(value))
    except GradingError:
        raise SettingError(f"{name} {_quote(value)} is not TRUE or FALSE") from None


def _score(value: object, name: str) -> float | _NotGraded | None:
    """A result cell as a score (1, 0.5, 0), a default, or ``None`` when blank:
    :func:`xlgrade.cells.score`."""
    if not _is_blank(value) and (
        not isinstance(value, str | float | int) or isinstance(value, bool)
    ):
        raise ResultError(f"{name} {_quote(value)} not understood")
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # quoted as a cell shows it, whichever route sent 2 or 2.0
    try:
        return cells.score(value)
    except ResultError as error:
        message = str(error)
        if message.startswith("result ") and name != "result":
            message = f"{name}: {message}"
        raise ResultError(message) from None


# --------------------------------------------------------------------------------------------
# Ranges and broadcasting


def _grid(value: object) -> tuple[list[Any], _Shape | None]:
    """A cell or a range as (flat values row by row, shape); the shape is ``None`` for a cell.

    A flat list is a column (xlwings gives a one-column range as a flat list unless ``ndim=2``).
    """
    if isinstance(value, _Range):  # read by _argument: its cells are at hand
        return value.cells, (len(value), value.width)
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return [value.item()], None
        value = value.tolist()
    if not isinstance(value, list | tuple):
        return [value], None
    if not value:
        return [], (0, 1)
    kinds = set(map(type, value))
    if not kinds & {list, tuple}:
        return list(value), (len(value), 1)
    if not kinds <= {list, tuple}:
        raise GradeError("a range must be rows of cells")
    columns = len(value[0])
    if set(map(len, value)) != {columns}:
        raise GradeError("a range must be rows of cells of the same length")
    if columns == 1:
        return [row[0] for row in value], (len(value), 1)
    return [cell for row in value for cell in row], (len(value), columns)


def _size(shape: _Shape) -> str:
    rows, columns = shape
    return f"{rows} row{'s' * (rows != 1)} × {columns} column{'s' * (columns != 1)}"


def _broadcast(arguments: dict[str, object]) -> tuple[_Shape | None, list[list[Any]]]:
    """Cells and ranges brought to one shape, each as a flat list (length 1 for all cells).

    Ranges of one shape go together; a single cell, a one-row or a one-column range is repeated
    along the other ranges, as Excel does for arrays. Other shapes raise :class:`GradeError`.
    """
    grids = {name: _grid(value) for name, value in arguments.items()}
    shapes = {name: shape for name, (_, shape) in grids.items() if shape is not None}
    if not shapes:
        return None, [values for values, _ in grids.values()]
    rows = max(shape[0] for shape in shapes.values())
    columns = max(shape[1] for shape in shapes.values())
    for name, shape in shapes.items():
        if shape[0] not in (1, rows) or shape[1] not in (1, columns):
            axis = 0 if shape[0] not in (1, rows) else 1
            first = next(n for n, s in shapes.items() if s[axis] == (rows, columns)[axis])
            raise GradeError(
                f"{name} is {_size(shape)} but {first} is {_size(shapes[first])}: "
                "give ranges of the same size"
            )
    size = rows * columns
    flat: list[list[Any]] = []
    for values, grid_shape in grids.values():
        if grid_shape is None or grid_shape == (1, 1):
            flat.append(values * size)
        elif grid_shape == (rows, columns):
            flat.append(values)
        elif grid_shape[0] == 1:  # one row, repeated down
            flat.append(values * rows)
        else:  # one column, repeated across
            flat.append([v for v in values for _ in range(columns)])
    return (rows, columns), flat


def _shaped(values: list[Any], shape: _Shape | None) -> Any:
    """Flat answers back in the arguments' shape: a value for cells, else rows of values."""
    if shape is None:
        return values[0]
    rows, columns = shape
    if columns == 1:
        return [[v] for v in values]
    return [values[r * columns : (r + 1) * columns] for r in range(rows)]


def _message(error: GradingError) -> str:
    return ERROR_PREFIX + str(error)


def _each(function: Callable[..., Any], arguments: dict[str, object]) -> Any:
    """``function`` applied row by row (cell by cell) over broadcast arguments; a refusal of
    :mod:`xlgrade` becomes that cell's message."""
    try:
        shape, columns = _broadcast(arguments)
    except GradingError as error:
        return _message(error)
    answers: list[Any] = []
    for row in zip(*columns, strict=True):
        try:
            answers.append(function(*row))
        except GradingError as error:
            answers.append(_message(error))
    return _shaped(answers, shape)


def _values(value: object) -> list[Any]:
    """A range (any shape) or a cell as a flat list of cells, row by row."""
    return _grid(value)[0]


def _games(
    opponents: object, results: object, opponents_name: str
) -> tuple[list[float], list[float], int]:
    """Pair a range of opponents' grades or ratings with a range of results.

    Rows blank on both sides, rows without a result (not yet played) and defaults are left out.
    Returns the opponents and scores of the games that count, and how many defaults there were.
    """
    grades = _values(opponents)
    scores = _values(results)
    if len(grades) != len(scores):
        raise GradeError(
            f"{opponents_name} has {len(grades)} cells but results has {len(scores)}: "
            "give one result per opponent"
        )
    kept_grades: list[float] = []
    kept_scores: list[float] = []
    defaults = 0
    for item, (grade_cell, result_cell) in enumerate(zip(grades, scores, strict=True), start=1):
        grade = _number(grade_cell, f"{opponents_name} item {item}")
        score = _score(result_cell, f"results item {item}")
        if score is None:
            continue
        if isinstance(score, _NotGraded):
            defaults += 1
            continue
        if grade is None:
            raise GradeError(
                f"{opponents_name} item {item} is blank but results item {item} is "
                f"{_quote(result_cell)}"
            )
        kept_grades.append(grade)
        kept_scores.append(score)
    return kept_grades, kept_scores, defaults


# --------------------------------------------------------------------------------------------
# ECF grading


def _distinct(values: list[Any], function: Callable[[Any], Any]) -> list[Any]:
    """``function`` of each value, worked out once for each distinct value."""
    if bool in set(map(type, values)):  # TRUE and 1.0 are one dictionary key
        return [function(v) for v in values]
    table = {v: function(v) for v in set(values)}
    return list(map(table.__getitem__, values))


def _numbers(values: list[Any], name: str) -> tuple[np.ndarray, dict[int, str]]:
    """A column of cells as floats (NaN where blank or bad) and, by position, what the other
    rows show: blank or a message. Plain numbers and blanks take a fast path."""
    kinds = getattr(values, "kinds", None) or set(map(type, values))
    if kinds <= _NUMERIC:
        array = getattr(values, "floats", None)
        checked = array is not None  # _argument found every number finite
        if array is None:
            array = np.array(values, dtype=np.float64)
        shown = {int(i): BLANK for i in np.flatnonzero(np.isnan(array))}
        for i in [] if checked else map(int, np.flatnonzero(np.isinf(array))):
            shown[i] = _message(GradeError(f"{name} {values[i]!r} is not a finite number"))
            array[i] = np.nan
        return array, shown
    array = np.full(len(values), np.nan)
    shown = {}
    for i, value in enumerate(values):
        try:
            number = _number(value, name)
        except GradingError as error:
            shown[i] = _message(error)
            continue
        if number is None:
            shown[i] = BLANK
        else:
            array[i] = number
    return array, shown


def _scores(values: list[Any], name: str) -> tuple[np.ndarray, dict[int, str]]:
    """A column of results as scores (NaN where not a played game) and, by position, what the
    other rows show: blank, ``not graded: …`` or a message. Each distinct cell is read once."""
    if bool in (getattr(values, "kinds", None) or set(map(type, values))):
        # TRUE and 1.0 are one dictionary key
        found = [_score_or_message(v, name) for v in values]
        scores = np.array([f if type(f) is float else np.nan for f in found], dtype=np.float64)
        return scores, {i: f for i, f in enumerate(found) if type(f) is str}
    distinct = getattr(values, "distinct", None)
    table = {v: _score_or_message(v, name) for v in (set(values) if distinct is None else distinct)}
    numeric = {v: f if type(f) is float else np.nan for v, f in table.items()}
    scores = np.fromiter(map(numeric.__getitem__, values), np.float64, len(values))
    shown = np.flatnonzero(np.isnan(scores))
    return scores, {int(i): str(table[values[i]]) for i in shown}


def _score_or_message(value: object, name: str) -> float | str:
    """A result cell as a score, or the text its cell shows: blank, ``not graded: …``, a message."""
    try:
        score = _score(value, name)
    except GradingError as error:
        return _message(error)
    if score is None:
        return BLANK
    if isinstance(score, _NotGraded):
        return NOT_GRADED + score.reason
    return float(score)


def _setting_cell(name: str, value: object) -> Any:
    """A cell holding the setting ``name`` (:data:`xlgrade.settings.SETTINGS`) read as the
    Settings sheet reads it (:func:`xlgrade.settings.read_cell`): blank is the setting's
    default, ``none``/``off`` turns off a setting that may be off.

    Raises:
        SettingError: the reader's refusal after the argument's name, which is the setting's
            (``horizon 'abc' is not a number``): the words ``xlgrade recalc`` reports for the
            same cell.
    """
    key = (name, type(value), value)  # the type too: TRUE and 1 are one dictionary key
    try:
        return _SETTINGS_READ[key]
    except (KeyError, TypeError):  # not read yet, or a value no dictionary takes
        pass
    try:
        reading = settings.read_cell(settings.by_name(name), value)
    except GradingError as error:
        raise SettingError(f"{name} {error}") from None
    if len(_SETTINGS_READ) < _SETTINGS_KEPT:
        with suppress(TypeError):
            _SETTINGS_READ[key] = reading
    return reading


_SETTINGS_READ: Final[dict[tuple[str, type, object], Any]] = {}
"""The settings' cells read so far (a column's formula passes the same few on every call):
the reading of a cell is the same every time."""
_SETTINGS_KEPT: Final = 256


def _horizon(value: object) -> float | str | None:
    """The horizon cell, read as the Settings sheet's Horizon cell (:func:`_setting_cell`):
    a number of points; blank is the default 40; ``none``/``off`` for no horizon; bad: a
    message."""
    try:
        horizon = _setting_cell("horizon", value)
    except GradingError as error:
        return _message(error)
    return None if horizon is None else float(horizon)


@worksheet_function(
    own_grade="The player's grade at the start of the season; blank if ungraded (no horizon).",
    opponent_grade="The opponent's grade (or working grade).",
    result="The player's result: 1, ½, 0, W/D/L, draw, or 1-0/½-½/0-1 from this player's side.",
    horizon="Grading horizon in points; 40 if left out or blank; 'none' or 'off': no horizon.",
    floor_at_zero="Points below 0 count as 0: yes/TRUE (or left out, or blank) or no/FALSE.",
)
def GRADE_POINTS(
    own_grade: Any,
    opponent_grade: Any,
    result: Any,
    horizon: Any = ecf.DEFAULT_HORIZON,
    floor_at_zero: One = None,
) -> Any:
    """ECF grading points for one game: opponent's grade +50 for a win, −50 for a loss.

    docs/rules.md §2 through :func:`xlgrade.bulk_ecf.game_points_array` (the same numbers
    as :func:`xlgrade.ecf.game_points`). Blank result or opponent: blank; a default:
    ``not graded: …``. Whole columns take one call. ``horizon`` and ``floor_at_zero`` are read
    as the Settings sheet's *Horizon* and *Floor at zero* cells are (the template passes
    those cells): blank is the setting's default (40; on), ``none``/``off`` turns the horizon
    off, yes/no as :func:`xlgrade.cells.yes_no` reads it. ``floor_at_zero`` is one value for
    the whole call.
    """
    try:
        floor = bool(_setting_cell("floor_at_zero", floor_at_zero))
    except GradingError as error:
        return _message(error)
    try:
        shape, (own, opponent, results, horizons) = _broadcast(
            {
                "own_grade": own_grade,
                "opponent_grade": opponent_grade,
                "result": result,
                "horizon": horizon,
            }
        )
    except GradingError as error:
        return _message(error)
    size = len(own)
    own_array, own_shown = _numbers(own, "own_grade")
    opponent_array, opponent_shown = _numbers(opponent, "opponent_grade")
    score_array, score_shown = _scores(results, "result")
    horizon_cells, horizon_shape = _grid(horizon)
    if horizon_shape is None or len(horizon_cells) == 1:  # one horizon for every row
        limits = [_horizon(horizon_cells[0])] * size
    else:
        limits = _distinct(horizons, _horizon)
    # What a row shows instead of points, weakest first (a later entry wins): blanks and
    # defaults, then bad input in reverse argument order, so the first bad argument is named.
    answers = {i: s for i, s in opponent_shown.items() if s == BLANK}
    answers.update({i: s for i, s in score_shown.items() if not s.startswith(ERROR_PREFIX)})
    if any(isinstance(h, str) for h in set(limits)):
        answers.update({i: h for i, h in enumerate(limits) if isinstance(h, str)})
    answers.update({i: s for i, s in score_shown.items() if s.startswith(ERROR_PREFIX)})
    answers.update({i: s for i, s in opponent_shown.items() if s != BLANK})
    answers.update({i: s for i, s in own_shown.items() if s != BLANK})
    valid = np.ones(size, dtype=bool)
    valid[np.fromiter(answers, np.intp, len(answers))] = False
    points = np.zeros(size)
    distinct = {h for h in set(limits) if not isinstance(h, str)}
    for limit in distinct:
        rows = valid if len(distinct) == 1 else valid & np.array([h == limit for h in limits])
        if rows.any():
            points[rows] = bulk_ecf.game_points_array(
                own_array[rows],
                opponent_array[rows],
                score_array[rows],
                horizon=limit,
                floor_at_zero=floor,
            )
    if shape is None:
        return answers.get(0, points.item(0))
    out: list[list[Any]] = points.reshape(shape).tolist()  # the answer's rows, made by numpy
    columns = shape[1]
    if columns == 1:
        for i, answer in answers.items():
            out[i][0] = answer
    else:
        for i, answer in answers.items():
            out[i // columns][i % columns] = answer
    return out


_SIDES: Final = {"home": 0, "away": 1}
"""The sides of a Results row :func:`SEASON_POINTS` gives the points of."""


@dataclass
class _LastSeason:
    """The last season :func:`SEASON_POINTS` graded: its three tables as handed over (and
    where their TRUE and FALSE cells are) and each row's points
    (:meth:`xlgrade.season.SeasonResult.row_points`). The Home points and Away points columns
    call it over the same tables, one after the other: the second call takes the first's
    season rather than grading it again."""

    tables: tuple[object, ...] = ()
    points: dict[int, tuple[float, float] | str] | None = None
    rated: bool = False


_LAST_SEASON: Final = _LastSeason()


def _season_points(
    results: list[list[Any]], players: list[list[Any]], settings_cells: list[list[Any]]
) -> tuple[dict[int, tuple[float, float] | str], bool]:
    """Each Results row's points by row of ``results`` (its header row 1), read and graded as
    ``xlgrade recalc`` reads and grades the book's sheets, and whether the season is rated.

    Raises:
        GradingError: a header stops the run (:attr:`xlgrade.formats.tables.Inputs.stopped`).
    """
    # Python takes TRUE for 1 and FALSE for 0, which the season reads apart: where each
    # TRUE/FALSE stands is part of what is compared.
    flags = tuple(
        (t, r, c)
        for t, table in enumerate((results, players, settings_cells))
        for r, row in enumerate(table)
        for c, cell in enumerate(row)
        if cell.__class__ is bool
    )
    tables = (results, players, settings_cells, flags)
    if _LAST_SEASON.points is not None and _LAST_SEASON.tables == tables:
        return _LAST_SEASON.points, _LAST_SEASON.rated
    # The one reader of the tables' cells and the season itself, as the buttons and the
    # command line use them; both read cells, never files, so they run under Pyodide too.
    from xlgrade.formats.tables import read_inputs
    from xlgrade.season import recalculate

    inputs = read_inputs(
        {
            schema.SETTINGS: settings_cells,
            schema.PLAYERS: players,
            schema.RESULTS: results,
        }
    )
    stopped = inputs.stopped
    if stopped:
        raise GradingError(f"{stopped[0].sheet}: {stopped[0].why}")
    season = recalculate(inputs.players, inputs.games, inputs.settings, inputs.problems)
    points = season.row_points()
    _LAST_SEASON.tables, _LAST_SEASON.points = tables, points
    _LAST_SEASON.rated = season.settings.system == settings.RATING_2020
    return points, _LAST_SEASON.rated


@worksheet_function(
    results="The Results table with its header row (ResultsTable[[#All]]).",
    players="The Players table with its header row (PlayersTable[[#All]]).",
    season_settings="The Settings sheet's Setting and Value columns, header row first.",
    side="home or away: whose points each row gives.",
)
def SEASON_POINTS(results: Any, players: Any, season_settings: Any, side: One) -> Any:
    """Each Results row's points for one side, as the season grades the row.

    The tables are read by the one reader of the book's tables
    (:func:`xlgrade.formats.tables.read_inputs`) and graded by
    :func:`xlgrade.season.recalculate`, as ``xlgrade recalc`` and the Recalculate season
    button read and grade them: players found by code or by name in any form the season
    takes, results read as it reads them, its settings, working grades for the ungraded. A
    row gives the points of that side's player on his card
    (:meth:`xlgrade.season.SeasonResult.row_points`), a row not graded ``not graded: …``
    and the reason its Exceptions line gives, a blank row a blank. One value a data row of
    ``results``: one call spills down the whole column.
    """
    if side is None or side == "":  # a blank cell, as each route hands it over
        return _message(GradingError("side is blank: give home or away"))
    if not isinstance(side, str) or side.strip().lower() not in _SIDES:
        return _message(GradingError(f"side {_quote(side)} is not home or away"))
    which = _SIDES[side.strip().lower()]
    results, players, season_settings = (
        table if isinstance(table, list) else [[table]]
        for table in (results, players, season_settings)
    )
    try:
        points, rated = _season_points(results, players, season_settings)
    except GradingError as error:
        return _message(error)
    if len(results) < 2:
        return BLANK
    missing = f"not {'rated' if rated else 'graded'}: "
    out: list[list[Any]] = []
    # Every row the season reads is graded or has its reason: any other, it took for blank.
    for number in range(2, len(results) + 1):
        found = points.get(number)
        if isinstance(found, tuple):
            out.append([found[which]])
        else:
            out.append([BLANK if found is None else missing + found])
    return out


@worksheet_function(
    points="Grading points this season (the sum of GRADE_POINTS).",
    games="Games graded this season.",
    prev_points="Points last season (blank: none).",
    prev_games="Games last season (blank: none).",
    earlier_points="Points the season before last (blank: none).",
    earlier_games="Games the season before last (blank: none).",
    min_games="Games a grade is based on before borrowing stops (default 30).",
)
def SEASON_GRADE(
    points: Any,
    games: Any,
    prev_points: Any = None,
    prev_games: Any = None,
    earlier_points: Any = None,
    earlier_games: Any = None,
    min_games: Any = None,
) -> Any:
    """The new ECF grade: points ÷ games, borrowing earlier seasons up to 30 games, rounded.

    docs/rules.md §3 through :func:`xlgrade.ecf.season_grade` (pro rata borrowing). Blank
    points or games, or no game this season: blank.
    """

    def one(p: object, g: object, pp: object, pg: object, ep: object, eg: object, m: object) -> Any:
        total = _number(p, "points")
        count = _whole(g, "games")
        seasons = [_season(pp, pg, "prev"), _season(ep, eg, "earlier")]
        minimum = _whole(m, "min_games")
        if total is None or count is None:
            return BLANK
        graded = ecf.season_grade(
            total,
            count,
            seasons,
            min_games=ecf.GAMES_FOR_FULL_GRADE if minimum is None else minimum,
        )
        return BLANK if graded.grade is None else graded.grade

    return _each(
        one,
        {
            "points": points,
            "games": games,
            "prev_points": prev_points,
            "prev_games": prev_games,
            "earlier_points": earlier_points,
            "earlier_games": earlier_games,
            "min_games": min_games,
        },
    )


def _season(points: object, games: object, which: str) -> Any:
    """An earlier season's totals from two cells, or ``None`` when both are blank."""
    total = _number(points, f"{which}_points")
    count = _whole(games, f"{which}_games")
    if total is None and not count:
        return None
    if count is None:
        raise GradeError(f"{which}_games is blank but {which}_points is {_quote(points)}")
    if total is None:
        raise GradeError(f"{which}_points is blank but {which}_games is {_quote(games)}")
    return EarlierSeason(count, total)


@worksheet_function(
    games="Games graded this season.",
    prev_games="Games last season (blank: 0).",
    earlier_games="Games the season before last (blank: 0).",
    rule_set="Category rules: 'bcf1997' (default) or 'ecf2015'.",
)
def GRADE_CATEGORY(
    games: Any, prev_games: Any = None, earlier_games: Any = None, rule_set: Any = None
) -> Any:
    """The grading category (A–E, F under ecf2015, or *) from games this season and the two before.

    docs/rules.md §4 through :func:`xlgrade.ecf.category`. No game this season: blank.
    """

    def one(c: object, p: object, e: object, rules: object) -> Any:
        current = _whole(c, "games")
        previous = _whole(p, "prev_games") or 0
        earlier = _whole(e, "earlier_games") or 0
        name = _choice(rules, "rule_set", "bcf1997")
        if current is None:
            return BLANK
        found = ecf.category(current, previous, earlier, rule_set=name)  # type: ignore[arg-type]
        return BLANK if found is None else found

    return _each(
        one,
        {
            "games": games,
            "prev_games": prev_games,
            "earlier_games": earlier_games,
            "rule_set": rule_set,
        },
    )


@worksheet_function(
    age="Age in whole years on the day the new list takes effect; blank if not known.",
    is_junior="TRUE for a junior whose age is not known (gives 4).",
)
def JUNIOR_ENHANCEMENT(age: Any, is_junior: Any = None) -> Any:
    """Points added to a junior's published grade: 10 under 11, 8 to 14, 6 to 17, else 0.

    docs/rules.md §5 through :func:`xlgrade.ecf.junior_enhancement`; a blank age gives 4
    for a junior and 0 otherwise.
    """

    def one(a: object, junior: object) -> Any:
        if isinstance(a, dt.date):
            raise GradeError(f"age {_quote(a)} is a date; give the age in years")
        years = _number(a, "age")
        flag = _flag(junior, "is_junior")
        if years is not None and years == int(years):
            return ecf.junior_enhancement(int(years), junior=flag)
        return ecf.junior_enhancement(years, junior=flag)  # type: ignore[arg-type]

    return _each(one, {"age": age, "is_junior": is_junior})


@worksheet_function(
    opponent_grades="The opponents' grades, one cell per game.",
    results="The player's results, one per opponent (defaults are left out).",
)
def PERFORMANCE_GRADE(opponent_grades: Any, results: Any) -> Any:
    """Performance grade: the mean of opponent's grade ±50 over the games, a whole number.

    docs/rules.md §6 through :func:`xlgrade.ecf.performance_grade` (no horizon), rounded
    half up. Defaults and rows without a result are left out.
    """
    try:
        grades, scores, defaults = _games(opponent_grades, results, "opponent_grades")
        if not grades:
            return NOT_GRADED + "no game counts" if defaults else BLANK
        return ecf.round_half_up(ecf.performance_grade(grades, scores))
    except GradingError as error:
        return _message(error)


@worksheet_function(
    own_grade="The player's grade.",
    opponent_grade="The opponent's grade.",
    model="'linear' (1997 leaflet; default) or 'elo' (grade difference × 8 as Elo).",
)
def GRADE_EXPECTED(own_grade: Any, opponent_grade: Any, model: Any = None) -> Any:
    """Expected score (0 to 1) of a player against an opponent, from their ECF grades.

    docs/rules.md §7 through :func:`xlgrade.ecf.expected_score`.
    """

    def one(own: object, opponent: object, name: object) -> Any:
        a = _number(own, "own_grade")
        b = _number(opponent, "opponent_grade")
        how = _choice(name, "model", "linear")
        if a is None or b is None:
            return BLANK
        return ecf.expected_score(a, b, model=how)  # type: ignore[arg-type]

    return _each(one, {"own_grade": own_grade, "opponent_grade": opponent_grade, "model": model})


# --------------------------------------------------------------------------------------------
# Conversions


def _convert(
    function: Callable[..., Any], name: str, value: object, *options: tuple[str, object, str]
) -> Any:
    """One number a row through ``function``; ``options`` are (name, cell, default) settings."""
    names = {name: value} | {option: cell for option, cell, _ in options}

    def one(cell: object, *settings: object) -> Any:
        number = _number(cell, name)
        chosen = [
            _choice(s, option, d) for s, (option, _, d) in zip(settings, options, strict=True)
        ]
        if number is None:
            return BLANK
        return function(number, *chosen)

    return _each(one, names)


@worksheet_function(
    grade="An ECF grade.",
    formula="'fide' (piecewise; default), 'national' (8 × grade + 600) or 'ecf2020'.",
)
def ECF_TO_ELO(grade: Any, formula: Any = None) -> Any:
    """The Elo rating equivalent to an ECF grade.

    docs/rules.md §8 through :func:`xlgrade.convert.ecf_to_elo`.
    """
    return _convert(convert.ecf_to_elo, "grade", grade, ("formula", formula, "fide"))


@worksheet_function(
    rating="An Elo rating.",
    formula="'fide' (piecewise; default), 'national' ((rating − 600) ÷ 8) or 'ecf2020'.",
)
def ELO_TO_ECF(rating: Any, formula: Any = None) -> Any:
    """The ECF grade equivalent to an Elo rating.

    docs/rules.md §8 through :func:`xlgrade.convert.elo_to_ecf`.
    """
    return _convert(convert.elo_to_ecf, "rating", rating, ("formula", formula, "fide"))


@worksheet_function(rating="A FIDE rating.")
def FIDE_TO_USCF(rating: Any) -> Any:
    """The USCF rating equivalent to a FIDE rating (FIDE + 100).

    docs/rules.md §8 through :func:`xlgrade.convert.fide_to_uscf`.
    """
    return _convert(convert.fide_to_uscf, "rating", rating)


@worksheet_function(rating="A USCF rating.")
def USCF_TO_FIDE(rating: Any) -> Any:
    """The FIDE rating equivalent to a USCF rating (USCF − 100).

    docs/rules.md §8 through :func:`xlgrade.convert.uscf_to_fide`.
    """
    return _convert(convert.uscf_to_fide, "rating", rating)


@worksheet_function(
    value="An Elo rating or an ECF grade.",
    scale="'elo' (default) or 'ecf': which scale value is on.",
)
def RATING_CLASS(value: Any, scale: Any = None) -> Any:
    """The rating class (Senior Master … Class E) of an Elo rating or ECF grade.

    docs/rules.md §8 through :func:`xlgrade.convert.rating_class`.
    """

    def name(number: float, on: Any) -> str:
        return convert.rating_class(number, on).name

    return _convert(name, "value", value, ("scale", scale, "elo"))


@worksheet_function(
    code="An ECF grading reference code: six digits and a check letter, like 210988J."
)
def ECF_CODE_VALID(code: Any) -> Any:
    """TRUE if an ECF grading reference code is well formed and its check letter is right.

    docs/rules.md §8 through :func:`xlgrade.convert.ecf_code_valid`. Blank: blank.
    """

    def one(cell: object) -> Any:
        if _is_blank(cell):
            return BLANK
        return isinstance(cell, str) and convert.ecf_code_valid(cell)

    return _each(one, {"code": code})


@worksheet_function(
    six_digits="The six digits of an ECF grading reference code (text or a number)."
)
def ECF_CODE_LETTER(six_digits: Any) -> Any:
    """The check letter of a six-digit ECF grading reference code.

    docs/rules.md §8 through :func:`xlgrade.convert.ecf_code_letter`. A number is written
    with six digits (a cell that dropped leading zeros: 12345 is 012345).
    """

    def one(cell: object) -> Any:
        if _is_blank(cell):
            return BLANK
        if isinstance(cell, _REAL) and not isinstance(cell, bool):
            number = float(cell)
            if number != int(number) or not 0 <= number < 1_000_000:
                raise CodeError(f"six_digits {_quote(cell)} is not six digits")
            cell = f"{int(number):06d}"
        if not isinstance(cell, str):
            raise CodeError(f"six_digits {_quote(cell)} is not six digits")
        return convert.ecf_code_letter(cell.strip())

    return _each(one, {"six_digits": six_digits})


# --------------------------------------------------------------------------------------------
# FIDE Elo


_RULE_HELP: Final = (
    "The 400-point rule's edition: '400' (July 2009 to September 2025; default), '400-2022' "
    "(January 2022 to February 2024: one upgrade an event), '400-2025' (from October 2025: "
    "none from 2650), 'rapid-blitz', '350', 'none'."
)
NOT_RATED: Final = "not rated: "
"""Start of the answer for a game the rule does not rate (FIDE rapid and blitz, 600 apart)."""


@worksheet_function(
    rating="The player's Elo rating.",
    opponent_rating="The opponent's Elo rating.",
    method="'table' (FIDE table 8.1b; default) or 'logistic'.",
    rule=_RULE_HELP,
)
def ELO_EXPECTED(rating: Any, opponent_rating: Any, method: Any = None, rule: Any = None) -> Any:
    """Expected score (0 to 1) from two Elo ratings, by FIDE table 8.1b (400-point rule).

    docs/rules.md §9 through :func:`xlgrade.elo.expected_score`; a game the rule does not rate
    (``rapid-blitz``: 600 or more apart with a player above 2600) shows ``not rated: …``.
    """

    def one(own: object, opponent: object, how: object, edition: object) -> Any:
        a = _number(own, "rating")
        b = _number(opponent, "opponent_rating")
        name = _choice(how, "method", "table")
        cap = _choice(edition, "rule", "400")
        if a is None or b is None:
            return BLANK
        if not elo.is_rated_game(a, b, cap):
            return NOT_RATED + f"{_shown_number(abs(a - b))} apart with a player above 2600"
        return elo.expected_score(a, b, method=name, rule=cap)  # type: ignore[arg-type]

    return _each(
        one,
        {"rating": rating, "opponent_rating": opponent_rating, "method": method, "rule": rule},
    )


def _shown_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


@worksheet_function(fraction="The fractional score p, 0 to 1 (a percentage cell is fine).")
def ELO_DP(fraction: Any) -> Any:
    """Rating difference dp for a fractional score, from FIDE table 8.1a.

    docs/rules.md §9 through :func:`xlgrade.elo.dp_from_score`.
    """
    return _convert(elo.dp_from_score, "fraction", fraction)


def _junior(age: float | None, policy: str) -> bool:
    """Whether an age makes a junior for a K policy (a reading of the policy's words).

    Chesterfield page: "Junior players" — under 18, as English junior lists count. FIDE 2014:
    "until their 18th birthday", under 18 too. FIDE 2022 and 2024: "until the end of the year
    of their 18th birthday"; FIDE counts age as this year minus the year of birth, so 18 and
    under.
    """
    if age is None:
        return False
    return age < 18 if policy in ("chesterfield", "fide-2014") else age <= 18


@worksheet_function(
    rating="The player's rating at the start of the period.",
    games_played="Rated games the player had before this period.",
    age="Age in years (FIDE policies: this year minus year of birth); blank: adult.",
    policy="K policy: 'fide-2014' (default), 'fide-2024', 'chesterfield', 'fide-30-15-10', "
    "'fide-25-15-10', 'fide-rapid-blitz-2014'.",
    reached_2400="TRUE once the player's published rating has been 2400 or more.",
    games_in_period="Games in this rating period ('fide-2024': K × games is at most 700); "
    "blank: 0.",
)
def ELO_K(
    rating: Any,
    games_played: Any,
    age: Any,
    policy: Any = None,
    reached_2400: Any = None,
    games_in_period: Any = None,
) -> Any:
    """The development coefficient K for a player under a K policy.

    docs/rules.md §9 through :func:`xlgrade.elo.k_factor`. Juniors: under 18 for the
    Chesterfield and FIDE 2014 policies, 18 and under (FIDE's age, this year minus year of
    birth) for FIDE 2024's.
    ``games_in_period`` matters only to ``fide-2024``, whose K is cut so that K times the
    period's games is at most 700.
    """

    def one(r: object, g: object, a: object, p: object, top: object, n: object) -> Any:
        value = _number(r, "rating")
        games = _whole(g, "games_played")
        years = _number(a, "age")
        name = _choice(p, "policy", "fide-2014")
        reached = _flag(top, "reached_2400")
        period = _whole(n, "games_in_period")
        if value is None or games is None:
            return BLANK
        return elo.k_factor(
            name,  # type: ignore[arg-type]
            games=games,
            rating=value,
            junior=_junior(years, name),
            reached_2400=reached,
            games_in_period=period or 0,
        )

    return _each(
        one,
        {
            "rating": rating,
            "games_played": games_played,
            "age": age,
            "policy": policy,
            "reached_2400": reached_2400,
            "games_in_period": games_in_period,
        },
    )


def _period(
    rating: Any, opponent_ratings: Any, results: Any, k: Any
) -> tuple[float, list[float], list[float], float] | None:
    value = _number(rating, "rating")
    factor = _number(k, "k")
    opponents, scores, _ = _games(opponent_ratings, results, "opponent_ratings")
    if value is None or factor is None:
        return None
    return value, opponents, scores, factor


def _rule(rule: object) -> str:
    """The 400-point rule's edition named by a single cell (``'400'`` when blank)."""
    return _choice(_single(rule, "rule"), "rule", "400")


def _single(value: object, name: str) -> object:
    """The one cell of an argument that takes a single value (a 1 × 1 range is its cell)."""
    values, shape = _grid(value)
    if shape is not None and len(values) != 1:
        raise GradeError(f"{name} must be a single cell, not {_size(shape)}")
    return values[0]


@worksheet_function(
    rating="The player's rating at the start of the period.",
    opponent_ratings="The opponents' ratings, one cell per game.",
    results="The player's results, one per opponent (defaults are left out).",
    k="The development coefficient K (see ELO_K).",
    rule=_RULE_HELP + " The games are one event.",
)
def ELO_CHANGE(rating: One, opponent_ratings: Any, results: Any, k: One, rule: One = None) -> Any:
    """The rating change for a period, K × Σ(score − expected), not rounded.

    docs/rules.md §9 through :func:`xlgrade.elo.rating_change`.
    """
    try:
        period = _period(rating, opponent_ratings, results, k)
        return BLANK if period is None else elo.rating_change(*period, rule=_rule(rule))
    except GradingError as error:
        return _message(error)


@worksheet_function(
    rating="The player's rating at the start of the period.",
    opponent_ratings="The opponents' ratings, one cell per game.",
    results="The player's results, one per opponent (defaults are left out).",
    k="The development coefficient K (see ELO_K).",
    rule=_RULE_HELP + " The games are one event.",
)
def ELO_NEW_RATING(
    rating: One, opponent_ratings: Any, results: Any, k: One, rule: One = None
) -> Any:
    """The rating after a period: the change rounded to a whole number as FIDE rounds.

    docs/rules.md §9 through :func:`xlgrade.elo.new_rating`.
    """
    try:
        period = _period(rating, opponent_ratings, results, k)
        return BLANK if period is None else elo.new_rating(*period, rule=_rule(rule))
    except GradingError as error:
        return _message(error)


@worksheet_function(
    opponent_ratings="The opponents' ratings, one cell per game.",
    results="The player's results, one per opponent (defaults are left out).",
)
def ELO_PERFORMANCE(opponent_ratings: Any, results: Any) -> Any:
    """Performance rating: the opponents' average rating plus dp from FIDE table 8.1a.

    docs/rules.md §9 through :func:`xlgrade.elo.performance_rating` (not rounded).
    """
    try:
        opponents, scores, defaults = _games(opponent_ratings, results, "opponent_ratings")
        if not opponents:
            return NOT_GRADED + "no game counts" if defaults else BLANK
        return elo.performance_rating(opponents, scores)
    except GradingError as error:
        return _message(error)


@worksheet_function(
    opponent_ratings="The opponents' ratings, one cell per game.",
    results="The player's results, one per opponent (defaults are left out).",
    method="'fide-2024' (two hypothetical 1800 draws, cap 2200; default), 'fide-2022' (January "
    "2022 to February 2024: +20 a half point over 50 %) or 'chesterfield'.",
)
def ELO_INITIAL(opponent_ratings: Any, results: Any, method: One = None) -> Any:
    """A first Elo rating from games against rated opponents.

    docs/rules.md §9 through :func:`xlgrade.elo.initial_rating`; a rating the method does
    not publish shows ``not published: …``.
    """
    try:
        name = _choice(method, "method", "fide-2024")
        opponents, scores, defaults = _games(opponent_ratings, results, "opponent_ratings")
        if not opponents:
            return NOT_GRADED + "no game counts" if defaults else BLANK
        found = elo.initial_rating(opponents, scores, method=name)  # type: ignore[arg-type]
    except GradingError as error:
        return _message(error)
    return found.rating if found.published else f"not published: {found.reason}"


@worksheet_function(rating="A FIDE rating on the February 2024 list (1000 or more).")
def ELO_MARCH_2024(rating: Any) -> Any:
    """The rating after FIDE's one-time increase of 1 March 2024: + 0.4 × (2000 − rating).

    docs/rules.md §9 through :func:`xlgrade.elo.march_2024_adjustment`; 2000 or more is
    unchanged.
    """
    return _convert(elo.march_2024_adjustment, "rating", rating)


@worksheet_function(
    rating="A FIDE rating.",
    floor="The lowest rating published: 1400 (from March 2024; default) or 1000 (before).",
)
def ELO_LISTED(rating: Any, floor: Any = None) -> Any:
    """The rating as the next FIDE list shows it: itself, or unrated below the 1400 floor.

    docs/rules.md §9 through :func:`xlgrade.elo.below_floor` (FIDE 7.2.1: "Players whose
    ratings drop below 1400 are shown as unrated on the next list").
    """

    def one(cell: object, lowest: object) -> Any:
        value = _number(cell, "rating")
        least = _number(lowest, "floor")
        if value is None:
            return BLANK
        why = elo.below_floor(value, elo.FLOOR_2024 if least is None else least)
        return value if why is None else why

    return _each(one, {"rating": rating, "floor": floor})


# --------------------------------------------------------------------------------------------
# The ECF rating (since 2020)


@worksheet_function(
    rating="The player's ECF rating.",
    opponent_rating="The opponent's ECF rating.",
)
def ECF_EXPECTED(rating: Any, opponent_rating: Any) -> Any:
    """Expected score (0 to 1) between two ECF ratings: FIDE table 8.1b, 400-point rule.

    docs/rules.md §12 through :func:`xlgrade.ecf_rating.expected_score`.
    """

    def one(own: object, opponent: object) -> Any:
        a = _number(own, "rating")
        b = _number(opponent, "opponent_rating")
        if a is None or b is None:
            return BLANK
        return ecf_rating.expected_score(a, b)

    return _each(one, {"rating": rating, "opponent_rating": opponent_rating})


def _ecf_month(
    rating: Any, opponent_ratings: Any, results: Any, k: Any
) -> tuple[float, list[float], list[float], float] | None:
    """The K method's month from cells: blank ``k`` is 20."""
    blank_k = _is_blank(k)
    return _period(rating, opponent_ratings, results, ecf_rating.K_ADULT if blank_k else k)


@worksheet_function(
    rating="The player's ECF rating at the start of the month.",
    opponent_ratings="The opponents' ratings, one cell per game of the month.",
    results="The player's results, one per opponent (defaults are left out).",
    k="k: 20 (blank), or 40 for a junior.",
)
def ECF_RATING_CHANGE(rating: One, opponent_ratings: Any, results: Any, k: One = None) -> Any:
    """The K method's change for the games given, k(W − We), not rounded.

    docs/rules.md §12 through :func:`xlgrade.ecf_rating.rating_change`.
    """
    try:
        month = _ecf_month(rating, opponent_ratings, results, k)
        return BLANK if month is None else ecf_rating.rating_change(*month)
    except GradingError as error:
        return _message(error)


@worksheet_function(
    rating="The player's ECF rating at the start of the month.",
    opponent_ratings="The opponents' ratings, one cell per game of the month.",
    results="The player's results, one per opponent (defaults are left out).",
    k="k: 20 (blank), or 40 for a junior.",
)
def ECF_NEW_RATING(rating: One, opponent_ratings: Any, results: Any, k: One = None) -> Any:
    """The K method's new rating, R0 + k(W − We), the change rounded to a whole number.

    docs/rules.md §12 through :func:`xlgrade.ecf_rating.new_rating`.
    """
    try:
        month = _ecf_month(rating, opponent_ratings, results, k)
        return BLANK if month is None else ecf_rating.new_rating(*month)
    except GradingError as error:
        return _message(error)


@worksheet_function(
    opponent_ratings="The opponents' ratings, one cell per game.",
    results="The player's results, one per opponent (defaults are left out).",
    nominal="The fictional opponent's rating: 1800 when blank (age × 100 for a junior).",
)
def ECF_P_RATING(opponent_ratings: Any, results: Any, nominal: One = None) -> Any:
    """The P-method rating of the games with the fictional draw against the nominal opponent.

    docs/rules.md §12 through :func:`xlgrade.ecf_rating.p_rating` (FIDE table 8.1a).
    """
    try:
        value = _number(nominal, "nominal")
        opponents, scores, defaults = _games(opponent_ratings, results, "opponent_ratings")
        if not opponents:
            return NOT_GRADED + "no game counts" if defaults else BLANK
        chosen = ecf_rating.NOMINAL_ADULT if value is None else value
        return ecf_rating.p_rating(opponents, scores, chosen).rating
    except GradingError as error:
        return _message(error)


@worksheet_function(grade="An ECF grade (the 1997 rules' scale).")
def GRADE_TO_ECF_RATING(grade: Any) -> Any:
    """The ECF rating seeded from a grade in 2020: 7.5 × grade + 700.

    docs/rules.md §12 through :func:`xlgrade.convert.grade_to_ecf_rating`.
    """
    return _convert(convert.grade_to_ecf_rating, "grade", grade)


@worksheet_function(rating="An ECF rating.")
def ECF_RATING_TO_FIDE(rating: Any) -> Any:
    """FIDE's recommended rating for an ECF rating (March 2024): 0.6 × ECF + 700 to 1750.

    docs/rules.md §12 through :func:`xlgrade.convert.ecf_rating_to_fide`.
    """
    return _convert(convert.ecf_rating_to_fide, "rating", rating)


@worksheet_function(rating="A FIDE rating.")
def FIDE_TO_ECF_RATING(rating: Any) -> Any:
    """The ECF rating for a FIDE rating (games abroad): (FIDE − 700) ÷ 0.6 to 1750.

    docs/rules.md §12 through :func:`xlgrade.convert.fide_to_ecf_rating`.
    """
    return _convert(convert.fide_to_ecf_rating, "rating", rating)


# --------------------------------------------------------------------------------------------
# Glicko


def _glicko_opponents(
    opponent_ratings: object, opponent_rds: object, results: object
) -> tuple[list[tuple[float, float]], list[float]]:
    """Opponents as (rating, RD) with the player's scores; rows without a result (not yet
    played) and defaults are left out."""
    ratings, rds, cells = _values(opponent_ratings), _values(opponent_rds), _values(results)
    if not len(ratings) == len(rds) == len(cells):
        raise GradeError(
            f"opponent_ratings, opponent_rds and results have {len(ratings)}, {len(rds)} and "
            f"{len(cells)} cells: give one of each per game"
        )
    opponents: list[tuple[float, float]] = []
    scores: list[float] = []
    for item, (rating, rd, cell) in enumerate(zip(ratings, rds, cells, strict=True), start=1):
        r = _number(rating, f"opponent_ratings item {item}")
        d = _number(rd, f"opponent_rds item {item}")
        score = _score(cell, f"results item {item}")
        if score is None or isinstance(score, _NotGraded):
            continue
        if r is None or d is None:
            raise GradeError(
                f"opponent {item} needs a rating and an RD for results item {item} {_quote(cell)}"
            )
        opponents.append((r, d))
        scores.append(score)
    return opponents, scores


@worksheet_function(
    rating="The player's Glicko rating r at the onset of the period.",
    rd="The player's rating deviation RD at the onset of the period.",
    opponent_ratings="The opponents' ratings, one cell per game.",
    opponent_rds="The opponents' RDs, one per opponent.",
    results="The player's results, one per opponent (defaults are left out).",
)
def GLICKO(rating: One, rd: One, opponent_ratings: Any, opponent_rds: Any, results: Any) -> Any:
    """Glicko rating and RD after a rating period, as one row of 2 cells.

    Glickman's Glicko system (docs/rules.md §10) through :func:`xlgrade.glicko.glicko_update`.
    """
    try:
        r = _number(rating, "rating")
        d = _number(rd, "rd")
        opponents, scores = _glicko_opponents(opponent_ratings, opponent_rds, results)
        if r is None or d is None:
            return BLANK
        new = glicko.glicko_update(
            glicko.GlickoRating(r, d),
            [glicko.GlickoRating(o, od) for o, od in opponents],
            scores,
        )
    except GradingError as error:
        return _message(error)
    return [[new.rating, new.rd]]


@worksheet_function(
    rating="The player's rating r.",
    rd="The player's rating deviation RD.",
    volatility="The player's volatility σ (0.06 for a new player).",
    opponent_ratings="The opponents' ratings, one cell per game.",
    opponent_rds="The opponents' RDs, one per opponent.",
    results="The player's results, one per opponent (defaults are left out).",
    tau="The system constant τ (default 0.5).",
)
def GLICKO2(
    rating: One,
    rd: One,
    volatility: One,
    opponent_ratings: Any,
    opponent_rds: Any,
    results: Any,
    tau: One = None,
) -> Any:
    """Glicko-2 rating, RD and volatility after a rating period, as one row of 3 cells.

    Glickman's Glicko-2 system (docs/rules.md §10) through
    :func:`xlgrade.glicko.glicko2_update`.
    """
    try:
        r = _number(rating, "rating")
        d = _number(rd, "rd")
        sigma = _number(volatility, "volatility")
        t = _number(tau, "tau")
        opponents, scores = _glicko_opponents(opponent_ratings, opponent_rds, results)
        if r is None or d is None or sigma is None:
            return BLANK
        new = glicko.glicko2_update(
            glicko.Glicko2Rating(r, d, sigma),
            [glicko.Glicko2Rating(o, od) for o, od in opponents],
            scores,
            tau=glicko.DEFAULT_TAU if t is None else t,
        )
    except GradingError as error:
        return _message(error)
    return [[new.rating, new.rd, new.volatility]]


# --------------------------------------------------------------------------------------------
# Team eligibility


def _team(
    grades: object, estimates: object = None, juniors: object = None
) -> tuple[list[Board | str], _Shape | None]:
    """A captain's grades in board order as boards (a blank cell: an ungraded player, who takes
    his cell of ``estimates`` where it has one; ``juniors`` the yes/no cells of the juniors),
    or for a cell that cannot be read its message; and the range's shape."""
    cells, shape = _grid(grades)
    guesses = _beside(estimates, len(cells), "estimates")
    young = _beside(juniors, len(cells), "juniors")
    boards: list[Board | str] = []
    for number, (cell, guess, junior) in enumerate(zip(cells, guesses, young, strict=True), 1):
        try:
            figure = _number(cell, f"grades item {number}")
            source = ""
            if figure is None:
                figure = _number(guess, f"estimates item {number}")
                source = "" if figure is None else "estimated grade"
            flag = _flag(junior, f"juniors item {number}")
            boards.append(Board(number, "", figure, source=source, junior=flag))
        except GradingError as error:
            boards.append(_message(error))
    return boards, shape


def _beside(cells: object, size: int, name: str) -> list[Any]:
    """The cells of a range given beside the grades, one a board (one blank cell, ``None`` or
    the ``""`` Office.js sends for it: ``size`` blanks)."""
    if cells is None:
        return [None] * size
    found, _ = _grid(cells)
    if len(found) == 1 and found[0] in (None, ""):
        return [None] * size
    if len(found) != size:
        cell = "cell" if len(found) == 1 else "cells"
        raise GradeError(f"{name} has {len(found)} {cell} where the grades have {size}")
    return found


def _team_boards(
    grades: object, estimates: object = None, juniors: object = None
) -> list[Board] | str:
    """The boards of :func:`_team`, or the first cell's message; a blank range gives ``[]``."""
    boards, _ = _team(grades, estimates, juniors)
    for board in boards:
        if isinstance(board, str):
            return board
    played = [b for b in boards if isinstance(b, Board)]
    return played if any(b.figure is not None for b in played) else []


_RULE_FIELDS: Final = {
    "max_total": "max_total",
    "max_grade": "max_grade",
    "min_counting": "min_counting_grade",
    "ungraded": "ungraded_grade",
    "max_average": "max_average",
    "min_average": "min_average",
    "top_boards": "top_boards",
    "max_top_average": "max_top_average",
    "tolerance": "board_order_tolerance",
    "higher_by": "board_order_higher_by",
    "junior_allowance": "junior_allowance",
    "adjacent": "adjacent_within",
}
"""The team-sheet functions' arguments and the :class:`~xlgrade.teams.Division` rules they set."""
_WHOLE_RULES: Final = frozenset({"top_boards"})


def _division(**cells: object) -> Division:
    """A division of the rules given by argument name (a blank cell: no such rule). Each rule
    is one value: a range of one cell is that cell, whether or not the parameter is annotated
    :data:`One`."""
    rules: dict[str, object] = {}
    for name, v in cells.items():
        value = _number(_single(v, name), name)
        if name in _WHOLE_RULES and value is not None and value == int(value):
            rules[_RULE_FIELDS[name]] = int(value)
        elif value is not None:
            rules[_RULE_FIELDS[name]] = value
    return Division("", **rules)  # type: ignore[arg-type]


@worksheet_function(
    grades="The team's grades (or ratings) in board order; a blank cell is an ungraded player.",
    tolerance="Points a player may be above anyone on a higher board (Nottinghamshire: 20).",
    estimates="Beside the grades: an ungraded player's estimated grade (blank: none).",
    juniors="Beside the grades: yes for a junior (blank: no).",
    junior_allowance="More points allowed for each junior in the pair (Northamptonshire: 100).",
    adjacent="Adjacent boards this close may be either way round (Shropshire: 10).",
    higher_by="Instead of tolerance: 'not above a player N points higher' (North Staffs: 15).",
)
def BOARD_ORDER(
    grades: Any,
    tolerance: One,
    estimates: Any = None,
    juniors: Any = None,
    junior_allowance: One = None,
    adjacent: One = None,
    higher_by: One = None,
) -> Any:
    """Board order: for each board, blank or how it is more than the tolerance above a higher
    board.

    docs/rules.md §13 ("not more than 20 above anyone on a higher board") through
    :func:`xlgrade.teams.board_order`, with Northamptonshire's junior allowance, Shropshire's
    adjacent boards and North Staffs' "not above a player 15 points higher"; ungraded players
    without an estimate are not compared.
    """
    try:
        boards, shape = _team(grades, estimates, juniors)
        division = _division(
            tolerance=tolerance,
            higher_by=higher_by,
            junior_allowance=junior_allowance,
            adjacent=adjacent,
        )
    except GradingError as error:
        return _message(error)
    cells: list[Any] = [b if isinstance(b, str) else BLANK for b in boards]
    rule = division.order_rule
    if rule is not None:
        found = board_order(rule, [b for b in boards if isinstance(b, Board)])
        breaches = iter(found)
        for position, board in enumerate(boards):
            if isinstance(board, Board):
                breach = next(breaches)
                cells[position] = breach.why if breach else BLANK
    return _shaped(cells, shape)


@worksheet_function(
    grades="The team's grades (or ratings) in board order; a blank cell is an ungraded player.",
    min_counting="Grades under this count as this (Southend Minor: 75); blank: none.",
    ungraded="What an ungraded player counts (blank: the minimum counting grade, else nothing).",
    estimates="Beside the grades: an ungraded player's estimated grade, counted before ungraded.",
)
def TEAM_TOTAL(
    grades: Any, min_counting: One = None, ungraded: One = None, estimates: Any = None
) -> Any:
    """The team's counting total: grades under the minimum counting grade count as it.

    docs/rules.md §13 through :func:`xlgrade.teams.team_total`: a Southend Minor team of
    125, 120, 110, 74 counts 125 + 120 + 110 + 75 = 430; an ungraded player with an estimate
    counts his estimate.
    """
    try:
        division = _division(min_counting=min_counting, ungraded=ungraded)
        boards = _team_boards(grades, estimates)
    except GradingError as error:
        return _message(error)
    if isinstance(boards, str) or not boards:
        return boards or BLANK
    return team_total(division, boards).total


@worksheet_function(
    grades="The team's grades (or ratings) in board order; a blank cell is an ungraded player.",
    max_total="The team's counting total at most this (Southend Minor: 440); blank: no limit.",
    max_grade="No player over this (Southend Minor: 125); blank: no limit.",
    min_counting="Grades under this count as this (Southend Minor: 75); blank: none.",
    ungraded="What an ungraded player counts (blank: the minimum counting grade, else nothing).",
    max_average="The team's counting average at most this (Somerset: 125); blank: no limit.",
    estimates="Beside the grades: an ungraded player's estimated grade, used before ungraded.",
    min_average="The team's counting average at least this (4NCL); blank: no limit.",
    top_boards="With max_top_average: the top this many boards' average (4NCL: 4).",
    max_top_average="The top boards' counting average at most this; blank: no limit.",
)
def TEAM_ELIGIBLE(
    grades: Any,
    max_total: One = None,
    max_grade: One = None,
    min_counting: One = None,
    ungraded: One = None,
    max_average: One = None,
    estimates: Any = None,
    min_average: One = None,
    top_boards: One = None,
    max_top_average: One = None,
) -> Any:
    """TRUE if the team keeps the division's limits, else the first rule broken in words.

    docs/rules.md §13 through :func:`xlgrade.teams.team_breaches`, in its order: the
    maximum grade board by board, then the total, then the averages (4NCL's minimum and top-N
    averages too).
    """
    try:
        division = _division(
            max_total=max_total,
            max_grade=max_grade,
            min_counting=min_counting,
            ungraded=ungraded,
            max_average=max_average,
            min_average=min_average,
            top_boards=top_boards,
            max_top_average=max_top_average,
        )
        boards = _team_boards(grades, estimates)
    except GradingError as error:
        return _message(error)
    if isinstance(boards, str) or not boards:
        return boards or BLANK
    breaches = team_breaches(division, boards)
    return breaches[0].why if breaches else True


def _rating_history(ratings: object) -> editions.RatingHistory:
    """The Ratings table of ``ratings`` (its header row first), each row read as the Ratings
    sheet's reader reads it (:func:`xlgrade.editions.listed_rating`).

    Raises:
        GradingError: no Code or List header, or a row that cannot be read, naming its row.
    """
    values, shape = _grid(ratings)
    width = 1 if shape is None else shape[1]
    rows = [values[r : r + width] for r in range(0, len(values), width)]
    if not rows:
        raise GradeError("ratings is empty: give the Ratings table, its header row first")
    header = [cells.header_key(v) for v in rows[0]]
    for needed in editions.RATINGS_REQUIRED:
        if cells.header_key(needed) not in header:
            raise GradeError(
                f"ratings has no column headed {needed!r}: give the Ratings table, its header "
                "row first"
            )
    at = {
        h: header.index(cells.header_key(h))
        for h in editions.RATINGS_HEADERS
        if cells.header_key(h) in header
    }
    listed: list[editions.ListedRating] = []
    for number, row in enumerate(rows[1:], start=2):
        cell = {h: row[i] for h, i in at.items()}
        try:
            found = editions.listed_rating(cell, number)
        except GradingError as error:
            raise GradeError(f"ratings row {number}: {error}") from None
        if found is not None:
            listed.append(found)
    return editions.RatingHistory.of(listed)


@worksheet_function(
    codes="The players' ECF codes (a cell or a column).",
    edition="A match's date (the list in force on it) or an edition: 'September 2025'.",
    ratings="The Ratings sheet's table, its header row first (Code, List, ECF rating…).",
    rapid="TRUE for the rapidplay rating (blank: the standard one).",
)
def LIST_RATING(codes: Any, edition: One, ratings: Any, rapid: One = None) -> Any:
    """A player's ECF rating on an edition of the rating list the league has loaded.

    docs/rules.md §13 through :class:`xlgrade.editions.RatingHistory`: the list a division
    names, a fixed edition ("the September list") or the list in force on the match date
    (Devon: "the ones most recently published before the match"), as the Divisions' Rating
    list takes it; blank for a player not on it, for the team-sheet functions' grades.
    """
    try:
        history = _rating_history(ratings)
        month = editions.edition_for(history, _single(edition, "edition"))
        quick = _flag(rapid, "rapid")
    except GradingError as error:
        return _message(error)

    def one(code: object) -> Any:
        if cells.blank(code):
            return BLANK
        found = history.rating(cells.text(code), month, quick)
        return BLANK if found is None else found

    return _each(one, {"codes": codes})


# --------------------------------------------------------------------------------------------
# The ribbon


def recalculate_season(book: Any = None) -> None:
    """Recalculate the season of the calling workbook (the ribbon's Recalculate button).

    ``RunPython`` calls it with no argument and it works on ``xlwings.Book.caller()``; a test
    passes a book. The reading, grading and writing are :mod:`xlgrade.workbook`'s.
    """
    if book is None:
        if xw is None:  # pragma: no cover - RunPython implies xlwings
            raise RuntimeError("recalculate_season needs xlwings to find the calling workbook")
        book = xw.Book.caller()
    from xlgrade.workbook import live

    live.recalculate_season(book)
