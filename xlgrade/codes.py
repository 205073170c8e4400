"""The ECF grading reference code: six digits and a check letter (docs/rules.md §8).

letter = "ABCDEFGHJKL"[(7·d1 + 6·d2 + 5·d3 + 4·d4 + 3·d5 + 2·d6) mod 11]; "210988J is valid".
The rule is written once, here, in its scalar form (:func:`ecf_code_letter`,
:func:`parse_ecf_code`, :func:`ecf_code_valid`) and its array forms for whole columns
(:func:`ecf_code_letters` for the generator, :func:`ecf_codes_valid` for a season's Players
table); :mod:`xlgrade.convert` re-exports the scalar names.

>>> ecf_code_letter("210988")
'J'
>>> ecf_codes_valid(["210988J", "210988K", "21098"]).tolist()
[True, False, False]
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from xlgrade._rounding import quote
from xlgrade.errors import CodeError

__all__ = [
    "ECF_CODE_LETTERS",
    "ECF_CODE_WEIGHTS",
    "ecf_code_letter",
    "ecf_code_letters",
    "ecf_code_valid",
    "ecf_codes_valid",
    "parse_ecf_code",
]

ECF_CODE_LETTERS: Final = "ABCDEFGHJKL"
"""Check letters of the ECF grading reference code, indexed by the weighted sum mod 11 (no
letter I). docs/rules.md §8: letter = "ABCDEFGHJKL"[(7·d1 + … + 2·d6) mod 11]."""
ECF_CODE_WEIGHTS: Final = (7, 6, 5, 4, 3, 2)
"""Weights of the six digits of an ECF grading reference code (docs/rules.md §8)."""

_WEIGHTS: Final = np.array(ECF_CODE_WEIGHTS, dtype=np.int64)
_LETTER_CODES: Final = np.frombuffer(ECF_CODE_LETTERS.encode("ascii"), dtype=np.uint8)
_CODE = re.compile(r"([0-9]{6})([A-Za-z])")
_SIX_DIGITS = re.compile(r"[0-9]{6}")


def _check_index(digits: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The weighted sum mod 11 of each row of six digits: the check letter's place."""
    remainder: npt.NDArray[np.int64] = digits @ _WEIGHTS % len(ECF_CODE_LETTERS)
    return remainder


def ecf_code_letters(numbers: npt.ArrayLike) -> list[str]:
    """The check letter of each six-digit number of a column (100000 → its letter), the
    array form of :func:`ecf_code_letter` (docs/rules.md §8)."""
    values = np.asarray(numbers, dtype=np.int64).reshape(-1)
    places = 10 ** np.arange(5, -1, -1, dtype=np.int64)
    digits = values[:, None] // places % 10
    return [ECF_CODE_LETTERS[i] for i in _check_index(digits).tolist()]


def ecf_code_letter(six_digits: str) -> str:
    """Check letter of a six-digit ECF grading reference code.

    Rule (docs/rules.md §8): letter = "ABCDEFGHJKL"[(7·d1 + 6·d2 + 5·d3 + 4·d4 + 3·d5 +
    2·d6) mod 11]; "210988J is valid". Because 11 is prime and every weight and every weight
    difference of neighbours is between 1 and 10, the letter changes whenever one digit is
    changed or two different neighbouring digits are swapped.

    Raises:
        CodeError: ``six_digits`` is not exactly six ASCII digits, quoting it.
    """
    if not isinstance(six_digits, str) or not _SIX_DIGITS.fullmatch(six_digits):
        raise CodeError(f"ECF code digits {quote(six_digits)} must be exactly six digits")
    digits = map(int, six_digits)
    total = sum(weight * digit for weight, digit in zip(ECF_CODE_WEIGHTS, digits, strict=True))
    return ECF_CODE_LETTERS[total % len(ECF_CODE_LETTERS)]


def parse_ecf_code(code: str) -> str:
    """The ECF grading reference code in ``code``, checked, in its canonical form (``"210988J"``).

    Surrounding spaces are ignored and a lower-case letter is accepted; anything else must be
    six digits and the check letter of docs/rules.md §8.

    Raises:
        CodeError: the code is malformed or its letter is wrong, quoting the input.
    """
    if not isinstance(code, str):
        raise CodeError(f"ECF code {quote(code)} is not text")
    match = _CODE.fullmatch(code.strip())
    if match is None:
        raise CodeError(
            f"ECF code {quote(code)} must be six digits and a check letter, like '210988J'"
        )
    digits, letter = match.group(1), match.group(2).upper()
    expected = ecf_code_letter(digits)
    if letter != expected:
        raise CodeError(
            f"ECF code {quote(code)} has check letter {quote(letter)}; {digits} needs "
            f"{quote(expected)}"
        )
    return digits + letter


def ecf_code_valid(code: str) -> bool:
    """Whether ``code`` is a well-formed ECF grading reference code (see :func:`parse_ecf_code`)."""
    try:
        parse_ecf_code(code)
    except CodeError:
        return False
    return True


def ecf_codes_valid(codes: Sequence[str]) -> npt.NDArray[np.bool_]:
    """Whether each code is exactly six digits and its check letter, in either case, all at
    once: the array form of :func:`ecf_code_valid` for codes already stripped of spaces
    (docs/rules.md §8).

    The seven-character codes are read as one block of code points (UTF-32), so that the
    digits, the letter and the check are tested on whole columns.
    """
    ok = np.zeros(len(codes), dtype=np.bool_)
    seven = np.fromiter(map(len, codes), np.int64, len(codes)) == 7
    if not seven.any():
        return ok
    block = "".join(itertools.compress(codes, seven.tolist())).encode("utf-32-le")
    raw = np.frombuffer(block, dtype=np.uint32).reshape(-1, 7)
    digits = raw[:, :6].astype(np.int64) - ord("0")
    lower = raw[:, 6] | 0x20  # an ASCII letter in lower case
    shaped = ((digits >= 0) & (digits <= 9)).all(axis=1) & (lower >= ord("a")) & (lower <= ord("z"))
    remainder = _check_index(np.where(shaped[:, None], digits, 0))
    ok[seven] = shaped & (_LETTER_CODES[remainder] == lower - 0x20)
    return ok
