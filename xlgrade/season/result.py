"""A recalculated season and its output tables: lists, cards, exceptions, the next season."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from xlgrade import cells
from xlgrade._rounding import quote, round_half_away
from xlgrade.card import Card, shown_number
from xlgrade.convert import (
    ecf_to_elo,
)
from xlgrade.ecf_rating import NO_MONTH, month_start
from xlgrade.errors import GradingError
from xlgrade.model import DatedPoints, EarlierSeason, Game, Player, Problem
from xlgrade.season.checks import (
    RAPID,
    ROW_NOTES,
    SHEET_PROBLEMS,
    STANDARD,
    Resolved,
)
from xlgrade.season.grading_card import season_card
from xlgrade.season.lists import GradedList
from xlgrade.season.rating import RatedList
from xlgrade.season.rating_card import RatingCard, month_text, path_text, rating_card
from xlgrade.season.references import PlayerIndex, name_key
from xlgrade.season.shared import Fail
from xlgrade.season.tables import EXCEPTION_HEADERS, LIST_HEADERS, RATING_LIST_HEADERS, Table
from xlgrade.settings import RATING_2020, Settings

__all__ = ["Accounting", "SeasonResult"]


@dataclass(frozen=True)
class Accounting:
    """Every result row, accounted for.

    ``rows == standard_graded + rapid_graded + excepted`` always holds; ``by_reason`` breaks
    down the excepted rows by the kind of problem. ``rated``: the season was rated (ECF rating,
    2020 rules), so the rows counted were rated rather than graded.
    """

    rows: int
    standard_graded: int
    rapid_graded: int
    excepted: int
    by_reason: dict[str, int] = field(default_factory=dict)
    rated: bool = False

    @property
    def balanced(self) -> bool:
        """Whether every row is either graded or excepted, once."""
        return self.rows == self.standard_graded + self.rapid_graded + self.excepted

    def summary(self) -> str:
        """One line for the terminal."""
        reasons = ", ".join(f"{n} {what}" for what, n in sorted(self.by_reason.items()))
        done = "rated" if self.rated else "graded"
        return (
            f"{self.rows} result rows: {self.standard_graded} {done}, "
            f"{self.rapid_graded} rapidplay, {self.excepted} not {done}"
            + (f" ({reasons})" if reasons else "")
        )


@dataclass(frozen=True)
class SeasonResult:
    """A recalculated season: both lists, the exceptions and the accounting.

    Tables for the workbook come from :meth:`tables`; a player's card from :meth:`card`.
    ``rated`` holds the lists rated month by month (:mod:`xlgrade.season.rating`) when the
    setting ``System`` is the ECF rating (2020 rules), by kind; empty when graded.
    ``resolved`` keeps each row's players and result as the checks read them, for the
    divisions' rules.
    """

    players: tuple[Player, ...]
    games: tuple[Game, ...]
    settings: Settings
    standard: GradedList
    rapid: GradedList
    problems: tuple[Problem, ...]
    accounting: Accounting
    codes: tuple[str, ...]
    resolved: Resolved
    rated: Mapping[str, RatedList] = field(default_factory=dict)

    @functools.cached_property
    def _index(self) -> PlayerIndex:
        """The players indexed by code and name, once for the result."""
        return PlayerIndex(self.players)

    def player_index(self, reference: str) -> int:
        """The index of the player with this code or name."""
        found = self._index.resolve(reference)
        if isinstance(found, Fail):
            raise GradingError(found.why)
        return found

    def card(self, player: int, kind: str = STANDARD) -> Card:
        """The calculation card of player ``player`` on the standard (or rapid) list."""
        graded = self.standard if kind == STANDARD else self.rapid
        return season_card(graded, self.players, self.games, self.settings, player, kind)

    def rating_card(self, player: int, kind: str = STANDARD) -> RatingCard:
        """The rating card of player ``player`` on the standard (or rapid) list, month by
        month (a rated season only).

        Raises:
            GradingError: the season was graded, not rated.
        """
        if not self.rated:
            raise GradingError(
                f"the season was graded ({self.settings.system}): a rating card needs the "
                f"setting System to be {quote(RATING_2020)}"
            )
        return rating_card(self.rated[kind], self.players, self.games, self.settings, player, kind)

    def list_table(self, kind: str = STANDARD) -> Table:
        """The Grading List (or Rapid List): players with a category the list publishes; when
        rated, every player with a rating after the season, highest first."""
        if self.rated:
            return self._rating_list_table(kind)
        graded = self.standard if kind == STANDARD else self.rapid
        publish = {"A", "B", "C", "D", "E", "F"} | ({"*"} if self.settings.list_star else set())
        rows: list[tuple[object, ...]] = []
        order = sorted(
            (i for i in range(len(self.players)) if str(graded.category[i]) in publish),
            key=lambda i: (
                -(graded.grade[i] + graded.enhancement[i]),
                name_key(self.players[i].name),
            ),
        )
        for i in order:
            p = self.players[i]
            published = int(graded.grade[i]) + int(graded.enhancement[i])
            elo_rating = graded.elo[i] if graded.elo is not None else None
            rows.append(
                (
                    self.codes[i] or None,
                    p.name,
                    p.club or None,
                    int(graded.games[i]),
                    shown_number(float(graded.points[i])),
                    published,
                    str(graded.category[i]),
                    int(graded.enhancement[i]) or None,
                    round_half_away(float(ecf_to_elo(published, self.settings.conversion))),
                    shown_number(p.grade) if p.grade is not None else None,
                    int(graded.borrowed_games[i]) or None,
                    None if elo_rating is None or np.isnan(elo_rating) else int(elo_rating),
                )
            )
        return Table(LIST_HEADERS, rows)

    def _rating_list_table(self, kind: str) -> Table:
        """The Grading List (or Rapid List) of a rated season: every player with a rating after
        the season (a category on the list), highest first (:data:`RATING_LIST_HEADERS`)."""
        rated = self.rated[kind]
        rating, category, games = rated.rating, rated.category, rated.games
        start = rated.start.rating
        last = rated.last_month
        listed = [i for i in range(len(self.players)) if str(category[i])]
        listed.sort(key=lambda i: (-float(rating[i]), name_key(self.players[i].name)))
        rows: list[tuple[object, ...]] = []
        for i in listed:
            p = self.players[i]
            before = float(start[i])
            rows.append(
                (
                    self.codes[i] or None,
                    p.name,
                    p.club or None,
                    int(games[i]),
                    None if np.isnan(before) else int(before),
                    str(rated.start_category[i]) or None,
                    int(rating[i]),
                    str(category[i]),
                    None if np.isnan(before) else int(rating[i]) - int(before),
                    path_text(rated.path(i)),
                    month_text(int(last[i])) or None,
                )
            )
        return Table(RATING_LIST_HEADERS, rows)

    def exceptions_table(self) -> Table:
        """The Exceptions sheet: one row per problem, with the accounting's summary last."""
        rows: list[tuple[object, ...]] = [(p.sheet, p.row, p.what, p.why) for p in self.problems]
        rows.append((None, None, "summary", self.accounting.summary()))
        return Table(EXCEPTION_HEADERS, rows)

    def row_points(self) -> dict[int, tuple[float, float] | str]:
        """Each Results row's points as the season gives them, by sheet row: the home and
        away player's points of a graded row (the standard or the rapid list's, as on their
        cards), or for a row not graded the reason its Exceptions line gives (its *What*).
        A row with neither (a blank one) is left out.

        Rated (ECF rating, 2020 rules), the points are still the grading points of the
        lists graded beside the rating; a row rated but not graded (an unanchored group's,
        which needs no working grade to be rated) is ``"no working grade"``.
        """
        out: dict[int, tuple[float, float] | str] = {}
        for graded in (self.standard, self.rapid):
            for row, white, black in zip(
                graded.rows.tolist(),
                graded.white_points.tolist(),
                graded.black_points.tolist(),
                strict=True,
            ):
                number = self.games[row].row
                if number is not None:
                    out[number] = (white, black)
            for row in graded.lost.tolist():
                number = self.games[row].row
                if number is not None:
                    out.setdefault(number, "no working grade")
        for problem in self.problems:
            if (
                problem.sheet == "Results"
                and problem.row is not None
                and problem.what not in SHEET_PROBLEMS | ROW_NOTES
            ):
                out.setdefault(problem.row, problem.what)
        return out

    def next_season(self) -> tuple[list[Player], Settings]:
        """The Players table and settings to start the next season from this one.

        Decisions (the sources describe a season, not the hand-over):

        - A player on this season's published list starts next season with his published
          grade (junior enhancement included, as the list prints it).
        - A player graded this season but not published (category ``*`` when the list leaves
          it out) keeps his old grade; if he had none, his season grade becomes his
          *estimated grade*, a working grade to start from.
        - Every player's history moves back a season: this season's games and points become
          *previous*, the old *previous* becomes *earlier* (a season with no games counts as
          a season). Under the "most recent" borrowing rule, this season's dated games join
          the dated earlier games, and those older than the new *earlier* season are dropped;
          under pro rata no dated games are kept.
        - A grade lapses after three seasons without a standard-play game (this one and the two
          before it): it moves to *lapsed grade*, so that next season it is used as a working
          grade less the inactivity allowance (1997 leaflet: "If a player has had a grade in
          the past, then this can be used with an allowance for the length of inactivity").
        - Rated (``System`` the ECF rating), each player's rating and category after the
          season, on each list, become his ``ECF rating`` and ``ECF category`` (``ECF rapid
          rating``, ``ECF rapid category``) at the start of the next, and the month of his last
          rated game (on either list) his ``Last rated month``; a player never rated keeps
          none. A partial (P) rating carries its earlier games on: the games, score and
          opponents' average the P method counted (``ECF P games``, ``ECF P score``,
          ``ECF P opposition`` and the rapid list's), so that next season's P method goes on
          over them (docs/rules.md §12); a full rating carries none. Graded, the ratings stay
          as the Players table had them.
        - The season's dates move on a year. A season of a whole year is followed by the next
          whole year from the day after it ends, so that no day (29 February) falls between
          two seasons; a name like "2025-26" becomes "2026-27".
        """
        graded = self.standard
        publish = {"A", "B", "C", "D", "E", "F"} | ({"*"} if self.settings.list_star else set())
        start, end = _next_dates(self.settings.season_start, self.settings.season_end)
        dated = self._dated_games() if self.settings.borrowing == "most_recent" else {}
        kept_from = _years_on(self.settings.season_start, -1)  # the new *earlier* season
        players: list[Player] = []
        for i, p in enumerate(self.players):
            games = int(graded.games[i])
            grade, estimate, lapsed = p.grade, p.estimated_grade, p.lapsed_grade
            if games and str(graded.category[i]) in publish:
                grade = float(int(graded.grade[i]) + int(graded.enhancement[i]))
                estimate = None
            elif games and p.grade is None:
                estimate = float(graded.grade[i])
            # Blank history is unknown, not idle: only recorded empty seasons count.
            idle = games == 0 and all(
                s is not None and s.games == 0 for s in (p.previous, p.earlier)
            )
            if idle and grade is not None:
                grade, lapsed = None, grade
            earlier_games: tuple[DatedPoints, ...] = ()
            if dated:
                old_games = [
                    g
                    for g in p.earlier_games
                    if (played := cells.day(g.date)) is not None and played >= kept_from
                ]
                earlier_games = (*dated.get(i, ()), *old_games)
            players.append(
                dataclasses.replace(
                    p,
                    grade=grade,
                    estimated_grade=estimate,
                    lapsed_grade=lapsed if grade is None else None,
                    previous=EarlierSeason(games, float(graded.points[i])),
                    earlier=p.previous,
                    earlier_games=earlier_games,
                )
            )
        if self.rated:
            players = self._rated_players(players)
        old = self.settings
        name = old.season_name
        years = re.fullmatch(r"(\d{4})([-/–])(\d{2}|\d{4})", name.strip())
        if years:
            first = int(years[1]) + 1
            second = str(first + 1)[-len(years[3]) :]
            name = f"{first}{years[2]}{second}"
        settings = dataclasses.replace(
            old,
            season_name=name,
            season_start=start,
            season_end=end,
            junior_age_date=_a_year_on(old.junior_age_date) if old.junior_age_date else None,
        )
        return players, settings

    def _rated_players(self, players: list[Player]) -> list[Player]:
        """``players`` with the ratings, categories and last rated month after the season."""
        standard, rapid = self.rated[STANDARD], self.rated[RAPID]
        last = np.maximum(standard.last_month, rapid.last_month).tolist()
        records = [_p_records(rated) for rated in (standard, rapid)]
        out = []
        for i, p in enumerate(players):
            rating, rapid_rating = float(standard.rating[i]), float(rapid.rating[i])
            (games, score, opposition), (r_games, r_score, r_opposition) = (
                (g[i], sc[i], o[i]) for g, sc, o in records
            )
            out.append(
                dataclasses.replace(
                    p,
                    rating=None if np.isnan(rating) else rating,
                    rating_category=str(standard.category[i]) or None,
                    p_games=games,
                    p_score=score,
                    p_opposition=opposition,
                    rapid_rating=None if np.isnan(rapid_rating) else rapid_rating,
                    rapid_category=str(rapid.category[i]) or None,
                    rapid_p_games=r_games,
                    rapid_p_score=r_score,
                    rapid_p_opposition=r_opposition,
                    results_12_months=int(standard.end.recent_total[i]) or None,
                    rapid_results_12_months=int(rapid.end.recent_total[i]) or None,
                    last_rated_month=None if last[i] == NO_MONTH else month_start(last[i]),
                )
            )
        return out

    def _dated_games(self) -> dict[int, list[DatedPoints]]:
        """Each player's dated standard-play games of this season with their points."""
        graded = self.standard
        out: dict[int, list[DatedPoints]] = defaultdict(list)
        sides = (
            (graded.white, graded.white_points),
            (graded.black, graded.black_points),
        )
        for players, points in sides:
            for row, player, value in zip(
                graded.rows.tolist(), players.tolist(), points.tolist(), strict=True
            ):
                day = cells.day(self.games[row].date)
                if day is not None:
                    out[player].append(DatedPoints(day, value))
        return out


def _p_records(
    rated: RatedList,
) -> tuple[list[int | None], list[float | None], list[float | None]]:
    """Each player's P record after the season on one list (:meth:`SeasonResult.next_season`):
    the games, score and opponents' average of a partial rating on the next list (category P),
    ``None`` for the others."""
    end = rated.end
    carried = (rated.category == "P") & (end.pool_games > 0)
    games = end.pool_games.tolist()
    score = end.pool_score.tolist()
    total = end.pool_opponents.tolist()
    out_g: list[int | None] = [None] * len(games)
    out_s: list[float | None] = [None] * len(games)
    out_o: list[float | None] = [None] * len(games)
    for i in np.flatnonzero(carried).tolist():
        out_g[i], out_s[i], out_o[i] = int(games[i]), float(score[i]), total[i] / games[i]
    return out_g, out_s, out_o


def _next_dates(start: dt.date, end: dt.date) -> tuple[dt.date, dt.date]:
    """The next season's first and last days: a whole year from the day after ``end`` when
    this season is a whole year, else both dates a year on."""
    one_day = dt.timedelta(days=1)
    if _a_year_on(start) - one_day == end:
        following = end + one_day
        return following, _a_year_on(following) - one_day
    return _a_year_on(start), _a_year_on(end)


def _a_year_on(day: dt.date) -> dt.date:
    """The same day a year later (28 February for 29 February)."""
    return _years_on(day, 1)


def _years_on(day: dt.date, years: int) -> dt.date:
    """The same day ``years`` later (or earlier); 28 February for 29 February."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)
