"""The ECF rating (the English Chess Federation's system since July 2020): K and P methods,
the three passes of a month, categories.

Rules from docs/rules.md §12 and the ECF's rating help page ("The calculation of ECF
ratings", www.ecfrating.org.uk/v2/help/help_rating.php, and its later copy on
rating.englishchess.org.uk), the ECF's "ECF rating categories" page and its rating-list pages.
What the pages state is quoted beside each rule; where they are silent the decision is named,
made a setting where the sources differ, and listed in :data:`DECISIONS`.

**K method** ("an Elo current rating algorithm to determine a rating based on a previous
rating and results versus opponents ratings"): for each calendar month R1 = R0 + k(W − We),
W the month's score and We the sum of the expected scores of FIDE table 8.1b, with FIDE's
400-point rule (both from :mod:`xlgrade.elo`); k = 20, or 40 for a junior.

**P method** ("an Elo performance rating algorithm to determine a rating based solely on
performance versus opponents ratings without reference to any previous rating. ECF includes a
fictional draw against a fictional opponent of nominal rating"): the pages do not give the
formula. Decision (docs/rules.md §12): FIDE's performance, Rp = Ra + dp, over the games and
the fictional draw — Ra their average opponent rating, dp from FIDE table 8.1a for the
fractional score p — the table the K method's expected scores come from. The logistic inverse
and the "algorithm of 400" are settings (:data:`P_METHODS`).

**Passes** (help page): "Perform P Rating to produce either a Partial Rating "A" or a Full
Rating "A" for each player"; then again, "Where opponents are New Players or Partially Rated
Players, use their Partial Rating "A" or Full Rating "A" from Pass 1"; then "Perform K Rating
to produce a new Full Rating "B" for every RATED PLAYER. Where opponents are New Players or
Partially Rated Players, use their Partial Rating or Full Rating "B" from Pass 2."

Each rule has a scalar form (one player, plain numbers); the month is rated over numpy arrays
by :func:`rate_month`, which the tests hold to a loop over the games calling the scalar rules
(``tests/rating_by_game.py``): the same numbers.

>>> expected_score(1680, 1603)
0.61
>>> rating_change(1680, [1603], [1])
7.8
>>> p_rating([1700, 1500, 1600, 1800], [1, 0.5, 1, 0]).rating
1752
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Literal, TypeVar, overload

import numpy as np
import numpy.typing as npt

from xlgrade import elo
from xlgrade._arrays import FloatArray, IndexArray, IntArray, per_player, period_arrays
from xlgrade._rounding import finite, on_scale, quote, round_half_away
from xlgrade.errors import GradeError, SettingError

__all__ = [
    "CATEGORY_A_MONTHS",
    "CATEGORY_A_RESULTS",
    "DECISIONS",
    "FULL_RATING_GAMES",
    "JUNIOR_K_RULES",
    "JUNIOR_UNDER",
    "K_ADULT",
    "K_JUNIOR",
    "MAX_RATING",
    "MIN_RATING",
    "NOMINAL_ADULT",
    "NOMINAL_PER_YEAR",
    "NOMINAL_QUICKPLAY_LESS",
    "NO_MONTH",
    "PARTIAL_NOMINALS",
    "PARTIAL_OPPONENT_RULES",
    "PARTIAL_OPPONENT_SHARE",
    "P_METHODS",
    "RATING_ROUNDINGS",
    "RETURNING_NOMINALS",
    "UNRATED_AFTER_MONTHS",
    "BoolArray",
    "Category",
    "JuniorK",
    "MonthResult",
    "PMethod",
    "PRating",
    "PartialNominal",
    "PartialOpponentRule",
    "RatingRounding",
    "RatingSettings",
    "RatingState",
    "ReturningNominal",
    "category",
    "expected_score",
    "is_junior",
    "k_factor",
    "month_index",
    "month_start",
    "new_rating",
    "nominal_rating",
    "nominal_rating_from",
    "p_rating",
    "performance_difference",
    "rate_month",
    "rate_month_unchecked",
    "rating_change",
    "start_state",
]

BoolArray = npt.NDArray[np.bool_]
"""A numpy array of booleans."""

K_ADULT: Final = 20
"""Help page / league notices: "k = 20" for an adult ("40 for juniors 20 for adults")."""
K_JUNIOR: Final = 40
"""League notices quoting the ECF: "a constant k (40 for juniors 20 for adults)"."""
JUNIOR_UNDER: Final = 18
"""A junior is under 18 (docs/rules.md §12: "age × 100 under 18")."""
NOMINAL_ADULT: Final = 1800
"""docs/rules.md §12: the fictional opponent is rated "1800 for adults"."""
NOMINAL_PER_YEAR: Final = 100
"""docs/rules.md §12: "age × 100 under 18"."""
NOMINAL_QUICKPLAY_LESS: Final = 100
"""docs/rules.md §12: "both 100 less for rapid and blitz"."""
FULL_RATING_GAMES: Final = 10
"""Help page: "Partial Rating — A rating calculated from a small number of games (<10) using
P Rating"; "Full Rating — … b) A rating calculated using P Rating on at least 10 games"."""
MAX_RATING: Final = 3500
"""The highest figure read as an ECF rating (a decision: well above any rating published)."""
MIN_RATING: Final = -MAX_RATING
"""The lowest figure read as an ECF rating. No ECF page gives a floor, and the K method goes on
below zero (two players of 10, one losing three games to the other: 10 − 3 × 10 = −20), so a
rating below zero is a rating (docs/rules.md §12, decision): published on the list, read back
next season and by every function, as far below zero as the highest is above it."""
CATEGORY_A_RESULTS: Final = 30
"""ECF rating categories: "Category A — A player who has 30 or more rated results in the
previous 12 calendar months"."""
CATEGORY_A_MONTHS: Final = 12
"""ECF rating categories: "… in the previous 12 calendar months"."""
UNRATED_AFTER_MONTHS: Final = 36
"""ECF rating categories: "Unrated — Any K or P rating where the player has no rated result in
the previous 36 calendar months"; the later help page: "played at least one rated game in the
prior 36 months (3 years)" (the first one said 60 months)."""
PARTIAL_OPPONENT_SHARE: Final = 0.5
"""The share of the k a game against a partially rated opponent counts with under the rule
``"half"``: the older help page (ecfrating.org.uk/v2/help/help_rating.php, the one that still
says "prior 60 months"): "When using an opponents Partial Rating use a K of 40 for that
opponent. This has the effect of reducing any rating adjustment by 50%"."""
NO_MONTH: Final = -(10**6)
"""The ``last_month`` of a player with no rated game on record."""

PMethod = Literal["fide-8.1a", "logistic", "linear-400"]
"""Name of the performance formula of the P method (see :func:`performance_difference`)."""
P_METHODS: Final[tuple[PMethod, ...]] = ("fide-8.1a", "logistic", "linear-400")
"""The P-method formulas, default first."""
PartialOpponentRule = Literal["full", "half"]
"""How a K-method game against an opponent on a partial rating counts: ``"full"`` (default:
the newer help page, rating.englishchess.org.uk/sandbox/help/help_rating.php, the one with the
36-month rule, goes from the passes straight on with no word of it: the game counts like any
other) or ``"half"`` (the older help page, ecfrating.org.uk/v2/help/help_rating.php, "prior 60
months": "When using an opponents Partial Rating use a K of 40 for that opponent. This has the
effect of reducing any rating adjustment by 50%")."""
PARTIAL_OPPONENT_RULES: Final[tuple[PartialOpponentRule, ...]] = ("full", "half")
"""The partial-opponent rules, default first."""
RatingRounding = Literal["change", "rating"]
"""How the K method's new rating is made a whole number (no ECF page says: unsourced):
``"change"`` (default, a decision: the month's change k(W − We) is rounded, .5 away from zero,
as FIDE rounds a period's change, and added) or ``"rating"`` (the change added unrounded and
the new rating rounded the same way). They differ when the change ends in .5 below zero
(1600 − 7.5: 1592 or 1593), which a half k or a junior's 40 can give."""
RATING_ROUNDINGS: Final[tuple[RatingRounding, ...]] = ("change", "rating")
"""The rounding rules, default first."""
JuniorK = Literal["performance", "always"]
"""A junior's k: ``"performance"`` (default: the ECF's rating officer, ecforum.org.uk t=11960,
30 July 2021: "junior improvement is dealt with by a k-factor of 40 in months of above
expectation performance and a k-factor of 20 for months of below expectation performance") —
40 in a month whose change is upward, 20 in one whose change is downward — or ``"always"``
(40 every month: league notices, "a constant k (40 for juniors 20 for adults)")."""
JUNIOR_K_RULES: Final[tuple[JuniorK, ...]] = ("performance", "always")
"""The junior-k rules, default first."""
ReturningNominal = Literal["last", "higher"]
"""A returning (unrated) player's fictional opponent: ``"last"`` (default: the ECF's rating
categories, from June 2022: "An unrated player, on return, will be treated as a new player
with one dummy game assuming a draw against an opponent with the players last full rating")
or ``"higher"`` (the higher of that and the usual nominal, docs/rules.md §12's reading)."""
RETURNING_NOMINALS: Final[tuple[ReturningNominal, ...]] = ("last", "higher")
"""The returning-player rules, default first."""
PartialNominal = Literal["first", "current"]
"""A partially rated player's fictional opponent over the months of his P rating:
``"first"`` (default, a decision: the help page's one "fictional draw against a fictional
opponent of nominal rating" is one game, played when his P rating begins, so it keeps the
rating of that month) or ``"current"`` (the nominal of each month rated: a junior's grows
with his age)."""
PARTIAL_NOMINALS: Final[tuple[PartialNominal, ...]] = ("first", "current")
"""The partial-player nominal rules, default first."""
Category = Literal["A", "K", "P", ""]
"""A rating's category on the list: A, K, P, or ``""`` for unrated."""

DECISIONS: Final[dict[str, str]] = {
    "p-formula": "The P method's formula is not published: FIDE's performance Ra + dp (table "
    "8.1a) over the games and the fictional draw; the logistic inverse and the algorithm of "
    "400 are settings.",
    "partial-opponent": "A game against a partially rated opponent counts in full, as the "
    "newer help page (the 36-month text) has it, with no halving sentence; half the k, as the "
    "older page (ecfrating.org.uk/v2, 'use a K of 40 for that opponent') says, is a setting.",
    "junior-k": "A junior's k is 40 in a month whose K-method change is upward and 20 in one "
    "whose change is downward (the rating officer, ecforum.org.uk, 30 July 2021); the sign is "
    "that of the month's sum of (score − expected), each game weighted as it counts (a "
    "partial opponent's half); 40 every month is a setting.",
    "partial-nominal": "A partially rated player's fictional opponent keeps the rating of the "
    "month his P rating began; the nominal of each month is a setting.",
    "junior-age-date": "Age (for k 40 and for the nominal opponent) is taken on the first day "
    "of the month being rated.",
    "new-opponent-pass-1": "In pass 1 a new player has no rating yet: his opponents use his "
    "nominal opponent's rating for him.",
    "p-only-where-used": "Passes 1 and 2 are worked for the players rated by the P method "
    "(new and partially rated players who played); a fully rated player's pass-1 and pass-2 "
    "figures are never used, so they are not worked.",
    "rounding": "Ratings are published as whole numbers, and no ECF page says how they are "
    "made so (unsourced): the K method's change k(W − We) is rounded to a whole number .5 away "
    "from zero, as FIDE rounds a period's change, and added; rounding the new rating instead "
    "is a setting. Ra + dp is rounded the same way, and so are a pass's A and B figures before "
    "opponents use them.",
    "returning-player": "A returning (unrated) player's nominal opponent is his last full "
    "rating (the ECF's rating categories, June 2022); the higher of it and the usual nominal "
    "is a setting.",
    "starting-partial": "A partial rating carried in on g earlier games counts them in the P "
    "method of every month until he has 10: with their score and their opponents' average "
    "where known (a season's own record, carried by new-season), else as g games scoring 50 % "
    "against opponents averaging that rating (his list figure standing for them).",
    "category-history": "Category A counts the rated results of the months xlgrade has rated "
    "(and any counts given for the months before); earlier months are not on the list.",
}
"""The points the ECF's pages leave open, and what xlgrade does (README, "ECF ratings")."""

_TABLE_8_1A_ARRAY: Final = np.array([elo.TABLE_8_1A[i] for i in range(101)], dtype=np.float64)
_METHODS: Final = np.array(["", "P", "K"])
""":attr:`MonthResult.method` by code: 0 did not play, 1 P method, 2 K method."""
_CATEGORIES: Final = np.array(["", "P", "K", "A"])
""":meth:`RatingState.categories` by code: 0 unrated, 1 P, 2 K, 3 A."""
_LOGISTIC_SCALE: Final = 400.0
"""The logistic curve's 400 (Elo): dp = 400 · log10(p / (1 − p))."""
_LINEAR_SCALE: Final = 400.0
"""The "algorithm of 400": each win counts as the opponent's rating + 400, each loss − 400."""
_GUARD: Final = 1e-9
"""As :data:`xlgrade._rounding._GUARD`: a sum within this of a half rounds as the half."""


def _score(value: object, what: str = "score") -> float:
    s = finite(value, what)
    if not 0.0 <= s <= 1.0:
        raise GradeError(f"{what} {quote(value)} is not between 0 and 1")
    return s


def _rating(value: object, what: str = "rating") -> float:
    """``value`` as an ECF rating: a number from :data:`MIN_RATING` to :data:`MAX_RATING`, or
    :class:`GradeError` quoting it (the rating functions refuse what is not a rating)."""
    return on_scale(value, what, "an ECF rating", (float(MIN_RATING), float(MAX_RATING)))


def _p_method(method: object) -> PMethod:
    for name in P_METHODS:
        if method == name:
            return name
    raise SettingError(f"P-method formula {quote(method)} unknown; use one of {P_METHODS!r}")


def _partial_rule(rule: object) -> PartialOpponentRule:
    for name in PARTIAL_OPPONENT_RULES:
        if rule == name:
            return name
    raise SettingError(
        f"partial-opponent rule {quote(rule)} unknown; use one of {PARTIAL_OPPONENT_RULES!r}"
    )


def _one_of(value: object, names: tuple[str, ...], what: str) -> None:
    if value not in names:
        raise SettingError(f"{what} {quote(value)} unknown; use one of {names!r}")


def expected_score(rating: float, opponent_rating: float) -> float:
    """Expected score of a player rated ``rating`` against one rated ``opponent_rating``.

    docs/rules.md §12: "We: the sum of expected scores from FIDE table 8.1b (§9)", with
    FIDE's rule that "a difference in rating of more than 400 points shall be counted … as
    though it were a difference of 400 points" — :func:`xlgrade.elo.expected_score` with
    table 8.1b and :data:`xlgrade.elo.RULE_400`.

    >>> expected_score(1600, 1600), expected_score(2000, 1500)
    (0.5, 0.92)

    Raises:
        GradeError: a rating is not a number from :data:`MIN_RATING` to :data:`MAX_RATING`.
    """
    return _expected(_rating(rating), _rating(opponent_rating, "opponent rating"))


def _expected(rating: float, opponent_rating: float) -> float:
    """:func:`expected_score` of figures the month's own passes made (not checked again: the
    array form does not check them either)."""
    return elo.expected_score(rating, opponent_rating, method="table", rule=elo.RULE_400)


def is_junior(age: int | None) -> bool:
    """Whether a player of ``age`` whole years is a junior: under 18 (:data:`JUNIOR_UNDER`).

    An unknown age (``None``) is an adult's. Decision: the age is taken on the first day of the
    month being rated (:data:`DECISIONS`).

    Raises:
        GradeError: ``age`` is not a whole number of years, or is negative.
    """
    if age is None:
        return False
    if isinstance(age, bool) or not isinstance(age, int | float) or age != int(age) or age < 0:
        raise GradeError(f"age {quote(age)} is not a whole number of years")
    return age < JUNIOR_UNDER


def k_factor(
    *, junior: bool, settings: RatingSettings | None = None, performance: float | None = None
) -> float:
    """The K method's k for a month: 20, or for a junior 40 (docs/rules.md §12).

    With the default junior rule (:data:`JUNIOR_K_RULES`, ``"performance"``: the ECF's rating
    officer, "a k-factor of 40 in months of above expectation performance and a k-factor of 20
    for months of below expectation performance") a junior's k is 40 only when
    ``performance``, the month's sum of (score − expected) as the games count (a partial
    opponent's halved), is above 0; ``None`` (not known) gives 40.

    >>> k_factor(junior=False), k_factor(junior=True)
    (20.0, 40.0)
    >>> k_factor(junior=True, performance=0.5), k_factor(junior=True, performance=-0.25)
    (40.0, 20.0)
    """
    s = settings or RatingSettings()
    if not junior:
        return float(s.k_adult)
    if s.junior_k == "performance" and performance is not None and round(performance, 10) <= 0:
        return float(s.k_adult)
    return float(s.k_junior)


def rating_change(
    rating: float,
    opponent_ratings: Sequence[float],
    scores: Sequence[float],
    k: float = K_ADULT,
    *,
    partial_opponents: Sequence[bool] | None = None,
    partial_opponent: PartialOpponentRule = "full",
) -> float:
    """The K method's change for a month, unrounded: k(W − We).

    ECF help page: "R1 = R0 + k(W − We)"; W the month's score, We the sum of the expected
    scores (:func:`expected_score`). With ``partial_opponent="full"`` (the default: the newer
    help page) a game against an opponent marked in ``partial_opponents`` counts like any
    other; ``"half"`` counts it with half the k (the older help page: "use a K of 40 for that
    opponent. This has the effect of reducing any rating adjustment by 50%").

    Worked by hand (docs/rules.md §12): 1600 beating 1600 gains 20 × (1 − 0.50) = 10;
    1680 beating 1603 (difference 77, We .61) gains 20 × 0.39 = 7.8.

    Raises:
        GradeError: the lists do not pair up, a score is not between 0 and 1, or a rating is
            not a number from :data:`MIN_RATING` to :data:`MAX_RATING`.
        SettingError: unknown ``partial_opponent``.
    """
    r = _rating(rating)
    opponents = [_rating(o, "opponent rating") for o in opponent_ratings]
    points = [_score(s) for s in scores]
    kk = finite(k, "k")
    rule = _partial_rule(partial_opponent)
    partial = list(partial_opponents) if partial_opponents is not None else [False] * len(points)
    if not len(opponents) == len(points) == len(partial):
        raise GradeError(
            f"{quote(len(opponents))} opponent ratings, {quote(len(points))} scores and "
            f"{quote(len(partial))} partial marks: they must pair up"
        )
    terms = []
    for o, s, part in zip(opponents, points, partial, strict=True):
        share = PARTIAL_OPPONENT_SHARE if (rule == "half" and part) else 1.0
        terms.append(kk * share * (s - _expected(r, o)))
    return round(math.fsum(terms), 10)


def new_rating(
    rating: float,
    opponent_ratings: Sequence[float],
    scores: Sequence[float],
    k: float = K_ADULT,
    *,
    partial_opponents: Sequence[bool] | None = None,
    partial_opponent: PartialOpponentRule = "full",
    rounding: RatingRounding = "change",
) -> int:
    """The K method's new rating, R0 + k(W − We), as published: with ``rounding="change"``
    (default) the change rounded to a whole number, .5 away from zero, as FIDE rounds a
    period's change, then added; ``"rating"``: the new rating rounded (:data:`RATING_ROUNDINGS`;
    unsourced, :data:`DECISIONS`: the ECF publishes whole-number ratings and says no more).

    >>> new_rating(1600, [1600], [1]), new_rating(1680, [1603], [1])
    (1610, 1688)

    Raises:
        GradeError, SettingError: as :func:`rating_change`.
    """
    change = rating_change(
        rating,
        opponent_ratings,
        scores,
        k,
        partial_opponents=partial_opponents,
        partial_opponent=partial_opponent,
    )
    _one_of(rounding, RATING_ROUNDINGS, "rounding rule")
    r = finite(rating, "rating")
    return round_half_away(r + (change if rounding == "rating" else round_half_away(change)))


def nominal_rating(
    *,
    age: int | None = None,
    quickplay: bool = False,
    last_full_rating: float | None = None,
    returning: ReturningNominal = "last",
) -> float:
    """The rating of the P method's fictional opponent.

    docs/rules.md §12: "1800 for adults, age × 100 for under-18s, both 100 less for rapid
    and blitz". A returning player (``last_full_rating`` given) meets his last full rating
    (``returning="last"``, the default: the ECF's rating categories, "a draw against an
    opponent with the players last full rating"), or the higher of it and the usual nominal
    (``"higher"``, :data:`RETURNING_NOMINALS`).

    >>> nominal_rating(), nominal_rating(age=12), nominal_rating(age=12, quickplay=True)
    (1800.0, 1200.0, 1100.0)
    >>> nominal_rating(last_full_rating=1500), nominal_rating(last_full_rating=1500,
    ...     returning="higher")
    (1500.0, 1800.0)

    Raises:
        GradeError: ``age`` is not a whole number of years, or a rating is not one.
        SettingError: unknown ``returning``.
    """
    _one_of(returning, RETURNING_NOMINALS, "returning-player rule")
    base = float(age * NOMINAL_PER_YEAR) if is_junior(age) and age is not None else NOMINAL_ADULT
    if quickplay:
        base -= NOMINAL_QUICKPLAY_LESS
    last = None if last_full_rating is None else _rating(last_full_rating, "last full rating")
    return float(nominal_rating_from(base, last, returning))


def nominal_rating_from(
    usual: float, last_full_rating: float | None, returning: ReturningNominal = "last"
) -> float:
    """The fictional opponent of a player whose usual nominal (by age and list) is ``usual``:
    :func:`nominal_rating`'s rule for a returning player, from figures already checked."""
    if last_full_rating is None:
        return usual
    return max(usual, last_full_rating) if returning == "higher" else last_full_rating


def performance_difference(p: float, method: PMethod = "fide-8.1a") -> float:
    """The P method's difference added to the average opponent rating, for a fractional score.

    ``"fide-8.1a"`` (default, a decision: :data:`DECISIONS`): dp from FIDE table 8.1a, p rounded
    to 0.01 (:func:`xlgrade.elo.dp_from_score`). ``"logistic"``: 400 · log10(p / (1 − p)).
    ``"linear-400"``: the "algorithm of 400" — each win the opponent's rating + 400, each loss
    − 400 — which is 400 · (2p − 1). The fictional draw keeps p strictly between 0 and 1.

    Raises:
        GradeError: ``p`` is not strictly between 0 and 1 (``"logistic"``) or not in 0 … 1.
        SettingError: unknown ``method``.
    """
    m = _p_method(method)
    x = _score(p, "fractional score")
    if m == "fide-8.1a":
        return float(elo.dp_from_score(x))
    if m == "linear-400":
        return _LINEAR_SCALE * (2.0 * x - 1.0)
    if not 0.0 < x < 1.0:
        raise GradeError(f"fractional score {quote(p)} must be strictly between 0 and 1")
    return _LOGISTIC_SCALE * math.log10(x / (1.0 - x))


@dataclass(frozen=True)
class PRating:
    """A P-method rating, with the figures a grader checks it by.

    Attributes:
        rating: the rating, a whole number.
        games: the rated games it is on (the fictional draw not counted).
        partial: fewer than :data:`FULL_RATING_GAMES` games.
        nominal: the fictional opponent's rating.
        average: Ra, the average rating of the opponents and the fictional opponent.
        fraction: p, the score (with the fictional draw's ½) over the games + 1.
        difference: the difference added to Ra (dp, for table 8.1a).
    """

    rating: int
    games: int
    partial: bool
    nominal: float
    average: float
    fraction: float
    difference: float


def _p_from_sums(
    opponents: float, score: float, games: int, nominal: float, method: PMethod
) -> PRating:
    n = games + 1
    average = (opponents + nominal) / n
    fraction = (score + 0.5) / n
    difference = performance_difference(fraction, method)
    rating = round_half_away(average + difference)
    return PRating(rating, games, games < FULL_RATING_GAMES, nominal, average, fraction, difference)


def p_rating(
    opponent_ratings: Sequence[float],
    scores: Sequence[float],
    nominal: float = NOMINAL_ADULT,
    *,
    method: PMethod = "fide-8.1a",
) -> PRating:
    """The P-method rating of a set of games, with the fictional draw.

    Help page: "based solely on performance versus opponents ratings without reference to
    any previous rating. ECF includes a fictional draw against a fictional opponent of nominal
    rating". With the default formula (a decision): Ra = (Σ opponents + nominal) / (n + 1),
    p = (W + ½) / (n + 1), rating = Ra + dp(p), rounded to a whole number.

    By hand: opponents 1700, 1500, 1600, 1800 scoring 1, ½, 1, 0 and the draw against 1800:
    Ra = 8400 / 5 = 1680, p = 3 / 5 = 0.60, dp 72 → 1752, partial (4 games).

    Raises:
        GradeError: the lists do not pair up, a score is not between 0 and 1, or a rating is
            not a number from :data:`MIN_RATING` to :data:`MAX_RATING`.
        SettingError: unknown ``method``.
    """
    opponents = [_rating(o, "opponent rating") for o in opponent_ratings]
    points = [_score(s) for s in scores]
    if len(opponents) != len(points):
        raise GradeError(
            f"{quote(len(opponents))} opponent ratings but {quote(len(points))} scores: they must "
            f"pair up"
        )
    nom = _rating(nominal, "nominal rating")
    return _p_from_sums(math.fsum(opponents), math.fsum(points), len(points), nom, method)


def category(*, results_in_12_months: int, active: bool, partial: bool) -> Category:
    """A rating's category on the list.

    ECF rating categories: "Category A — A player who has 30 or more rated results in the
    previous 12 calendar months"; "Category K — All ratings of players not qualifying as A …
    that will be updated by the K-method"; "Category P — All ratings of players with active
    ratings that will be updated by the P-method"; "Unrated — Any K or P rating where the
    player has no rated result in the previous 36 calendar months" (``active=False``: ``""``).
    A partial rating is updated by the P method, so it is P whatever its count. (Category H,
    for ratings inherited in 2020 and never played on, ended in December 2022 and is not kept.)

    >>> category(results_in_12_months=31, active=True, partial=False)
    'A'
    """
    if not active:
        return ""
    if partial:
        return "P"
    return "A" if results_in_12_months >= CATEGORY_A_RESULTS else "K"


def month_index(day: dt.date) -> int:
    """The calendar month holding ``day``, as a whole number (year × 12 + month − 1)."""
    return day.year * 12 + day.month - 1


def month_start(index: int) -> dt.date:
    """The first day of the month :func:`month_index` numbers ``index``."""
    return dt.date(index // 12, index % 12 + 1, 1)


@dataclass(frozen=True)
class RatingSettings:
    """The choices of the ECF rating where its pages are silent or have changed.

    Attributes:
        p_method: the P method's formula (:data:`P_METHODS`).
        partial_opponent: :data:`PARTIAL_OPPONENT_RULES`.
        k_adult, k_junior: the K method's k (20 and 40).
        junior_k: :data:`JUNIOR_K_RULES`.
        returning_nominal: :data:`RETURNING_NOMINALS`.
        partial_nominal: :data:`PARTIAL_NOMINALS`.
        rounding: :data:`RATING_ROUNDINGS`.
    """

    p_method: PMethod = "fide-8.1a"
    partial_opponent: PartialOpponentRule = "full"
    k_adult: float = K_ADULT
    k_junior: float = K_JUNIOR
    junior_k: JuniorK = "performance"
    returning_nominal: ReturningNominal = "last"
    partial_nominal: PartialNominal = "first"
    rounding: RatingRounding = "change"

    def __post_init__(self) -> None:
        _one_of(self.rounding, RATING_ROUNDINGS, "rounding rule")
        _p_method(self.p_method)
        _partial_rule(self.partial_opponent)
        _one_of(self.junior_k, JUNIOR_K_RULES, "junior-k rule")
        _one_of(self.returning_nominal, RETURNING_NOMINALS, "returning-player rule")
        _one_of(self.partial_nominal, PARTIAL_NOMINALS, "partial-player nominal rule")
        for what, k in (("k_adult", self.k_adult), ("k_junior", self.k_junior)):
            if not finite(k, what) > 0:
                raise SettingError(f"{what} {quote(k)} must be a positive number")


@dataclass(frozen=True)
class RatingState:
    """Every player's standing on one list (standard or rapid) at the start of a month.

    Arrays have one entry per player. Attributes:
        month: the month about to be rated (:func:`month_index`).
        rating: the published rating; NaN for a player with none.
        full: the rating is a full rating (the player is rated by the K method next).
        last_full: the player's last full rating; NaN for none.
        last_month: the month of his last rated game; :data:`NO_MONTH` for none.
        pool_opponents, pool_score, pool_games: the sums over the rated games of a P-method
            player so far (opponents' ratings as used, score, count).
        pool_nominal: the fictional opponent of those games; NaN until he first plays.
        recent: rated results per month for the last 12 months, ``recent[m % 12]`` for
            month ``m`` (category A).
    """

    month: int
    rating: FloatArray
    full: BoolArray
    last_full: FloatArray
    last_month: IntArray
    pool_opponents: FloatArray
    pool_score: FloatArray
    pool_games: IntArray
    pool_nominal: FloatArray
    recent: tuple[IntArray, ...] = field(repr=False)
    recent_total: IntArray = field(repr=False)
    """The sum of :attr:`recent`: rated results in the last 12 months."""

    @property
    def players(self) -> int:
        """How many players the state holds."""
        return int(self.rating.size)

    def active(self) -> BoolArray:
        """Who has a rating to be rated from this month: a rated result in the prior 36 months.

        Help page: "Fully Rated Players — All players who have a prior period Full Rating and
        have played at least one rated game in the prior 36 months"; likewise partially rated
        players; everyone else who plays is a New Player, "this will include returning
        players".
        """
        return np.isfinite(self.rating) & (self.last_month >= self.month - UNRATED_AFTER_MONTHS)

    def categories(self) -> npt.NDArray[np.str_]:
        """Each player's category on the list issued on the first day of :attr:`month`."""
        listed = self.last_month >= self.month - UNRATED_AFTER_MONTHS
        listed &= np.isfinite(self.rating)
        # A full rating is K (2) or, on 30 results, A (3); a partial one P (1).
        code = self.full * (1 + (self.recent_total >= CATEGORY_A_RESULTS)) + 1
        code *= listed
        out: npt.NDArray[np.str_] = _CATEGORIES[code]
        return out


def _floats(values: npt.ArrayLike | None, n: int, what: str, default: float) -> FloatArray:
    if values is None:
        return np.full(n, default, dtype=np.float64)
    arr = np.asarray(values, dtype=np.float64)
    if arr.shape != (n,):
        raise GradeError(f"{what} must have one value per player ({n} players)")
    return arr.copy()


def start_state(
    month: int,
    rating: npt.ArrayLike,
    *,
    full: npt.ArrayLike | None = None,
    last_full: npt.ArrayLike | None = None,
    last_month: npt.ArrayLike | None = None,
    games: npt.ArrayLike | None = None,
    score: npt.ArrayLike | None = None,
    opposition: npt.ArrayLike | None = None,
    recent_results: npt.ArrayLike | None = None,
) -> RatingState:
    """The state at the start of ``month`` from a published list.

    Args:
        month: the first month to rate (:func:`month_index`).
        rating: each player's rating; NaN for none.
        full: whether it is a full rating (default: every rating given is full).
        last_full: the last full rating (default: the rating where it is full).
        last_month: the month of the last rated game (default: the month before ``month``
            for a player with a rating — he is on the current list — and none otherwise).
        games: for a partial rating, the rated games it is on (default 0). The P method counts
            them in every month he is rated by it until he has 10 (docs/rules.md §12: "a
            performance over all rated games").
        score: his score over those games (NaN or not given: half of them, a decision:
            ``DECISIONS["starting-partial"]``).
        opposition: the average rating of their opponents (NaN or not given: his rating,
            the same decision: his list figure standing for them).
        recent_results: rated results in the 12 months before ``month`` (category A): one
            count per player, counted in the month before, or a count per month and player
            (shape 12 × players, the oldest month first), each leaving the 12 months as its
            month does.

    Raises:
        GradeError: arrays of the wrong length, a full rating that is not a number, a negative
            count.
    """
    r = np.asarray(rating, dtype=np.float64).copy()
    if r.ndim != 1:
        raise GradeError("rating must be one rating per player")
    n = r.size
    rated = np.isfinite(r)
    f = rated.copy() if full is None else np.asarray(full, dtype=np.bool_).copy()
    if f.shape != (n,):
        raise GradeError(f"full must have one value per player ({n} players)")
    if bool(np.any(f & ~rated)):
        bad = int(np.flatnonzero(f & ~rated)[0])
        raise GradeError(f"player {bad}: a full rating {quote(r[bad])} must be a number")
    lf = np.where(f, r, np.nan) if last_full is None else _floats(last_full, n, "last_full", 0)
    if last_month is None:
        lm = np.where(rated, month - 1, NO_MONTH).astype(np.int64)
    else:
        lm = np.asarray(last_month, dtype=np.int64).copy()
        if lm.shape != (n,):
            raise GradeError(f"last_month must have one value per player ({n} players)")
    g = np.zeros(n, dtype=np.int64) if games is None else np.asarray(games, dtype=np.int64)
    if g.shape != (n,) or bool(np.any(g < 0)):
        raise GradeError(f"games must be one count of 0 or more per player ({n} players)")
    seed = (~f & rated).astype(np.int64) * g
    # The earlier games' sums: as given, else his rating at 50 % (DECISIONS).
    points = _floats(score, n, "score", np.nan)
    points = np.where(np.isnan(points), seed * 0.5, points)
    average = _floats(opposition, n, "opposition", np.nan)
    average = np.where(np.isnan(average), r, average)
    if bool(np.any((seed > 0) & ((points < 0) | (points > seed)))):
        bad = int(np.flatnonzero((seed > 0) & ((points < 0) | (points > seed)))[0])
        raise GradeError(
            f"player {bad}: a score of {quote(float(points[bad]))} is not possible in "
            f"{int(seed[bad])} games"
        )
    none = np.zeros(n, dtype=np.int64)
    by_month = np.zeros((CATEGORY_A_MONTHS, n), dtype=np.int64)
    if recent_results is not None:
        given = np.asarray(recent_results, dtype=np.int64)
        if given.shape == (n,):
            by_month[-1] = given
        elif given.shape == (CATEGORY_A_MONTHS, n):
            by_month = given.copy()
        else:
            raise GradeError(
                f"recent_results must be one count per player ({n}), or one per month of the "
                f"{CATEGORY_A_MONTHS} before and player"
            )
        if bool(np.any(by_month < 0)):
            raise GradeError(f"recent_results must be counts of 0 or more ({n} players)")
    counts = by_month.sum(axis=0)
    # Row i is month (month - 12 + i): its slot is that month modulo 12.
    recent = tuple(
        by_month[(slot - month) % CATEGORY_A_MONTHS] if by_month.any() else none
        for slot in range(CATEGORY_A_MONTHS)
    )
    return RatingState(
        month=month,
        rating=r,
        full=f,
        last_full=lf,
        last_month=lm,
        pool_opponents=np.where(seed > 0, average * seed, 0.0),
        pool_score=np.where(seed > 0, points, 0.0).astype(np.float64),
        pool_games=seed,
        pool_nominal=np.full(n, np.nan),
        recent=recent,
        recent_total=counts.copy(),
    )


_T = TypeVar("_T")


class _Later:
    """Fields of a :class:`MonthResult` worked out when one of them is first read:
    ``make(result)`` gives them all by name (the per-game figures share one working)."""

    __slots__ = ("made", "make")

    def __init__(self, make: Callable[[MonthResult], dict[str, Any]]) -> None:
        self.make = make
        self.made: dict[str, Any] | None = None

    def value(self, result: MonthResult, name: str) -> Any:
        if self.made is None:
            self.made = self.make(result)
        return self.made[name]


class _Deferred(Generic[_T]):
    """A :class:`MonthResult` field that may be given as a :class:`_Later`: read, it is its
    value, worked out the first time and kept. The field has no default."""

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> _Deferred[_T]: ...
    @overload
    def __get__(self, instance: object, owner: type[Any]) -> _T: ...
    def __get__(self, instance: object | None, owner: type[Any]) -> _Deferred[_T] | _T:
        if instance is None:
            # dataclass reads an AttributeError here as "no default".
            raise AttributeError(self.name)
        value = instance.__dict__[self.name]
        if isinstance(value, _Later):
            assert isinstance(instance, MonthResult)
            value = value.value(instance, self.name)
            instance.__dict__[self.name] = value
        return value  # type: ignore[no-any-return]

    def __set__(self, instance: object, value: _T | _Later) -> None:
        instance.__dict__[self.name] = value


@dataclass(frozen=True)
class MonthResult:
    """One month rated: the state after it and the figures a grader checks, per player and per
    game.

    Per player (arrays of :attr:`RatingState.players`):
        method: ``"K"``, ``"P"`` or ``""`` (did not play).
        rating_a, rating_b: the P method's pass-1 and pass-2 figures (NaN for others).
        rating: the rating after the month (unchanged for a player who did not play).
        change: the K method's unrounded k(W − We) (NaN for others).
        k: the K method's k (NaN for others).
        score, expected, games: W, We (K method; NaN for others) and the games of the month.
        nominal: the P method's fictional opponent (NaN for others).
        p_games: the games a P rating is on (0 for others).
        category: the category on the next list.
    Per game (arrays of the games, in the order given):
        white_opponent, black_opponent: the rating each side's calculation used for the
            other side (pass 3 for a K-method player, pass 2 for a P-method one).
        white_expected, black_expected: each side's expected score (K method; NaN for P).
        white_k, black_k: the k each side's game counted with (K method; NaN for P).
    :func:`rate_month` works the per-game figures out when one of them is first read (from the
    state before the month, the games and the per-player figures), and keeps them; a month
    rated holds little more than its per-player figures until then.
    """

    state: RatingState
    method: npt.NDArray[np.str_]
    rating_a: FloatArray
    rating_b: FloatArray
    rating: FloatArray
    change: FloatArray
    k: FloatArray
    score: FloatArray
    expected: FloatArray
    games: IntArray
    nominal: FloatArray
    p_games: IntArray
    category: npt.NDArray[np.str_]
    white_opponent: _Deferred[FloatArray] = _Deferred()
    black_opponent: _Deferred[FloatArray] = _Deferred()
    white_expected: _Deferred[FloatArray] = _Deferred()
    black_expected: _Deferred[FloatArray] = _Deferred()
    white_k: _Deferred[FloatArray] = _Deferred()
    black_k: _Deferred[FloatArray] = _Deferred()


def _game_figures(
    before: FloatArray, w: IndexArray, b: IndexArray, half: bool, result: MonthResult
) -> dict[str, FloatArray]:
    """A month's per-game figures (:class:`MonthResult`) from the ratings ``before`` it, its
    games ``w``, ``b``, whether a partial opponent counts half (``half``) and its per-player
    figures: the same arrays, worked the same way, as :func:`rate_month_unchecked`'s passes
    use."""
    p_player, k_player = result.method == "P", result.method == "K"
    fig2 = np.where(p_player, result.rating_a, before)
    fig3 = np.where(p_player, result.rating_b, before)
    rw, rb = fig3[w], fig3[b]
    ew = elo.expected_score_array_unchecked(rw, rb)
    eb = (100.0 - np.round(ew * 100.0)) / 100.0
    partial_b = p_player & (result.p_games < FULL_RATING_GAMES)
    share_w = np.where(half & partial_b[b], PARTIAL_OPPONENT_SHARE, 1.0)
    share_b = np.where(half & partial_b[w], PARTIAL_OPPONENT_SHARE, 1.0)
    # A K-method player's k is his k of the month (MonthResult.k; NaN for the others).
    k_w, k_b = k_player[w], k_player[b]
    return {
        "white_opponent": np.where(k_w, rb, fig2[b]),
        "black_opponent": np.where(k_b, rw, fig2[w]),
        "white_expected": np.where(k_w, ew, np.nan),
        "black_expected": np.where(k_b, eb, np.nan),
        "white_k": np.where(k_w, result.k[w] * share_w, np.nan),
        "black_k": np.where(k_b, result.k[b] * share_b, np.nan),
    }


def _round_array(x: FloatArray) -> FloatArray:
    """Whole numbers, .5 away from zero (as :func:`xlgrade._rounding.round_half_away`)."""
    out = np.abs(x)
    out += 0.5
    out += _GUARD
    np.floor(out, out=out)
    return np.copysign(out, x, out=out)


def _difference_array(p: FloatArray, method: PMethod) -> FloatArray:
    if method == "fide-8.1a":
        return _TABLE_8_1A_ARRAY[np.floor(p * 100.0 + 0.5 + _GUARD).astype(np.intp)]
    if method == "linear-400":
        return _LINEAR_SCALE * (2.0 * p - 1.0)
    return _LOGISTIC_SCALE * np.log10(p / (1.0 - p))


def _month_inputs(
    state: RatingState,
    white: npt.ArrayLike,
    black: npt.ArrayLike,
    score: npt.ArrayLike,
    junior: npt.ArrayLike,
    nominal: npt.ArrayLike,
) -> tuple[IndexArray, IndexArray, FloatArray, BoolArray, FloatArray]:
    n = state.players
    # A month without games: [] is read as no player indices rather than as no floats.
    white = white if np.size(white) else np.zeros(0, dtype=np.intp)
    black = black if np.size(black) else np.zeros(0, dtype=np.intp)
    _, w, b, s = period_arrays(np.zeros(n), white, black, score)
    if bool(np.any(w == b)):
        i = int(np.flatnonzero(w == b)[0])
        raise GradeError(f"game {i}: player {int(w[i])} cannot play himself")
    jr = np.asarray(junior, dtype=np.bool_)
    jr = np.broadcast_to(jr, (n,)).copy() if jr.ndim == 0 else jr
    if jr.shape != (n,):
        raise GradeError(f"junior must be one value, or one per player ({n} players)")
    nom = per_player(nominal, "nominal", n, require_finite=True)
    return w, b, s, jr, nom


def _recent(state: RatingState, games: IntArray) -> tuple[tuple[IntArray, ...], IntArray]:
    """The 12 months' counts with this month's ``games`` in place of the month 12 before, and
    their new total (the other months' arrays are shared, not copied)."""
    slot = state.month % CATEGORY_A_MONTHS
    recent = tuple(games if i == slot else a for i, a in enumerate(state.recent))
    return recent, state.recent_total - state.recent[slot] + games


def rate_month(
    state: RatingState,
    white: npt.ArrayLike,
    black: npt.ArrayLike,
    score: npt.ArrayLike,
    *,
    junior: npt.ArrayLike = False,
    nominal: npt.ArrayLike = NOMINAL_ADULT,
    settings: RatingSettings | None = None,
) -> MonthResult:
    """Rate one calendar month of games on one list: the three passes, over arrays.

    Game ``i`` is between players ``white[i]`` and ``black[i]`` (indices into the state),
    ``score[i]`` white's score; only games of :attr:`RatingState.month` are to be given.
    ``junior`` (one value or one per player) gives k 40; ``nominal`` is each player's usual
    fictional opponent this month (:func:`nominal_rating` without the last full rating, which
    is taken from the state). The passes follow the help page (module docstring):

    1. every P-method player's P rating from the games and his earlier ones, opponents at
       their published ratings (a new opponent at his nominal opponent's rating) → "A";
    2. again, with new and partially rated opponents at their "A" → "B";
    3. every fully rated player's K rating, new and partially rated opponents at their "B".

    A P-method player on 10 or more games has a full rating and is rated by the K method from
    the next month. The numbers equal those of the month worked game by game with the scalar
    rules (``tests/rating_by_game.py``).

    Raises:
        GradeError: arrays of the wrong shape or with values out of range.
        SettingError: invalid ``settings``.
    """
    w, b, s, jr, nom = _month_inputs(state, white, black, score, junior, nominal)
    return rate_month_unchecked(state, w, b, s, junior=jr, nominal=nom, settings=settings)


def rate_month_unchecked(
    state: RatingState,
    white: IndexArray,
    black: IndexArray,
    score: FloatArray,
    *,
    junior: BoolArray,
    nominal: FloatArray,
    settings: RatingSettings | None = None,
) -> MonthResult:
    """:func:`rate_month` of arrays its checks have passed, or a caller's of its own: ``white``
    and ``black`` integer indices into the state (taken as numpy's index type, ``np.intp``),
    never the same in one game; ``score`` float64 from 0 to 1, one per game; ``junior``
    (bool) and ``nominal`` (finite float64) one per player. Nothing is checked again (a
    season's months, each rated from arrays the season's checks made,
    :mod:`xlgrade.season.rating`); anything else gives wrong numbers or an IndexError, never a
    message. The numbers are :func:`rate_month`'s.
    """
    cfg = settings or RatingSettings()
    # As numpy's index type (no copy where they are already): a caller's int64 indices are
    # refused by np.bincount on a 32-bit platform.
    w, b = np.asarray(white, dtype=np.intp), np.asarray(black, dtype=np.intp)
    s, jr, nom = score, junior, nominal
    n = state.players
    m = state.month
    games = (np.bincount(w, minlength=n) + np.bincount(b, minlength=n)).astype(np.int64, copy=False)
    played = games > 0
    active = state.active()
    k_player = played & active & state.full
    p_player = played & ~k_player
    new = p_player & ~active
    # A new player's earlier P games are not his: the pool starts again.
    pool_o = np.where(new, 0.0, state.pool_opponents)
    pool_s = np.where(new, 0.0, state.pool_score)
    pool_g = np.where(new, 0, state.pool_games).astype(np.int64, copy=False)
    if cfg.returning_nominal == "higher":
        returning = np.fmax(nom, state.last_full)
    else:
        returning = np.where(np.isfinite(state.last_full), state.last_full, nom)
    keep_first = cfg.partial_nominal == "first"
    fresh = new | np.isnan(state.pool_nominal) | (not keep_first)
    p_nominal = np.where(p_player, np.where(fresh, returning, state.pool_nominal), np.nan)
    # bincount's sums are float64 already (astype does not copy them).
    black_s = 1.0 - s
    month_score = (np.bincount(w, s, n) + np.bincount(b, black_s, n)).astype(np.float64, copy=False)
    total_g = pool_g + games
    tot_score = pool_s + month_score + 0.5
    div = (total_g + 1).astype(np.float64)
    # The score's difference (dp) and the fictional opponent are the same in both passes.
    difference = _difference_array(tot_score / div, cfg.p_method)
    fictional = np.where(p_player, p_nominal, 0.0)

    # A pass's sums are used for the P-method players alone, so only the games they are in as
    # white (as black) are added up: each player's sums take the same games in the same order.
    p_white, p_black = np.flatnonzero(p_player[w]), np.flatnonzero(p_player[b])
    w_p, b_of_w_p = w[p_white], b[p_white]
    b_p, w_of_b_p = b[p_black], w[p_black]

    def p_pass(figure: FloatArray) -> tuple[FloatArray, FloatArray]:
        """A pass's P ratings, and the sums of the opponents' figures it used (each P-method
        player's; 0 for the others)."""
        opp = (
            np.bincount(w_p, figure[b_of_w_p], n) + np.bincount(b_p, figure[w_of_b_p], n)
        ).astype(np.float64, copy=False)
        rating = _round_array((pool_o + opp + fictional) / div + difference)
        return np.where(p_player, rating, np.nan), opp

    fig1 = np.where(active, state.rating, np.where(p_player, p_nominal, np.nan))
    rating_a, _ = p_pass(fig1)
    fig2 = np.where(p_player, rating_a, state.rating)
    rating_b, opp2 = p_pass(fig2)
    fig3 = np.where(p_player, rating_b, state.rating)
    partial_b = p_player & (total_g < FULL_RATING_GAMES)
    # Everyone who played has a figure here (a K-method player his rating, a P-method one his
    # "B"), so every game's two figures are numbers.
    rw, rb = fig3[w], fig3[b]
    # Expected scores for every game; only the K-method sides' are used. Table 8.1b's two
    # expected scores of a game are whole hundredths adding to 1 (the 400-point cap is the same
    # both ways), so black's is worked from white's hundredths, as the table gives it.
    ew = elo.expected_score_array_unchecked(rw, rb)
    eb = (100.0 - np.round(ew * 100.0)) / 100.0
    half = cfg.partial_opponent == "half"
    share_w = np.where(half & partial_b[b], PARTIAL_OPPONENT_SHARE, 1.0)
    share_b = np.where(half & partial_b[w], PARTIAL_OPPONENT_SHARE, 1.0)
    # The month's sum of (score − expected), each game as it counts: its sign decides a
    # junior's k (k_factor), and k times it is the change. A player's sums take his own games
    # alone, so a K-method player's are of K-method sides only; the others' sums (and the k,
    # change and We worked from them) are not used.
    unit = np.bincount(w, share_w * (s - ew), n) + np.bincount(b, share_b * (black_s - eb), n)
    junior_40 = jr & (np.round(unit, 10) > 0) if cfg.junior_k == "performance" else jr
    kk = np.where(junior_40, float(cfg.k_junior), float(cfg.k_adult))
    raw_change = np.round(kk * unit, 10)
    change = np.where(k_player, raw_change, np.nan)
    expected = np.where(
        k_player,
        np.bincount(w, ew, n) + np.bincount(b, eb, n),
        np.nan,
    )
    k_new = _round_array(
        state.rating + (raw_change if cfg.rounding == "rating" else _round_array(raw_change))
    )
    after = np.where(k_player, k_new, np.where(p_player, rating_b, state.rating))
    # The P pool takes in the month's games at the figures pass 2 used (those of "B": opp2).
    now_full = np.where(p_player, total_g >= FULL_RATING_GAMES, state.full)
    keep_pool = p_player & ~now_full
    recent, recent_total = _recent(state, games)
    # The per-game figures, when first read: from the state before, the games and the figures
    # below (MonthResult).
    later = _Later(functools.partial(_game_figures, state.rating, w, b, half))
    next_state = RatingState(
        month=m + 1,
        rating=after,
        full=now_full,
        last_full=np.where(played & now_full, after, state.last_full),
        last_month=np.where(played, m, state.last_month).astype(np.int64, copy=False),
        pool_opponents=np.where(keep_pool, pool_o + opp2, np.where(p_player, 0.0, pool_o)),
        pool_score=np.where(keep_pool, pool_s + month_score, np.where(p_player, 0.0, pool_s)),
        pool_games=np.where(keep_pool, total_g, np.where(p_player, 0, pool_g)).astype(
            np.int64, copy=False
        ),
        pool_nominal=np.where(keep_pool, p_nominal, np.where(p_player, np.nan, state.pool_nominal)),
        recent=recent,
        recent_total=recent_total,
    )
    return MonthResult(
        state=next_state,
        method=_METHODS[p_player + 2 * k_player],
        rating_a=rating_a,
        rating_b=rating_b,
        rating=after,
        change=change,
        k=np.where(k_player, kk, np.nan),
        score=month_score,
        expected=expected,
        games=games,
        nominal=p_nominal,
        p_games=np.where(p_player, total_g, 0).astype(np.int64, copy=False),
        category=next_state.categories(),
        white_opponent=later,
        black_opponent=later,
        white_expected=later,
        black_expected=later,
        white_k=later,
        black_k=later,
    )
