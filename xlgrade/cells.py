"""One reading of a cell, whoever reads it: the worksheet functions (:mod:`xlgrade_udfs`), the
workbook reader (:mod:`xlgrade.workbook.read`), the CSV files (:mod:`xlgrade.formats`) and
every import. A cell is what Excel, python-calamine or a CSV file gives: ``None`` for an empty
cell, a float, a bool, a date or datetime, or text.

* **Blank**: ``None``, text of spaces only, or NaN.
* **Number**: a finite number, or text holding one (``"142"``, ``" 142.5 "``, ``"1,234"``
  with commas between thousands). TRUE/FALSE and dates are not numbers.
* **Grade**: a number, or one in brackets (``"[136]"``), the form of an estimated grade
  (docs/rules.md §6: "Estimated grades are shown in brackets, as [136]").
* **Whole number**: a number with nothing after the point (``"3"``, ``3.0``).
* **Board**: a whole number from 1 to :data:`MAX_BOARD`.
* **Yes/no**: TRUE/FALSE, 1/0, and the texts ``yes``/``no``, ``y``/``n``, ``true``/``false``,
  ``1``/``0``, and for the Junior column ``j``, ``jr``, ``jnr``, ``junior`` and ``x`` (a tick
  typed as a letter) for yes; any case.
* **Rating category**: ``A``, ``K`` or ``P`` (the ECF rating's categories), any case.
* **Month**: a date cell or a date (its month), or a month written ``2025-08``, ``08/2025``,
  ``Aug 2025``, ``August 2025`` (the ``Last rated month`` column).
* **Result**: one player's result or a game row's result, as :mod:`xlgrade.results` reads it.
* **Date**, **day first** (the rule: an English grader writes 1 September 2025 as
  ``1/9/25``): a date or datetime cell; an Excel serial number (days since 30 December 1899,
  as Excel stores dates: a number, or five digits as a CSV file writes it); ``yyyymmdd``;
  ``yyyy-mm-dd``, ``yyyy/mm/dd``, ``yyyy.mm.dd`` (the year first is
  never read day first); ``d/m/yy``, ``d/m/yyyy`` with ``/``, ``.``, ``-`` or a space between;
  ``1 Sept 2025``, ``1st September 2025``, ``1-Sep-25``, ``Monday 1 September 2025``,
  ``September 1, 2025`` (a month in words, any case, cut short or not, ``Sept`` too); a time
  of day after a date (``01/09/2025 19:30``) is dropped. A two-digit year is read as Excel
  reads one typed: 00 to 29 are 2000–2029, 30 to 99 are 1930–1999 (so ``1/9/25`` is 2025 and
  ``1/9/65``, a date of birth, 1965). A weekday that does not fit the date, a day that the
  month does not have, and anything else are refused, quoting the cell.

Every refusal is a :class:`~xlgrade.errors.GradingError` whose message quotes the cell
(:func:`quote`); the caller puts the sheet, row, column or argument in front.
"""

from __future__ import annotations

import datetime as dt
import difflib
import functools
import math
import numbers
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from xlgrade._rounding import quote as _quote
from xlgrade.ecf_rating import MAX_RATING, MIN_RATING
from xlgrade.errors import GradeError, ResultError, SettingError
from xlgrade.results import parse_game_result, parse_result

__all__ = [
    "EXCEL_1904_EPOCH",
    "EXCEL_CELL_CHARACTERS",
    "EXCEL_EPOCH",
    "EXCEL_ROWS",
    "MAX_BOARD",
    "NotGraded",
    "blank",
    "board",
    "date",
    "date_serial",
    "day",
    "excel_epoch",
    "grade",
    "header_key",
    "likely_header",
    "month",
    "number",
    "quote",
    "rating",
    "rating_category",
    "result_text",
    "score",
    "serial_date",
    "text",
    "whole",
    "without_time_of_day",
    "yes_no",
]

EXCEL_ROWS: Final = 1_048_576
"""The rows of an Excel sheet: a Players or Results table, and so a CSV file standing for one,
holds no more."""
EXCEL_CELL_CHARACTERS: Final = 32_767
"""The most characters an Excel cell holds."""
EXCEL_EPOCH: Final = dt.date(1899, 12, 30)
"""Day 0 of Excel's serial dates (day 1 is 1 January 1900; Excel counts a 29 February 1900
that never was, so serials from 61 on are exact)."""
EXCEL_1904_EPOCH: Final = dt.date(1904, 1, 1)
"""Day 0 of a book in Excel's 1904 date system (``<workbookPr date1904="1"/>``, the system of
old Mac Excel): the same day is 1,462 fewer in it than in the 1900 system."""
MAX_BOARD: Final = 999
"""The highest board number xlgrade takes, in a cell or an ECF file (docs/limits.md): a match
has a few boards, a congress round a few hundred."""
_LAST_SERIAL: Final = 2958465
"""Excel's last date, 31 December 9999."""
_YES: Final = frozenset({"yes", "y", "true", "1", "1.0", "j", "jr", "jnr", "junior", "x"})
_NO: Final = frozenset({"no", "n", "false", "0", "0.0"})
_MONTHS: Final = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_WEEKDAYS: Final = {
    name: number
    for number, names in enumerate(
        (
            ("mon", "monday"),
            ("tue", "tues", "tuesday"),
            ("wed", "wednesday"),
            ("thu", "thur", "thurs", "thursday"),
            ("fri", "friday"),
            ("sat", "saturday"),
            ("sun", "sunday"),
        )
    )
    for name in names
}
_CENTURY_TURN: Final = 30
"""Excel reads a two-digit year below 30 as 20xx, from 30 on as 19xx (Microsoft: "How Excel
works with two-digit year numbers")."""
_TIME_OF_DAY: Final = re.compile(r"[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?$")
_YEAR_FIRST: Final = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_DAY_FIRST: Final = re.compile(r"(\d{1,2})([-/. ])(\d{1,2})\2(\d{4}|\d{2})")
_DAY_MONTH: Final = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?[-/. ]*([a-z]+)\.?[-/., ]*(\d{4}|\d{2})")
_MONTH_DAY: Final = re.compile(r"([a-z]+)\.?[-/. ]*(\d{1,2})(?:st|nd|rd|th)?[,. ]+(\d{4}|\d{2})")
_WEEKDAY: Final = re.compile(r"([a-z]+)\.?,?\s+(.*)")
_THOUSANDS: Final = re.compile(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?")
_HEADER_DROPS: Final = str.maketrans("", "", " \t\n._-")


def blank(value: object) -> bool:
    """An empty cell: ``None``, text of spaces only, or NaN (a missing value in an array)."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    return isinstance(value, float) and math.isnan(value)


def _real(value: object) -> bool:
    """A number that is not TRUE or FALSE (numpy's numbers too, without importing numpy:
    they are :class:`numbers.Real`, numpy's booleans are not)."""
    if type(value) is float:
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _boolean(value: object) -> bool:
    """TRUE or FALSE: Python's or numpy's."""
    return isinstance(value, bool) or type(value).__name__ in ("bool", "bool_")


def quote(value: object) -> str:
    """A cell as a message quotes it: text in quotes, 142.0 as 142, TRUE, a date as ISO; a
    long text or number shortened, saying how long it is (:func:`xlgrade._rounding.quote`, the
    one shortening)."""
    if _boolean(value):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, int):
        return _quote(value)
    if _real(value):
        try:
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            return _quote(value)
        if math.isfinite(number) and number == int(number):
            return _quote(int(number))
        return _quote(number)
    return _quote(value)


def text(value: object) -> str:
    """A cell as text: a whole number without ``.0``, a date (or a datetime at midnight) as
    ISO, anything else as written, spaces at the ends taken off; ``""`` when blank."""
    if type(value) is str:
        return value.strip()
    if blank(value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value).strip()


def number(value: object) -> float | None:
    """A cell as a finite number; ``None`` when blank (module docstring).

    Raises:
        GradeError: quoting the cell, for anything else.
    """
    if blank(value):
        return None
    if isinstance(value, str):
        return _number_text(value)
    if isinstance(value, dt.date):
        raise GradeError(f"{quote(value)} is a date, not a number")
    if not _real(value):
        raise GradeError(f"{quote(value)} is not a number")
    try:
        figure = float(value)  # type: ignore[arg-type]
    except OverflowError:  # a whole number past the largest float
        figure = math.inf
    if not math.isfinite(figure):
        raise GradeError(f"{quote(value)} is not a finite number")
    return figure


@functools.lru_cache(maxsize=4096)
def _number_text(value: str) -> float:
    """A text cell as a number (cached: a column repeats its values)."""
    written = value.strip()
    if _THOUSANDS.fullmatch(written):
        written = written.replace(",", "")
    try:
        figure = float(written)
    except ValueError:
        raise GradeError(f"{quote(value)} is not a number") from None
    if not math.isfinite(figure):
        raise GradeError(f"{quote(value)} is not a finite number")
    return figure


def grade(value: object) -> float | None:
    """A cell as a grade: a number, or a number in brackets (``"[136]"``, an estimated grade,
    docs/rules.md §6); ``None`` when blank.

    Raises:
        GradeError: quoting the cell, for anything else.
    """
    if isinstance(value, str):
        written = value.strip()
        if written.startswith("[") and written.endswith("]"):
            inside = written[1:-1]
            if blank(inside):
                raise GradeError(f"{quote(value)} is not a number")
            try:
                return _number_text(inside)
            except GradeError:
                raise GradeError(f"{quote(value)} is not a number") from None
    return number(value)


def rating(value: object) -> float | None:
    """A cell as an ECF rating (docs/rules.md §12: four-digit ratings since 2020): a number
    from :data:`xlgrade.ecf_rating.MIN_RATING` to :data:`xlgrade.ecf_rating.MAX_RATING` (no
    source gives a floor: a rating below zero is one); ``None`` when blank.

    Raises:
        GradeError: quoting the cell, for anything else.
    """
    figure = number(value)
    if figure is not None and not MIN_RATING <= figure <= MAX_RATING:
        raise GradeError(f"{quote(value)} is not a rating ({MIN_RATING} to {MAX_RATING})")
    return figure


_RATING_CATEGORIES: Final = ("A", "K", "P")
"""ECF rating categories: "Category A", "Category K", "Category P" (an unrated player has none)."""
_MONTH_NUMBERS: Final = re.compile(r"(\d{4})[-/.](\d{1,2})|(\d{1,2})[-/.](\d{4})")
_MONTH_WORDS: Final = re.compile(r"([a-z]+)\.?[-/., ]*(\d{4})")


def rating_category(value: object) -> str | None:
    """A cell as an ECF rating category (ECF rating categories page: A, K or P), upper case;
    ``None`` when blank.

    Raises:
        GradeError: quoting the cell, for anything else.
    """
    if blank(value):
        return None
    word = text(value).upper()
    if word not in _RATING_CATEGORIES:
        raise GradeError(f"{quote(value)} is not a rating category (A, K or P)")
    return word


def month(value: object) -> dt.date | None:
    """A cell as a calendar month, given as its first day: a date (its month), ``2025-08``,
    ``08/2025``, ``Aug 2025``; ``None`` when blank.

    Raises:
        GradeError: quoting the cell, for anything that is not a month.
    """
    if blank(value):
        return None
    if isinstance(value, str):
        written = value.strip().lower()
        found = _MONTH_NUMBERS.fullmatch(written)
        if found:
            year = int(found[1] or found[4])
            number_ = int(found[2] or found[3])
            if 1 <= number_ <= 12:
                return dt.date(year, number_, 1)
            raise GradeError(f"{quote(value)} is not a month")
        words = _MONTH_WORDS.fullmatch(written)
        if words and words[1] in _MONTHS:
            return dt.date(int(words[2]), _MONTHS[words[1]], 1)
    try:
        day = date(value)
    except GradeError:
        raise GradeError(f"{quote(value)} is not a month") from None
    assert day is not None
    return day.replace(day=1)


def whole(value: object) -> int | None:
    """A cell as a whole number, 0 or more (a count of games, a board); ``None`` when blank.

    Raises:
        GradeError: quoting the cell, for anything else.
    """
    figure = number(value)
    if figure is None:
        return None
    if not figure.is_integer():
        raise GradeError(f"{quote(value)} is not a whole number")
    if figure < 0:
        raise GradeError(f"{quote(value)} must not be negative")
    return int(figure)


def board(value: object) -> int | None:
    """A cell as a board number: a whole number from 1 to :data:`MAX_BOARD`; ``None`` when
    blank.

    Raises:
        GradeError: quoting the cell, for anything else (``1.5 is not a board number: a board
            is a whole number from 1 to 999``).
    """
    try:
        figure = number(value)
    except GradeError:
        figure = math.nan
    if figure is None:
        return None
    if not figure.is_integer() or not 1 <= figure <= MAX_BOARD:
        raise GradeError(
            f"{quote(value)} is not a board number: a board is a whole number from 1 to {MAX_BOARD}"
        )
    return int(figure)


def yes_no(value: object) -> bool | None:
    """A yes/no cell (module docstring); ``None`` when blank.

    Raises:
        SettingError: quoting the cell, for anything else.
    """
    if blank(value):
        return None
    if _boolean(value):
        return bool(value)
    if _real(value) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _YES:
            return True
        if word in _NO:
            return False
    raise SettingError(f"{quote(value)} is not yes or no")


def without_time_of_day(written: str) -> str:
    """A date's text with any time of day after it taken off: a spreadsheet may write a date
    cell with its time ("10/09/2025 19:30"), and the game's date is the day."""
    return _TIME_OF_DAY.sub("", written)


def date(value: object, *, date1904: bool = False) -> dt.date | None:
    """A cell as a date, day first (module docstring); ``None`` when blank. A serial number is
    a day of the book's date system: the 1904 system when ``date1904`` (:func:`serial_date`).

    Raises:
        GradeError: quoting the cell, for anything that is not a date.
    """
    if blank(value):
        return None
    typed = day(value)
    if typed is not None:
        return typed
    if isinstance(value, str):
        return _date_text(value)
    if _real(value):
        return serial_date(value, value, date1904=date1904)
    raise GradeError(f"{quote(value)} is not a date")


def day(value: object) -> dt.date | None:
    """A date value as the day it is, as :func:`date` reads a date cell: a datetime's day (a
    spreadsheet cell may hold a time of day), a date itself; ``None`` for anything else (text
    and serial numbers are :func:`date`'s to read)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return None


def excel_epoch(date1904: bool = False) -> dt.date:
    """Day 0 of the book's date system: :data:`EXCEL_1904_EPOCH` when ``date1904``, else
    :data:`EXCEL_EPOCH`."""
    return EXCEL_1904_EPOCH if date1904 else EXCEL_EPOCH


def serial_date(value: object, cell: object = None, *, date1904: bool = False) -> dt.date:
    """The day an Excel serial number stands for (its time of day dropped), in the book's date
    system: days since 30 December 1899, or since 1 January 1904 when ``date1904``. The one
    reading of a serial: cells, book parts and Office.js values alike.

    Raises:
        GradeError: quoting ``cell`` (else the value), for a number that is no day of Excel's
            (before day 1 of the 1900 system or day 0 of the 1904 one, past 31 December 9999).
    """
    figure = float(value)  # type: ignore[arg-type]
    first = 0 if date1904 else 1
    last = _LAST_SERIAL - (EXCEL_1904_EPOCH - EXCEL_EPOCH).days * date1904
    if not (math.isfinite(figure) and first <= figure < last + 1):
        raise GradeError(f"{quote(value if cell is None else cell)} is not a date")
    return excel_epoch(date1904) + dt.timedelta(days=int(figure))


def date_serial(value: dt.date, *, date1904: bool = False) -> int | float:
    """The Excel serial number of a date, or of a datetime with its time of day as the
    fraction, in the book's date system (the inverse of :func:`serial_date`): what a writer
    puts in a date cell's ``<v>``."""
    days = value.toordinal() - excel_epoch(date1904).toordinal()
    if not isinstance(value, dt.datetime):
        return days
    serial = days + (value - dt.datetime.combine(value.date(), dt.time())).total_seconds() / 86400
    return int(serial) if serial.is_integer() else serial


def _year(written: str) -> int:
    """A year as written: two digits are 1930–2029, as Excel reads them (module docstring)."""
    year = int(written)
    if len(written) == 2:
        year += 1900 if year >= _CENTURY_TURN else 2000
    return year


@functools.lru_cache(maxsize=4096)
def _date_text(value: str) -> dt.date:
    """A text cell as a date (cached: a column repeats its dates)."""
    written = value.strip()
    if len(written) == 10 and written[4] == "-" and written[7] == "-":
        try:
            return dt.date.fromisoformat(written)  # yyyy-mm-dd, the common case
        except ValueError:
            pass
    written = " ".join(without_time_of_day(written).lower().split())
    try:
        found = _date_words(written)
    except ValueError:
        found = None  # a day the month does not have
    if found is None:
        raise GradeError(f"{quote(value)} is not a date")
    return found


def _date_words(written: str) -> dt.date | None:
    """The date ``written`` (lower case, single spaces) stands for, or ``None``.

    Raises:
        ValueError: the parts are numbers a date cannot have (day 31 of a 30-day month).
    """
    if written.isdigit() and not written.startswith("0"):
        if len(written) == 8:
            return dt.date(int(written[:4]), int(written[4:6]), int(written[6:]))
        return serial_date(int(written), written) if len(written) == 5 else None
    if match := _YEAR_FIRST.fullmatch(written):
        return dt.date(int(match[1]), int(match[2]), int(match[3]))
    if match := _DAY_FIRST.fullmatch(written):
        return dt.date(_year(match[4]), int(match[3]), int(match[1]))
    if match := _DAY_MONTH.fullmatch(written):
        month = _MONTHS.get(match[2])
        return dt.date(_year(match[3]), month, int(match[1])) if month else None
    if match := _MONTH_DAY.fullmatch(written):
        month = _MONTHS.get(match[1])
        return dt.date(_year(match[3]), month, int(match[2])) if month else None
    if match := _WEEKDAY.fullmatch(written):
        weekday = _WEEKDAYS.get(match[1])
        if weekday is None:
            return None
        day = _date_words(match[2])
        if day is not None and day.weekday() != weekday:
            raise ValueError(f"{day} is not a {match[1]}")
        return day
    return None


@dataclass(frozen=True, slots=True)
class NotGraded:
    """A result cell that is a default, a bye or a game with no move made.

    Attributes:
        reason: why it is not graded, from the player's side ("won by default"…).
    """

    reason: str


_FIRST_NAMED_REASONS: Final = {
    "home won by default": "won by default",
    "away won by default": "lost by default",
}
"""A game row's reasons seen from the first-named player, who is the player in question."""


def score(value: object) -> float | NotGraded | None:
    """A result cell as one player's score (1, 0.5, 0), a :class:`NotGraded` default, or
    ``None`` when blank: every form :func:`xlgrade.results.parse_result` reads, and a game
    row's result (``1-0``, :func:`xlgrade.results.parse_game_result`) from the first-named
    player's side.

    Raises:
        ResultError: quoting the cell, for anything else.
    """
    if blank(value):
        return None
    if not isinstance(value, str | float | int) or _boolean(value):
        raise ResultError(f"result {quote(value)} not understood")
    return _score(value)


@functools.lru_cache(maxsize=4096, typed=True)
def _score(value: str | float) -> float | NotGraded:
    """:func:`score` of a text or number (cached: a column repeats a handful of results)."""
    try:
        mine = parse_result(value)
    except ResultError:
        row = parse_game_result(value)  # raises ResultError quoting the text
        if row.graded and row.home is not None:
            return row.home
        reason = str(row.reason)
        return NotGraded(_FIRST_NAMED_REASONS.get(reason, reason))
    if not mine.graded or mine.score is None:
        return NotGraded(str(mine.reason))
    return mine.score


def result_text(value: object) -> str:
    """A game row's result cell as the text the season reads
    (:func:`xlgrade.results.parse_game_result`); ``""`` when blank.

    Raises:
        ResultError: the cell holds a date (Excel turns ``1-0`` typed into a cell formatted
            as a date into 1 January), quoting it.
    """
    if isinstance(value, dt.date):
        raise ResultError(f"{quote(text(value))} is a date, not a result; format the cell as text")
    return text(value)


def header_key(header: object) -> str:
    """The form in which headers (and setting labels) are compared: lower case, without
    spaces, dots, dashes, underscores; ``"Date of birth"`` and ``"date_of_birth"`` match.

    >>> header_key(" Home  Player ")
    'homeplayer'
    """
    if header is None:
        return ""
    return str(header).lower().translate(_HEADER_DROPS)


def likely_header(header: object, known: Iterable[str]) -> str | None:
    """The known header that ``header``, itself not one, was probably meant to be, or
    ``None``: the closest by :mod:`difflib` (``"Grading"`` → ``"Grade"``), else the first
    that begins with it or that it begins with (``"Home"`` → ``"Home player"``), headers
    compared by :func:`header_key`. Known headers are tried in order, so put the likelier
    first."""
    key = header_key(header)
    if len(key) < 3:
        return None
    by_key: dict[str, str] = {}
    for name in known:
        by_key.setdefault(header_key(name), name)
    if key in by_key:
        return None
    close = difflib.get_close_matches(key, list(by_key), n=1, cutoff=0.6)
    if close:
        return by_key[close[0]]
    for other, name in by_key.items():
        if len(other) >= 3 and (other.startswith(key) or key.startswith(other)):
            return name
    return None
