"""Number checks and the rounding the rating rules use (private helpers).

FIDE rounds a period's rating change "to the nearest whole number, 0.5 being rounded up"
in magnitude, i.e. half away from zero (docs/rules.md §9); Python's :func:`round` rounds
half to even, so it is not used for published figures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xlgrade.errors import GradeError

__all__ = ["finite", "finite_sequence", "on_scale", "quote", "round_half_away"]

_GUARD = 1e-9
"""Values within this of a half are taken as the half: sums of table entries such as
0.43 + 0.08 + … carry binary representation error of about 1e-15, which must not decide
which way a published rating rounds."""


def round_half_away(value: float) -> int:
    """Round to a whole number, halves away from zero (2.5 → 3, −2.5 → −3).

    Rule: docs/rules.md §9, "rounded to a whole number at the end of the period, .5 away
    from zero". A value within 1e-9 of a half counts as the half.
    """
    magnitude = abs(value)
    whole = math.floor(magnitude)
    if magnitude - whole >= 0.5 - _GUARD:
        whole += 1
    return int(math.copysign(whole, value)) if whole else 0


_QUOTE_LIMIT = 60
"""A quoted value longer than this many characters is shortened (see :func:`quote`)."""


def quote(value: object, limit: int = _QUOTE_LIMIT) -> str:
    """``value`` as a message quotes it: its ``repr``, shortened when longer than ``limit``.

    The one shortening of every message that quotes an input: a whole number too long to quote
    keeps its first and last digits and says how many digits it has
    (``1000000000000000…0000 (401 digits)``), a long text its first ``limit - 2`` characters
    and how many it has (``'xxxx…' (70 characters)``); other long values are cut short with "…".
    """
    try:
        text = repr(value)
    except ValueError:
        # An int with more digits than str() converts (sys.set_int_max_str_digits).
        if isinstance(value, int):
            return f"<a whole number of {value.bit_length()} bits>"
        return f"<a {type(value).__name__} that cannot be shown>"
    if len(text) <= limit:
        return text
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{text[:16]}…{text[-4:]} ({len(text.lstrip('-'))} digits)"
    if isinstance(value, str):
        return f"{value[: limit - 2] + '…'!r} ({len(value):,} characters)"
    return f"{text[: limit - 1].rstrip(', ')}…"


def finite(value: object, what: str, *, position: int | None = None) -> float:
    """``value`` as a float, or :class:`GradeError` quoting it if it is not a finite number.

    ``position``, when given, is the value's index in the array it came from; the message
    names it (``rds 'x' at position 1 is not a number``).
    """
    where = "" if position is None else f" at position {position}"
    try:
        if isinstance(value, bool) or not isinstance(value, int | float):
            # numpy scalars are accepted through their float conversion.
            try:
                number = float(value)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise GradeError(f"{what} {value!r}{where} is not a number") from None
            if isinstance(value, bool | str | bytes):
                raise GradeError(f"{what} {value!r}{where} is not a number")
        else:
            number = float(value)
    except OverflowError:
        # A whole number (or fraction) beyond the largest float, about 1.8e308.
        raise GradeError(f"{what} {quote(value)}{where} is too large") from None
    if not math.isfinite(number):
        raise GradeError(f"{what} {value!r}{where} is not a finite number")
    return number


def on_scale(
    value: object, what: str, noun: str, scale: tuple[float, float], floor: str = ""
) -> float:
    """``value`` as a number of the scale from ``scale[0]`` to ``scale[1]`` (a rating, a
    grade), or :class:`GradeError` quoting it and saying which end it is past (``floor``: what
    the low end is, where the number alone does not say).

    >>> on_scale(-50, "rating", "an ECF rating", (0, 3500))
    Traceback (most recent call last):
    ...
    xlgrade.errors.GradeError: rating -50 is below 0: not an ECF rating
    """
    x = finite(value, what)
    low, high = scale
    # A number is quoted as a cell shows it (2 for 2.0, 0 for -0.0), whichever route sent it.
    shown = quote(int(x) if x.is_integer() and isinstance(value, int | float) else value)
    if x < low:
        raise GradeError(f"{what} {shown} is below {floor or f'{low:g}'}: not {noun}")
    if x > high:
        raise GradeError(f"{what} {shown} is above {high:g}: not {noun}")
    return x


def finite_sequence(values: Sequence[object], what: str) -> list[float]:
    """Every value of ``values`` as a float (see :func:`finite`)."""
    return [finite(v, what) for v in values]
