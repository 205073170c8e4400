"""FIDE Elo: expected scores, K factors, rating changes, initial and performance ratings.

Rules from docs/rules.md §9 and the FIDE Rating Regulations. The expected score comes
from FIDE table 8.1b by default — "FIDE uses a table … derived from the normal distribution"
— with the logistic curve 1/(1 + 10^(−D/400)) as a setting. The change for a period is
K · Σ(score − expected), rounded to a whole number at the end of the period, .5 away from zero.

The cap on a rating difference (the "400-point rule") changed over the years, so each edition
is a named :class:`DifferenceRule`; the K factor policies are named too (:data:`K_POLICIES`).

>>> expected_score(1778, 1828)
0.43
>>> new_rating(1778, [1828, 2178, 1678, 1728, 1978, 2078], [0.5, 0, 1, 0.5, 1, 0], k=45)
1818
>>> dp_from_score(0.70)
149
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from xlgrade._arrays import FloatArray, IntArray, per_player, period_arrays
from xlgrade._rounding import finite, finite_sequence, quote, round_half_away
from xlgrade.errors import GradeError, SettingError

__all__ = [
    "DIFFERENCE_RULES",
    "FLOORS",
    "FLOOR_2022",
    "FLOOR_2024",
    "INITIAL_METHODS",
    "K_POLICIES",
    "NO_CAP",
    "RULE_350",
    "RULE_400",
    "RULE_400_2022",
    "RULE_400_2025",
    "RULE_RAPID_BLITZ",
    "TABLE_8_1A",
    "TABLE_8_1B",
    "DifferenceRule",
    "EloPeriod",
    "InitialMethod",
    "InitialRating",
    "KPolicy",
    "Method",
    "below_floor",
    "dp_from_score",
    "expected_score",
    "expected_score_array",
    "expected_score_array_unchecked",
    "initial_rating",
    "is_rated_game",
    "is_rated_game_array",
    "k_factor",
    "march_2024_adjustment",
    "march_2024_adjustment_array",
    "new_rating",
    "performance_rating",
    "rate_period_elo",
    "rating_change",
    "table_expected",
]

# FIDE Rating Regulations, table 8.1(a): "conversion from fractional score, p, into rating
# differences, dp". Keyed by p in hundredths (0 … 100). Editions up to 2022 print p = 1.0
# and p = .00 as indeterminate; the 2024 regulations give ±800.
TABLE_8_1A: Final[dict[int, int]] = {
    100: 800, 99: 677, 98: 589, 97: 538, 96: 501, 95: 470, 94: 444, 93: 422, 92: 401,
    91: 383, 90: 366, 89: 351, 88: 336, 87: 322, 86: 309, 85: 296, 84: 284, 83: 273,
    82: 262, 81: 251, 80: 240, 79: 230, 78: 220, 77: 211, 76: 202, 75: 193, 74: 184,
    73: 175, 72: 166, 71: 158, 70: 149, 69: 141, 68: 133, 67: 125, 66: 117, 65: 110,
    64: 102, 63: 95, 62: 87, 61: 80, 60: 72, 59: 65, 58: 57, 57: 50, 56: 43, 55: 36,
    54: 29, 53: 21, 52: 14, 51: 7, 50: 0,
    49: -7, 48: -14, 47: -21, 46: -29, 45: -36, 44: -43, 43: -50, 42: -57, 41: -65,
    40: -72, 39: -80, 38: -87, 37: -95, 36: -102, 35: -110, 34: -117, 33: -125, 32: -133,
    31: -141, 30: -149, 29: -158, 28: -166, 27: -175, 26: -184, 25: -193, 24: -202,
    23: -211, 22: -220, 21: -230, 20: -240, 19: -251, 18: -262, 17: -273, 16: -284,
    15: -296, 14: -309, 13: -322, 12: -336, 11: -351, 10: -366, 9: -383, 8: -401, 7: -422,
    6: -444, 5: -470, 4: -501, 3: -538, 2: -589, 1: -677, 0: -800,
}  # fmt: skip
"""FIDE table 8.1a: p in hundredths → dp (101 entries)."""

# FIDE Rating Regulations, table 8.1(b): "conversion of difference in rating, D, into scoring
# probability PD, for the higher, H, and the lower, L, rated player respectively". Each row is
# (largest D of the row, PD for H in hundredths); L scores 100 minus that. Above 735: 1.00.
TABLE_8_1B: Final[tuple[tuple[int, int], ...]] = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57),
    (61, 58), (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65),
    (121, 66), (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73),
    (188, 74), (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81),
    (267, 82), (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89),
    (374, 90), (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97),
    (619, 98), (735, 99),
)  # fmt: skip
"""FIDE table 8.1b: (upper end of the difference range, PD of the higher-rated player × 100)."""

_TABLE_8_1B_TOP: Final = 100
"""Table 8.1b's last row: "> 735 — 1.0 / .00"."""
_UPPER_ENDS: Final = [upper for upper, _ in TABLE_8_1B]
# PD × 100 for every whole difference 0 … 736 (736 standing for everything above 735).
_PD_BY_DIFFERENCE: Final = np.array(
    [TABLE_8_1B[bisect.bisect_left(_UPPER_ENDS, d)][1] for d in range(736)] + [_TABLE_8_1B_TOP],
    dtype=np.int64,
)

_LOGISTIC_SCALE: Final = 400.0
"""Logistic expected score 1/(1 + 10^(−D/400)) (docs/rules.md §9; Elo's 400)."""

Method = Literal["table", "logistic"]
"""How an expected score is found: FIDE table 8.1b (``"table"``) or the logistic curve."""


@dataclass(frozen=True)
class DifferenceRule:
    """An edition of FIDE's cap on the rating difference used for an expected score.

    Attributes:
        name: the setting's name (a key of :data:`DIFFERENCE_RULES`).
        cap: a larger difference counts as this many points; ``None`` for no cap.
        uncapped_from: players rated this much or more are not capped (the October 2025
            edition's 2650); ``None`` when every player is capped.
        source: where the edition comes from.
        once_per_event: the higher-rated player has the cap in one game of an event only,
            the one with the greatest difference (the January 2022 edition); the lower-rated
            player is capped in every game.
        not_rated_gap: a game with a difference this large or larger is not rated when a
            player in it is rated above ``not_rated_above`` (the rapid and blitz chapter from
            1 December 2024: 600 and 2600); ``None`` when every game is rated.
        not_rated_above: see ``not_rated_gap``.
    """

    name: str
    cap: float | None
    uncapped_from: float | None
    source: str
    once_per_event: bool = False
    not_rated_gap: float | None = None
    not_rated_above: float | None = None

    def apply(self, difference: float, rating: float) -> float:
        """``difference`` (own rating minus opponent's) as this edition counts it for ``rating``.

        Under a once-per-event edition one game alone is an event, so its difference is capped
        (the event's one upgrade); :func:`rating_change` and :func:`rate_period_elo` choose the
        game of the upgrade among an event's games.
        """
        if self.cap is None:
            return difference
        if self.uncapped_from is not None and rating >= self.uncapped_from:
            return difference
        return max(-self.cap, min(self.cap, difference))

    def rates(self, rating: float, opponent_rating: float) -> bool:
        """Whether a game between players so rated is rated at all under this edition."""
        if self.not_rated_gap is None or self.not_rated_above is None:
            return True
        return not (
            abs(rating - opponent_rating) >= self.not_rated_gap
            and max(rating, opponent_rating) > self.not_rated_above
        )


RULE_350: Final = DifferenceRule(
    "350",
    350.0,
    None,
    "FIDE Rating Regulations before 1 July 2009: a difference of more than 350 points counts "
    "as 350.",
)
"""The 350-point rule, in force until 30 June 2009."""
RULE_400: Final = DifferenceRule(
    "400",
    400.0,
    None,
    "FIDE Rating Regulations from 1 July 2009, 8.54: 'A difference in rating of more than 400 "
    "points shall be counted for rating purposes as though it were a difference of 400 points.'",
)
"""The 400-point rule (July 2009 – September 2025), the default: docs/rules.md §9 states it."""
RULE_400_2025: Final = DifferenceRule(
    "400-2025",
    400.0,
    2650.0,
    "FIDE Rating Regulations from 1 October 2025: the 400-point rule, except that a player rated "
    "2650 or more has no cap.",
)
"""The October 2025 edition: as :data:`RULE_400`, but no cap for a player rated 2650+."""
RULE_400_2022: Final = DifferenceRule(
    "400-2022",
    400.0,
    None,
    "FIDE Rating Regulations of 1 January 2022 till 29 February 2024, 8.3.1: the 400-point "
    "rule; 'In any tournament, a player may benefit from only one upgrade under this rule, for "
    "the game in which the rating difference is greatest.'",
    once_per_event=True,
)
"""The January 2022 edition: the 400-point rule, the higher-rated player's upgrade once an event."""
RULE_RAPID_BLITZ: Final = DifferenceRule(
    "rapid-blitz",
    400.0,
    None,
    "FIDE Rapid and Blitz Rating Regulations from 1 March 2024, 7.3.1: the 400-point rule for "
    "every player (no 2650 exemption); from 1 December 2024 'Games played between players with "
    "a rating difference of 600 points or more shall not be rated if at least one of the "
    "players is rated above 2600 on the relevant list.'",
    not_rated_gap=600.0,
    not_rated_above=2600.0,
)
"""The rapid and blitz chapter: the plain 400-point rule, and no rating of a game 600 or more
apart with a player above 2600 (from 1 December 2024)."""
NO_CAP: Final = DifferenceRule("none", None, None, "No cap: the whole of table 8.1b is used.")
"""No cap on the difference (the logistic curve of R's PlayerRatings ``fide()``, for example)."""

DIFFERENCE_RULES: Final[dict[str, DifferenceRule]] = {
    rule.name: rule
    for rule in (RULE_350, RULE_400, RULE_400_2022, RULE_400_2025, RULE_RAPID_BLITZ, NO_CAP)
}
"""The editions of the cap on a rating difference, by name."""


def _rule(rule: DifferenceRule | str) -> DifferenceRule:
    if isinstance(rule, DifferenceRule):
        return rule
    found = DIFFERENCE_RULES.get(rule) if isinstance(rule, str) else None
    if found is None:
        raise SettingError(
            f"rating difference rule {quote(rule)} unknown; use one of {sorted(DIFFERENCE_RULES)!r}"
        )
    return found


def _method(method: object) -> Method:
    if method == "table":
        return "table"
    if method == "logistic":
        return "logistic"
    raise SettingError(f"expected score method {quote(method)} unknown; use 'table' or 'logistic'")


def table_expected(difference: float) -> float:
    """FIDE table 8.1b: the expected score for a rating difference, own rating minus opponent's.

    No cap is applied (the caller applies the 400-point rule or its own). A positive difference
    gives the higher-rated player's PD ("H"), a negative one the lower-rated player's ("L"),
    which is 1 − PD. The table is for whole-point differences; a fractional difference is first
    rounded to a whole number, .5 away from zero. Above 735 the table gives 1.00.

    >>> table_expected(-400)
    0.08

    Raises:
        GradeError: ``difference`` is not a finite number.
    """
    d = finite(difference, "rating difference")
    whole = min(abs(round_half_away(d)), len(_PD_BY_DIFFERENCE) - 1)
    hundredths = int(_PD_BY_DIFFERENCE[whole])
    return (hundredths if d >= 0 else 100 - hundredths) / 100


def expected_score(
    rating: float,
    opponent_rating: float,
    *,
    method: Method = "table",
    rule: DifferenceRule | str = RULE_400,
) -> float:
    """Expected score of a player rated ``rating`` against one rated ``opponent_rating``.

    FIDE Rating Regulations 8.5: determine the difference D, count a difference over the cap
    as the cap (``rule``, default the 400-point rule), and "use table 8.1(b) to determine the
    player's score probability PD". ``method="logistic"`` uses 1/(1 + 10^(−D/400)) instead
    (docs/rules.md §9), with the same cap.

    Raises:
        GradeError: a rating is not a finite number.
        SettingError: unknown ``method`` or ``rule``.
    """
    r = finite(rating, "rating")
    o = finite(opponent_rating, "opponent rating")
    return _expected_one(_rule(rule).apply(r - o, r), _method(method))


def _expected_one(difference: float, method: Method) -> float:
    """The expected score for a difference already capped: table 8.1b or the logistic curve."""
    return table_expected(difference) if method == "table" else _logistic(difference)


def _logistic(difference: float) -> float:
    """1/(1 + 10^(−D/400)); 0 where 10^(−D/400) is beyond the largest float (a gap of over
    about 123,000 points), which is the curve's value to the last bit there."""
    try:
        power = math.pow(10.0, -difference / _LOGISTIC_SCALE)
    except OverflowError:
        return 0.0
    return 1.0 / (1.0 + power)


def dp_from_score(p: float) -> int:
    """FIDE table 8.1a: the rating difference dp for a fractional score ``p`` (0 … 1).

    ``p`` is rounded to two decimals, .005 away from zero, as the table lists p "to 0.01".
    p = 1.0 gives 800 and p = 0 gives −800 (2024 regulations).

    Raises:
        GradeError: ``p`` is not a number between 0 and 1.
    """
    x = finite(p, "fractional score")
    if not 0.0 <= x <= 1.0:
        raise GradeError(f"fractional score {quote(p)} is not between 0 and 1")
    return TABLE_8_1A[round_half_away(x * 100)]


KPolicy = Literal[
    "chesterfield",
    "fide-25-15-10",
    "fide-30-15-10",
    "fide-2014",
    "fide-2024",
    "fide-rapid-blitz-2014",
]
"""Name of a K factor policy (see :func:`k_factor`)."""
K_POLICIES: Final[tuple[KPolicy, ...]] = (
    "chesterfield",
    "fide-25-15-10",
    "fide-30-15-10",
    "fide-2014",
    "fide-2024",
    "fide-rapid-blitz-2014",
)
"""The K factor policies :func:`k_factor` knows."""
_NK_LIMIT: Final = 700
"""FIDE 2024, 8.3.3: "If the number of games (n) for a player on any list for a rating period
multiplied by K (as defined above) exceeds 700, then K shall be the largest whole number such
that K x n does not exceed 700."""


_RAPID_BLITZ_2014_K: Final = 20
"""FIDE 2014, 8.56: "K = 20 for RAPID and BLITZ ratings all players"."""


def _count(value: object, what: str) -> int:
    """A count of games as an int; :class:`GradeError` quoting it if it is not a whole number."""
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, float | np.floating):
        number = float(value)
        if math.isfinite(number) and number.is_integer():
            return int(number)
    raise GradeError(f"{what} {quote(value)} is not a whole number")


def k_factor(
    policy: KPolicy,
    *,
    games: int,
    rating: float,
    junior: bool = False,
    reached_2400: bool = False,
    games_in_period: int = 0,
) -> int:
    """The development coefficient K under a named policy.

    Policies (docs/rules.md §9):

    ``"chesterfield"``
        Chesterfield page: "45(ELO) points for the first 100 games, 30 for the next 200
        games, and 20 thereafter. Junior players have 45 irrespective of the number of games."
    ``"fide-25-15-10"``
        FIDE before July 2011: 25 for a player new to the list until 30 games are rated, 15
        while the rating stays under 2400, 10 once the published rating has reached 2400.
    ``"fide-30-15-10"``
        FIDE from July 2011: as above with 30 for new players.
    ``"fide-2014"``
        FIDE, 1 July 2014 till 30 June 2017, 8.56: 40 "for a player new to the rating list
        until he has completed events with at least 30 games", and "for all players until
        their 18th birthday, as long as their rating remains under 2300"; 20 while under 2400;
        10 once the published rating has reached 2400 (and thereafter). That text has no limit
        on K × n (docs/rules.md §9).
    ``"fide-2024"``
        The K of the editions of 2022 and 2024 (and of the rapid and blitz chapter of 2024,
        whose 7.3.3 is the same text): as ``"fide-2014"``, a junior being one "until the end
        of the year of their 18th birthday", then K is lowered to the largest whole number
        with n·K ≤ 700 for the ``games_in_period`` n of the period (FIDE Rating Regulations
        2024, 8.3.3).
    ``"fide-rapid-blitz-2014"``
        FIDE's rapid and blitz lists under the 2014 text: "K = 20 for RAPID and BLITZ ratings
        all players".

    Args:
        games: rated games the player had before this period (the "first 100", "until 30").
        rating: the player's rating at the start of the period.
        junior: Chesterfield: a junior; FIDE 2014/2024: before the end of the year of the
            player's 18th birthday.
        reached_2400: the player's published rating has been 2400 or more at some time (a
            rating of 2400 or more now counts as reached).
        games_in_period: games rated in this period (``"fide-2024"`` only).

    The game counts are whole numbers: an ``int``, or a float with no fractional part such as
    ``30.0``.

    Raises:
        SettingError: unknown ``policy``.
        GradeError: a count that is not a whole number or is negative, or a rating that is not
            a finite number.
    """
    if policy not in K_POLICIES:
        raise SettingError(f"K factor policy {quote(policy)} unknown; use one of {K_POLICIES!r}")
    r = finite(rating, "rating")
    played = _count(games, "games")
    in_period = _count(games_in_period, "games_in_period")
    if played < 0 or in_period < 0:
        raise GradeError(
            f"game counts {quote(games)}, {quote(games_in_period)} must not be negative"
        )
    if policy == "chesterfield":
        if junior or played < 100:
            return 45
        return 30 if played < 300 else 20
    if policy == "fide-rapid-blitz-2014":
        return _RAPID_BLITZ_2014_K
    top = reached_2400 or r >= 2400
    if policy in ("fide-25-15-10", "fide-30-15-10"):
        if played < 30:
            return 25 if policy == "fide-25-15-10" else 30
        return 10 if top else 15
    k = 40 if played < 30 or (junior and r < 2300) else (10 if top else 20)
    if policy == "fide-2024" and in_period * k > _NK_LIMIT:
        k = _NK_LIMIT // in_period
    return k


def _games(
    opponent_ratings: Sequence[float], scores: Sequence[float]
) -> tuple[list[float], list[float]]:
    opponents = finite_sequence(opponent_ratings, "opponent rating")
    points = finite_sequence(scores, "score")
    if len(opponents) != len(points):
        raise GradeError(
            f"{quote(len(opponents))} opponent ratings but {quote(len(points))} scores: they must "
            f"pair up"
        )
    for s in points:
        if not 0.0 <= s <= 1.0:
            raise GradeError(f"score {quote(s)} is not between 0 and 1")
    return opponents, points


def rating_change(
    rating: float,
    opponent_ratings: Sequence[float],
    scores: Sequence[float],
    k: float,
    *,
    method: Method = "table",
    rule: DifferenceRule | str = RULE_400,
) -> float:
    """Unrounded change of rating for a period: K · Σ(score − expected score).

    FIDE Rating Regulations 8.5: "ΔR = score − PD" for each game, and the rating change for
    the period is "ΣΔR x K". The Chesterfield page: "1778 + 45(3-2.11)= 1818". The games are
    one event: under :data:`RULE_400_2022` the higher-rated player's 400-point upgrade is
    taken in the game of the greatest difference only; under :data:`RULE_RAPID_BLITZ` a game
    :func:`is_rated_game` refuses is left out.

    Raises:
        GradeError: the ratings and scores do not pair up, a score is not between 0 and 1, or
            a value is not a finite number.
        SettingError: unknown ``method`` or ``rule``.
    """
    r = finite(rating, "rating")
    opponents, points = _games(opponent_ratings, scores)
    kk = finite(k, "K")
    m = _method(method)
    cap = _rule(rule)
    rated = [(o, s) for o, s in zip(opponents, points, strict=True) if cap.rates(r, o)]
    differences = _event_differences(r, [o for o, _ in rated], cap)
    total = math.fsum(s - _expected_one(d, m) for d, (_, s) in zip(differences, rated, strict=True))
    return kk * total


def _event_differences(
    rating: float, opponents: Sequence[float], rule: DifferenceRule
) -> list[float]:
    """Each game's difference as ``rule`` counts it when the games are one event: under a
    once-per-event edition only the game with the greatest difference above the cap keeps the
    higher-rated player's upgrade (FIDE 2022, 8.3.1); the others count in full."""
    differences = [rule.apply(rating - o, rating) for o in opponents]
    if rule.once_per_event and rule.cap is not None:
        upgrades = [i for i, o in enumerate(opponents) if rating - o > rule.cap]
        if upgrades:
            kept = max(upgrades, key=lambda i: rating - opponents[i])
            for i in upgrades:
                if i != kept:
                    differences[i] = rating - opponents[i]
    return differences


def is_rated_game(
    rating: float, opponent_rating: float, rule: DifferenceRule | str = RULE_400
) -> bool:
    """Whether a game between players so rated is rated under ``rule``.

    Every game is, except under :data:`RULE_RAPID_BLITZ`: FIDE Rapid and Blitz Rating
    Regulations, 7.3.1, from 1 December 2024 — "Games played between players with a rating
    difference of 600 points or more shall not be rated if at least one of the players is
    rated above 2600 on the relevant list." :func:`rating_change`, :func:`new_rating` and
    :func:`rate_period_elo` leave such games out.

    Raises:
        GradeError: a rating is not a finite number.
        SettingError: unknown ``rule``.
    """
    return _rule(rule).rates(finite(rating, "rating"), finite(opponent_rating, "opponent rating"))


def new_rating(
    rating: float,
    opponent_ratings: Sequence[float],
    scores: Sequence[float],
    k: float,
    *,
    method: Method = "table",
    rule: DifferenceRule | str = RULE_400,
) -> int:
    """Rating after a period: ``rating`` plus :func:`rating_change`, rounded as FIDE rounds.

    docs/rules.md §9: the change is "rounded to a whole number at the end of the period,
    .5 away from zero"; a whole-number ``rating`` stays whole. Chesterfield page: "1778 +
    45(3-2.11)= 1818".

    Raises:
        GradeError, SettingError: as :func:`rating_change`.
    """
    change = rating_change(rating, opponent_ratings, scores, k, method=method, rule=rule)
    return round_half_away(finite(rating, "rating") + round_half_away(change))


def performance_rating(opponent_ratings: Sequence[float], scores: Sequence[float]) -> float:
    """Performance rating: the opponents' average rating plus dp for the fractional score.

    FIDE Rating Regulations (title regulations 1.48): "Rp = Ra + dp", dp from table 8.1a for
    the fractional score p. Chesterfield page: "70% … against opponents whose ratings average
    1601 … adding 149 … becomes 1750". The average is not rounded here.

    Raises:
        GradeError: no games, or as :func:`rating_change`.
    """
    opponents, points = _games(opponent_ratings, scores)
    if not opponents:
        raise GradeError("a performance rating needs at least one game; none given")
    average = math.fsum(opponents) / len(opponents)
    return average + dp_from_score(math.fsum(points) / len(points))


@dataclass(frozen=True)
class InitialRating:
    """A first rating worked out from games against rated opponents.

    Attributes:
        rating: the rating, a whole number (after the cap where the method has one).
        published: whether the method allows it to be published.
        reason: why it is not published; ``None`` when it is.
        average: the average opponent rating used (with any hypothetical opponents).
        fraction: the fractional score p used for table 8.1a.
        dp: the table 8.1a difference for ``fraction`` (``"fide-2022"`` above 50 %: the 20
            points for each half point over 50 %).
    """

    rating: int
    published: bool
    reason: str | None
    average: float
    fraction: float
    dp: int


InitialMethod = Literal["chesterfield", "fide-2022", "fide-2024"]
"""Name of a method for an initial rating (see :func:`initial_rating`)."""
INITIAL_METHODS: Final[tuple[InitialMethod, ...]] = ("chesterfield", "fide-2022", "fide-2024")
"""The methods :func:`initial_rating` knows."""
_HYPOTHETICAL_OPPONENT: Final = 1800.0
"""FIDE 2024, 8.2.1: two hypothetical opponents rated 1800, both games drawn."""
_INITIAL_CAP: Final = 2200
"""FIDE 2024, 8.2.3: an initial rating is capped at 2200."""
FLOOR_2024: Final = 1400
"""FIDE 2024, 7.1.4: a new player's rating "must be at least 1400"; 7.2.1: "Players whose
ratings drop below 1400 are shown as unrated on the next list"."""
FLOOR_2022: Final = 1000
"""The floor before 1 March 2024: FIDE's notice of the 2024 rules gives the one-time increase
to "all players with a rating between 1000 and 2000" and "the new rating floor will be set at
1400"; the list then ran down to 1000."""
FLOORS: Final[dict[str, int]] = {"fide-2022": FLOOR_2022, "fide-2024": FLOOR_2024}
"""The rating floor of each edition that has one, by the name of its initial-rating method."""
_INITIAL_MIN_GAMES: Final = 5
"""FIDE 2022 and 2024, 7.1.4: at least 5 games against rated opponents."""
_HALF_POINT_BONUS: Final = 20
"""FIDE 2022, 8.2.3: "Ru = Ra + 20 for each half point scored over 50%"."""


def initial_rating(
    opponent_ratings: Sequence[float],
    scores: Sequence[float],
    method: InitialMethod = "fide-2024",
) -> InitialRating:
    """First rating of an unrated player from games against rated opponents.

    ``"chesterfield"``: Chesterfield page — "against 20 players whose average 1750 … scores 8
    wins and 12 losses. Percentage score is 8/20 or 0.40 for which table 1 indicates
    Performance = 72 … therefore his rating is 1678": Ra + dp(p), no cap.

    ``"fide-2024"`` (default): FIDE Rating Regulations 2024, 8.2 — add two hypothetical
    opponents rated 1800 with both games drawn, then Ru = Ra + dp(p); the result is capped at
    2200, and published only with at least 5 real games and a rating of at least 1400
    (docs/rules.md §9). Ru is rounded to a whole number, .5 away from zero. "If an unrated
    player scores zero in their first event this score is disregarded" (FIDE 2024): with no
    point scored the games give no rating to publish, and the reason says so.

    ``"fide-2022"``: FIDE Rating Regulations of 1 January 2022 till 29 February 2024, 8.2.3 —
    Ra is the rated opponents' average; "If the player scores 50%, then Ru = Ra. If they score
    more than 50%, then Ru = Ra + 20 for each half point scored over 50%. If they score less
    than 50%, then Ru = Ra + dp". No cap; published with at least 5 games and a rating of at
    least 1000 (:data:`FLOOR_2022`); a first event scored zero is disregarded, as in 2024.

    Raises:
        GradeError: no games, or as :func:`rating_change`.
        SettingError: unknown ``method``.
    """
    if method not in INITIAL_METHODS:
        raise SettingError(
            f"initial rating method {quote(method)} unknown; use one of {list(INITIAL_METHODS)!r}"
        )
    opponents, points = _games(opponent_ratings, scores)
    if not opponents:
        raise GradeError("an initial rating needs at least one game; none given")
    if method == "chesterfield":
        average = math.fsum(opponents) / len(opponents)
        fraction = math.fsum(points) / len(points)
        dp = dp_from_score(fraction)
        return InitialRating(round_half_away(average + dp), True, None, average, fraction, dp)
    if method == "fide-2022":
        average = math.fsum(opponents) / len(opponents)
        fraction = math.fsum(points) / len(points)
        halves = 2 * math.fsum(points) - len(points)  # half points over 50 %
        dp = round_half_away(_HALF_POINT_BONUS * halves) if halves > 0 else dp_from_score(fraction)
        rating = round_half_away(average + dp)
    else:
        n = len(opponents) + 2
        average = (math.fsum(opponents) + 2 * _HYPOTHETICAL_OPPONENT) / n
        fraction = (math.fsum(points) + 1.0) / n
        dp = dp_from_score(fraction)
        rating = min(round_half_away(average + dp), _INITIAL_CAP)
    floor = FLOORS[method]
    reason = None
    if math.fsum(points) == 0:
        reason = f"a score of 0 in a first event is disregarded (FIDE {method[5:]}): no rating"
    elif len(opponents) < _INITIAL_MIN_GAMES:
        reason = f"only {len(opponents)} games; at least {_INITIAL_MIN_GAMES} are needed"
    elif rating < floor:
        reason = f"rating {rating} is below the {floor} floor"
    return InitialRating(rating, reason is None, reason, average, fraction, dp)


def below_floor(rating: float, floor: float = FLOOR_2024) -> str | None:
    """Why a rating is not published, or ``None`` when it is at or above ``floor``.

    FIDE Rating Regulations 2024, 7.2.1: "Players whose ratings drop below 1400 are shown as
    unrated on the next list. Thereafter they are treated in the same manner as any other
    unrated player." :data:`FLOOR_2022` is the floor before March 2024.

    >>> below_floor(1399)
    'unrated on the next list: 1399 is below the 1400 floor (FIDE 7.2.1)'

    Raises:
        GradeError: ``rating`` or ``floor`` is not a finite number.
    """
    r = finite(rating, "rating")
    f = finite(floor, "floor")
    if r >= f:
        return None
    return f"unrated on the next list: {_shown(r)} is below the {_shown(f)} floor (FIDE 7.2.1)"


def _shown(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)


_ADJUSTMENT_TOP: Final = 2000.0
"""FIDE, 1 March 2024: the one-time increase is 0.4 × (2000 − R) for a rating below 2000."""
_ADJUSTMENT_SHARE: Final = 0.4
_ADJUSTMENT_BOTTOM: Final = 1000.0
"""The floor of the February 2024 list: FIDE adjusted "all players with a rating between 1000
and 2000"."""


def march_2024_adjustment(rating: float) -> int:
    """A rating after FIDE's one-time adjustment of 1 March 2024.

    FIDE's notice of the 2024 regulations: "all players with a rating between 1000 and 2000
    will receive a one-time increase" of 0.4 × (2000 − R); a rating of 2000 or more is
    unchanged. The new rating is rounded to a whole number, .5 away from zero (a decision:
    the notice gives no rounding; for a whole rating 0.4 × (2000 − R) is never a half, so the
    rounding only matters to a fractional one).

    >>> march_2024_adjustment(1000), march_2024_adjustment(1500), march_2024_adjustment(1998)
    (1400, 1700, 1999)

    Raises:
        GradeError: ``rating`` is not a finite number, or is below 1000 (no rating below the
            February 2024 list's floor was adjusted).
    """
    r = finite(rating, "rating")
    if r < _ADJUSTMENT_BOTTOM:
        raise GradeError(
            f"rating {quote(rating)} is below 1000, the floor of the list FIDE adjusted on "
            f"1 March 2024 (ratings from 1000 to 2000)"
        )
    if r >= _ADJUSTMENT_TOP:
        return round_half_away(r)
    return round_half_away(r + _ADJUSTMENT_SHARE * (_ADJUSTMENT_TOP - r))


def march_2024_adjustment_array(ratings: npt.ArrayLike) -> FloatArray:
    """:func:`march_2024_adjustment` of every rating at once; NaN (no rating) stays NaN.

    Raises:
        GradeError: a rating that is an infinity or below 1000, naming its position.
    """
    r = np.asarray(ratings, dtype=np.float64)
    if r.ndim != 1:
        raise GradeError(f"ratings must be one-dimensional, not {quote(r.shape)}")
    bad = np.flatnonzero(np.isinf(r) | (r < _ADJUSTMENT_BOTTOM))
    if bad.size:
        i = int(bad[0])
        finite(float(r[i]), "rating", position=i)
        raise GradeError(
            f"rating {quote(float(r[i]))} at position {i} is below 1000, the floor of the list "
            f"FIDE adjusted on 1 March 2024 (ratings from 1000 to 2000)"
        )
    raised = np.where(r < _ADJUSTMENT_TOP, r + _ADJUSTMENT_SHARE * (_ADJUSTMENT_TOP - r), r)
    adjusted: FloatArray = np.copysign(np.floor(np.abs(raised) + 0.5 + 1e-9), raised)
    return adjusted


@dataclass(frozen=True)
class EloPeriod:
    """Results of :func:`rate_period_elo`, one entry per player.

    Attributes:
        change: the unrounded change K · Σ(score − expected).
        rating: the new rating: old rating plus the change rounded .5 away from zero.
        expected: the sum of the player's expected scores.
        score: the player's total score.
        games: how many rated games the player played.
        rated: one entry per game: whether the rule rates it (:func:`is_rated_game`).
    """

    change: FloatArray
    rating: FloatArray
    expected: FloatArray
    score: FloatArray
    games: IntArray
    rated: npt.NDArray[np.bool_]


def _expected_array(d: FloatArray, method: Method) -> FloatArray:
    if method == "logistic":
        with np.errstate(over="ignore"):  # 10^x beyond the largest float is inf: 1/(1+inf) = 0
            expected: FloatArray = 1.0 / (1.0 + 10.0 ** (-d / _LOGISTIC_SCALE))
        return expected
    magnitude = np.abs(d)
    # Capped before the cast, so that no difference overflows numpy's index type (int32 on a
    # 32-bit platform): 736 and above all stand for "> 735".
    top = _PD_BY_DIFFERENCE.size - 1
    whole = np.floor(np.minimum(magnitude, top) + 0.5 + 1e-9).astype(np.intp)
    pd = _PD_BY_DIFFERENCE[whole]
    return np.where(d >= 0, pd, 100 - pd) / 100.0


def _capped_array(d: FloatArray, own: FloatArray, rule: DifferenceRule) -> FloatArray:
    if rule.cap is None:
        return d
    capped = np.clip(d, -rule.cap, rule.cap)
    if rule.uncapped_from is not None:
        capped = np.where(own >= rule.uncapped_from, d, capped)
    return capped


def is_rated_game_array(
    rating: npt.ArrayLike, opponent_rating: npt.ArrayLike, rule: DifferenceRule | str = RULE_400
) -> npt.NDArray[np.bool_]:
    """Per game: whether ``rule`` rates it, the array form of :func:`is_rated_game`.

    Raises:
        GradeError: the arrays differ in length or hold a value that is not a finite number.
        SettingError: unknown ``rule``.
    """
    cap = _rule(rule)
    own, opp = _game_arrays(rating, opponent_rating)
    return _rated_array(own, opp, cap)


def _game_arrays(
    rating: npt.ArrayLike, opponent_rating: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """Both players' ratings game by game as float64 arrays, checked: one-dimensional, of one
    length, finite numbers."""
    own = np.asarray(rating, dtype=np.float64)
    opp = np.asarray(opponent_rating, dtype=np.float64)
    if own.shape != opp.shape or own.ndim != 1:
        raise GradeError(
            f"ratings and opponent ratings must be one-dimensional and of one length, not "
            f"{quote(own.shape)} and {quote(opp.shape)}"
        )
    if not (bool(np.all(np.isfinite(own))) and bool(np.all(np.isfinite(opp)))):
        raise GradeError("every rating and opponent rating must be a finite number")
    return own, opp


def _rated_array(own: FloatArray, opp: FloatArray, rule: DifferenceRule) -> npt.NDArray[np.bool_]:
    """Per game: whether ``rule`` rates it (the array form of :meth:`DifferenceRule.rates`)."""
    if rule.not_rated_gap is None or rule.not_rated_above is None:
        return np.ones(own.shape, dtype=np.bool_)
    wide = np.abs(own - opp) >= rule.not_rated_gap
    return ~(wide & (np.maximum(own, opp) > rule.not_rated_above))


def _one_upgrade_each(
    player: IntArray, event: IntArray, d: FloatArray, counted: FloatArray, cap: float
) -> FloatArray:
    """``counted`` (each side's capped difference) with the upgrade kept in one game a player
    an event: of a player's games in an event that are more than ``cap`` above, the one of the
    greatest difference stays capped and the others count in full (FIDE 2022, 8.3.1); the
    array form of :func:`_event_differences`, over both sides of every game at once."""
    above = np.flatnonzero(d > cap)
    if above.size == 0:
        return counted
    order = above[np.lexsort((-d[above], event[above], player[above]))]
    first = np.ones(order.size, dtype=np.bool_)
    first[1:] = (player[order][1:] != player[order][:-1]) | (event[order][1:] != event[order][:-1])
    result = counted.copy()
    full = order[~first]
    result[full] = d[full]
    return result


def expected_score_array(
    rating: npt.ArrayLike,
    opponent_rating: npt.ArrayLike,
    *,
    method: Method = "table",
    rule: DifferenceRule | str = RULE_400,
) -> FloatArray:
    """Expected scores game by game: the array form of :func:`expected_score`.

    ``rating[i]`` is the player's rating in game ``i`` and ``opponent_rating[i]`` his
    opponent's; each expected score is found exactly as :func:`expected_score` finds it (the
    difference capped by ``rule``, then FIDE table 8.1b, or the logistic curve).

    Raises:
        GradeError: the arrays differ in length or hold a value that is not a finite number.
        SettingError: unknown ``method`` or ``rule``.
    """
    m = _method(method)
    cap = _rule(rule)
    own, opp = _game_arrays(rating, opponent_rating)
    return expected_score_array_unchecked(own, opp, method=m, rule=cap)


def expected_score_array_unchecked(
    rating: FloatArray,
    opponent_rating: FloatArray,
    *,
    method: Method = "table",
    rule: DifferenceRule = RULE_400,
) -> FloatArray:
    """:func:`expected_score_array` of arrays its checks have passed, or a caller's of its own:
    float64 arrays of one length and finite numbers, ``method`` and ``rule`` valid. Nothing is
    checked again (a month's own figures, rated many times a season, are so by construction);
    anything else gives wrong numbers, never a message."""
    return _expected_array(_capped_array(rating - opponent_rating, rating, rule), method)


def rate_period_elo(
    ratings: npt.ArrayLike,
    white: npt.ArrayLike,
    black: npt.ArrayLike,
    score: npt.ArrayLike,
    k: npt.ArrayLike,
    *,
    method: Method = "table",
    rule: DifferenceRule | str = RULE_400,
    event: npt.ArrayLike | None = None,
) -> EloPeriod:
    """Rate a whole period of games at once: the bulk form of :func:`rating_change`.

    Every game ``i`` is between players ``white[i]`` and ``black[i]`` (indices into
    ``ratings``), with ``score[i]`` white's score (black scores 1 − it). All expected scores use
    the ratings at the start of the period, as FIDE does; each player's change is ``k`` (one
    value, or one per player) times Σ(score − expected), and the new rating rounds the change
    .5 away from zero (docs/rules.md §9). The numbers equal :func:`rating_change` and
    :func:`new_rating` player by player.

    ``event`` (one whole number a game; all one event when left out) says which games make
    one event, for :data:`RULE_400_2022`'s upgrade once an event. Games the rule does not rate
    (:func:`is_rated_game`) count for nobody; ``rated`` marks them.

    Raises:
        GradeError: arrays of the wrong shape (``k`` neither one value nor one per player) or
            with values out of range (a ``k`` that is not a finite number, as
            :func:`rating_change` refuses); the message names the argument, the position and
            the value where it can.
        SettingError: unknown ``method`` or ``rule``.
    """
    m = _method(method)
    cap = _rule(rule)
    r, w, b, s = period_arrays(ratings, white, black, score)
    kk = per_player(k, "k", r.size, require_finite=True)
    rw, rb = r[w], r[b]
    rated = _rated_array(rw, rb, cap)
    dw, db = _sides(w, b, rw, rb, cap, _events(event, w.size))
    ew = _expected_array(dw, m)
    eb = _expected_array(db, m)
    sw, sb = s, 1.0 - s
    n = r.size
    if bool(rated.all()):
        games = (np.bincount(w, minlength=n) + np.bincount(b, minlength=n)).astype(np.int64)
    else:  # a game not rated counts for nobody: its expected scores and points weigh 0
        weight = rated.astype(np.float64)
        ew, eb, sw, sb = ew * weight, eb * weight, sw * weight, sb * weight
        games = (np.bincount(w, weight, n) + np.bincount(b, weight, n)).astype(np.int64)
    expected = (np.bincount(w, ew, n) + np.bincount(b, eb, n)).astype(np.float64)
    points = (np.bincount(w, sw, n) + np.bincount(b, sb, n)).astype(np.float64)
    # Per-player sums of (score − expected), game by game, as rating_change adds them.
    total = (np.bincount(w, sw - ew, n) + np.bincount(b, sb - eb, n)).astype(np.float64)
    change = kk * total
    magnitude = np.floor(np.abs(change) + 0.5 + 1e-9)
    rounded = np.copysign(magnitude, change)
    return EloPeriod(change, np.floor(r + rounded + 0.5 + 1e-9), expected, points, games, rated)


def _events(event: npt.ArrayLike | None, games: int) -> IntArray:
    """The event of each game as whole numbers; one event for all when none is given."""
    if event is None:
        return np.zeros(games, dtype=np.int64)
    found = np.asarray(event)
    if found.shape != (games,) or not (
        np.issubdtype(found.dtype, np.integer) or found.dtype == np.bool_
    ):
        raise GradeError(
            f"event must be one whole number for each of the {games} games, not "
            f"{quote(found.tolist())}"
        )
    return found.astype(np.int64)


def _sides(
    w: IntArray, b: IntArray, rw: FloatArray, rb: FloatArray, rule: DifferenceRule, event: IntArray
) -> tuple[FloatArray, FloatArray]:
    """White's and black's differences of every game as ``rule`` counts them."""
    dw = _capped_array(rw - rb, rw, rule)
    db = _capped_array(rb - rw, rb, rule)
    if not rule.once_per_event or rule.cap is None:
        return dw, db
    both = _one_upgrade_each(
        np.concatenate([w, b]),
        np.concatenate([event, event]),
        np.concatenate([rw - rb, rb - rw]),
        np.concatenate([dw, db]),
        rule.cap,
    )
    return both[: w.size], both[w.size :]
