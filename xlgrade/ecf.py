"""ECF (BCF) grading: points for a game, the horizon, season grades, borrowing, categories,
junior enhancements, expected scores and performance grades.

Sources: the 1997 BCF leaflet (docs/rules.md, Sources), the Yorkshire Chess
Association's pages on the 40-point horizon and on calculation examples, and the ECF summary
(docs/rules.md, Sources); decisions where they are silent are in
docs/rules.md and repeated beside each rule below.

>>> game_points(142, 100, 1.0)
GamePoints(points=152.0, opponent_grade=100.0, counted_grade=102.0, horizon_applied=True)
>>> season_grade(2405, 17).grade
141
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from xlgrade import cells
from xlgrade._rounding import quote
from xlgrade.errors import GradeError, SettingError
from xlgrade.model import DatedPoints, EarlierSeason

__all__ = [
    "DEFAULT_HORIZON",
    "GAMES_FOR_FULL_GRADE",
    "MAX_GRADE",
    "MAX_SEASON_GAMES",
    "MAX_SEASON_POINTS",
    "WIN_LOSS_MARGIN",
    "Borrowed",
    "GamePoints",
    "SeasonGrade",
    "age_on",
    "category",
    "category_array",
    "counted_grade",
    "counted_grades",
    "expected_score",
    "game_points",
    "game_points_array",
    "game_points_columns",
    "grade_as_counted",
    "grades_as_counted",
    "junior_enhancement",
    "junior_enhancements",
    "performance_grade",
    "pro_rata_borrowed",
    "pro_rata_borrowed_array",
    "round_half_up",
    "round_half_up_array",
    "score_margin",
    "score_margins",
    "season_grade",
]

FloatArray = npt.NDArray[np.float64]
"""A numpy array of float64."""
IntArray = npt.NDArray[np.int64]
"""A numpy array of int64."""

WIN_LOSS_MARGIN: Final = 50.0
"""1997 leaflet: "For a win, the opponents grade plus 50 … For a loss, the opponents grade
minus 50"."""
DEFAULT_HORIZON: Final = 40.0
"""YCA, *The 40 Point Grading Horizon*: "The limit fixed was 40"."""
GAMES_FOR_FULL_GRADE: Final = 30
"""1997 leaflet: "If there are less than 30 games in the current year, a proportion of the
results from the previous year are brought in as necessary"."""
MAX_GRADE: Final = 400.0
"""The highest grade xlgrade takes as a player's grade (a decision): well above any grade ever
published on the ECF scale, well below any Elo rating, so that a rating typed where a grade
belongs is caught."""
MAX_SEASON_GAMES: Final = 9_999
"""The most games of one season xlgrade takes for a player, this season's or an earlier one's
(a decision, docs/limits.md): a player plays a few hundred graded games a season at most."""
MAX_SEASON_POINTS: Final = MAX_SEASON_GAMES * (MAX_GRADE + WIN_LOSS_MARGIN)
"""The most points of one season: :data:`MAX_SEASON_GAMES` wins over an opponent graded
:data:`MAX_GRADE` (docs/rules.md: a win scores the opponent's grade + 50)."""
MAX_EARLIER_SEASONS: Final = 2
"""1997 leaflet: previous year, then "the year before" — three seasons in all."""
GRADE_DECIMALS: Final = 9
"""Decimal places a grade is counted to (a decision, docs/rules.md §3): a grade is a whole
number or a mean of whole numbers, and binary floating point leaves a few parts in 10¹⁴ of
noise on such a mean (146.00000000000003, 145.99999999999997); counting to 9 places removes the
noise and nothing a grader could have meant."""
_COUNTING_SCALE: Final = 10.0**GRADE_DECIMALS
"""10 to the power :data:`GRADE_DECIMALS`, exact in binary floating point."""


def _number(value: float | None, what: str) -> float:
    """A finite float, or a :class:`GradeError` naming ``what`` and quoting the value."""
    if type(value) is float and math.isfinite(value):  # the usual input, checked at once
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise GradeError(f"{what} {quote(value)} is not a number")
    if not math.isfinite(value):
        raise GradeError(f"{what} {quote(value)} is not a finite number")
    return float(value)


def _score(value: float) -> float:
    if type(value) is float and (value == 1.0 or value == 0.5 or value == 0.0):
        return value  # the usual input, checked at once
    if isinstance(value, bool) or value not in (0, 0.5, 1):
        raise GradeError(f"score {quote(value)} must be 1 (win), 0.5 (draw) or 0 (loss)")
    return float(value)


def grade_as_counted(value: float) -> float:
    """A grade (or points, or a mean of them) as the rules count it: to
    :data:`GRADE_DECIMALS` places, so that 146.00000000000003 is 146 — compared with the
    horizon, rounded and printed as 146 (docs/rules.md §2–§3).

    The scalar form of :func:`grades_as_counted`, with the same arithmetic (numpy's rounding to
    a number of decimals), so both give the same number.

    >>> grade_as_counted(146.00000000000003), grade_as_counted(145.99999999999997)
    (146.0, 146.0)
    """
    scaled = value * _COUNTING_SCALE
    if not math.isfinite(scaled):
        # Infinite or NaN: itself. Finite but too large to scale (past about 1.8e299): a float
        # that large is a whole number already, so counting it to 9 decimals leaves it as it
        # is (numpy's own rounding would scale it to infinity).
        return float(value)
    # numpy's arithmetic for decimals ≥ 0: multiply by 10**decimals, round half to even, divide
    # back; done on a Python float it is the same IEEE arithmetic, without an array's cost.
    return math.copysign(round(scaled) / _COUNTING_SCALE, scaled)


def grades_as_counted(values: npt.ArrayLike) -> FloatArray:
    """:func:`grade_as_counted` of every value of a column at once (NaN stays NaN)."""
    column: FloatArray = np.asarray(values, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        counted: FloatArray = column.round(GRADE_DECIMALS)
    # As the scalar form: a value too large to scale is a whole number and is kept.
    kept: FloatArray = np.where(np.isfinite(column) & ~np.isfinite(counted), column, counted)
    return kept


def round_half_up(value: float) -> int:
    """Round a grade to a whole number, halves upwards (150.5 → 151, −4.5 → −4;
    docs/rules.md §3).

    Python's :func:`round` rounds halves to even (``round(150.5) == 150``), which is not how
    grades are published. The value is first counted to 9 decimals (:func:`grade_as_counted`)
    so that a mean that is a half in exact arithmetic (4515/30) but a hair below in binary
    floating point still rounds up.

    >>> round_half_up(150.5), round_half_up(141.47)
    (151, 141)
    """
    exact = _number(value, "grade")
    return math.floor(grade_as_counted(exact) + 0.5)


def round_half_up_array(values: npt.ArrayLike) -> FloatArray:
    """:func:`round_half_up` of every value of a column at once; NaN stays NaN (a player with
    no game has no grade)."""
    counted = grades_as_counted(values)
    rounded: FloatArray = np.floor(counted + np.float64(0.5))
    return rounded


@dataclass(frozen=True)
class GamePoints:
    """The grading points one game earns one player.

    Attributes:
        points: the points credited (opponent + 50 / opponent / opponent − 50, after the
            horizon, floored at 0 where that setting is on).
        opponent_grade: the opponent's grade (or working grade) as the rules count it
            (:func:`grade_as_counted`).
        counted_grade: the grade the opponent counted as after the horizon.
        horizon_applied: ``True`` when the horizon moved the opponent (the YCA card's ``*``).
    """

    points: float
    opponent_grade: float
    counted_grade: float
    horizon_applied: bool


def _horizon(horizon: float | None) -> float | None:
    """The horizon setting as a float, or :class:`SettingError` quoting it."""
    if horizon is None:
        return None
    if type(horizon) is float and 0.0 <= horizon < math.inf:  # the usual input, at once
        return horizon
    if isinstance(horizon, bool) or not isinstance(horizon, int | float):
        raise SettingError(f"horizon {quote(horizon)} is not a number")
    if not math.isfinite(horizon):
        raise SettingError(f"horizon {quote(horizon)} is not a finite number")
    if horizon < 0:
        raise SettingError(f"horizon {quote(horizon)} must not be negative")
    return float(horizon)


def score_margin(score: float) -> float:
    """What a game's result adds to the grade the opponent counts as (docs/rules.md §2):
    ``(2·score − 1)·``:data:`WIN_LOSS_MARGIN`, taken as checked (1, 0.5 or 0).

    1997 leaflet: "For a win, the opponents grade plus 50; For a draw, the opponents grade; For
    a loss, the opponents grade minus 50". The array form is :func:`score_margins`.

    >>> score_margin(1.0), score_margin(0.5), score_margin(0.0)
    (50.0, 0.0, -50.0)
    """
    return (2.0 * score - 1.0) * WIN_LOSS_MARGIN


def score_margins(scores: FloatArray) -> FloatArray:
    """:func:`score_margin` of every score of a column at once."""
    margins: FloatArray = np.multiply(scores, 2.0)
    margins -= 1.0
    margins *= WIN_LOSS_MARGIN
    return margins


def counted_grade(own_grade: float | None, opponent_grade: float, horizon: float | None) -> float:
    """The grade an opponent counts as under the horizon (docs/rules.md §2).

    1997 leaflet: "if the difference on grades is more than 40, it is assumed to be exactly 40".
    Measured from ``own_grade``, the grade the player started the season with; a player with no
    grade (``None``) gets no horizon, nor does ``horizon=None``. A difference of exactly
    ``horizon`` is not "more than" it: the opponent's grade stands (the YCA card's game 17:
    142 v 102). Both grades are compared as the rules count them (:func:`grade_as_counted`), so
    a working grade solved as 146.00000000000003 is exactly 40 from 106. The arguments are
    taken as checked (see :func:`game_points`).

    >>> counted_grade(142, 100, 40), counted_grade(142, 102, 40), counted_grade(None, 100, 40)
    (102.0, 102.0, 100.0)
    """
    return _counted(own_grade, opponent_grade, horizon)[1]


def _counted(
    own_grade: float | None, opponent_grade: float, horizon: float | None
) -> tuple[float, float]:
    """The opponent's grade as counted (:func:`grade_as_counted`) and the grade he counts as
    under the horizon (:func:`counted_grade`), the arguments taken as checked."""
    opponent = grade_as_counted(opponent_grade)
    if own_grade is None or horizon is None:
        return opponent, opponent
    own = grade_as_counted(own_grade)
    return opponent, min(max(opponent, own - horizon), own + horizon)


def counted_grades(
    own_grades: FloatArray, opponent_grades: FloatArray, horizon: float | None
) -> FloatArray:
    """:func:`counted_grade` for whole columns: element ``i`` is
    ``counted_grade(own_grades[i], opponent_grades[i], horizon)``, with an own grade of NaN
    standing for an ungraded player (``None``)."""
    return _counted_columns(
        grades_as_counted(own_grades), grades_as_counted(opponent_grades), horizon
    )


def _counted_columns(own: FloatArray, opponent: FloatArray, horizon: float | None) -> FloatArray:
    """:func:`counted_grades` of grades already as counted: the opponent's grade held within
    ``horizon`` of the player's own, none for an own grade of NaN (its bounds are then −∞ and
    +∞), with as few whole-column temporaries as the arithmetic allows."""
    if horizon is None:
        return opponent
    low = own - horizon
    np.fmax(low, -np.inf, out=low)  # NaN (ungraded) → no lower bound
    high = own + horizon
    np.fmin(high, np.inf, out=high)  # NaN (ungraded) → no upper bound
    np.maximum(opponent, low, out=low)
    counted: FloatArray = np.minimum(low, high, out=high)
    return counted


def game_points(
    own_grade: float | None,
    opponent_grade: float,
    score: float,
    *,
    horizon: float | None = DEFAULT_HORIZON,
    floor_at_zero: bool = True,
) -> GamePoints:
    """Points for one game (docs/rules.md §2).

    1997 leaflet: "For a win, the opponents grade plus 50; For a draw, the opponents grade; For
    a loss, the opponents grade minus 50 … if the difference on grades is more than 40, it is
    assumed to be exactly 40" (:func:`counted_grade`). The horizon is measured from
    ``own_grade``, the grade the player started the season with; a player with no grade
    (``None``) gets no horizon. A difference of exactly ``horizon`` is not "more than" it, so
    the opponent's grade stands and no ``*`` is shown (the YCA card's game 17: 142 v 102).
    Points below zero count as 0 when ``floor_at_zero`` (published ECF practice). The array
    form is :func:`game_points_array`.

    Args:
        own_grade: the player's start-of-season grade, or ``None`` if ungraded.
        opponent_grade: the opponent's grade (or working grade).
        score: 1, 0.5 or 0.
        horizon: the horizon in grade points (default 40); ``None`` for none.
        floor_at_zero: count negative points as 0.
    """
    opponent = _number(opponent_grade, "opponent grade")
    result = _score(score)
    own = None if own_grade is None else _number(own_grade, "own grade")
    as_counted, counted = _counted(own, opponent, _horizon(horizon))
    points = counted + score_margin(result)
    if floor_at_zero and points < 0:
        points = 0.0
    return GamePoints(points, as_counted, counted, counted != as_counted)


def game_points_columns(
    own_grades: FloatArray,
    opponent_grades: FloatArray,
    scores: FloatArray,
    *,
    horizon: float | None,
    floor_at_zero: bool,
    as_counted: bool = False,
) -> tuple[FloatArray, FloatArray]:
    """:func:`game_points` for whole columns already checked (finite opponents, NaN for an
    ungraded player, scores 1, 0.5 or 0): the points and the grades the opponents counted
    as. The horizon applied where the counted grade is not the opponent's grade as counted
    (:func:`grades_as_counted`). With ``as_counted``, both grade columns are already as
    counted (rounded once per player rather than once per game)."""
    if as_counted:
        counted = _counted_columns(own_grades, opponent_grades, horizon)
    else:
        counted = counted_grades(own_grades, opponent_grades, horizon)
    points: FloatArray = score_margins(scores)
    points += counted
    if floor_at_zero:
        np.maximum(points, 0.0, out=points)
    return points, counted


def _column(values: npt.ArrayLike, what: str) -> FloatArray:
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise GradeError(f"{what} must be numbers") from None
    if array.ndim != 1:
        raise GradeError(f"{what} must be a one-dimensional array, not {array.ndim}-dimensional")
    return array


def _first_bad(mask: npt.NDArray[np.bool_]) -> int:
    return int(np.flatnonzero(mask)[0])


def game_points_array(
    own_grades: npt.ArrayLike,
    opponent_grades: npt.ArrayLike,
    scores: npt.ArrayLike,
    *,
    horizon: float | None = DEFAULT_HORIZON,
    floor_at_zero: bool = True,
) -> FloatArray:
    """Points for many games at once: element ``i`` is
    ``game_points(own_grades[i], opponent_grades[i], scores[i], ...).points``.

    Rule (docs/rules.md §2, 1997 leaflet): opponent + 50 for a win, the opponent's grade for
    a draw, − 50 for a loss; an opponent more than ``horizon`` away from the player's own
    start-of-season grade counts as exactly ``horizon`` away; points below zero count as 0 when
    ``floor_at_zero``. An own grade of NaN stands for an ungraded player, who gets no horizon
    (as ``None`` does for :func:`game_points`).

    Args:
        own_grades: each player's start-of-season grade; NaN where ungraded.
        opponent_grades: the opponents' grades (or working grades), finite.
        scores: 1, 0.5 or 0 for each game.
        horizon: the horizon in grade points (default 40); ``None`` for none.
        floor_at_zero: count negative points as 0.

    Raises:
        GradeError: the arrays differ in length, an opponent grade or an own grade is not
            finite (other than NaN for ungraded), or a score is not 1, 0.5 or 0; the message
            names the first such position.
        SettingError: ``horizon`` is negative or not a finite number.

    >>> game_points_array([118.0, 118.0], [165.0, 70.0], [1.0, 0.0]).tolist()
    [208.0, 28.0]
    """
    own = _column(own_grades, "own grades")
    opponent = _column(opponent_grades, "opponent grades")
    score = _column(scores, "scores")
    if not own.shape == opponent.shape == score.shape:
        raise GradeError(
            f"own grades, opponent grades and scores must have the same length, not "
            f"{own.size}, {opponent.size} and {score.size}"
        )
    bad = ~np.isfinite(opponent)
    if bad.any():
        i = _first_bad(bad)
        raise GradeError(
            f"opponent grade {quote(float(opponent[i]))} at position {i} is not a finite number"
        )
    bad = np.isinf(own)
    if bad.any():
        i = _first_bad(bad)
        raise GradeError(f"own grade {quote(float(own[i]))} at position {i} is not a finite number")
    bad = (score != 0.0) & (score != 0.5) & (score != 1.0)
    if bad.any():
        i = _first_bad(bad)
        raise GradeError(
            f"score {quote(float(score[i]))} at position {i} must be 1 (win), 0.5 (draw) or 0 "
            f"(loss)"
        )
    points, _ = game_points_columns(
        own, opponent, score, horizon=_horizon(horizon), floor_at_zero=floor_at_zero
    )
    return points


@dataclass(frozen=True)
class Borrowed:
    """Games and points brought in from one earlier season.

    Attributes:
        seasons_back: 1 for the previous season, 2 for the one before.
        games: games borrowed (a whole number under both rules).
        points: points they bring (pro rata: that season's average × games; not rounded).
        season_games: games that season had.
        season_points: points that season had.
    """

    seasons_back: int
    games: int
    points: float
    season_games: int
    season_points: float


@dataclass(frozen=True)
class SeasonGrade:
    """A season's grade with everything a calculation card shows.

    Attributes:
        grade: the new grade, a whole number rounded half up; ``None`` with no current game.
        exact: total points ÷ total games, unrounded.
        games: games this season.
        points: points this season.
        borrowed: what each earlier season contributed, most recent first.
        total_games: games the grade is based on.
        total_points: points the grade is based on.
        category: the grading category (see :func:`category`).
    """

    grade: int | None
    exact: float | None
    games: int
    points: float
    borrowed: tuple[Borrowed, ...]
    total_games: int
    total_points: float
    category: str | None

    @property
    def borrowed_games(self) -> int:
        """Games brought in from earlier seasons."""
        return sum(b.games for b in self.borrowed)

    @property
    def borrowed_points(self) -> float:
        """Points brought in from earlier seasons."""
        return sum(b.points for b in self.borrowed)


def _count(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise GradeError(f"{what} {quote(value)} is not a whole number of games")
    if value < 0:
        raise GradeError(f"{what} {quote(value)} must not be negative")
    return int(value)


def pro_rata_borrowed(
    games: int, earlier: Sequence[EarlierSeason | None], min_games: int
) -> list[Borrowed]:
    """What each earlier season lends under the pro rata rule, most recent first.

    1997 leaflet: "If there are less than 30 games in the current year, a proportion of the
    results from the previous year are brought in as necessary. If this is still insufficient,
    results from the year before are also used"; its table: ``[2900 + (5/10 × 1400)]/30``. A
    season lends the games still needed, up to all it has, at its own average per game (its
    points × games lent ÷ its games), unrounded. The array form is
    :func:`pro_rata_borrowed_array`. The values are taken as checked (see
    :func:`season_grade`).

    >>> pro_rata_borrowed(25, [EarlierSeason(10, 1400.0)], 30)[0].points
    700.0
    """
    out: list[Borrowed] = []
    total = games
    for back, season in enumerate(earlier, start=1):
        if total >= min_games or season is None or season.games == 0:
            continue
        take = min(min_games - total, season.games)
        share = season.points * take / season.games
        out.append(Borrowed(back, take, share, season.games, season.points))
        total += take
    return out


def pro_rata_borrowed_array(
    games: IntArray, earlier: Sequence[tuple[IntArray, FloatArray]], min_games: int
) -> tuple[IntArray, FloatArray]:
    """:func:`pro_rata_borrowed` for every player at once: the games and the points each
    player borrows in all, from the earlier seasons' (games, points) columns, most recent
    first. Points are added season by season, in the order the scalar form adds them."""
    need = np.maximum(min_games - games, 0)
    taken = np.zeros_like(games)
    points = np.zeros(games.shape, dtype=np.float64)
    for season_games, season_points in earlier:
        take = np.minimum(need - taken, season_games)
        share = np.where(season_games > 0, season_points * take / np.maximum(season_games, 1), 0.0)
        taken = taken + take
        points = points + share
    return taken, points


def season_grade(
    points: float,
    games: int,
    earlier: Sequence[EarlierSeason | None] = (),
    *,
    min_games: int = GAMES_FOR_FULL_GRADE,
    borrowing: Literal["pro_rata", "most_recent"] = "pro_rata",
    earlier_games: Iterable[DatedPoints] = (),
    category_rules: Literal["bcf1997", "ecf2015"] = "bcf1997",
) -> SeasonGrade:
    """The new grade from a season's points and games, borrowing from earlier seasons.

    1997 leaflet: "each players grade can be calculated by dividing the total points credited by
    the number of games. If there are less than 30 games in the current year, a proportion of
    the results from the previous year are brought in as necessary. If this is still
    insufficient, results from the year before are also used." Its table:
    ``[2900 + (5/10 × 1400)]/30 = 120``.

    - ``pro_rata`` (default; leaflet and YCA): whole earlier seasons are added, most recent
      first, at most two; the season that would overshoot ``min_games`` gives only the games
      still needed, at its own average per game. Borrowed points are not rounded; only the
      final grade is, half up.
    - ``most_recent`` (ECF summary: "the most recent games played in the previous period are
      included"): the most recent individual dated games of ``earlier_games`` are borrowed
      until ``min_games`` is reached. ``earlier`` is then only used for the category.

    With no game this season there is no new grade (``grade`` is ``None``; docs/rules.md §4).

    Args:
        points: points credited this season.
        games: games this season.
        earlier: the previous season's totals, then the season before's (``None`` for none).
        min_games: games a grade is based on before borrowing stops (30).
        borrowing: ``"pro_rata"`` or ``"most_recent"``.
        earlier_games: dated earlier games for ``most_recent``.
        category_rules: rule set for the category.
    """
    total_points = _number(points, "points")
    current = _count(games, "games")
    target = _count(min_games, "minimum games")
    if len(earlier) > MAX_EARLIER_SEASONS:
        raise SettingError(
            f"at most {MAX_EARLIER_SEASONS} earlier seasons are borrowed from, not {len(earlier)}"
        )
    seasons = list(earlier)
    for n, season in enumerate(seasons, start=1):
        if season is not None:
            _count(season.games, f"games {n} season(s) back")
            _number(season.points, f"points {n} season(s) back")
    if borrowing not in ("pro_rata", "most_recent"):
        raise SettingError(f"borrowing rule {quote(borrowing)} is not 'pro_rata' or 'most_recent'")
    counts = [s.games if s is not None else 0 for s in seasons] + [0, 0]
    cat = category(current, counts[0], counts[1], rule_set=category_rules)
    if current == 0:
        return SeasonGrade(None, None, 0, total_points, (), 0, total_points, None)
    borrowed: list[Borrowed] = []
    total_games = current
    if borrowing == "pro_rata":
        borrowed = pro_rata_borrowed(current, seasons, target)
        # The borrowed points are added up first, then to this season's, as the array form
        # adds them (pro_rata_borrowed_array), so that both give the very same mean.
        total_games += sum(b.games for b in borrowed)
        total_points += sum(b.points for b in borrowed)
    else:
        dated = sorted(earlier_games, key=_played_on, reverse=True)
        latest = dated[: max(0, target - total_games)]
        if latest:
            share = sum(_number(g.points, "earlier game points") for g in latest)
            borrowed.append(Borrowed(1, len(latest), share, len(dated), share))
            total_games += len(latest)
            total_points += share
    exact = total_points / total_games
    return SeasonGrade(
        round_half_up(exact),
        exact,
        current,
        _number(points, "points"),
        tuple(borrowed),
        total_games,
        total_points,
        cat,
    )


_CATEGORIES_A_TO_D: Final = (
    ("A", 1, 30, 30),
    ("B", 2, 30, 20),
    ("C", 3, 30, 10),
    ("D", 3, 15, 5),
)
"""1997 leaflet: A 30 this year; B 30 this and last year, 20 this year; C 30 in three years, 10
this year; D 15 in three years, 5 this year. Columns: category, games counted over (1 = this
season, 2 = two seasons, 3 = three), total needed, games this season needed. ECF 2015 keeps
them."""

_CATEGORY_RULES: Final[dict[str, tuple[tuple[str, int, int, int], ...]]] = {
    # 1997 leaflet: E 10 in three years, 1 this year; "*" for "less than 10 games over the last
    # 3 years".
    "bcf1997": (*_CATEGORIES_A_TO_D, ("E", 3, 10, 1)),
    # ECF 2015: E from 9 games in three seasons; F from 5 (docs/rules.md §4).
    "ecf2015": (*_CATEGORIES_A_TO_D, ("E", 3, 9, 1), ("F", 3, 5, 1)),
}
"""The category rules of each rule set, best first: the one table :func:`category` and
:func:`category_array` read."""


def _played_on(game: DatedPoints) -> dt.date:
    """The day of an earlier game, for ordering: a datetime counts as its day
    (:func:`xlgrade.cells.day`)."""
    day = cells.day(game.date)
    if day is None:
        raise GradeError(f"earlier game date {quote(game.date)} is not a date")
    return day


def category(
    current: int,
    previous: int = 0,
    earlier: int = 0,
    *,
    rule_set: Literal["bcf1997", "ecf2015"] = "bcf1997",
) -> str | None:
    """The grading category from games this season, last season and the one before.

    1997 leaflet: "A - grade based on 30 or more games in the current year; B - … 30 games in the
    current year and previous year of which at least 20 were in the current year; C - … 30 games
    in the last three years of which at least 10 were in the current year; D - … 15 or more games
    in the last three years of which at least 5 were in the current year; E - … 10 or more games
    in the last 3 years, at least 1 in the current year … a category of * … for players who have
    played less than 10 games over the last 3 years." ``rule_set="ecf2015"`` lowers E to 9 games
    and adds F (5 games). With no game this season there is no new grade and so no category.

    >>> category(34), category(25, 10), category(18, 8, 12), category(8, 6, 7)
    ('A', 'B', 'C', 'D')
    """
    c = _count(current, "games this season")
    p = _count(previous, "games last season")
    e = _count(earlier, "games two seasons back")
    if rule_set not in _CATEGORY_RULES:
        raise SettingError(
            f"category rule set {quote(rule_set)} is not one of {sorted(_CATEGORY_RULES)}"
        )
    if c == 0:
        return None
    totals = {1: c, 2: c + p, 3: c + p + e}
    for name, seasons, total, this_season in _CATEGORY_RULES[rule_set]:
        if totals[seasons] >= total and c >= this_season:
            return name
    return "*"


def category_array(
    current: IntArray,
    previous: IntArray,
    earlier: IntArray,
    *,
    rule_set: Literal["bcf1997", "ecf2015"] = "bcf1997",
) -> npt.NDArray[np.str_]:
    """:func:`category` for every player at once, from the same table of rules: element ``i``
    is ``category(current[i], previous[i], earlier[i])``, with ``""`` where it is ``None`` (no
    game this season)."""
    if rule_set not in _CATEGORY_RULES:
        raise SettingError(
            f"category rule set {quote(rule_set)} is not one of {sorted(_CATEGORY_RULES)}"
        )
    totals = {1: current, 2: current + previous, 3: current + previous + earlier}
    rules = _CATEGORY_RULES[rule_set]
    conditions = [
        (totals[seasons] >= total) & (current >= this) for _, seasons, total, this in rules
    ]
    conditions.append(current >= 1)
    names = [name for name, *_ in rules] + ["*"]
    chosen: npt.NDArray[np.str_] = np.select(conditions, names, default="")
    return chosen


def age_on(date_of_birth: dt.date, on: dt.date) -> int:
    """Age in whole years on a day (a birthday on that day counts)."""
    years = on.year - date_of_birth.year
    if (on.month, on.day) < (date_of_birth.month, date_of_birth.day):
        years -= 1
    return years


JUNIOR_ENHANCEMENTS: Final = ((11, 10), (15, 8), (18, 6))
"""(under this age, points added) from the youngest up (docs/rules.md §5): under 11, 10;
11–14, 8; 15–17, 6; 18 and over, nothing."""

UNKNOWN_AGE_ENHANCEMENT: Final = 4
"""Points added to a junior of unknown age (docs/rules.md §5)."""


def junior_enhancement(age: int | None, *, junior: bool = False) -> int:
    """Points added to a junior's published grade (docs/rules.md §5).

    1997 leaflet: "If he/she is under 11, then 10 points are added to the grade, 8 points are
    added for those aged 11-14, 6 points for those aged 15-17 and 4 points are added for juniors
    of unknown age." 18 and over: nothing. ``age`` is taken on the day the new list takes
    effect (:attr:`xlgrade.model.Settings.age_date`); with no age, ``junior=True`` gives 4.

    >>> [junior_enhancement(a) for a in (10, 11, 14, 15, 17, 18)]
    [10, 8, 8, 6, 6, 0]
    """
    if age is None:
        return UNKNOWN_AGE_ENHANCEMENT if junior else 0
    if isinstance(age, bool) or not isinstance(age, int | float) or age != int(age):
        raise GradeError(f"age {quote(age)} is not a whole number of years")
    if age < 0:
        raise GradeError(f"age {quote(age)} must not be negative")
    for under, points in JUNIOR_ENHANCEMENTS:
        if age < under:
            return points
    return 0


def junior_enhancements(ages: npt.ArrayLike, juniors: npt.ArrayLike) -> IntArray:
    """:func:`junior_enhancement` of every player of a column at once: element ``i`` is
    ``junior_enhancement(ages[i], junior=juniors[i])``, with an age of NaN standing for no
    age (``None``). The ages are taken as checked (whole, not negative)."""
    age = np.asarray(ages, dtype=np.float64)
    flagged = np.asarray(juniors, dtype=np.bool_)
    out: IntArray = np.where(np.isnan(age) & flagged, UNKNOWN_AGE_ENHANCEMENT, 0)
    for under, points in reversed(JUNIOR_ENHANCEMENTS):
        out[age < under] = points
    return out


def expected_score(
    own_grade: float,
    opponent_grade: float,
    *,
    model: Literal["linear", "elo"] = "linear",
) -> float:
    """The expected score of a player against an opponent, from their grades (docs/rules.md §7).

    - ``linear`` (default; 1997 leaflet): "If there is less than 10 points difference in their
      grades, then the likely result is 50% 50%. If the difference is 10 then the expected score
      is 60% - 40%, if the difference is 20 then the expected score is 70% - 30%, etc." Read as
      steps of 10 points (a 15-point gap is still 60 %), capped at 0 and 100 %.
    - ``elo`` (Chesterfield page, table 1): the grade difference × 8 is an Elo difference, whose
      expected score is FIDE table 8.1b, uncapped (46 ↔ 90 %, 30 ↔ 80 %, 19 ↔ 70 %, 9 ↔ 60 %).

    >>> expected_score(150, 130)
    0.7
    """
    difference = _number(own_grade, "own grade") - _number(opponent_grade, "opponent grade")
    if model == "linear":
        steps = math.floor(abs(difference) / 10.0)
        share = min(0.5 + steps / 10.0, 1.0)
        return round(share if difference >= 0 else 1.0 - share, 10)
    if model == "elo":
        from xlgrade.elo import table_expected

        return table_expected(difference * ELO_POINTS_PER_GRADE)
    raise SettingError(f"expected-score model {quote(model)} is not 'linear' or 'elo'")


ELO_POINTS_PER_GRADE: Final = 8.0
"""Chesterfield page: "To convert from Elo grade to BCF grade subtract 600 and divide by 8"."""


def performance_grade(opponent_grades: Sequence[float], scores: Sequence[float]) -> float:
    """The performance grade of a set of games: the mean of opponent ± 50, with no horizon.

    1997 leaflet: an ungraded player's grade "can be estimated from his results against players
    of known grade … calculate their performance grades". No horizon applies (docs/rules.md
    §6: a horizon against one's own performance would diverge for a 100 % score), and points
    are not floored. The basis of working grades (:mod:`xlgrade.estimate`).
    """
    if len(opponent_grades) != len(scores):
        raise GradeError(
            f"{len(opponent_grades)} opponent grades but {len(scores)} results: "
            "give one result per opponent"
        )
    if not opponent_grades:
        raise GradeError("a performance grade needs at least one game")
    total = 0.0
    for grade, score in zip(opponent_grades, scores, strict=True):
        total += _number(grade, "opponent grade") + score_margin(_score(score))
    return total / len(scores)
