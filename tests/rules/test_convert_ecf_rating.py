"""Conversions of the ECF rating (GRADING-RULES.md §12): the 2020 seeding from grades and FIDE's
recommended conversion of March 2024, each both ways, worked by hand."""

from __future__ import annotations

import pytest

from xlgrade import convert
from xlgrade.errors import GradeError


def test_2020_seeding() -> None:
    # Rating = 7.5 × grade + 700: 120 → 900 + 700 = 1600; 100 → 1450; 0 → 700.
    assert convert.grade_to_ecf_rating(120) == 1600
    assert convert.grade_to_ecf_rating(100) == 1450
    assert convert.grade_to_ecf_rating(0) == 700
    # And back: (1600 − 700) / 7.5 = 120.
    assert convert.ecf_rating_to_grade(1600) == 120
    assert convert.ecf_rating_to_grade(1825) == 150


def test_fides_march_2024_conversion() -> None:
    # FIDE = 0.6 × ECF + 700 up to ECF 1750: 1500 → 900 + 700 = 1600; 1000 → 1300;
    # 1750 → 1050 + 700 = 1750, where parity takes over: 2000 → 2000.
    assert convert.ecf_rating_to_fide(1500) == pytest.approx(1600)
    assert convert.ecf_rating_to_fide(1000) == pytest.approx(1300)
    assert convert.ecf_rating_to_fide(1750) == pytest.approx(1750)
    assert convert.ecf_rating_to_fide(2000) == 2000


def test_games_abroad_the_inverse() -> None:
    # ECF = (FIDE − 700) / 0.6 up to 1750: 1600 → 1500; 1300 → 1000; 1750 → 1750; above equal.
    assert convert.fide_to_ecf_rating(1600) == 1500
    assert convert.fide_to_ecf_rating(1300) == 1000
    assert convert.fide_to_ecf_rating(1750) == 1750
    assert convert.fide_to_ecf_rating(2100) == 2100
    for ecf in (800, 1234, 1749, 1750, 1751, 2400):
        assert convert.fide_to_ecf_rating(convert.ecf_rating_to_fide(ecf)) == pytest.approx(ecf)


def test_bad_values_are_quoted() -> None:
    with pytest.raises(GradeError, match="'abc'"):
        convert.grade_to_ecf_rating("abc")  # type: ignore[arg-type]
    with pytest.raises(GradeError, match="nan"):
        convert.ecf_rating_to_fide(float("nan"))
