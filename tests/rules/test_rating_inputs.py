"""Inputs the Elo and Glicko functions refuse, with the exact text of each refusal.

Every refusal is a :class:`GradeError` that names the argument and quotes the value (and, for
a value in an array, its position); the one-player and bulk forms refuse the same inputs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from xlgrade._rounding import finite, quote
from xlgrade.convert import ecf_to_elo, rating_class
from xlgrade.elo import (
    expected_score,
    k_factor,
    performance_rating,
    rate_period_elo,
    rating_change,
    table_expected,
)
from xlgrade.errors import GradeError
from xlgrade.glicko import (
    Glicko2Rating,
    GlickoRating,
    glicko2_idle,
    glicko2_update,
    glicko_onset_rd,
    glicko_update,
    rate_period_glicko,
    rate_period_glicko2,
)

TWO = [1500.0, 1500.0]
"""Two players; one game between them (0 as white beats 1)."""
HUGE = 10**400
"""A whole number beyond the largest float."""
HUGE_SHOWN = "1000000000000000…0000 (401 digits)"


def _message(call: Callable[..., object], *args: object, **kwargs: object) -> str:
    """The text of the :class:`GradeError` that ``call(*args, **kwargs)`` raises."""
    with pytest.raises(GradeError) as error:
        call(*args, **kwargs)
    return str(error.value)


# --------------------------------------------------------------------------- bulk shapes


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: rate_period_elo(TWO, [0], [1], [1], k=[20, 30, 40]),
            "k [20, 30, 40] has 3 values for 2 players: give one value, or one per player",
        ),
        (
            lambda: rate_period_glicko2(TWO, [200, 200], [0.06] * 3, [0], [1], [1]),
            "volatilities [0.06, 0.06, 0.06] has 3 values for 2 players: give one value, or "
            "one per player",
        ),
        (
            lambda: rate_period_glicko2(TWO, np.array([200.0, 30.0, 50.0]), 0.06, [0], [1], [1]),
            "rds [200.0, 30.0, 50.0] has 3 values for 2 players: give one value, or one per player",
        ),
        (
            lambda: rate_period_glicko(TWO, [200, 200, 200], [0], [1], [1]),
            "rds [200, 200, 200] has 3 values for 2 players: give one value, or one per player",
        ),
        (
            lambda: rate_period_glicko(TWO, [200, 200], [0], [1], [1], t=[]),
            "t [] has 0 values for 2 players: give one value, or one per player",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [1], [1], k=[[20, 30]]),
            "k [[20, 30]] is a 2-dimensional array: give one value, or one per player (2 players)",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [1], [1], k=[[20], [30, 40]]),
            "k is a ragged array: give one value, or one per player (2 players)",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [1], [1], k=list(range(30))),
            "k [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16…"
            " has 30 values for 2 players: give one value, or one per player",
        ),
        (
            lambda: rate_period_elo([[1500], [1500, 1400]], [0], [1], [1], k=20),
            "ratings must be a one-dimensional array of finite numbers",
        ),
        (
            lambda: rate_period_elo(TWO, [[0], [1, 0]], [1], [1], k=20),
            "white must be a one-dimensional array of player indices",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [1], [[1.0]], k=20),
            "score [[1.0]] must be a one-dimensional array, white's score in each game",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [1], 1.0, k=20),
            "score 1.0 must be a one-dimensional array, white's score in each game",
        ),
        (
            lambda: rate_period_elo(TWO, [0, 1], [1, 0], [[1.0], [0.5, 0.5]], k=20),
            "score must be a one-dimensional array, white's score in each game",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [2], [1], k=20),
            "black index 2 at position 0 is outside 0 … 1",
        ),
        (
            lambda: rate_period_glicko2(TWO, 200, 0.06, [1, -1], [0, 1], [1, 0]),
            "white index -1 at position 1 is outside 0 … 1",
        ),
    ],
)
def test_bulk_arrays_of_the_wrong_shape_are_refused(
    call: Callable[[], object], message: str
) -> None:
    assert _message(call) == message


def test_one_value_or_a_one_value_array_counts_for_every_player() -> None:
    period = rate_period_elo(TWO, [0], [1], [1], k=[20])
    assert period.change.tolist() == [10.0, -10.0]
    assert rate_period_elo(TWO, [0], [1], [1], k=np.float64(20)).change.tolist() == [10.0, -10.0]
    per_player = rate_period_elo(TWO, [0], [1], [1], k=[20, 40])
    assert per_player.change.tolist() == [10.0, -20.0]


# --------------------------------------------------------------------------- bulk values


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rate_period_elo(TWO, [0], [1], [1], k="abc"), "k 'abc' is not a number"),
        (lambda: rate_period_elo(TWO, [0], [1], [1], k=None), "k None is not a number"),
        (
            lambda: rate_period_elo(TWO, [0], [1], [1], k=[20, "30"]),
            "k '30' at position 1 is not a number",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [1], [1], k=[True, False]),
            "k True at position 0 is not a number",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [1], [1], k=math.nan),
            "k nan is not a finite number",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [1], [1], k=[20, -math.inf]),
            "k -inf at position 1 is not a finite number",
        ),
        (
            lambda: rate_period_elo([1500, "a"], [0], [1], [1], k=20),
            "ratings 'a' at position 1 is not a number",
        ),
        (
            lambda: rate_period_elo(np.array(["1500", "1400"]), [0], [1], [1], k=20),
            "ratings '1500' at position 0 is not a number",
        ),
        (
            lambda: rate_period_elo([1500, None], [0], [1], [1], k=20),
            "ratings None at position 1 is not a number",
        ),
        (
            lambda: rate_period_elo([1500, HUGE], [0], [1], [1], k=20),
            f"ratings {HUGE_SHOWN} at position 1 is too large",
        ),
        (
            lambda: rate_period_elo([math.nan, Fraction(1500)], [0], [1], [1], k=20),
            "ratings must be a one-dimensional array of finite numbers",
        ),
        (
            lambda: rate_period_elo(TWO, [0], [1], ["x"], k=20),
            "score 'x' at position 0 is not a number",
        ),
        (
            lambda: rate_period_glicko(TWO, [200, 200], [0], [1], [1], t=[0, "x"]),
            "t 'x' at position 1 is not a number",
        ),
        (
            lambda: rate_period_glicko(TWO, [200, None], [0], [1], [1]),
            "rds None at position 1 is not a number",
        ),
        (
            lambda: rate_period_glicko2(TWO, [200, 200], "0.06", [0], [1], [1]),
            "volatilities '0.06' is not a number",
        ),
    ],
)
def test_bulk_values_that_are_not_usable_numbers_are_refused(
    call: Callable[[], object], message: str
) -> None:
    assert _message(call) == message


def test_bulk_nan_k_is_refused_as_the_one_player_form_refuses_it() -> None:
    assert _message(rating_change, 1500, [1500], [1], math.nan) == "K nan is not a finite number"
    assert _message(rate_period_elo, TWO, [0], [1], [1], k=math.nan) == (
        "k nan is not a finite number"
    )


def test_bulk_numbers_of_other_types_are_taken() -> None:
    exact = rate_period_elo(
        np.array([Fraction(1500), 1500], dtype=object), [0], [1], [1], k=[np.int64(20), 20.0]
    )
    assert exact.change.tolist() == [10.0, -10.0]
    assert exact.rating.tolist() == [1510.0, 1490.0]


# --------------------------------------------------------------------------- K factor


@pytest.mark.parametrize(
    ("games", "in_period", "message"),
    [
        (None, 0, "games None is not a whole number"),
        ("30", 0, "games '30' is not a whole number"),
        (math.nan, 0, "games nan is not a whole number"),
        (True, 0, "games True is not a whole number"),
        (30, None, "games_in_period None is not a whole number"),
        (30, 35.5, "games_in_period 35.5 is not a whole number"),
        (30, math.inf, "games_in_period inf is not a whole number"),
        # numpy's own repr: np.float64(0.5) from numpy 2 on (Pyodide's), 0.5 before.
        (30, np.float64(0.5), f"games_in_period {np.float64(0.5)!r} is not a whole number"),
    ],
)
def test_game_counts_must_be_whole_numbers(games: object, in_period: object, message: str) -> None:
    assert (
        _message(k_factor, "fide-2024", games=games, rating=2000, games_in_period=in_period)
        == message
    )


@pytest.mark.parametrize(
    ("games", "in_period", "k"),
    [(30.0, 36.0, 19), (np.int64(40), np.int64(35), 20), (np.float64(10), 0, 40)],
)
def test_whole_counts_of_any_number_type_give_an_int(
    games: object, in_period: object, k: int
) -> None:
    got = k_factor(
        "fide-2024",
        games=games,  # type: ignore[arg-type]
        rating=2000,
        games_in_period=in_period,  # type: ignore[arg-type]
    )
    assert got == k
    assert type(got) is int


# --------------------------------------------------------------------------- numbers too large


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: finite(HUGE, "rating"), f"rating {HUGE_SHOWN} is too large"),
        (lambda: finite(-HUGE, "rating"), "rating -100000000000000…0000 (401 digits) is too large"),
        (lambda: finite(10**5000, "rating"), "rating <a whole number of 16610 bits> is too large"),
        (
            lambda: finite(Fraction(HUGE, 3), "rating", position=2),
            "rating Fraction(10000000000000000000000000000000000000000000000000… at "
            "position 2 is too large",
        ),
        (lambda: expected_score(HUGE, 1500), f"rating {HUGE_SHOWN} is too large"),
        (lambda: expected_score(1500, HUGE), f"opponent rating {HUGE_SHOWN} is too large"),
        (lambda: table_expected(HUGE), f"rating difference {HUGE_SHOWN} is too large"),
        (lambda: performance_rating([HUGE], [1]), f"opponent rating {HUGE_SHOWN} is too large"),
        (lambda: ecf_to_elo(HUGE), f"grade {HUGE_SHOWN} is too large"),
        (lambda: rating_class(HUGE), f"rating {HUGE_SHOWN} is too large"),
    ],
)
def test_numbers_beyond_the_largest_float_are_refused(
    call: Callable[[], object], message: str
) -> None:
    assert _message(call) == message


def test_a_short_number_is_quoted_whole() -> None:
    assert quote(10**20) == "100000000000000000000"
    # A long text keeps its first 58 characters, and says how long it was.
    assert quote("x" * 70) == "'" + "x" * 58 + "…' (70 characters)"


def test_a_value_that_cannot_be_shown_is_named_by_its_type() -> None:
    class Unshowable:
        def __repr__(self) -> str:
            raise ValueError("no")

    assert quote(Unshowable()) == "<a Unshowable that cannot be shown>"


# --------------------------------------------------------------------------- Glicko RDs


PAPER_PLAYER = GlickoRating(1500, 200)
PAPER_OPPONENT = GlickoRating(1400, 30)


@pytest.mark.parametrize("rd", [0, -1.0])
def test_glicko_player_rd_must_be_positive_in_both_forms(rd: float) -> None:
    assert _message(glicko_update, GlickoRating(1500, rd), [PAPER_OPPONENT], [1]) == (
        f"RD {rd!r} must be positive"
    )
    assert _message(glicko_update, GlickoRating(1500, rd), [], [], t=1) == (
        f"RD {rd!r} must be positive"
    )
    assert _message(rate_period_glicko, [1500, 1400], [rd, 30], [0], [1], [1]) == (
        "every RD must be a positive finite number"
    )


@pytest.mark.parametrize("rd", [0, -30])
def test_an_opponent_rd_must_be_positive_in_every_form(rd: float) -> None:
    message = f"opponent RD {rd!r} at position 1 must be positive"
    opponents = [PAPER_OPPONENT, GlickoRating(1550, rd)]
    assert _message(glicko_update, PAPER_PLAYER, opponents, [1, 0]) == message
    opponents2 = [Glicko2Rating(1400, 30), Glicko2Rating(1550, rd)]
    assert _message(glicko2_update, Glicko2Rating(1500, 200), opponents2, [1, 0]) == message
    assert _message(rate_period_glicko2, [1500, 1400], [200, rd], 0.06, [0], [1], [1]) == (
        "every RD must be a positive finite number"
    )


def test_an_opponent_value_that_is_not_a_number_is_named_with_its_position() -> None:
    assert _message(glicko_update, PAPER_PLAYER, [GlickoRating("x", 30)], [1]) == (  # type: ignore[arg-type]
        "opponent rating 'x' at position 0 is not a number"
    )
    assert _message(
        glicko2_update, Glicko2Rating(1500, 200), [Glicko2Rating(1400, math.nan)], [1]
    ) == ("opponent RD nan at position 0 is not a finite number")


@pytest.mark.parametrize(
    ("player", "message"),
    [
        (Glicko2Rating(1500, -200, -0.06), "RD -200 and volatility -0.06 must be positive"),
        (Glicko2Rating(1500, 200, 0), "RD 200 and volatility 0 must be positive"),
        (Glicko2Rating(1500, 0, 0.06), "RD 0 and volatility 0.06 must be positive"),
        (Glicko2Rating(math.nan, 200, 0.06), "rating nan is not a finite number"),
    ],
)
def test_glicko2_idle_refuses_what_glicko2_update_refuses(
    player: Glicko2Rating, message: str
) -> None:
    assert _message(glicko2_idle, player) == message
    assert _message(glicko2_update, player, [], []) == message


def test_onset_rd_with_no_periods_still_caps_at_350() -> None:
    assert glicko_onset_rd(200, 0) == 200
    assert glicko_onset_rd(400, 0) == 350


# --------------------------------------------------------------------------- Glicko-2 volatility


def test_a_tiny_volatility_is_rated_alike_in_both_forms() -> None:
    opponents = [Glicko2Rating(1400, 30), Glicko2Rating(1550, 100), Glicko2Rating(1700, 300)]
    one = glicko2_update(Glicko2Rating(1500, 200, 1e-170), opponents, [1, 0, 0])
    bulk = rate_period_glicko2(
        [1500, 1400, 1550, 1700], [200, 30, 100, 300], [1e-170, 0.06, 0.06, 0.06],
        [0, 0, 0], [1, 2, 3], [1, 0, 0],
    )  # fmt: skip
    assert one.volatility == pytest.approx(1e-170, rel=1e-6)
    assert bulk.volatility[0] == pytest.approx(one.volatility, rel=1e-9)
    assert bulk.rating[0] == pytest.approx(one.rating, abs=1e-9)
    assert bulk.rd[0] == pytest.approx(one.rd, abs=1e-9)
    # With σ′ ≈ 0, φ* is φ: the period's RD comes from the games and the old RD alone.
    assert one.phi_star == pytest.approx(200 / 173.7178, abs=1e-6)


def test_the_glicko2_paper_example_as_the_docstring_gives_it() -> None:
    """The paper prints v = 1.7785, Δ = −0.4834, r′ = 1464.06 from rounded intermediate values;
    at full precision they are 1.7790, −0.4839 and 1464.05."""
    opponents = [Glicko2Rating(1400, 30), Glicko2Rating(1550, 100), Glicko2Rating(1700, 300)]
    result = glicko2_update(Glicko2Rating(1500, 200, 0.06), opponents, [1, 0, 0])
    assert round(result.v, 4) == 1.7790
    assert round(result.delta, 4) == -0.4839
    assert round(result.volatility, 8) == 0.05999598
    assert round(result.rating, 2) == 1464.05
    assert round(result.rd, 2) == 151.52
    assert round(result.mu, 4) == -0.2069
