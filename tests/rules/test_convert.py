"""Conversions, rating classes and ECF codes (docs/rules.md §8).

Reference values come from the ECF summary page (docs/rules.md, Sources) and the
Chesterfield page (docs/rules.md, Sources).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from xlgrade.convert import (
    ECF_CODE_LETTERS,
    ECF_CODE_WEIGHTS,
    ecf_code_letter,
    ecf_code_valid,
    ecf_to_elo,
    elo_to_ecf,
    fide_to_uscf,
    parse_ecf_code,
    rating_class,
    uscf_to_fide,
)
from xlgrade.errors import CodeError, GradeError, SettingError

# --------------------------------------------------------------------------- ECF ↔ Elo


@pytest.mark.parametrize(
    ("grade", "elo"),
    [
        (100, 1750),  # ECF < 216: ECF x 5 + 1250
        (150, 2000),
        (215, 2325),  # last grade on the first line
        (216, 2328),  # "ECF ≥ 216": ECF x 8 + 600 (the page's "?" is ≥)
        (250, 2600),
    ],
)
def test_fide_formula_ecf_to_elo(grade: float, elo: float) -> None:
    assert ecf_to_elo(grade) == elo
    assert ecf_to_elo(grade, formula="fide") == elo


@pytest.mark.parametrize(
    ("elo", "grade"),
    [
        (1750, 100),  # Elo ≤ 2325: (Elo - 1250) / 5
        (2325, 215),  # the page's "?" is ≤: 2325 is on the first line
        (2326, 215.75),  # Elo > 2325: (Elo - 600) / 8
        (2328, 216),
        (2600, 250),
    ],
)
def test_fide_formula_elo_to_ecf(elo: float, grade: float) -> None:
    assert elo_to_ecf(elo) == grade


@pytest.mark.parametrize("grade", [0, 50, 120.5, 199, 215, 216, 240, 300])
def test_fide_formula_round_trip_from_grade(grade: float) -> None:
    assert elo_to_ecf(ecf_to_elo(grade)) == pytest.approx(grade)


def test_fide_formula_has_a_seam() -> None:
    """ECF 215.5 → 2327.5, which is above 2325 and so goes back by the second line."""
    assert ecf_to_elo(215.5) == 2327.5
    assert elo_to_ecf(2327.5) == pytest.approx((2327.5 - 600) / 8)


@pytest.mark.parametrize(("grade", "elo"), [(0, 600), (100, 1400), (175, 2000), (225, 2400)])
def test_national_formula_both_ways(grade: float, elo: float) -> None:
    """ "N_Elo = (ECF x 8) + 600"; Chesterfield: "subtract 600 and divide by 8"."""
    assert ecf_to_elo(grade, formula="national") == elo
    assert elo_to_ecf(elo, formula="national") == grade


@pytest.mark.parametrize(("grade", "elo"), [(0, 700), (100, 1450), (160, 1900), (200, 2200)])
def test_ecf2020_formula_both_ways(grade: float, elo: float) -> None:
    assert ecf_to_elo(grade, formula="ecf2020") == elo
    assert elo_to_ecf(elo, formula="ecf2020") == grade


@pytest.mark.parametrize(("fide", "uscf"), [(1500, 1600), (2000, 2100), (2325, 2425)])
def test_uscf_both_ways(fide: float, uscf: float) -> None:
    """ "USCF_Elo = FIDE_Elo + 100", "FIDE_Elo = USCF_Elo - 100"."""
    assert fide_to_uscf(fide) == uscf
    assert uscf_to_fide(uscf) == fide


def test_unknown_formula_quotes_it() -> None:
    with pytest.raises(SettingError, match="'uscf'"):
        ecf_to_elo(150, formula="uscf")  # type: ignore[arg-type]
    with pytest.raises(SettingError, match="'Fide'"):
        elo_to_ecf(2000, formula="Fide")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "150", None, True])
def test_bad_grade_quotes_it(bad: object) -> None:
    with pytest.raises(GradeError, match="grade"):
        ecf_to_elo(bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- classes


@pytest.mark.parametrize(
    ("elo", "ecf", "name"),
    [
        (2400, 225, "Senior Master"),
        (2399, 224, "Master"),
        (2200, 200, "Master"),
        (2199, 199, "Expert"),
        (2000, 175, "Expert"),  # the page prints 179; docs/rules.md §8 reads 175
        (1999, 174, "Class A"),
        (1800, 150, "Class A"),
        (1799, 149, "Class B"),
        (1600, 125, "Class B"),
        (1599, 124, "Class C"),
        (1400, 100, "Class C"),
        (1399, 99, "Class D"),
        (1200, 75, "Class D"),
        (1199, 74, "Class E"),
        (800, 0, "Class E"),
    ],
)
def test_rating_classes_on_both_scales(elo: float, ecf: float, name: str) -> None:
    assert rating_class(elo).name == name
    assert rating_class(elo, scale="elo").name == name
    assert rating_class(ecf, scale="ecf").name == name


def test_grades_175_to_178_are_expert() -> None:
    for grade in (175, 176, 177, 178):
        assert rating_class(grade, scale="ecf").name == "Expert"


def test_unknown_scale() -> None:
    with pytest.raises(SettingError, match="'uscf'"):
        rating_class(2000, scale="uscf")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- ECF codes


def test_reference_code_from_the_chesterfield_page() -> None:
    """The Chesterfield page shows "210988J"; docs/rules.md §8: "210988J is valid"."""
    assert ecf_code_letter("210988") == "J"
    assert ecf_code_valid("210988J")
    assert parse_ecf_code(" 210988j ") == "210988J"


def test_alphabet_has_eleven_distinct_letters_and_no_i() -> None:
    assert ECF_CODE_LETTERS == "ABCDEFGHJKL"
    assert len(set(ECF_CODE_LETTERS)) == 11
    assert "I" not in ECF_CODE_LETTERS


@pytest.mark.parametrize("bad", ["210988", "21098J", "2109880J", "210988JJ", "2109a8J", "", "I"])
def test_malformed_codes_are_refused_with_the_input_quoted(bad: str) -> None:
    assert not ecf_code_valid(bad)
    with pytest.raises(CodeError) as caught:
        parse_ecf_code(bad)
    assert repr(bad) in str(caught.value)


def test_wrong_letter_is_refused_with_the_right_one_named() -> None:
    with pytest.raises(CodeError, match=r"'210988K'.*'J'"):
        parse_ecf_code("210988K")


def test_non_text_is_not_a_code() -> None:
    assert not ecf_code_valid(210988)  # type: ignore[arg-type]
    with pytest.raises(CodeError, match="210988"):
        ecf_code_letter(210988)  # type: ignore[arg-type]


def _letter_indices(codes: np.ndarray) -> np.ndarray:
    """The §8 formula on an array of six-digit codes: Σ w_i·d_i mod 11."""
    total = np.zeros(codes.shape, dtype=np.int64)
    for position, weight in enumerate(ECF_CODE_WEIGHTS):
        total += weight * (codes // 10 ** (5 - position) % 10)
    return total % 11


def test_function_agrees_with_the_formula_on_a_spread_of_codes() -> None:
    codes = np.arange(0, 1_000_000, 997)
    expected = _letter_indices(codes)
    for code, index in zip(codes.tolist(), expected.tolist(), strict=True):
        assert ecf_code_letter(f"{code:06d}") == ECF_CODE_LETTERS[index]


def test_every_substitution_and_adjacent_swap_is_detected_over_all_codes() -> None:
    """Exhaustive over all 10^6 codes, vectorised.

    Why it must hold: a substitution at position i changes the sum by w_i·(d′ − d), with w_i
    in 2…7 and d′ − d in ±1…±9, neither divisible by the prime 11, so the sum mod 11 — and
    with 11 distinct letters, the letter — changes. Swapping neighbours i, i+1 changes the sum
    by (w_i − w_{i+1})(d_{i+1} − d_i) = d_{i+1} − d_i, which is 0 mod 11 only when the digits
    are equal — and then the code is unchanged, so nothing needs detecting.
    """
    codes = np.arange(1_000_000, dtype=np.int64)
    index = _letter_indices(codes)
    digits = [codes // 10 ** (5 - p) % 10 for p in range(6)]
    for position in range(6):
        place = 10 ** (5 - position)
        for step in range(1, 10):
            changed = codes + ((digits[position] + step) % 10 - digits[position]) * place
            assert not np.any(_letter_indices(changed) == index)
    for position in range(5):
        left, right = digits[position], digits[position + 1]
        hi, lo = 10 ** (5 - position), 10 ** (4 - position)
        swapped = codes + (right - left) * hi + (left - right) * lo
        differs = left != right
        assert np.all(_letter_indices(swapped)[differs] != index[differs])
        assert np.all(swapped[~differs] == codes[~differs])


def test_validator_detects_every_error_at_every_position_and_digit_pair() -> None:
    """The same, through ``ecf_code_valid``: every position × every digit pair, on base codes.

    By the argument above, detection depends only on the position and the digits involved,
    so every (position, digit pair) checked on these bases covers all codes.
    """
    for base in ("210988", "000000", "987654", "135792"):
        letter = ecf_code_letter(base)
        assert ecf_code_valid(base + letter)
        for position, new in itertools.product(range(6), "0123456789"):
            if new == base[position]:
                continue
            typo = base[:position] + new + base[position + 1 :]
            assert not ecf_code_valid(typo + letter), typo + letter
        for position in range(5):
            for a, b in itertools.permutations("0123456789", 2):
                code = base[:position] + a + b + base[position + 2 :]
                swapped = base[:position] + b + a + base[position + 2 :]
                assert not ecf_code_valid(swapped + ecf_code_letter(code)), (code, swapped)
