"""The season in the ECF rating (2020 rules): each list rated month by month.

With the setting ``System`` at :data:`xlgrade.settings.RATING_2020` the rows that pass the
season's checks (:mod:`xlgrade.season.checks`; an undated row is excepted there, "no date")
are rated with :mod:`xlgrade.ecf_rating`, one calendar month at a time over the months of the
season, each month from the state the month before left: only the games dated in a month
count in it, and each month has its three passes (GRADING-RULES.md §12). Standard play and
rapidplay are rated on separate lists ("Standard and rapid lists are separate").

Each player starts from the Players table: ``ECF rating`` and ``ECF category`` (the rapid
list: ``ECF rapid rating`` and ``ECF rapid category``) and ``Last rated month``. Decisions
where the table says less than the ECF's own records (listed in :data:`SEASON_DECISIONS`):

- a rating without a category is a full rating; a category P is a partial rating on no
  counted games (the table does not say how many: his P rating this season is on this
  season's games and the fictional draw, and his partial rating is what his opponents use for
  him in the first month's first pass);
- a category A counts as 30 rated results in the month before the season (so he stays A
  until this season's own results decide);
- ``Last rated month`` blank: a player with a rating was rated in the month before the season
  (he is on the current list); one column serves both lists;
- a junior (k 40, and the nominal opponent age × 100) is a player under 18 on the first day
  of the month rated, by his date of birth; a player marked junior with no date of birth gets
  k 40 and the adult's nominal opponent (his age is not known).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from xlgrade import ecf_rating as er
from xlgrade._rounding import quote
from xlgrade.model import Player, Problem, Settings
from xlgrade.season._types import BoolArray, FloatArray, IntArray
from xlgrade.season.checks import RAPID, Sides
from xlgrade.season.players import _column

__all__ = ["SEASON_DECISIONS", "RatedList", "checked_last_rated", "season_months"]

SEASON_DECISIONS: Final[dict[str, str]] = {
    "category-missing": "A rating on the Players table with no category is a full rating.",
    "category-p": "A category P (partial) rating on the Players table counts no earlier "
    "games: the P rating is on this season's games and the fictional draw; opponents use the "
    "partial rating in the first month's pass 1.",
    "category-a": "A category A on the Players table counts as 30 rated results in the month "
    "before the season.",
    "last-rated-month": "Last rated month blank: a rated player was rated in the month before "
    "the season; the one column serves the standard and the rapid list; a month in the season "
    "or after it is reported on Players and read as blank, as is a category with no rating.",
    "junior-no-birth-date": "A player marked junior with no date of birth gets k 40 and the "
    "adult's nominal opponent.",
}
"""What the season in rating mode decides where the Players table is silent (README, "ECF
ratings")."""


def season_months(settings: Settings) -> tuple[int, ...]:
    """The calendar months of the season (:func:`xlgrade.ecf_rating.month_index`), first to
    last: those holding its first and last days and every one between."""
    first = er.month_index(settings.season_start)
    last = er.month_index(settings.season_end)
    return tuple(range(first, last + 1))


def checked_last_rated(
    players: Sequence[Player], settings: Settings
) -> tuple[Sequence[Player], list[Problem]]:
    """Players whose ``Last rated month`` is not before the season's first month: reported on
    Players and left out (read as blank, SEASON_DECISIONS["last-rated-month"]). The season rates
    its own months, so a player's last rated game before it cannot be in one of them or later
    (GRADING-RULES.md §12: a month's rating takes only that month's games). So too a category
    (``ECF category``, ``ECF rapid category``) with no rating beside it: a category is the
    rating's (§12, "Categories"), and alone says nothing the season can rate from."""
    first = season_months(settings)[0]
    problems: list[Problem] = []
    fixed = list(players)
    for i, player in enumerate(players):
        last = player.last_rated_month
        if last is None or er.month_index(last) < first:
            continue
        fixed[i] = dataclasses.replace(player, last_rated_month=None)
        problems.append(
            Problem(
                "Players",
                player.row,
                "bad last rated month",
                f"last rated month {last.isoformat()[:7]} of {quote(player.name)} is not before "
                f"the season's first month {settings.season_start.isoformat()[:7]}: left out",
            )
        )
    for i, player in enumerate(fixed):
        for rating, category, words in (
            ("rating", "rating_category", "ECF"),
            ("rapid_rating", "rapid_category", "ECF rapid"),
        ):
            shown = getattr(player, category)
            if shown is None or getattr(player, rating) is not None:
                continue
            player = (
                dataclasses.replace(player, rating_category=None)
                if category == "rating_category"
                else dataclasses.replace(player, rapid_category=None)
            )
            fixed[i] = player
            problems.append(
                Problem(
                    "Players",
                    player.row,
                    "category without a rating",
                    f"{words} category {quote(shown)} of {quote(player.name)} has no {words} "
                    "rating beside it: left out",
                )
            )
    return (fixed, problems) if problems else (players, problems)


@dataclass(frozen=True)
class RatedList:
    """One list (standard or rapidplay) rated month by month over the season.

    Per rated game (in the order rated: month by month, each month in row order): ``rows``
    (index into the input games), ``white``, ``black``, ``score`` (white's), ``month``.
    ``months`` are the season's months; ``results[i]`` is month ``months[i]`` rated
    (:class:`xlgrade.ecf_rating.MonthResult`), its games the positions
    ``spans[i]:spans[i + 1]``. ``start`` is every player's state at the start of the season,
    ``start_category`` his category on the list then.
    """

    kind: str
    rows: IntArray
    white: IntArray
    black: IntArray
    score: FloatArray
    month: IntArray
    months: tuple[int, ...]
    spans: IntArray
    start: er.RatingState
    start_category: npt.NDArray[np.str_]
    results: tuple[er.MonthResult, ...]

    @property
    def end(self) -> er.RatingState:
        """Every player's state after the season's last month."""
        return self.results[-1].state if self.results else self.start

    @property
    def rating(self) -> FloatArray:
        """Each player's rating after the season (NaN for none)."""
        return self.end.rating

    @property
    def category(self) -> npt.NDArray[np.str_]:
        """Each player's category on the list after the season (``""``: unrated)."""
        return self.end.categories()

    @property
    def games(self) -> IntArray:
        """Each player's rated games this season."""
        n = self.start.players
        counts: IntArray = (
            np.bincount(self.white, minlength=n) + np.bincount(self.black, minlength=n)
        ).astype(np.int64)
        return counts

    @property
    def last_month(self) -> IntArray:
        """The month of each player's last rated game (:data:`xlgrade.ecf_rating.NO_MONTH`)."""
        return self.end.last_month

    def state_before(self, month: int) -> er.RatingState:
        """The state at the start of the ``month``-th month of the season (0 the first)."""
        return self.start if month == 0 else self.results[month - 1].state

    def path(self, player: int) -> list[int]:
        """The player's monthly path: his rating at the start (if he had one), then his rating
        after each month he played."""
        start = float(self.start.rating[player])
        out = [] if np.isnan(start) else [int(start)]
        for result in self.results:
            if result.games[player]:
                out.append(int(result.rating[player]))
        return out


def _month_numbers(players: Sequence[Player]) -> IntArray:
    lasts = _column(players, "last_rated_month")
    return np.array(
        [er.month_index(d) if isinstance(d, dt.date) else er.NO_MONTH for d in lasts],
        dtype=np.int64,
    )


def _births(players: Sequence[Player]) -> tuple[IntArray, IntArray, BoolArray, BoolArray]:
    """Each player's birth (year × 12 + month − 1, day), whether it is known, and the junior
    mark of those without one."""
    births = _column(players, "date_of_birth")
    flags = _column(players, "junior")
    known = np.array([isinstance(b, dt.date) for b in births], dtype=np.bool_)
    month = np.array(
        [er.month_index(b) if isinstance(b, dt.date) else 0 for b in births], dtype=np.int64
    )
    day = np.array([b.day if isinstance(b, dt.date) else 1 for b in births], dtype=np.int64)
    flagged = np.array([bool(f) for f in flags], dtype=np.bool_) & ~known
    return month, day, known, flagged


def _ages(month: int, birth_month: IntArray, birth_day: IntArray) -> IntArray:
    """Whole years of age on the first day of ``month`` (a birthday that day counts)."""
    months = month - birth_month - (birth_day > 1)
    ages: IntArray = np.floor_divide(months, 12)
    return ages


def rate_list(
    kind: str, players: Sequence[Player], settings: Settings, rows: IntArray, read: Sides
) -> RatedList:
    """Rate the list of one kind from its ``rows`` (they passed the season's checks, so each
    is dated in the season), month by month (module docstring)."""
    months = season_months(settings)
    first = months[0]
    rapid = kind == RAPID
    rating_field, category_field = (
        ("rapid_rating", "rapid_category") if rapid else ("rating", "rating_category")
    )
    rating = np.array(
        [np.nan if r is None else r for r in _column(players, rating_field)], dtype=np.float64
    )
    category = _column(players, category_field)
    rated = np.isfinite(rating)
    partial = np.array([c == "P" for c in category], dtype=np.bool_) & rated
    category_a = np.array([c == "A" for c in category], dtype=np.bool_) & rated
    last = _month_numbers(players)
    last = np.where((last == er.NO_MONTH) & rated, first - 1, last)
    start = er.start_state(
        first,
        rating,
        full=rated & ~partial,
        last_month=last,
        recent_results=np.where(category_a, er.CATEGORY_A_RESULTS, 0),
    )
    # The games month by month, each month in row order.
    game_month = read.month[rows] - 1
    order = np.argsort(game_month, kind="stable")
    rows, game_month = rows[order], game_month[order]
    white, black, score = read.white[rows], read.black[rows], read.score[rows]
    spans = np.searchsorted(game_month, np.array([*months, months[-1] + 1]))
    birth_month, birth_day, born, flagged = _births(players)
    quickplay = er.NOMINAL_QUICKPLAY_LESS if rapid else 0
    # The settings' choices are the engine's names (xlgrade.settings checks them).
    rules = er.RatingSettings(
        p_method=er.P_METHODS[er.P_METHODS.index(settings.p_method)],
        partial_opponent=er.PARTIAL_OPPONENT_RULES[
            er.PARTIAL_OPPONENT_RULES.index(settings.partial_opponent)
        ],
        junior_k=er.JUNIOR_K_RULES[er.JUNIOR_K_RULES.index(settings.junior_k)],
        returning_nominal=er.RETURNING_NOMINALS[
            er.RETURNING_NOMINALS.index(settings.returning_nominal)
        ],
        partial_nominal=er.PARTIAL_NOMINALS[er.PARTIAL_NOMINALS.index(settings.partial_nominal)],
    )
    state = start
    results = []
    for i, month in enumerate(months):
        age = _ages(month, birth_month, birth_day)
        young = born & (age < er.JUNIOR_UNDER)
        nominal = np.where(young, age * er.NOMINAL_PER_YEAR, er.NOMINAL_ADULT) - quickplay
        part = slice(int(spans[i]), int(spans[i + 1]))
        result = er.rate_month(
            state,
            white[part],
            black[part],
            score[part],
            junior=young | flagged,
            nominal=nominal.astype(np.float64),
            settings=rules,
        )
        results.append(result)
        state = result.state
    return RatedList(
        kind=kind,
        rows=rows,
        white=white,
        black=black,
        score=score,
        month=game_month,
        months=months,
        spans=spans.astype(np.int64),
        start=start,
        start_category=start.categories(),
        results=tuple(results),
    )
