"""The season in the ECF rating (2020 rules): each list rated month by month.

With the setting ``System`` at :data:`xlgrade.settings.RATING_2020` the rows that pass the
season's checks (:mod:`xlgrade.season.checks`; an undated row is excepted there, "no date")
are rated with :mod:`xlgrade.ecf_rating`, one calendar month at a time over the months of the
season, each month from the state the month before left: only the games dated in a month
count in it, and each month has its three passes (docs/rules.md §12). Standard play and
rapidplay are rated on separate lists ("Standard and rapid lists are separate").

Each player starts from the Players table: ``ECF rating`` and ``ECF category`` (the rapid
list: ``ECF rapid rating`` and ``ECF rapid category``) and ``Last rated month``. Decisions
where the table says less than the ECF's own records (listed in :data:`SEASON_DECISIONS`):

- a rating without a category is a full rating; a category P is a partial rating on the
  earlier games ``ECF P games`` gives (with ``ECF P score`` and ``ECF P opposition``, their
  score and opponents' average), or when it is blank on the setting ``P games not given``'s
  count, his rating standing for their opponents and half of them his score: the P method
  counts them in every month until he has 10;
- the rated results of the 12 months before the season (category A's 30) are ``ECF results
  in 12 months``, spread evenly over those months so that they leave the count month by month;
  blank, a category A counts as 30 in the month before the season (he stays A until this
  season's own results decide);
- ``Last rated month`` blank: a player with a rating was rated in the month before the season
  (he is on the current list); one column serves both lists;
- a junior (k 40, and the nominal opponent age × 100) is a player under 18 on the first day
  of the month rated, by his date of birth; a player marked junior with no date of birth gets
  k 40 and the adult's nominal opponent (his age is not known).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from xlgrade import ecf_rating as er
from xlgrade._rounding import quote
from xlgrade.model import Player, Problem
from xlgrade.season.checks import RAPID, STANDARD, Sides
from xlgrade.season.players import player_column as _column
from xlgrade.season.shared import BoolArray, FloatArray, IndexArray, IntArray
from xlgrade.settings import Settings

__all__ = [
    "SEASON_DECISIONS",
    "ListColumns",
    "PlayerMonths",
    "RatedList",
    "RatingColumns",
    "checked_last_rated",
    "rate_list",
    "season_months",
]

SEASON_DECISIONS: Final[dict[str, str]] = {
    "category-missing": "A rating on the Players table with no category is a full rating.",
    "category-p": "A category P (partial) rating on the Players table is on the earlier games "
    "of ECF P games (their score ECF P score, their opponents' average ECF P opposition); "
    "blank, on the setting P games not given's count (5), scoring half of them against "
    "opponents of his rating. The P method counts them in each month until he has 10.",
    "p-record": "An ECF P games of 10 or more, a score above the games, a score or opposition "
    "without games, or a record beside a rating that is not P is reported on Players and read "
    "as blank.",
    "category-a": "A category A on the Players table with ECF results in 12 months blank counts "
    "as 30 rated results in the month before the season.",
    "results-12-months": "ECF results in 12 months (the rated results of the 12 months before "
    "the season) is spread evenly over those months, the odd ones in the latest, so that each "
    "month of the season the oldest month's share leaves the count.",
    "last-rated-month": "Last rated month blank: a rated player was rated in the month before "
    "the season; the one column serves the standard and the rapid list; a month in the season "
    "or after it is reported on Players and read as blank, as is a category with no rating.",
    "junior-no-birth-date": "A player marked junior with no date of birth gets k 40 and the "
    "adult's nominal opponent.",
}
"""What the season in rating mode decides where the Players table is silent (README, "ECF
ratings")."""


def _given(column: list[object]) -> list[int]:
    """The positions of the entries of ``column`` that are not ``None``: none looked at one by
    one when all are ``None`` (most of a rated season's dates and categories)."""
    if column.count(None) == len(column):
        return []
    return [i for i, value in enumerate(column) if value is not None]


def _numbers(column: list[object]) -> FloatArray:
    """Numbers or ``None`` as floats, NaN for ``None`` (numpy reads ``None`` as NaN)."""
    return np.array(column, dtype=np.float64)


def _equal(column: list[object], value: object) -> BoolArray:
    """Which entries of ``column`` equal ``value`` (none looked at when none does)."""
    if value not in column:
        return np.zeros(len(column), dtype=np.bool_)
    return np.fromiter(map(operator.eq, column, itertools.repeat(value)), np.bool_, len(column))


def season_months(settings: Settings) -> tuple[int, ...]:
    """The calendar months of the season (:func:`xlgrade.ecf_rating.month_index`), first to
    last: those holding its first and last days and every one between."""
    first = er.month_index(settings.season_start)
    last = er.month_index(settings.season_end)
    return tuple(range(first, last + 1))


def checked_last_rated(
    players: Sequence[Player], settings: Settings
) -> tuple[Sequence[Player], list[Problem], RatingColumns]:
    """Players whose ``Last rated month`` is not before the season's first month: reported on
    Players and left out (read as blank, SEASON_DECISIONS["last-rated-month"]). The season rates
    its own months, so a player's last rated game before it cannot be in one of them or later
    (docs/rules.md §12: a month's rating takes only that month's games). So too a category
    (``ECF category``, ``ECF rapid category``) with no rating beside it: a category is the
    rating's (§12, "Categories"), and alone says nothing the season can rate from.

    Also what the lists are rated from (:class:`RatingColumns`), read of the players returned
    with the columns this check reads, so that no column is read twice."""
    first = season_months(settings)[0]
    problems: list[Problem] = []
    # Whole columns first: most players have nothing to report and are not looked at again.
    lasts = _column(players, "last_rated_month")
    dated = _given(lasts)
    last = np.full(len(players), er.NO_MONTH, dtype=np.int64)
    last[dated] = [er.month_index(lasts[i]) for i in dated]  # type: ignore[arg-type]
    late = np.flatnonzero(last >= first).tolist()
    last[late] = er.NO_MONTH
    without = []
    lists = {}
    bad_record: dict[int, list[tuple[str, str]]] = {}
    for kind, (rating_field, category_field) in zip((STANDARD, RAPID), _CATEGORY_COLUMNS,
                                                    strict=True):  # fmt: skip
        rating = _numbers(_column(players, rating_field))
        rated = np.isfinite(rating)
        categories = _column(players, category_field)
        # A category is looked at alone only where there is no rating (few players).
        without.append({i for i in np.flatnonzero(~rated).tolist() if categories[i] is not None})
        partial = _equal(categories, "P") & rated
        record, wrong = _p_record(players, kind, partial)
        for i, whys in wrong.items():
            bad_record.setdefault(i, []).extend((kind, why) for why in whys)
        results = _numbers(_column(players, "rapid_results_12_months" if kind == RAPID
                                   else "results_12_months"))  # fmt: skip
        lists[kind] = ListColumns(
            rating, rated, partial, _equal(categories, "A") & rated, *record, results
        )
    columns = RatingColumns(PlayerMonths.of(players, last), lists)
    if not late and not any(without) and not bad_record:
        return players, problems, columns
    fixed = list(players)
    for i in late:
        player = players[i]
        last_month = player.last_rated_month
        assert last_month is not None
        fixed[i] = dataclasses.replace(player, last_rated_month=None)
        problems.append(
            Problem(
                "Players",
                player.row,
                "bad last rated month",
                f"last rated month {last_month.isoformat()[:7]} of {quote(player.name)} is not "
                f"before the season's first month {settings.season_start.isoformat()[:7]}: "
                "left out",
            )
        )
    for i in sorted(set().union(*without)):
        player = fixed[i]
        for (_, category), words, bad in zip(_CATEGORY_COLUMNS, ("ECF", "ECF rapid"), without,
                                             strict=True):  # fmt: skip
            if i not in bad:
                continue
            shown = getattr(player, category)
            player = (
                dataclasses.replace(player, rating_category=None)
                if category == "rating_category"
                else dataclasses.replace(player, rapid_category=None)
            )
            problems.append(
                Problem(
                    "Players",
                    player.row,
                    "category without a rating",
                    f"{words} category {quote(shown)} of {quote(player.name)} has no {words} "
                    "rating beside it: left out",
                )
            )
        fixed[i] = player
    for i in sorted(bad_record):
        player = fixed[i]
        for kind, why in bad_record[i]:
            problems.append(Problem("Players", player.row, "bad P record",
                                    f"{why} of {quote(player.name)}: left out"))  # fmt: skip
            player = (
                dataclasses.replace(
                    player, rapid_p_games=None, rapid_p_score=None, rapid_p_opposition=None
                )
                if kind == RAPID
                else dataclasses.replace(player, p_games=None, p_score=None, p_opposition=None)
            )
        fixed[i] = player
    return fixed, problems, columns


def _recent_results(table: ListColumns) -> IntArray:
    """Each player's rated results in the 12 months before the season, month by month, oldest
    first (:func:`xlgrade.ecf_rating.start_state`): ``ECF results in 12 months`` spread evenly
    over them, the odd ones in the latest months (SEASON_DECISIONS["results-12-months"]), so
    that they leave the 12 months as the season goes on; blank, a category A counts as 30 in
    the month before the season, anyone else none."""
    months = er.CATEGORY_A_MONTHS
    given = ~np.isnan(table.results)
    count = np.where(given, np.nan_to_num(table.results), 0).astype(np.int64)
    share, odd = np.divmod(count, months)
    by_month = np.repeat(share[np.newaxis, :], months, axis=0)
    by_month += np.arange(months)[:, np.newaxis] >= months - odd[np.newaxis, :]
    by_month[-1] += np.where(~given & table.category_a, er.CATEGORY_A_RESULTS, 0)
    out: IntArray = by_month
    return out


def _p_record(
    players: Sequence[Player], kind: str, partial: BoolArray
) -> tuple[tuple[FloatArray, FloatArray, FloatArray], dict[int, list[str]]]:
    """One list's ``ECF P games``, ``ECF P score`` and ``ECF P opposition`` (NaN for blank) and
    the players whose record cannot be a P rating's (docs/rules.md §12): a count of 10 or more
    (that is a full rating), a score above the games, a record beside a rating that is not P.
    Those are reported and read as blank (SEASON_DECISIONS["p-record"])."""
    prefix = "rapid_" if kind == RAPID else ""
    words = "ECF rapid P" if kind == RAPID else "ECF P"
    games, score, opposition = (
        _numbers(_column(players, prefix + name)) for name in ("p_games", "p_score",
                                                               "p_opposition")
    )  # fmt: skip
    given = ~np.isnan(games) | ~np.isnan(score) | ~np.isnan(opposition)
    wrong: dict[int, list[str]] = {}
    if not given.any():
        return (games, score, opposition), wrong
    for i in np.flatnonzero(given).tolist():
        g, sc = games[i], score[i]
        if not partial[i]:
            why = f"{words} record beside a rating that is not category P"
        elif not np.isnan(g) and g >= er.FULL_RATING_GAMES:
            why = (f"{words} games {quote(int(g))}: a P rating is on fewer than "
                   f"{er.FULL_RATING_GAMES} games")  # fmt: skip
        elif np.isnan(g):
            why = f"{words} score or opposition without {words} games"
        elif not np.isnan(sc) and not 0 <= sc <= g:
            why = f"{words} score {quote(float(sc))} in {int(g)} games"
        else:
            continue
        wrong.setdefault(i, []).append(why)
    for i in wrong:
        games[i] = score[i] = opposition[i] = np.nan
    return (games, score, opposition), wrong


_CATEGORY_COLUMNS: Final = (("rating", "rating_category"), ("rapid_rating", "rapid_category"))
"""Each list's rating and category fields of :class:`xlgrade.model.Player`."""


@dataclass(frozen=True)
class RatedList:
    """One list (standard or rapidplay) rated month by month over the season.

    Per rated game (in the order rated: month by month, each month in row order): ``rows``
    (index into the input games), ``white``, ``black``, ``score`` (white's), ``month``.
    ``months`` are the season's months; ``results[i]`` is month ``months[i]`` rated
    (:class:`xlgrade.ecf_rating.MonthResult`), its games the positions
    ``spans[i]:spans[i + 1]``. ``start`` is every player's state at the start of the season,
    ``start_category`` his category on the list then. ``rated`` are the months as rated:
    over the players ``taken`` alone when it is not ``None`` (:func:`_rated_over`).
    """

    kind: str
    rows: IndexArray
    white: IndexArray
    black: IndexArray
    score: FloatArray
    month: IntArray
    months: tuple[int, ...]
    spans: IndexArray
    start: er.RatingState
    start_category: npt.NDArray[np.str_]
    rated: tuple[er.MonthResult, ...]
    taken: IndexArray | None = None

    @functools.cached_property
    def results(self) -> tuple[er.MonthResult, ...]:
        """Each month rated, for the whole Players table: a list rated over some players
        alone (``taken``, :func:`_rated_over`) is widened to it when first asked for."""
        if self.taken is None:
            return self.rated
        return _widened(self.rated, self.start, self.taken)

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


@dataclass(frozen=True)
class PlayerMonths:
    """What every list reads of the Players table by month, read once for the season's lists:
    each player's ``Last rated month`` (:data:`xlgrade.ecf_rating.NO_MONTH` for none) and birth
    (its month as :func:`xlgrade.ecf_rating.month_index` and day, whether it is known), and
    the junior mark of those without one."""

    last: IntArray
    birth_month: IntArray
    birth_day: IntArray
    born: BoolArray
    flagged: BoolArray

    @classmethod
    def of(cls, players: Sequence[Player], last: IntArray | None = None) -> PlayerMonths:
        """The columns of ``players`` (checked: dates are dates or ``None``); ``last``: their
        ``Last rated month`` column as :attr:`last` holds it, when already read."""
        n = len(players)
        if last is None:
            last = np.full(n, er.NO_MONTH, dtype=np.int64)
            lasts = _column(players, "last_rated_month")
            dated = _given(lasts)
            last[dated] = [er.month_index(lasts[i]) for i in dated]  # type: ignore[arg-type]
        birth_month = np.zeros(n, dtype=np.int64)
        birth_day = np.ones(n, dtype=np.int64)
        born = np.zeros(n, dtype=np.bool_)
        births = _column(players, "date_of_birth")
        known = _given(births)
        birth_month[known] = [er.month_index(births[i]) for i in known]  # type: ignore[arg-type]
        birth_day[known] = [births[i].day for i in known]  # type: ignore[attr-defined]
        born[known] = True
        marks = _column(players, "junior")
        flagged = _equal(marks, True) & ~born
        return cls(last, birth_month, birth_day, born, flagged)

    def young(self, month: int) -> tuple[IntArray, BoolArray]:
        """Each player's age on the first day of ``month`` (by his date of birth), and who is
        under 18 by it."""
        age = _ages(month, self.birth_month, self.birth_day)
        return age, self.born & (age < er.JUNIOR_UNDER)

    def junior(self, month: int) -> BoolArray:
        """Who is a junior in ``month``: under 18 on its first day, or marked junior with no
        date of birth (module docstring)."""
        if not self.born.any():
            return self.flagged
        return self.young(month)[1] | self.flagged


@dataclass(frozen=True)
class ListColumns:
    """What one list (standard or rapidplay) reads of the Players table: each player's rating
    (NaN for none), whether he has one, whether its category is P or A, and a P rating's
    earlier games, score and opposition as the table gives them (NaN: blank)."""

    rating: FloatArray
    rated: BoolArray
    partial: BoolArray
    category_a: BoolArray
    p_games: FloatArray
    p_score: FloatArray
    p_opposition: FloatArray
    results: FloatArray


@dataclass(frozen=True)
class RatingColumns:
    """What the season's lists read of the Players table, read once for both
    (:func:`checked_last_rated`): the months (:class:`PlayerMonths`) and each list's ratings
    and categories (:class:`ListColumns`, by kind)."""

    months: PlayerMonths
    lists: dict[str, ListColumns]


def _ages(month: int, birth_month: IntArray, birth_day: IntArray) -> IntArray:
    """Whole years of age on the first day of ``month`` (a birthday that day counts)."""
    months = month - birth_month - (birth_day > 1)
    ages: IntArray = np.floor_divide(months, 12)
    return ages


_SUBSET_SHARE: Final = 0.75
"""A list whose rated players and players with a game on it are at most this share of the
Players table is rated over them alone (:func:`_rated_over`)."""

_MONTH_FILLS: Final[dict[str, object]] = {
    "method": "", "rating_a": np.nan, "rating_b": np.nan, "rating": np.nan, "change": np.nan,
    "k": np.nan, "score": 0.0, "expected": np.nan, "games": 0, "nominal": np.nan,
    "p_games": 0, "category": "",
}  # fmt: skip
"""A month's per-player figures (:class:`xlgrade.ecf_rating.MonthResult`) of a player with no
rating on the list and no game on it, as :func:`xlgrade.ecf_rating.rate_month` gives them."""


def rate_list(
    kind: str,
    settings: Settings,
    rows: IndexArray,
    read: Sides,
    columns: RatingColumns,
) -> RatedList:
    """Rate the list of one kind from its ``rows`` (they passed the season's checks, so each
    is dated in the season) and their columns (``read``: :meth:`Sides.taken` of them), month
    by month (module docstring), each player from what the Players table says of him
    (``columns``: :func:`checked_last_rated`'s, read once for both lists)."""
    months = season_months(settings)
    first = months[0]
    rapid = kind == RAPID
    table = columns.lists[kind]
    rating, rated = table.rating, table.rated
    last = np.where((columns.months.last == er.NO_MONTH) & rated, first - 1, columns.months.last)
    # A P rating's earlier games: as the table gives them, else the setting's count, his
    # rating standing for their opponents and half of them his score (docs/rules.md §12).
    p_games = np.where(np.isnan(table.p_games), settings.p_games_not_given, table.p_games)
    start = er.start_state(
        first,
        rating,
        full=rated & ~table.partial,
        last_month=last,
        games=np.where(table.partial, p_games, 0).astype(np.int64),
        score=table.p_score,
        opposition=table.p_opposition,
        recent_results=_recent_results(table),
    )
    # The games month by month, each month in row order: rows typed in date order are so
    # already; others by a stable sort of the months as small whole numbers (a radix sort, of
    # one byte for a season of up to 127 months).
    game_month = read.month - 1
    white, black, score = read.white, read.black, read.score
    if game_month.size and bool(np.any(game_month[1:] < game_month[:-1])):
        key = np.int8 if len(months) <= np.iinfo(np.int8).max else np.int16
        position = (game_month - first).astype(np.intp)  # months of the season: positions
        order = np.argsort(position.astype(key), kind="stable")
        # In month order the months are each month as often as it has games (no gather).
        game_month = np.repeat(np.array(months, dtype=np.int64),
                               np.bincount(position, minlength=len(months)))  # fmt: skip
        rows, white, black, score = rows[order], white[order], black[order], score[order]
    spans = np.searchsorted(game_month, np.array([*months, months[-1] + 1]))
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
        rounding=er.RATING_ROUNDINGS[er.RATING_ROUNDINGS.index(settings.rating_rounding)],
    )
    results, taken = _rated_over(
        start, rated, columns.months, months, spans, white, black, score, rules,
        er.NOMINAL_QUICKPLAY_LESS if rapid else 0,
    )  # fmt: skip
    return RatedList(
        kind=kind,
        rows=rows,
        white=white,
        black=black,
        score=score,
        month=game_month,
        months=months,
        spans=spans.astype(np.intp, copy=False),
        start=start,
        start_category=start.categories(),
        rated=tuple(results),
        taken=taken,
    )


def _rated_over(
    start: er.RatingState,
    rated: BoolArray,
    columns: PlayerMonths,
    months: tuple[int, ...],
    spans: IndexArray,
    white: IndexArray,
    black: IndexArray,
    score: FloatArray,
    rules: er.RatingSettings,
    quickplay: float,
) -> tuple[list[er.MonthResult], IndexArray | None]:
    """Each month of the list rated from ``start``, and the players it was rated over (``None``:
    all).

    A player with no rating on the list and no game on it is the same all season (no rating,
    no category, no pool), so when such players are most of the table (a rapidplay list of a
    league's few rapid players) the months are rated over the others alone, and each month's
    figures are widened to the whole table when first asked for (:attr:`RatedList.results`),
    with the figures :func:`xlgrade.ecf_rating.rate_month` gives those players
    (:data:`_MONTH_FILLS`; their state stays as at the start). The ratings are the same
    either way: every game is between two of the players rated."""
    n = start.players
    subset = False
    if np.count_nonzero(rated) <= _SUBSET_SHARE * n:  # else the players' games are not read
        members = rated.copy()
        members[white] = True
        members[black] = True
        # One player at least, so that a list nobody is on is rated over one player who
        # stays as he is, not over the whole table.
        keep = np.flatnonzero(members) if members.any() else np.arange(min(n, 1))
        subset = 0 < keep.size <= _SUBSET_SHARE * n
    state = start
    if subset:
        position = np.full(n, -1, dtype=np.intp)
        position[keep] = np.arange(keep.size)
        white, black = position[white], position[black]
        state = _taken(start, keep)
        columns = PlayerMonths(*(getattr(columns, f.name)[keep]
                                 for f in dataclasses.fields(PlayerMonths)))  # fmt: skip
    results = []
    # With no date of birth known, every month's juniors and nominal opponents are the same.
    adult = np.full(columns.born.size, er.NOMINAL_ADULT - quickplay, dtype=np.float64)
    dated = bool(columns.born.any())
    for i, month in enumerate(months):
        junior, nominal = columns.flagged, adult
        if dated:
            age, young = columns.young(month)
            nominal = np.where(young, age * er.NOMINAL_PER_YEAR - quickplay, adult)
            junior = young | columns.flagged
        part = slice(int(spans[i]), int(spans[i + 1]))
        # The season's own arrays, checked as they were read (xlgrade.season.checks).
        result = er.rate_month_unchecked(
            state,
            white[part],
            black[part],
            score[part],
            junior=junior,
            nominal=nominal.astype(np.float64, copy=False),
            settings=rules,
        )
        results.append(result)
        state = result.state
    return results, keep if subset else None


def _state_arrays(state: er.RatingState) -> dict[str, Any]:
    """A state's per-player arrays by field, ``recent`` apart."""
    return {
        f.name: getattr(state, f.name)
        for f in dataclasses.fields(state)
        if f.name not in ("month", "recent")
    }


def _taken(state: er.RatingState, keep: IndexArray) -> er.RatingState:
    """``state`` of the players ``keep`` alone."""
    return dataclasses.replace(
        state,
        recent=tuple(r[keep] for r in state.recent),
        **{name: values[keep] for name, values in _state_arrays(state).items()},
    )


def _widened(
    results: Sequence[er.MonthResult], start: er.RatingState, keep: IndexArray
) -> tuple[er.MonthResult, ...]:
    """Months rated over the players ``keep`` (:func:`_rated_over`), for the whole table: the
    others' state as at the ``start``, their month's figures :data:`_MONTH_FILLS`. An array
    several months share (a state's counts of the 12 months) is widened once."""
    n = start.players
    done: dict[int, npt.NDArray[Any]] = {}
    zeros = np.zeros(n, dtype=np.int64)

    def put(base: npt.NDArray[Any], part: npt.NDArray[Any]) -> npt.NDArray[Any]:
        key = id(part)
        if key not in done:
            out = base.copy()
            out[keep] = part
            done[key] = out
        return done[key]

    out = []
    for result in results:
        sub = result.state
        arrays: dict[str, Any] = {
            name: put(getattr(start, name), values) for name, values in _state_arrays(sub).items()
        }
        state = dataclasses.replace(sub, recent=tuple(put(zeros, r) for r in sub.recent), **arrays)
        figures = {
            name: put(np.full(n, fill, dtype=getattr(result, name).dtype), getattr(result, name))
            for name, fill in _MONTH_FILLS.items()
        }
        out.append(dataclasses.replace(result, state=state, **figures))
    return tuple(out)
