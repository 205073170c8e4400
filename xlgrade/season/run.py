"""The season recalculation, step by step (see :mod:`xlgrade.season`)."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import gc
import math
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from xlgrade.convert import (
    FORMULAS,
)
from xlgrade.ecf import (
    MAX_GRADE,
)
from xlgrade.elo import K_POLICIES
from xlgrade.errors import SettingError
from xlgrade.model import (
    BORROWING_RULES,
    CATEGORY_RULE_SETS,
    Game,
    Player,
    Problem,
    Settings,
)
from xlgrade.results import GameResult
from xlgrade.season._types import BoolArray, FloatArray, IntArray
from xlgrade.season.checks import (
    _RESULT_FAIL,
    _SHEET_PROBLEMS,
    _T,
    RAPID,
    STANDARD,
    _as_date,
    _encode,
    _Fail,
    _fail_of,
    _parse_result,
    _result_fail,
    _result_reason,
    _TimeControls,
    _young_divisions,
)
from xlgrade.season.duplicates import _mark_duplicates
from xlgrade.season.lists import _grade_list, _PlayerArrays
from xlgrade.season.players import (
    _as_day,
    _borrowing_possible,
    _checked_births,
    _checked_players,
    _PlayerColumns,
    _texts,
)
from xlgrade.season.references import _Players
from xlgrade.season.result import (
    Accounting,
    SeasonResult,
    _number,
)

__all__ = ["recalculate"]


def recalculate(
    players: Sequence[Player],
    games: Sequence[Game],
    settings: Settings | None = None,
    problems: Sequence[Problem] = (),
) -> SeasonResult:
    """Recalculate a season: see the module's description for the steps.

    Args:
        players: the Players table.
        games: every result row, as typed.
        settings: the season's settings (the sources' defaults if ``None``).
        problems: rows the reader could not turn into players or games (a text where a grade
            belongs…): they go to the exceptions and the accounting as they are.
    """
    settings = _day_settings(settings or Settings())
    _check_settings(settings)
    with _collector_paused():
        players = _texts(players)
        players, bad_values, columns = _checked_players(players)
        players, bad_births = _checked_births(players, settings.age_date)
        undated = _borrowing_possible(players, settings)
        return _recalculate(
            players, columns, games, settings, [*problems, *bad_values, *bad_births, *undated]
        )


def _check_settings(settings: Settings) -> None:
    """Refuse settings no season can be graded with, naming the setting and quoting it."""

    def finite(value: object) -> bool:
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )

    if settings.horizon is not None and not (finite(settings.horizon) and settings.horizon >= 0):
        raise SettingError(f"horizon {settings.horizon!r} must be a number of points, 0 or more")
    if not (isinstance(settings.min_games, int) and settings.min_games >= 0):
        raise SettingError(
            f"minimum games {settings.min_games!r} must be a whole number, 0 or more"
        )
    if not (finite(settings.tolerance) and settings.tolerance > 0):
        raise SettingError(f"tolerance {settings.tolerance!r} must be a positive number")
    if not finite(settings.inactivity_allowance):
        raise SettingError(
            f"inactivity allowance {settings.inactivity_allowance!r} is not a number"
        )
    if settings.unanchored_grade is not None and not finite(settings.unanchored_grade):
        raise SettingError(f"unanchored grade {settings.unanchored_grade!r} is not a number")
    for words, grade in (
        ("unanchored grade", settings.unanchored_grade),
        ("inactivity allowance", settings.inactivity_allowance),
    ):
        if grade is not None and not 0 <= grade <= MAX_GRADE:
            raise SettingError(f"{words} {grade!r} is not from 0 to {MAX_GRADE:g}")
    if settings.season_end < settings.season_start:
        raise SettingError(
            f"the season ends ({settings.season_end}) before it starts ({settings.season_start})"
        )
    named = (
        ("borrowing rule", settings.borrowing, BORROWING_RULES),
        ("category rules", settings.category_rules, CATEGORY_RULE_SETS),
        ("Elo rating period", settings.elo_period, ("season", "month")),
        ("Elo conversion", settings.conversion, FORMULAS),
        ("Elo K policy", settings.elo_k_policy, (None, *K_POLICIES)),
    )
    for words, value, allowed in named:
        if value not in allowed:
            choices = ", ".join(repr(a) for a in allowed if a is not None)
            raise SettingError(f"{words} {value!r} is not one of {choices}")


def _day_settings(settings: Settings) -> Settings:
    """``settings`` with its dates as dates: a datetime compares with no date."""
    days = {
        name: _as_day(getattr(settings, name))
        for name in ("season_start", "season_end", "junior_age_date")
        if isinstance(getattr(settings, name), dt.datetime)
    }
    return dataclasses.replace(settings, **days) if days else settings  # type: ignore[arg-type]


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Keep Python's cyclic garbage collector off the inputs while a season is worked out.

    A season allocates many small objects (parsed values, problems, arrays) beside the hundreds
    of thousands its inputs already hold. Every object that exists at the start is frozen
    (:func:`gc.freeze`) so that automatic collections walk only what the recalculation makes,
    and is unfrozen at the end.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _recalculate(
    players: Sequence[Player],
    columns: _PlayerColumns,
    games: Sequence[Game],
    settings: Settings,
    problems: Sequence[Problem],
) -> SeasonResult:
    index = _Players(players)
    n = len(games)
    # One column at a time: a comprehension reads a field of every game faster than any
    # other way, and each column is then worked on at C speed.
    white, home_failures = index.indices([game.home for game in games])
    black, away_failures = index.indices([game.away for game in games])
    result_values, result_code = _encode([game.result for game in games])
    date_values, date_code = _encode([game.date for game in games])
    tc_values, tc_code = _encode([game.time_control for game in games])

    results_found = [_parse_result(v) for v in result_values]
    times = _TimeControls(settings.default_time_control)
    kinds_found = [times.kind(v) for v in tc_values]
    start, end = settings.season_start, settings.season_end
    dates_found = [_as_date(d) for d in date_values]

    def per_row(found: Sequence[_T], value: Callable[[_T], float], codes: IntArray) -> FloatArray:
        table = np.array([value(f) for f in found], dtype=np.float64)
        gathered: FloatArray = table[codes] if table.size else np.zeros(0)
        return gathered

    score = per_row(
        results_found,
        lambda r: r.home if isinstance(r, GameResult) and r.home is not None else _RESULT_FAIL,
        result_code,
    )
    graded_result = per_row(
        results_found, lambda r: isinstance(r, GameResult) and r.graded, result_code
    ).astype(np.bool_)
    date_ok = per_row(dates_found, lambda d: not isinstance(d, _Fail), date_code).astype(np.bool_)
    in_season = per_row(
        dates_found, lambda d: not isinstance(d, dt.date) or start <= d <= end, date_code
    ).astype(np.bool_)
    month = per_row(
        dates_found, lambda d: d.year * 12 + d.month if isinstance(d, dt.date) else 0, date_code
    ).astype(np.int64)
    day = per_row(
        dates_found, lambda d: d.toordinal() if isinstance(d, dt.date) else 0, date_code
    ).astype(np.int64)
    # Rule C's allowances: divisions whose players are all under 12 (or 10) may play all moves
    # in one hour (three-quarters of an hour). Their rows are classified again with it.
    young = _young_divisions(settings)
    if young:
        by_age = {age: _TimeControls(settings.default_time_control, age) for age in (12, 10)}
        extra: dict[tuple[int, int], int] = {}
        for row, game in enumerate(games):
            event = game.event if isinstance(game.event, str) else str(game.event or "")
            age = young.get(event.strip().casefold())
            if age is not None:
                key = (int(tc_code[row]), age)
                if key not in extra:
                    extra[key] = len(kinds_found)
                    kinds_found.append(by_age[age].kind(tc_values[key[0]]))
                tc_code[row] = extra[key]
    rapid = per_row(kinds_found, lambda k: k == RAPID, tc_code).astype(np.bool_)
    tc_ok = per_row(kinds_found, lambda k: not isinstance(k, _Fail), tc_code).astype(np.bool_)
    reason: dict[int, _Fail] = {}
    ok = np.ones(n, dtype=np.bool_)

    def home(r: int) -> _Fail:
        return home_failures[r]

    def away(r: int) -> _Fail:
        return away_failures[r]

    def results(r: int) -> GameResult | _Fail:
        return results_found[int(result_code[r])]

    def kinds(r: int) -> str | _Fail:
        return kinds_found[int(tc_code[r])]

    def dates(r: int) -> dt.date | _Fail | None:
        return dates_found[int(date_code[r])]

    # Rows failing a check, in the order of precedence; the first reason is kept.
    def mark(mask: BoolArray, why: Callable[[int], _Fail]) -> None:
        for row in np.flatnonzero(mask & ok).tolist():
            reason[row] = why(row)
        ok[mask] = False

    mark(white < 0, home)
    mark(black < 0, away)
    mark(
        (white == black) & (white >= 0),
        lambda r: _Fail("self pairing", f"{games[r].home!r} is paired with himself"),
    )
    understood = per_row(results_found, lambda r: isinstance(r, GameResult), result_code)
    mark(understood == 0, lambda r: _result_fail(results(r)))
    mark(~date_ok, lambda r: _fail_of(dates(r)))
    mark(
        ~in_season,
        lambda r: _Fail(
            "date outside season",
            f"{dates(r)} is outside the season {start.isoformat()} to {end.isoformat()}",
        ),
    )
    mark(~tc_ok, lambda r: _fail_of(kinds(r)))
    # A default or bye, with a score (kept for the match) or without one (nothing to grade).
    defaulted = ok & (~graded_result | (score == _RESULT_FAIL))
    mark(
        defaulted,
        lambda r: _Fail("default", f"{games[r].result!r}: {_result_reason(results(r))}"),
    )
    _mark_duplicates(games, day, rapid, white, black, score, ok | defaulted, defaulted, reason)
    ok[list(reason)] = False
    all_problems = list(problems) + index.problems
    by_reason: dict[str, int] = defaultdict(int)
    for row in sorted(reason):
        fail = reason[row]
        all_problems.append(Problem("Results", games[row].row, fail.what, fail.why))
        by_reason[fail.what] += 1
    arrays = _PlayerArrays.of(players, columns, settings)
    lists = {
        kind: _grade_list(
            kind, players, arrays, settings, np.flatnonzero(ok & mask), white, black, score, month
        )
        for kind, mask in ((STANDARD, ~rapid), (RAPID, rapid))
    }
    for graded in lists.values():
        for row in graded.lost.tolist():
            fail = _Fail(
                "no working grade",
                "both players are ungraded and their group has no graded opponent; set "
                "'Unanchored grade' to grade it",
            )
            all_problems.append(Problem("Results", games[row].row, fail.what, fail.why))
            by_reason[fail.what] += 1
    if settings.unanchored_grade is not None:
        # §6: an unanchored group is reported even when the grader's default grades it.
        for kind, graded in lists.items():
            for group in graded.working.unanchored:
                names = ", ".join(repr(players[m].name) for m in group[:5])
                more = f" and {len(group) - 5} more" if len(group) > 5 else ""
                for m in group:
                    all_problems.append(
                        Problem(
                            "Players",
                            players[m].row,
                            "unanchored",
                            f"{players[m].name!r} is one of {len(group)} ungraded players "
                            f"({names}{more}) with no graded opponent on the {kind} list: "
                            f"given the unanchored grade {_number(settings.unanchored_grade)}",
                        )
                    )
    # Rows the reader could not turn into games are excepted once each, under the first of
    # the reader's reasons for the row; a problem of the whole sheet is no row.
    unread: dict[int, str] = {}
    for problem in problems:
        line = problem.row
        if problem.sheet == "Results" and line is not None and problem.what not in _SHEET_PROBLEMS:
            unread.setdefault(line, problem.what)
    for what in unread.values():
        by_reason[what] += 1
    accounting = Accounting(
        rows=n + len(unread),
        standard_graded=int(lists[STANDARD].rows.size),
        rapid_graded=int(lists[RAPID].rows.size),
        excepted=sum(by_reason.values()),
        by_reason=dict(by_reason),
    )
    return SeasonResult(
        players=tuple(players),
        games=tuple(games),
        settings=settings,
        standard=lists[STANDARD],
        rapid=lists[RAPID],
        problems=tuple(all_problems),
        accounting=accounting,
        codes=tuple(index.canonical),
    )
