"""Conversions of the ECF rating (docs/rules.md §12): the 2020 seeding from grades and FIDE's
recommended conversion of March 2024, each both ways, worked by hand."""

from __future__ import annotations

import re

import pytest

from xlgrade import convert
from xlgrade.errors import GradeError


def test_2020_seeding() -> None:
    # Rating = 7.5 × grade + 700: 120 → 900 + 700 = 1600; 100 → 1450; 0 → 700; published
    # whole: 121 → 907.5 + 700 = 1607.5 → 1608; 119 → 1592.5 → 1593 (.5 away from zero).
    assert convert.grade_to_ecf_rating(120) == 1600
    assert convert.grade_to_ecf_rating(100) == 1450
    assert convert.grade_to_ecf_rating(0) == 700
    assert convert.grade_to_ecf_rating(121) == 1608
    assert convert.grade_to_ecf_rating(119) == 1593
    # And back: (1600 − 700) / 7.5 = 120; (1605 − 700) / 7.5 = 120.67 → 121; 700 → 0.
    assert convert.ecf_rating_to_grade(1600) == 120
    assert convert.ecf_rating_to_grade(1825) == 150
    assert convert.ecf_rating_to_grade(1605) == 121
    assert convert.ecf_rating_to_grade(700) == 0


def test_fides_march_2024_conversion() -> None:
    # FIDE = 0.6 × ECF + 700 up to ECF 1750: 1500 → 900 + 700 = 1600;
    # 1750 → 1050 + 700 = 1750, where parity takes over: 2000 → 2000. Whole numbers:
    # 1749 → 1049.4 + 700 = 1749.4 → 1749; 1234 → 740.4 + 700 = 1440.4 → 1440. The lowest ECF
    # rating taken is the one the formula takes to FIDE's floor: (1400 − 700) / 0.6 = 1166.67;
    # 1167 → 700.2 + 700 = 1400.2 → 1400 (ECF 1000 would be 1300, which FIDE does not publish
    # and the inverse refuses).
    assert convert.ecf_rating_to_fide(1500) == 1600
    assert convert.ecf_rating_to_fide(1167) == 1400
    assert convert.ecf_rating_to_fide(1750) == 1750
    assert convert.ecf_rating_to_fide(2000) == 2000
    assert convert.ecf_rating_to_fide(1749) == 1749
    assert convert.ecf_rating_to_fide(1234) == 1440
    assert convert.fide_to_ecf_rating(convert.ecf_rating_to_fide(1167)) == 1167


def test_games_abroad_the_inverse() -> None:
    # ECF = (FIDE − 700) / 0.6 up to 1750: 1600 → 1500; 1450 → 1250; 1750 → 1750; above equal.
    # Whole numbers: 1440 → 740 / 0.6 = 1233.3 → 1233; 1401 → 701 / 0.6 = 1168.3 → 1168;
    # 1400, the floor, → 700 / 0.6 = 1166.7 → 1167.
    assert convert.fide_to_ecf_rating(1600) == 1500
    assert convert.fide_to_ecf_rating(1450) == 1250
    assert convert.fide_to_ecf_rating(1750) == 1750
    assert convert.fide_to_ecf_rating(2100) == 2100
    assert convert.fide_to_ecf_rating(1440) == 1233
    assert convert.fide_to_ecf_rating(1401) == 1168
    assert convert.fide_to_ecf_rating(1400) == 1167


@pytest.mark.parametrize(
    ("function", "value", "message"),
    [
        (convert.fide_to_ecf_rating, 500, "rating 500 is below 1400 (FIDE's floor since March "
         "2024): not a FIDE rating"),
        (convert.fide_to_ecf_rating, 1399, "rating 1399 is below 1400"),
        (convert.fide_to_ecf_rating, 4000, "rating 4000 is above 3500: not a FIDE rating"),
        (convert.ecf_rating_to_fide, 1000, "rating 1000 is below 1166.67: not an ECF rating "
         "with a FIDE figure (0.6 × ECF + 700 would be below FIDE's floor, 1400)"),
        (convert.ecf_rating_to_fide, -50, "rating -50 is below 1166.67"),
        (convert.ecf_rating_to_fide, 3501, "rating 3501 is above 3500: not an ECF rating"),
        (convert.grade_to_ecf_rating, 400, "grade 400 is above 373.333: not a grade with an "
         "ECF rating (its 7.5 × grade + 700 would be above 3500)"),
        (convert.grade_to_ecf_rating, -10, "grade -10 is below 0: not a grade"),
        (convert.grade_to_ecf_rating, 373.4, "grade 373.4 is above 373.333"),
        (convert.ecf_rating_to_grade, 699, "rating 699 is below 700 (grade 0's): not a rating "
         "seeded from a grade"),
        (convert.ecf_rating_to_grade, -1, "rating -1 is below 700"),
        (convert.grade_to_ecf_rating, "abc", "grade 'abc' is not a number"),
        (convert.ecf_rating_to_fide, float("nan"), "rating nan is not a finite number"),
        (convert.fide_to_ecf_rating, True, "rating True is not a number"),
    ],
)  # fmt: skip
def test_what_is_not_a_rating_is_refused(function: object, value: object, message: str) -> None:
    with pytest.raises(GradeError, match=f"^{re.escape(message)}"):
        function(value)  # type: ignore[operator]


@pytest.mark.parametrize(("value", "shown"), [(-0.0, "0"), (1300.0, "1300"), (1300, "1300")])
def test_a_refused_number_is_quoted_as_a_cell_shows_it(value: float, shown: str) -> None:
    # Classic xlwings sends 1300.0 where Office.js sends 1300; a cell shows both as 1300.
    with pytest.raises(GradeError, match=rf"^rating {shown} is below 1400 "):
        convert.fide_to_ecf_rating(value)
