"""The checks before grading: results, dates and time controls read once per distinct text."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import numpy as np
import numpy.typing as npt

from xlgrade import cells
from xlgrade._rounding import quote
from xlgrade.eligibility import classify
from xlgrade.errors import GradingError
from xlgrade.model import Game
from xlgrade.results import GameResult, parse_game_result
from xlgrade.season.references import PlayerIndex
from xlgrade.season.shared import BoolArray, CodeArray, Fail, FloatArray, IndexArray, IntArray
from xlgrade.settings import RATING_2020, Settings

__all__ = [
    "CHECKS",
    "RAPID",
    "ROW_NOTES",
    "SHEET_PROBLEMS",
    "STANDARD",
    "Check",
    "Resolved",
    "Rows",
    "Sides",
    "first_failures",
    "read_rows",
]

STANDARD: Final = "standard"
"""The standard-play list."""
RAPID: Final = "rapid"
"""The rapidplay list."""

_T = TypeVar("_T")


def _encode(values: Sequence[Hashable]) -> tuple[list[Hashable], CodeArray]:
    """The distinct values, in first-seen order, and each value's position among them.

    Parsing is then done once per distinct value (a season has a few hundred result texts and
    match dates however many rows it has), and per-row arrays are gathered with numpy.
    """
    positions = {value: i for i, value in enumerate(dict.fromkeys(values))}
    codes = np.fromiter(map(positions.__getitem__, values), np.int32, len(values))
    return list(positions), codes


def _parse_result(text: Hashable) -> GameResult | Fail:
    try:
        return parse_game_result(text)
    except GradingError as error:
        return Fail("result not understood", str(error))


_RESULT_FAIL: Final = -1.0

SHEET_PROBLEMS: Final = frozenset(
    {"missing sheet", "missing column", "unknown column", "column not read"}
)
"""Reader problems about a whole sheet rather than one of its rows."""

ROW_NOTES: Final = frozenset({"merged cell", "hidden row"})
"""What the workbook reader notes about a row it still reads (a cell under a merged one, a
hidden row): a line on the Exceptions sheet, not a reason; a row not graded for a reason has
its notes in its one line."""


class _TimeControls:
    """Each time control's list, by the acceptance rules of the season's ``System``."""

    def __init__(self, default: str, system: str, under: int | None = None) -> None:
        self.default = default
        self.system = system
        self.under = under
        self.not_counted = (
            "time control not rated" if system == RATING_2020 else "time control not gradable"
        )

    def kind(self, text: Hashable) -> str | Fail:
        control = str(text).strip() if text is not None else ""
        control = control or self.default
        if not control:
            return STANDARD
        try:
            playable = classify(control, system=self.system, all_players_under=self.under)
        except GradingError as error:
            return Fail("time control not understood", str(error))
        if playable.kind == "not gradable":
            return Fail(self.not_counted, f"{quote(control)}: {playable.reason}")
        return playable.kind


def _young_divisions(settings: Settings) -> dict[str, int]:
    """Division names (case ignored) of the under-12 and under-10 settings, with the age."""
    young: dict[str, int] = {}
    for text, age in ((settings.under_12_divisions, 12), (settings.under_10_divisions, 10)):
        for name in text.split(","):
            if name.strip():
                young[name.strip().casefold()] = age
    return young


def _as_date(value: object) -> dt.date | Fail | None:
    """A row's date as a date (:func:`xlgrade.cells.day`: a datetime's day); ``None`` stays
    undated; anything else fails (the engine takes dates as dates, not text)."""
    if value is None:
        return None
    played = cells.day(value)
    if played is not None:
        return played
    return Fail("date not understood", f"date {quote(value)} is not a date")


def _fail_of(value: object) -> Fail:
    assert isinstance(value, Fail)
    return value


def _result_fail(value: GameResult | Fail) -> Fail:
    if isinstance(value, Fail):
        return value
    return Fail("default", f"{quote(value.text)}: {value.reason}")


def _result_reason(value: GameResult | Fail) -> str:
    return value.reason or "" if isinstance(value, GameResult) else value.why


def _gathered(
    found: Sequence[_T],
    value: Callable[[_T], float],
    codes: CodeArray,
    dtype: type[np.generic],
) -> npt.NDArray[Any]:
    """``value`` of each distinct parsed value as ``dtype``, gathered for every row by its
    code: the column is made in its own type, with no float column first."""
    table = np.array([value(f) for f in found], dtype=dtype)
    return table[codes] if table.size else np.zeros(0, dtype=dtype)


@dataclass(frozen=True)
class Rows:
    """The result rows read once: each distinct text parsed once, per-row facts as columns.

    ``white``/``black`` are player indices (−1 where the reference names no one, with why in
    ``home_failures``/``away_failures``); ``score`` is the home side's score (−1 where there is
    none); the parsed results, dates and time-control kinds are kept once per distinct value,
    with each row's position among them.
    """

    games: Sequence[Game]
    settings: Settings
    white: IndexArray
    black: IndexArray
    home_failures: dict[int, Fail]
    away_failures: dict[int, Fail]
    results: list[GameResult | Fail]
    result_code: CodeArray
    dates: list[dt.date | Fail | None]
    date_code: CodeArray
    kinds: list[str | Fail]
    kind_code: CodeArray
    score: FloatArray
    graded_result: BoolArray
    rapid: BoolArray
    month: IntArray
    day: IntArray

    def result(self, row: int) -> GameResult | Fail:
        """Row ``row``'s parsed result."""
        return self.results[int(self.result_code[row])]

    def date(self, row: int) -> dt.date | Fail | None:
        """Row ``row``'s date (``None`` when undated)."""
        return self.dates[int(self.date_code[row])]

    def kind(self, row: int) -> str | Fail:
        """Row ``row``'s list (standard or rapid), or why its time control is not graded."""
        return self.kinds[int(self.kind_code[row])]

    def per_row(
        self, found: Sequence[_T], value: Callable[[_T], float], codes: CodeArray
    ) -> BoolArray:
        """Whether ``value`` holds for each row (see :func:`_gathered`)."""
        held: BoolArray = _gathered(found, value, codes, np.bool_)
        return held

    def resolved(self) -> Resolved:
        """The rows' players and results as resolved, for the divisions' rules."""
        return Resolved(
            self.white,
            self.black,
            self.home_failures,
            self.away_failures,
            tuple(self.results),
            self.result_code,
        )

    def sides(self) -> Sides:
        """The columns grading and rating read, without those only the checks need."""
        return Sides(self.white, self.black, self.score, self.month)


@dataclass(frozen=True)
class Resolved:
    """Every result row's players and result as the season resolved them, kept for the
    divisions' rules (:func:`xlgrade.teams.league_breaches`) so that they are not resolved
    again: the home and away players' indices (−1: nobody known, ``home_failures[r]`` and
    ``away_failures[r]`` saying why), and each distinct result read (``results``) with each
    row's place among them (``result_code``)."""

    white: IndexArray
    black: IndexArray
    home_failures: Mapping[int, Fail]
    away_failures: Mapping[int, Fail]
    results: tuple[GameResult | Fail, ...]
    result_code: CodeArray

    def scores(self) -> list[tuple[float | None, float | None, bool]]:
        """Each row's home and away scores and whether the result is graded (a result not
        read: no scores, graded)."""
        read = [
            (r.home, r.away, r.graded) if isinstance(r, GameResult) else (None, None, True)
            for r in self.results
        ]
        return [read[code] for code in self.result_code.tolist()]


@dataclass(frozen=True)
class Sides:
    """What the lists read of every result row once the checks are done: the two players'
    indices, the home side's score and the month (year × 12 + month, 0 when undated). The
    checks' own columns (codes, dates, failures) are let go before the lists are made, and
    these once each list has taken its own rows' (:meth:`taken`), so a national season does
    not hold them while it grades."""

    white: IndexArray
    black: IndexArray
    score: FloatArray
    month: IntArray

    def taken(self, rows: IndexArray) -> Sides:
        """The columns of ``rows`` alone, in their order."""
        return Sides(self.white[rows], self.black[rows], self.score[rows], self.month[rows])


def read_rows(games: Sequence[Game], index: PlayerIndex, settings: Settings) -> Rows:
    """Every result row's players, result, date and time control, read once per distinct text.

    Time controls are read by the acceptance rules of the season's ``System``
    (:data:`xlgrade.eligibility.RULES`). Graded by the 1997 rules, rule C's allowances
    (docs/rules.md §11): divisions whose players are all under 12 (or 10) may play all
    moves in one hour (three-quarters of an hour); their rows are classified again with it.
    """
    # One column at a time: a comprehension reads a field of every game faster than any
    # other way, and each column is then worked on at C speed.
    white, home_failures = index.indices([game.home for game in games])
    black, away_failures = index.indices([game.away for game in games])
    result_values, result_code = _encode([game.result for game in games])
    date_values, date_code = _encode([game.date for game in games])
    tc_values, tc_code = _encode([game.time_control for game in games])
    results = [_parse_result(v) for v in result_values]
    system = settings.system
    times = _TimeControls(settings.default_time_control, system)
    kinds = [times.kind(v) for v in tc_values]
    dates = [_as_date(d) for d in date_values]
    # Rule C's allowances are the 1997 leaflet's: the 2020 rules have none.
    young = _young_divisions(settings) if system != RATING_2020 else {}
    if young:
        by_age = {
            age: _TimeControls(settings.default_time_control, system, age) for age in (12, 10)
        }
        extra: dict[tuple[int, int], int] = {}
        for row, game in enumerate(games):
            event = game.event if isinstance(game.event, str) else str(game.event or "")
            age = young.get(event.strip().casefold())
            if age is not None:
                key = (int(tc_code[row]), age)
                if key not in extra:
                    extra[key] = len(kinds)
                    kinds.append(by_age[age].kind(tc_values[key[0]]))
                tc_code[row] = extra[key]
    return Rows(
        games=games,
        settings=settings,
        white=white,
        black=black,
        home_failures=home_failures,
        away_failures=away_failures,
        results=results,
        result_code=result_code,
        dates=dates,
        date_code=date_code,
        kinds=kinds,
        kind_code=tc_code,
        score=_gathered(
            results,
            lambda r: r.home if isinstance(r, GameResult) and r.home is not None else _RESULT_FAIL,
            result_code,
            np.float64,
        ),
        graded_result=_gathered(
            results, lambda r: isinstance(r, GameResult) and r.graded, result_code, np.bool_
        ),
        rapid=_gathered(kinds, lambda k: k == RAPID, tc_code, np.bool_),
        month=_gathered(
            dates,
            lambda d: d.year * 12 + d.month if isinstance(d, dt.date) else 0,
            date_code,
            np.int64,
        ),
        day=_gathered(
            dates, lambda d: d.toordinal() if isinstance(d, dt.date) else 0, date_code, np.int64
        ),
    )


@dataclass(frozen=True)
class Check:
    """One check before grading: the reason it gives, which rows fail it, and why each fails.

    ``failing`` is given the rows and the rows still to grade (those that passed every
    earlier check) and returns a mask of the rows that fail; ``why`` words one row's failure.
    """

    reason: str
    failing: Callable[[Rows, BoolArray], BoolArray]
    why: Callable[[Rows, int], Fail]


def _outside_season(rows: Rows, row: int) -> Fail:
    start, end = rows.settings.season_start, rows.settings.season_end
    return Fail(
        "date outside season",
        f"{rows.date(row)} is outside the season {start.isoformat()} to {end.isoformat()}",
    )


def _in_season(rows: Rows) -> BoolArray:
    start, end = rows.settings.season_start, rows.settings.season_end
    return rows.per_row(
        rows.dates, lambda d: not isinstance(d, dt.date) or start <= d <= end, rows.date_code
    )


def _undated_rating(rows: Rows) -> BoolArray:
    """Rows without a date, when the season is rated (the rating takes a month's games)."""
    if rows.settings.system != RATING_2020:
        return np.zeros(len(rows.games), dtype=np.bool_)
    return rows.per_row(rows.dates, lambda d: d is None, rows.date_code)


def _no_date(rows: Rows, row: int) -> Fail:
    return Fail(
        "no date",
        "the row has no date: the ECF rating (2020 rules) rates each game in the month it "
        "was played (docs/rules.md §12: 'Only games dated in the month count')",
    )


CHECKS: Final[tuple[Check, ...]] = (
    Check("unknown player", lambda rows, ok: rows.white < 0, lambda rows, r: rows.home_failures[r]),
    Check("unknown player", lambda rows, ok: rows.black < 0, lambda rows, r: rows.away_failures[r]),
    Check(
        "self pairing",
        lambda rows, ok: (rows.white == rows.black) & (rows.white >= 0),
        lambda rows, r: Fail("self pairing", f"{quote(rows.games[r].home)} is paired with himself"),
    ),
    Check(
        "result not understood",
        lambda rows, ok: (
            ~rows.per_row(rows.results, lambda v: isinstance(v, GameResult), rows.result_code)
        ),
        lambda rows, r: _result_fail(rows.result(r)),
    ),
    Check(
        "date not understood",
        lambda rows, ok: (
            ~rows.per_row(rows.dates, lambda d: not isinstance(d, Fail), rows.date_code)
        ),
        lambda rows, r: _fail_of(rows.date(r)),
    ),
    Check("date outside season", lambda rows, ok: ~_in_season(rows), _outside_season),
    Check("no date", lambda rows, ok: _undated_rating(rows), _no_date),
    Check(
        "time control not understood, not gradable or not rated",
        lambda rows, ok: (
            ~rows.per_row(rows.kinds, lambda k: not isinstance(k, Fail), rows.kind_code)
        ),
        lambda rows, r: _fail_of(rows.kind(r)),
    ),
    # A default or bye, with a score (kept for the match) or without one (nothing to grade).
    Check(
        "default",
        lambda rows, ok: ok & (~rows.graded_result | (rows.score == _RESULT_FAIL)),
        lambda rows, r: Fail(
            "default", f"{quote(rows.games[r].result)}: {_result_reason(rows.result(r))}"
        ),
    ),
)
"""The checks before grading, in their order of precedence: a row failing several is
excepted under the first. The same game entered twice is found after them
(:mod:`xlgrade.season.duplicates`), among the rows that passed and the defaults."""


def first_failures(rows: Rows) -> tuple[BoolArray, BoolArray, dict[int, Fail]]:
    """Run :data:`CHECKS` in order: the rows that pass them all, the defaults (the last
    check's rows, which the duplicate check still looks at), and each failing row's first
    reason."""
    reason: dict[int, Fail] = {}
    ok = np.ones(len(rows.games), dtype=np.bool_)
    defaulted = np.zeros_like(ok)
    for check in CHECKS:
        failing = check.failing(rows, ok) & ok
        for row in np.flatnonzero(failing).tolist():
            reason[row] = check.why(rows, row)
        if check.reason == "default":
            defaulted = failing
        ok = ok & ~failing
    return ok, defaulted, reason
