"""The checks before grading: results, dates and time controls read once per distinct text."""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

import numpy as np

from xlgrade.eligibility import classify
from xlgrade.errors import GradingError
from xlgrade.model import (
    Settings,
)
from xlgrade.results import GameResult, parse_game_result
from xlgrade.season._types import IntArray

__all__ = ["RAPID", "STANDARD"]

STANDARD: Final = "standard"
"""The standard-play list."""
RAPID: Final = "rapid"
"""The rapidplay list."""

_T = TypeVar("_T")


def _encode(values: Sequence[Hashable]) -> tuple[list[Hashable], IntArray]:
    """The distinct values, in first-seen order, and each value's position among them.

    Parsing is then done once per distinct value (a season has a few hundred result texts and
    match dates however many rows it has), and per-row arrays are gathered with numpy.
    """
    positions = {value: i for i, value in enumerate(dict.fromkeys(values))}
    codes = np.fromiter(map(positions.__getitem__, values), np.int64, len(values))
    return list(positions), codes


@dataclass(frozen=True)
class _Fail:
    what: str
    why: str


def _parse_result(text: Hashable) -> GameResult | _Fail:
    try:
        return parse_game_result(text)
    except GradingError as error:
        return _Fail("result not understood", str(error))


_RESULT_FAIL: Final = -1.0

_SHEET_PROBLEMS: Final = frozenset({"missing sheet", "missing column"})
"""Reader problems about a whole sheet rather than one of its rows."""


class _TimeControls:
    def __init__(self, default: str, under: int | None = None) -> None:
        self.default = default
        self.under = under

    def kind(self, text: Hashable) -> str | _Fail:
        control = str(text).strip() if text is not None else ""
        control = control or self.default
        if not control:
            return STANDARD
        try:
            playable = classify(control, all_players_under=self.under)
        except GradingError as error:
            return _Fail("time control not understood", str(error))
        if playable.kind == "not gradable":
            return _Fail("time control not gradable", f"{control!r}: {playable.reason}")
        return playable.kind


def _young_divisions(settings: Settings) -> dict[str, int]:
    """Division names (case ignored) of the under-12 and under-10 settings, with the age."""
    young: dict[str, int] = {}
    for text, age in ((settings.under_12_divisions, 12), (settings.under_10_divisions, 10)):
        for name in text.split(","):
            if name.strip():
                young[name.strip().casefold()] = age
    return young


def _as_date(value: object) -> dt.date | _Fail | None:
    """A row's date as a date: a datetime's day; ``None`` stays undated; anything else fails."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return _Fail("date not understood", f"date {value!r} is not a date")


def _fail_of(value: object) -> _Fail:
    assert isinstance(value, _Fail)
    return value


def _result_fail(value: GameResult | _Fail) -> _Fail:
    if isinstance(value, _Fail):
        return value
    return _Fail("default", f"{value.text!r}: {value.reason}")


def _result_reason(value: GameResult | _Fail) -> str:
    return value.reason or "" if isinstance(value, GameResult) else value.why
