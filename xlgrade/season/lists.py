"""The graded lists: games' points, season grades with borrowing, categories, juniors, Elo."""

from __future__ import annotations

import datetime as dt
import itertools
import operator
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from xlgrade.convert import (
    ecf_to_elo,
)
from xlgrade.ecf import (
    age_on,
    category_array,
    game_points_columns,
    grades_as_counted,
    junior_enhancements,
    pro_rata_borrowed_array,
    round_half_up_array,
    season_grade,
)
from xlgrade.estimate import WorkingGrades, working_grades
from xlgrade.model import Player
from xlgrade.season.checks import RAPID, STANDARD, Sides
from xlgrade.season.duplicates import stable_order
from xlgrade.season.players import (
    PlayerColumns,
    player_column,
)
from xlgrade.season.shared import BoolArray, FloatArray, IndexArray, IntArray
from xlgrade.settings import Settings

__all__ = ["GradedList", "PlayerArrays", "grade_list"]


@dataclass(frozen=True)
class GradedList:
    """One list (standard or rapidplay): per-game and per-player arrays.

    ``lost`` are rows that passed the checks but cannot be graded: games between players of
    an unanchored group with no default grade.

    Per game (one entry per graded row of this list): ``rows`` (index into the input games),
    ``white``/``black`` player indices, ``white_score``, and for each side the points and
    whether the horizon applied; the opponent's grade as used is
    ``white_opponent_grade``/``black_opponent_grade``, read from ``grade_of``.

    Per player: ``grade_of`` (the grade he counts as to his opponents: his start grade,
    estimate or working grade, as counted), ``games``, ``points``, ``grade`` (NaN without a
    game), ``exact``, ``total_games``, ``total_points``, ``borrowed_games``,
    ``borrowed_points``, ``category`` (``""`` for none), ``enhancement``, ``working`` (the
    working grades).
    """

    kind: str
    lost: IndexArray
    rows: IndexArray
    white: IndexArray
    black: IndexArray
    white_score: FloatArray
    grade_of: FloatArray
    white_points: FloatArray
    black_points: FloatArray
    white_horizon: BoolArray
    black_horizon: BoolArray
    games: IntArray
    points: FloatArray
    grade: FloatArray
    exact: FloatArray
    total_games: IntArray
    total_points: FloatArray
    borrowed_games: IntArray
    borrowed_points: FloatArray
    category: npt.NDArray[np.str_]
    enhancement: IntArray
    working: WorkingGrades
    elo: FloatArray | None
    order: IndexArray
    starts: IndexArray

    @property
    def white_opponent_grade(self) -> FloatArray:
        """Per game, the grade the home (white) player's opponent counted as."""
        grades: FloatArray = self.grade_of[self.black]
        return grades

    @property
    def black_opponent_grade(self) -> FloatArray:
        """Per game, the grade the away (black) player's opponent counted as."""
        grades: FloatArray = self.grade_of[self.white]
        return grades


def _known_grades(
    columns: PlayerColumns, settings: Settings
) -> tuple[FloatArray, BoolArray, FloatArray]:
    """Per player: grade to use if known (start, estimate, lapsed less allowance; NaN if none),
    whether it is the published start grade, and the start grade (NaN if ungraded)."""
    start = columns.grade
    ungraded = np.isnan(start)
    known = start.copy()
    if ungraded.any():
        estimate = columns.estimated_grade
        lapsed = columns.lapsed_grade - settings.inactivity_allowance
        known = np.where(ungraded, np.where(np.isnan(estimate), lapsed, estimate), start)
    return known, ~ungraded, start


@dataclass(frozen=True)
class PlayerArrays:
    """Per-player values both lists need, computed once."""

    known: FloatArray
    published: BoolArray
    start: FloatArray
    previous_games: IntArray
    previous_points: FloatArray
    earlier_games: IntArray
    earlier_points: FloatArray
    enhancement: IntArray

    @classmethod
    def of(
        cls, players: Sequence[Player], columns: PlayerColumns, settings: Settings
    ) -> PlayerArrays:
        """The arrays of ``players``, from their checked columns and the settings."""
        known, published, start = _known_grades(columns, settings)
        return cls(
            known,
            published,
            start,
            columns.previous_games,
            columns.previous_points,
            columns.earlier_games,
            columns.earlier_points,
            _enhancements(players, settings),
        )


def grade_list(
    kind: str,
    players: Sequence[Player],
    arrays: PlayerArrays,
    settings: Settings,
    rows: IndexArray,
    taken: Sides,
) -> GradedList:
    """The list of one kind (standard or rapid) from its graded ``rows`` and their columns
    (``taken``: :meth:`Sides.taken` of them; see the steps of :mod:`xlgrade.season`: working
    grades, games' points, season grades, categories)."""
    n = len(players)
    white, black, score, month = taken.white, taken.black, taken.score, taken.month
    del taken
    known, published, start = arrays.known, arrays.published, arrays.start
    working = working_grades(
        known,
        white,
        black,
        score,
        published=published,
        unanchored_grade=settings.unanchored_grade,
        tolerance=settings.tolerance,
    )
    grade_of = grades_as_counted(working.grades)
    # Rows between players of an unanchored group with no default cannot be graded.
    unanchored = np.isnan(grade_of[white]) | np.isnan(grade_of[black])
    lost = rows[unanchored]
    if unanchored.any():
        keep = ~unanchored
        rows, white, black, score = rows[keep], white[keep], black[keep], score[keep]
        month = month[keep]

    # Both grades of every game as the rules count them, rounded once per player.
    own_of = grades_as_counted(start)
    w_opp, b_opp = grade_of[black], grade_of[white]
    w_points, w_counted = game_points_columns(
        own_of[white], w_opp, score, horizon=settings.horizon,
        floor_at_zero=settings.floor_at_zero, as_counted=True,
    )  # fmt: skip
    b_points, b_counted = game_points_columns(
        own_of[black], b_opp, 1.0 - score, horizon=settings.horizon,
        floor_at_zero=settings.floor_at_zero, as_counted=True,
    )  # fmt: skip
    # Where the horizon applied; the per-game grade columns are then let go (the grades are
    # kept once a player, in grade_of).
    w_horizon, b_horizon = w_counted != w_opp, b_counted != b_opp
    del w_opp, b_opp, w_counted, b_counted

    games = np.bincount(white, minlength=n) + np.bincount(black, minlength=n)
    points = (
        np.bincount(white, w_points, minlength=n) + np.bincount(black, b_points, minlength=n)
    ).astype(np.float64)
    prev_g, prev_p = arrays.previous_games, arrays.previous_points
    earl_g, earl_p = arrays.earlier_games, arrays.earlier_points
    if kind == RAPID:
        # The Players table records standard-play history only, and rapidplay is "graded on
        # a separate list" (1997 leaflet): a rapid grade borrows nothing and its category
        # counts this season's rapid games alone.
        prev_g, earl_g = np.zeros_like(prev_g), np.zeros_like(earl_g)
        prev_p, earl_p = np.zeros_like(prev_p), np.zeros_like(earl_p)
    target = settings.min_games
    borrowed_games, borrowed_points = pro_rata_borrowed_array(
        games, [(prev_g, prev_p), (earl_g, earl_p)], target
    )
    if settings.borrowing == "most_recent" and kind == STANDARD:
        for i in np.flatnonzero((games > 0) & (games < target)).tolist():
            p = players[i]
            if not p.earlier_games:
                continue  # no dated games: his seasons' totals, pro rata (borrowing_possible)
            result = season_grade(
                float(points[i]),
                int(games[i]),
                [p.previous, p.earlier],
                min_games=target,
                borrowing="most_recent",
                earlier_games=p.earlier_games,
            )
            borrowed_games[i] = result.borrowed_games
            borrowed_points[i] = result.borrowed_points
    total_games = games + borrowed_games
    total_points = points + borrowed_points
    played = games > 0
    exact = np.where(played, total_points / np.maximum(total_games, 1), np.nan)
    grade = round_half_up_array(exact)
    category = category_array(games, prev_g, earl_g, rule_set=settings.category_rules)
    # The cards' order: each player's games together.
    order = stable_order(np.concatenate([white, black]), n)
    starts = np.concatenate([[0], np.cumsum(games)])
    return GradedList(
        kind=kind,
        lost=lost,
        rows=rows,
        white=white,
        black=black,
        white_score=score,
        grade_of=grade_of,
        white_points=w_points,
        black_points=b_points,
        white_horizon=w_horizon,
        black_horizon=b_horizon,
        games=games,
        points=points,
        grade=grade,
        exact=exact,
        total_games=total_games,
        total_points=total_points,
        borrowed_games=borrowed_games,
        borrowed_points=borrowed_points,
        category=category,
        enhancement=arrays.enhancement,
        working=working,
        elo=_elo(players, arrays, settings, white, black, score, grade_of, month, kind)
        if settings.elo_k_policy
        else None,
        order=order,
        starts=starts,
    )


def _enhancements(players: Sequence[Player], settings: Settings) -> IntArray:
    """Junior enhancements (§5): each player's age on the list's day, from his birth date, and
    the junior flag, through the one rule (:func:`xlgrade.ecf.junior_enhancements`)."""
    on = settings.age_date
    births = player_column(players, "date_of_birth")
    n = len(players)
    ages = np.full(n, np.nan)
    dated = np.fromiter(map(operator.is_not, births, itertools.repeat(None)), np.bool_, n)
    for i in np.flatnonzero(dated).tolist():
        born = births[i]
        if isinstance(born, dt.date):
            ages[i] = age_on(born, on)
    flags = np.fromiter(map(bool, player_column(players, "junior")), np.bool_, n)
    return junior_enhancements(ages, flags)


def _under_18_on(players: Sequence[Player], day: dt.date) -> BoolArray:
    """Per player: a date of birth that makes him under 18 on ``day``."""
    return np.array(
        [p.date_of_birth is not None and age_on(p.date_of_birth, day) < 18 for p in players],
        dtype=np.bool_,
    )


def _elo(
    players: Sequence[Player],
    arrays: PlayerArrays,
    settings: Settings,
    white: IndexArray,
    black: IndexArray,
    score: FloatArray,
    grade_of: FloatArray,
    month: IntArray,
    kind: str,
) -> FloatArray:
    """Elo ratings for the same games (docs/rules.md §9), starting from each player's grade
    (or working grade) converted by the season's conversion formula; one rating period for the
    season, or one per calendar month; the 400-point rule of the list's kind."""
    from xlgrade.elo import is_rated_game_array, k_factor, rate_period_elo

    policy = settings.elo_k_policy
    assert policy is not None
    rule = settings.elo_rapid_rule if kind == RAPID else settings.elo_rule
    ratings = np.array(
        [
            float(ecf_to_elo(float(g), settings.conversion)) if not np.isnan(g) else np.nan
            for g in grade_of
        ]
    )
    rated = ~np.isnan(ratings)
    history = arrays.previous_games + arrays.earlier_games
    born = np.array(
        [p.date_of_birth.year if p.date_of_birth is not None else 0 for p in players],
        dtype=np.int64,
    )
    flagged = np.array([p.junior and p.date_of_birth is None for p in players], dtype=np.bool_)
    under_18 = _under_18_on(players, settings.age_date)
    both = rated[white] & rated[black]
    if settings.elo_period == "month":
        months = np.unique(month[both]).tolist()
        periods = [
            (both & (month == m), (m - 1) // 12, dt.date((m - 1) // 12, (m - 1) % 12 + 1, 1))
            for m in months
        ]
    else:
        periods = [(both, settings.season_end.year, settings.season_start)]
    current = np.where(rated, ratings, 0.0)
    played = np.zeros(len(players), np.int64)
    for mask, year, first_day in periods:
        # Chesterfield: "Junior players have 45" (a junior as the grading list counts one, under
        # 18); FIDE 2014: "until their 18th birthday" (under 18 when the period starts); FIDE
        # 2024: a junior "until the end of the year of their 18th birthday".
        if policy == "chesterfield":
            junior = flagged | under_18
        elif policy == "fide-2014":
            junior = flagged | _under_18_on(players, first_day)
        else:
            junior = flagged | ((born > 0) & (year - born <= 18))
        w, b, s = white[mask], black[mask], score[mask]
        # K × n counts the games the rule rates (FIDE rapid and blitz: not 600 apart above 2600).
        rated_games = is_rated_game_array(current[w], current[b], rule)
        in_period = np.bincount(w[rated_games], minlength=len(players)) + np.bincount(
            b[rated_games], minlength=len(players)
        )
        ks = np.array(
            [
                k_factor(
                    policy,  # type: ignore[arg-type]
                    games=int(history[i] + played[i]),
                    rating=float(current[i]),
                    junior=bool(junior[i]),
                    games_in_period=int(in_period[i]),
                )
                for i in range(len(players))
            ],
            dtype=np.float64,
        )
        period = rate_period_elo(current, w, b, s, ks, rule=rule)
        current = period.rating
        played += in_period
    return np.where(rated, current, np.nan)
