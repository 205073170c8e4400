"""Conversions between ECF grades, FIDE Elo and USCF ratings; rating classes; ECF codes.

Rules from docs/rules.md §8. Grades and ratings are different scales, so each has its own
name: :data:`EcfGrade` (the ECF/BCF grade, about 0–300), :data:`EloRating` (FIDE or national
Elo, about 1000–2900) and :data:`UscfRating`. Every conversion says which formula it uses:

``"fide"`` (default)
    The piecewise formula of the ECF summary page (docs/rules.md, Sources):
    "ECF < 216, Elo = (ECF x 5) + 1250 / ECF ≥ 216, Elo = (ECF x 8) + 600" and back
    "Elo ≤ 2325, ECF = (Elo - 1250) / 5 / Elo > 2325, ECF = (Elo - 600) / 8". The page prints
    "?" where its signs were lost; they are ≤/≥ as docs/rules.md §8 says.
``"national"``
    The long-standing linear formula for national Elo: "N_Elo = (ECF x 8) + 600" (same page),
    and the Chesterfield page: "To convert from Elo grade to BCF grade subtract 600 and divide
    by 8."
``"ecf2020"``
    The ECF's 2020 move to ratings: Rating = 7.5 × Grade + 700.

The piecewise formula is not a perfect inverse near its seam: ECF 215 gives 2325 and ECF 216
gives 2328, so an Elo rating between 2325 and 2328 has no grade that maps onto it, and
``elo_to_ecf`` uses the second line there as the page says (Elo > 2325). Both directions are
exactly the published formulas; neither is adjusted.

>>> ecf_to_elo(150)
2000.0
>>> elo_to_ecf(2000, formula="national")
175.0
>>> ecf_code_letter("210988")
'J'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, NewType

from xlgrade._rounding import finite, on_scale, quote, round_half_away
from xlgrade.codes import (
    ECF_CODE_LETTERS,
    ECF_CODE_WEIGHTS,
    ecf_code_letter,
    ecf_code_valid,
    parse_ecf_code,
)
from xlgrade.ecf_rating import MAX_RATING, MIN_RATING
from xlgrade.errors import SettingError

__all__ = [
    "ECF_CODE_LETTERS",
    "ECF_CODE_WEIGHTS",
    "ECF_RATING_RANGE",
    "FIDE_FLOOR",
    "FIDE_FROM_ECF_RANGE",
    "FIDE_PARITY_FROM",
    "FORMULAS",
    "GRADE_RANGE",
    "RATING_CLASSES",
    "SEEDED_GRADE_RANGE",
    "EcfGrade",
    "EcfRating",
    "EloRating",
    "Formula",
    "RatingClass",
    "UscfRating",
    "ecf_code_letter",
    "ecf_code_valid",
    "ecf_rating_to_fide",
    "ecf_rating_to_grade",
    "ecf_to_elo",
    "elo_to_ecf",
    "fide_to_ecf_rating",
    "fide_to_uscf",
    "grade_to_ecf_rating",
    "parse_ecf_code",
    "rating_class",
    "uscf_to_fide",
]

EcfGrade = NewType("EcfGrade", float)
"""An ECF (BCF) grade: points per game on the grading scale (about 0–300)."""
EloRating = NewType("EloRating", float)
"""A FIDE or national Elo rating (about 1000–2900)."""
UscfRating = NewType("UscfRating", float)
"""A US Chess Federation rating."""
EcfRating = NewType("EcfRating", float)
"""An ECF rating: the four-digit, Elo-style scale the ECF has published since July 2020."""

Formula = Literal["fide", "national", "ecf2020"]
"""Name of an ECF ↔ Elo conversion formula (see the module docstring)."""
FORMULAS: Final[tuple[Formula, ...]] = ("fide", "national", "ecf2020")
"""The conversion formulas, default first."""

_FIDE_SEAM_ECF: Final = 216.0
"""ECF summary page: "ECF < 216, Elo = (ECF x 5) + 1250"; from 216 on, "(ECF x 8) + 600"."""
_FIDE_SEAM_ELO: Final = 2325.0
"""ECF summary page: "Elo ≤ 2325, ECF = (Elo - 1250) / 5"; above, "(Elo - 600) / 8"."""
_USCF_OFFSET: Final = 100.0
"""ECF summary page: "USCF_Elo = FIDE_Elo + 100"."""


def _formula(formula: object) -> Formula:
    if formula == "fide":
        return "fide"
    if formula == "national":
        return "national"
    if formula == "ecf2020":
        return "ecf2020"
    raise SettingError(f"conversion formula {quote(formula)} unknown; use one of {FORMULAS!r}")


def ecf_to_elo(grade: float, formula: Formula = "fide") -> EloRating:
    """Elo rating equivalent to an ECF grade.

    Formulas (docs/rules.md §8): ``"fide"`` — ECF summary page, "ECF < 216, Elo = (ECF x 5)
    + 1250; ECF ≥ 216, Elo = (ECF x 8) + 600"; ``"national"`` — "N_Elo = (ECF x 8) + 600";
    ``"ecf2020"`` — Rating = 7.5 × Grade + 700.

    Raises:
        GradeError: ``grade`` is not a finite number.
        SettingError: ``formula`` is not one of :data:`FORMULAS`.
    """
    g = finite(grade, "grade")
    name = _formula(formula)
    if name == "fide":
        return EloRating(5.0 * g + 1250.0 if g < _FIDE_SEAM_ECF else 8.0 * g + 600.0)
    if name == "national":
        return EloRating(8.0 * g + 600.0)
    return EloRating(7.5 * g + 700.0)


def elo_to_ecf(rating: float, formula: Formula = "fide") -> EcfGrade:
    """ECF grade equivalent to an Elo rating: the inverse formulas of :func:`ecf_to_elo`.

    ``"fide"`` — ECF summary page, "Elo ≤ 2325, ECF = (Elo - 1250) / 5; Elo > 2325, ECF =
    (Elo - 600) / 8"; ``"national"`` — "ECF = (N_Elo - 600) / 8" (and the Chesterfield page:
    "subtract 600 and divide by 8"); ``"ecf2020"`` — Grade = (Rating − 700) / 7.5.

    Raises:
        GradeError: ``rating`` is not a finite number.
        SettingError: ``formula`` is not one of :data:`FORMULAS`.
    """
    r = finite(rating, "rating")
    name = _formula(formula)
    if name == "fide":
        return EcfGrade((r - 1250.0) / 5.0 if r <= _FIDE_SEAM_ELO else (r - 600.0) / 8.0)
    if name == "national":
        return EcfGrade((r - 600.0) / 8.0)
    return EcfGrade((r - 700.0) / 7.5)


def fide_to_uscf(rating: float) -> UscfRating:
    """USCF rating from a FIDE rating. ECF summary page: "USCF_Elo = FIDE_Elo + 100"."""
    return UscfRating(finite(rating, "rating") + _USCF_OFFSET)


def uscf_to_fide(rating: float) -> EloRating:
    """FIDE rating from a USCF rating. ECF summary page: "FIDE_Elo = USCF_Elo - 100"."""
    return EloRating(finite(rating, "rating") - _USCF_OFFSET)


@dataclass(frozen=True)
class RatingClass:
    """One rating class of the Chesterfield page's table, on both scales.

    Attributes:
        name: the class as the page names it (``"Senior Master"``, ``"Class A"``…).
        elo_from: lowest Elo rating in the class (``None`` for the open-ended bottom class).
        ecf_from: lowest ECF grade in the class (``None`` for the bottom class).
    """

    name: str
    elo_from: float | None
    ecf_from: float | None


RATING_CLASSES: Final[tuple[RatingClass, ...]] = (
    RatingClass("Senior Master", 2400, 225),
    RatingClass("Master", 2200, 200),
    RatingClass("Expert", 2000, 175),
    RatingClass("Class A", 1800, 150),
    RatingClass("Class B", 1600, 125),
    RatingClass("Class C", 1400, 100),
    RatingClass("Class D", 1200, 75),
    RatingClass("Class E", None, None),
)
"""Classes from the Chesterfield page ("Senior Master 2400 plus 225 plus … Class 'E' Below -
1200 Below - 75"), highest first. The page prints Expert as 179 – 199, which leaves grades 175
to 178 in no class after Class A's 150 – 174; docs/rules.md §8 reads it as 175."""


def rating_class(value: float, scale: Literal["elo", "ecf"] = "elo") -> RatingClass:
    """The Chesterfield page's class for an Elo rating (``scale="elo"``) or ECF grade (``"ecf"``).

    Source: Chesterfield page, "Senior Master 2400 plus 225 plus; Master (FIDE) 2200 - 2399
    200 - 224; … Class 'E' Below - 1200 Below - 75" (Expert's ECF range starts at 175, see
    :data:`RATING_CLASSES`). A value belongs to the highest class whose lower bound it reaches.

    Raises:
        GradeError: ``value`` is not a finite number.
        SettingError: ``scale`` is neither ``"elo"`` nor ``"ecf"``.
    """
    if scale not in ("elo", "ecf"):
        raise SettingError(f"rating scale {quote(scale)} unknown; use 'elo' or 'ecf'")
    x = finite(value, "rating" if scale == "elo" else "grade")
    for cls in RATING_CLASSES:
        bound = cls.elo_from if scale == "elo" else cls.ecf_from
        if bound is None or x >= bound:
            return cls
    raise AssertionError("unreachable: the bottom class has no bound")  # pragma: no cover


_ECF2020_SLOPE: Final = 7.5
"""The ECF's 2020 seeding (docs/rules.md §12): "Rating = 7.5 x Grade + 700"."""
_ECF2020_OFFSET: Final = 700.0
"""The ECF's 2020 seeding: "… + 700"."""
_FIDE_2024_SLOPE: Final = 0.6
"""FIDE's recommended conversion from 1 March 2024: "FIDE = 0.6 × ECF + 700" (§12)."""
_FIDE_2024_OFFSET: Final = 700.0
"""FIDE's recommended conversion from 1 March 2024: "… + 700"."""
FIDE_PARITY_FROM: Final = 1750.0
"""FIDE's March 2024 conversion applies "up to ECF 1750"; above, the ratings are equal."""


FIDE_FLOOR: Final = 1400.0
"""FIDE's rating floor from 1 March 2024, the date of its conversion (:mod:`xlgrade.elo`:
"a rating is published only if it is at least 1400"): a lower figure is no FIDE rating that
conversion was made for."""
ECF_RATING_RANGE: Final = (float(MIN_RATING), float(MAX_RATING))
"""The figures taken as an ECF rating: :data:`xlgrade.ecf_rating.MIN_RATING` to
:data:`xlgrade.ecf_rating.MAX_RATING` (the rating list's reader and the rating functions take
the same; no source gives a floor, so a rating below zero is one)."""
GRADE_RANGE: Final = (0.0, 400.0)
"""The figures taken as an ECF grade: 0 to :data:`xlgrade.ecf.MAX_GRADE`."""
SEEDED_GRADE_RANGE: Final = (0.0, (MAX_RATING - 700.0) / 7.5)
"""The grades :func:`grade_to_ecf_rating` takes: 0 to 373.33, those whose 7.5 × grade + 700
stays within the ECF rating's range (grade 400 would be 3700, above
:data:`xlgrade.ecf_rating.MAX_RATING`); the inverse, :func:`ecf_rating_to_grade`, gives back
no more."""
FIDE_FROM_ECF_RANGE: Final = ((FIDE_FLOOR - 700.0) / 0.6, float(MAX_RATING))
"""The ECF ratings :func:`ecf_rating_to_fide` takes: 1166.67 to 3500, those FIDE's March 2024
formula takes to at least its floor of 1400 (ECF 1000 would be 1300, which FIDE does not
publish and :func:`fide_to_ecf_rating` refuses); a lower ECF rating has no FIDE figure."""


def _published(value: float) -> float:
    """A rating as the ECF publishes it: a whole number, .5 away from zero."""
    return float(round_half_away(value))


def grade_to_ecf_rating(grade: float) -> EcfRating:
    """The ECF rating seeded from a 1997-rules grade in July 2020: 7.5 × grade + 700, a whole
    number as the ECF publishes ratings (.5 away from zero).

    docs/rules.md §12: "2020 seeding: rating = 7.5 × grade + 700"; the YCA's notice of
    September 2020: "Rating = 7.5 x Grade + 700". Grade 120 → 1600; 121 → 1607.5 → 1608.

    >>> grade_to_ecf_rating(120)
    1600.0

    Raises:
        GradeError: ``grade`` is not a number from 0 to 373.33 (:data:`SEEDED_GRADE_RANGE`:
            a higher grade's rating would be above 3500).
    """
    g = on_scale(grade, "grade", "a grade", GRADE_RANGE)
    on_scale(
        g,
        "grade",
        "a grade with an ECF rating (its 7.5 × grade + 700 would be above 3500)",
        SEEDED_GRADE_RANGE,
    )
    return EcfRating(_published(_ECF2020_SLOPE * g + _ECF2020_OFFSET))


def ecf_rating_to_grade(rating: float) -> EcfGrade:
    """The grade an ECF rating was seeded from: (rating − 700) / 7.5, the inverse of
    :func:`grade_to_ecf_rating`, a whole number as grades were published (.5 away from zero).
    A rating below 700 is grade 0's and lower: no grade maps onto it.

    Raises:
        GradeError: ``rating`` is not a number from 700 (grade 0's) to 3500.
    """
    r = on_scale(
        rating,
        "rating",
        "a rating seeded from a grade",
        (_ECF2020_OFFSET, ECF_RATING_RANGE[1]),
        "700 (grade 0's)",
    )
    return EcfGrade(_published((r - _ECF2020_OFFSET) / _ECF2020_SLOPE))


def ecf_rating_to_fide(rating: float) -> EloRating:
    """The FIDE rating FIDE recommends for an ECF rating (from 1 March 2024), a whole number.

    docs/rules.md §12: "FIDE = 0.6 × ECF + 700 up to ECF 1750, equal above". ECF 1500 →
    1600; 1749 → 1749.4 → 1749; at 1750 both lines give 1750.

    >>> ecf_rating_to_fide(1500), ecf_rating_to_fide(2000)
    (1600.0, 2000.0)

    Raises:
        GradeError: ``rating`` is not a number from 1166.67 to 3500
            (:data:`FIDE_FROM_ECF_RANGE`: a lower one would be below FIDE's floor of 1400).
    """
    r = on_scale(
        rating,
        "rating",
        "an ECF rating with a FIDE figure (0.6 × ECF + 700 would be below FIDE's floor, 1400)",
        FIDE_FROM_ECF_RANGE,
    )
    if r > FIDE_PARITY_FROM:
        return EloRating(_published(r))
    return EloRating(_published(_FIDE_2024_SLOPE * r + _FIDE_2024_OFFSET))


def fide_to_ecf_rating(rating: float) -> EcfRating:
    """The ECF rating for a FIDE rating (games played abroad), the inverse of
    :func:`ecf_rating_to_fide`, a whole number.

    docs/rules.md §12: "games abroad: ECF = (FIDE − 700) / 0.6 up to 1750, equal above".
    FIDE 1600 → 1500; 1450 → 1250.

    >>> fide_to_ecf_rating(1600), fide_to_ecf_rating(1900)
    (1500.0, 1900.0)

    Raises:
        GradeError: ``rating`` is not a number from 1400 (:data:`FIDE_FLOOR`) to 3500.
    """
    r = on_scale(
        rating,
        "rating",
        "a FIDE rating",
        (FIDE_FLOOR, ECF_RATING_RANGE[1]),
        "1400 (FIDE's floor since March 2024)",
    )
    if r > FIDE_PARITY_FROM:
        return EcfRating(_published(r))
    return EcfRating(_published((r - _FIDE_2024_OFFSET) / _FIDE_2024_SLOPE))
