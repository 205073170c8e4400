"""Checks of the Players table: values that are not usable are reported and left out."""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import numbers
import operator
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from xlgrade import cells
from xlgrade._rounding import quote
from xlgrade.ecf import (
    MAX_GRADE,
    MAX_SEASON_GAMES,
    MAX_SEASON_POINTS,
)
from xlgrade.model import EarlierSeason, Player, Problem
from xlgrade.season.shared import FloatArray, IntArray
from xlgrade.settings import Settings

__all__ = [
    "PlayerColumns",
    "borrowing_possible",
    "checked_births",
    "checked_players",
    "player_column",
    "with_texts",
]


def borrowing_possible(players: Sequence[Player], settings: Settings) -> list[Problem]:
    """Why "most recent" borrowing cannot be done, if it cannot.

    docs/rules.md §3: the "most recent" variant "needs game dates". A player with no dated
    earlier games borrows his earlier seasons' totals pro rata rather than nothing (the list
    and his card alike). When no player has any (a workbook or CSV files hold only totals),
    the problem says so once.
    """
    if settings.borrowing != "most_recent" or any(p.earlier_games for p in players):
        return []
    if not any(p.previous or p.earlier for p in players):
        return []
    why = (
        "the 'most_recent' borrowing rule needs each player's dated earlier games, and none "
        "are given (the Players table holds each season's totals): earlier seasons are "
        "borrowed pro rata"
    )
    return [Problem("Settings", None, "borrowing", why)]


def _shown(value: object) -> str:
    """A value for a message: a date as ISO text, anything else quoted."""
    return value.isoformat() if isinstance(value, dt.date) else quote(value)


_GRADE_FIELDS: Final = (
    ("grade", "start grade"),
    ("estimated_grade", "estimated grade"),
    ("lapsed_grade", "lapsed grade"),
)


_NUMBERS: Final = frozenset({int, float, type(None)})
_SEASONS: Final = frozenset({EarlierSeason, type(None)})


@dataclass(frozen=True)
class PlayerColumns:
    """The Players table's numbers as arrays, each value :func:`checked_players` leaves out
    read as missing: NaN for a grade, no games and no points for an earlier season."""

    grade: FloatArray
    estimated_grade: FloatArray
    lapsed_grade: FloatArray
    previous_games: IntArray
    previous_points: FloatArray
    earlier_games: IntArray
    earlier_points: FloatArray


def checked_players(
    players: Sequence[Player],
) -> tuple[Sequence[Player], list[Problem], PlayerColumns]:
    """Players whose grades or earlier seasons are not usable numbers, reported and with those
    values left out (a bad start grade makes the player ungraded); the others as they are.

    Whole columns are checked at once; only suspect values are looked at one by one. The
    columns read for the check are also returned as arrays, so that the grades are worked out
    from them without reading every player again."""

    def number(value: object) -> bool:
        # numpy's scalars count as numbers; True and False do not.
        return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)

    def usable(value: object) -> bool:
        return value is None or (number(value) and math.isfinite(value))  # type: ignore[arg-type]

    def season_usable(value: object) -> bool:
        if value is None:
            return True
        games, points = getattr(value, "games", None), getattr(value, "points", None)
        return (
            isinstance(games, numbers.Integral)
            and not isinstance(games, bool | np.bool_)
            and 0 <= int(games) <= MAX_SEASON_GAMES
            and number(points)
            and math.isfinite(points)  # type: ignore[arg-type]
            and abs(points) <= MAX_SEASON_POINTS  # type: ignore[arg-type]
        )

    fixes: dict[int, dict[str, object]] = defaultdict(dict)
    problems: list[Problem] = []
    number_columns: list[npt.NDArray[Any]] = []
    for field_name, words in _GRADE_FIELDS:
        values = player_column(players, field_name)
        suspects: Iterable[int] = range(len(values))
        column: FloatArray | None = None
        nones = values.count(None)
        if nones == len(values):  # most players have no estimate and no lapsed grade
            column = np.full(len(values), np.nan)
            suspects = ()
        elif set(map(type, values)) <= _NUMBERS:
            column = np.array(values, dtype=np.float64).reshape(len(values))  # None reads as NaN
            missing = ~np.isfinite(column)
            # Only when there are more missing numbers than Nones is a value not finite.
            suspects = () if int(missing.sum()) == nones else np.flatnonzero(missing).tolist()
        for i in suspects:
            value = values[i]
            if not usable(value):
                values[i] = None
                fixes[i][field_name] = None
                problems.append(
                    Problem(
                        "Players",
                        players[i].row,
                        "bad grade",
                        f"{words} {quote(value)} of {quote(players[i].name)} is not a number: "
                        f"left out",
                    )
                )
        if column is None or suspects:
            column = _floats(values)  # what is left once unusable values are left out
        with np.errstate(invalid="ignore"):
            off_scale = np.flatnonzero((column < 0) | (column > MAX_GRADE))
        for i in off_scale.tolist():
            problems.append(
                Problem(
                    "Players",
                    players[i].row,
                    "bad grade",
                    f"{words} {quote(values[i])} of {quote(players[i].name)} is not a grade on "
                    f"the ECF "
                    f"scale (0 to {MAX_GRADE:g}): left out",
                )
            )
            values[i] = None
            fixes[i][field_name] = None
            column[i] = np.nan
        number_columns.append(column)
    for field_name, words in (("previous", "previous season"), ("earlier", "earlier season")):
        seasons = player_column(players, field_name)
        suspects = range(len(seasons))
        if set(map(type, seasons)) <= _SEASONS:
            games = [0 if s is None else s.games for s in seasons]  # type: ignore[attr-defined]
            points = [0.0 if s is None else s.points for s in seasons]  # type: ignore[attr-defined]
            if (
                set(map(type, games)) <= {int}
                and set(map(type, points)) <= {int, float}
                and (not games or 0 <= min(games) <= max(games) <= MAX_SEASON_GAMES)
                and bool(np.isfinite(np.array(points, dtype=np.float64)).all())
                and (not points or max(map(abs, points)) <= MAX_SEASON_POINTS)
            ):
                suspects = ()
        for i in suspects:
            season = seasons[i]
            if not season_usable(season):
                seasons[i] = None
                fixes[i][field_name] = None
                problems.append(
                    Problem(
                        "Players",
                        players[i].row,
                        "bad earlier season",
                        f"{words} {quote(season)} of {quote(players[i].name)} is not a whole "
                        f"number of "
                        f"games (0 to {MAX_SEASON_GAMES:,}) and a number of points (at most "
                        f"{MAX_SEASON_POINTS:,g}): left out",
                    )
                )
        if suspects:
            games = [0 if s is None else s.games for s in seasons]  # type: ignore[attr-defined]
            points = [0.0 if s is None else s.points for s in seasons]  # type: ignore[attr-defined]
        number_columns.append(np.array(games, dtype=np.int64).reshape(len(seasons)))
        number_columns.append(np.array(points, dtype=np.float64).reshape(len(seasons)))
    columns = PlayerColumns(*number_columns)
    if not fixes:
        return players, problems, columns
    fixed = list(players)
    for i, changes in fixes.items():
        fixed[i] = dataclasses.replace(fixed[i], **changes)  # type: ignore[arg-type]
    return fixed, problems, columns


_TEXT_FIELDS: Final = ("name", "club", "code")


def with_texts(players: Sequence[Player]) -> Sequence[Player]:
    """Players whose name, club or code is not text, with it read as text (a number typed as
    a code becomes its digits, a missing name or club an empty one), so that every check
    can quote it; the code's check then reports a code that is not a code."""
    fixes: dict[int, dict[str, str]] = defaultdict(dict)
    for field_name in _TEXT_FIELDS:
        values = player_column(players, field_name)
        if set(map(type, values)) <= {str} or (
            field_name == "code" and set(map(type, values)) <= {str, type(None)}
        ):
            continue
        for i, value in enumerate(values):
            if type(value) is not str and not (field_name == "code" and value is None):
                fixes[i][field_name] = "" if value is None else str(value)
    if not fixes:
        return players
    fixed = list(players)
    for i, changes in fixes.items():
        fixed[i] = dataclasses.replace(fixed[i], **changes)  # type: ignore[arg-type]
    return fixed


def checked_births(
    players: Sequence[Player], age_date: dt.date
) -> tuple[Sequence[Player], list[Problem]]:
    """Players whose date of birth is not a date on or before ``age_date`` (the day juniors'
    ages are taken), reported and with it left out; a datetime is read as its day."""
    births = player_column(players, "date_of_birth")
    if births.count(None) == len(births):
        return players, []
    fixes: dict[int, dt.date | None] = {}
    problems: list[Problem] = []
    for i, born in enumerate(births):
        if born is None or (type(born) is dt.date and born <= age_date):
            continue
        day = cells.day(born)
        if day is not None and day <= age_date:
            fixes[i] = day
            continue
        fixes[i] = None
        why = (
            "is not a date"
            if day is None
            else f"is after {age_date.isoformat()}, the day ages are taken"
        )
        problems.append(
            Problem(
                "Players",
                players[i].row,
                "bad date of birth",
                f"date of birth {_shown(born)} of {quote(players[i].name)} {why}: left out",
            )
        )
    if not fixes:
        return players, problems
    fixed = list(players)
    for i, day in fixes.items():
        fixed[i] = dataclasses.replace(fixed[i], date_of_birth=day)
    return fixed, problems


def player_column(players: Sequence[Player], name: str) -> list[object]:
    """Every player's field ``name``, in the players' order."""
    return list(map(operator.attrgetter(name), players))


def _floats(values: list[object]) -> FloatArray:
    """Numbers with ``None`` as NaN."""
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)
