"""What a result cell means: a win, a draw, a loss, or a default that is not graded.

Rules from docs/rules.md §1. A result is seen either from one player's side (``1``, ``½``,
``L``…) or, for a game row, from the first-named (home/white) player's side (``1-0``,
``½-½``, ``0-1``…). The 1997 BCF leaflet grades only games actually played: "Games can be
graded only if they are played under acceptable conditions", so defaults, byes and games in
which a player made no move are recognised, kept and reported as *not graded* — never dropped
and never mistaken for a played game. Any other text raises :class:`~xlgrade.errors.ResultError`
quoting it; nothing is guessed.

>>> parse_result("½").score
0.5
>>> parse_game_result("0-1").away
1.0
>>> parse_game_result("1-0 def").graded
False
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final

from xlgrade._rounding import quote
from xlgrade.errors import ResultError

__all__ = [
    "DRAW",
    "LOSS",
    "WIN",
    "GameResult",
    "PlayerResult",
    "parse_game_result",
    "parse_result",
]

WIN: Final = 1.0
"""Score of a win."""
DRAW: Final = 0.5
"""Score of a draw."""
LOSS: Final = 0.0
"""Score of a loss."""

_WINS = frozenset({"1", "1.0", "w", "win", "won"})
_LOSSES = frozenset({"0", "0.0", "l", "loss", "lost", "lose"})
_DRAWS = frozenset({"0.5", ".5", "½", "1/2", "=", "d", "draw", "drawn"})
# Scores that may stand on one side of a game row ("1-0", "½-½", "=-=").
_ROW_SIDES: Final[dict[str, float]] = {
    "1": WIN, "1.0": WIN, "0": LOSS, "0.0": LOSS,
    "½": DRAW, "1/2": DRAW, "0.5": DRAW, ".5": DRAW, "=": DRAW,
}  # fmt: skip
# Words that mark a game as a default, a bye, or a game with no move made.
_DEFAULT_WORDS = re.compile(
    r"\b(?:def|default|defaulted|forfeit|forfeited|nm|no\s*moves?)\b|\(d\)", re.IGNORECASE
)
_NO_MOVE = re.compile(r"\bnm\b|no\s*move")
_BYE = frozenset({"bye", "half bye", "½ bye", "1/2 bye", "full bye", "0 bye", "1 bye"})
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "‐": "-", "‑": "-"})


@dataclass(frozen=True)
class PlayerResult:
    """One player's result in one game.

    Attributes:
        score: 1, ½ or 0 for a game that counts; for a default, the score the player was
            awarded (1 won by default, 0 lost by default) or ``None`` where the text does not
            say (``dd``, ``bye``).
        graded: ``False`` for defaults, byes and games in which a player made no move.
        reason: why the game is not graded; ``None`` when it is.
        text: the input as given, for messages.
    """

    score: float | None
    graded: bool
    reason: str | None
    text: str


@dataclass(frozen=True)
class GameResult:
    """A game row's result, seen from the first-named (home/white) player.

    Attributes:
        home: the home/white player's score (``None`` where a default does not say).
        away: the away/black player's score.
        graded: ``False`` for defaults, byes and games in which a player made no move.
        reason: why the game is not graded; ``None`` when it is.
        text: the input as given, for messages.
    """

    home: float | None
    away: float | None
    graded: bool
    reason: str | None
    text: str

    def for_player(self, side: str) -> PlayerResult:
        """The same result from one side: ``"home"`` (white) or ``"away"`` (black)."""
        if side not in ("home", "away"):
            raise ValueError(f"side must be 'home' or 'away', not {quote(side)}")
        score = self.home if side == "home" else self.away
        return PlayerResult(score, self.graded, self.reason, self.text)


def _as_text(value: object) -> str:
    """Normalise a cell value to lower-case text; numbers from Excel arrive as floats."""
    if isinstance(value, bool):
        raise ResultError(f"result {quote(value)} not understood")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise ResultError(f"result {quote(value)} not understood")
        if value in (WIN, DRAW, LOSS):
            return {WIN: "1", DRAW: "0.5", LOSS: "0"}[float(value)]
        raise ResultError(f"result {quote(value)} not understood (a score is 1, ½ or 0)")
    if not isinstance(value, str):
        raise ResultError(f"result {quote(value)} not understood")
    return " ".join(value.translate(_DASHES).strip().lower().split())


def parse_result(value: object) -> PlayerResult:
    """Read one player's result: ``1``/``W``/``win``, ``½``/``0.5``/``=``/``D``/``draw``,
    ``0``/``L``.

    Defaults from the player's side (docs/rules.md §1): ``+`` (won by default), ``-`` (lost
    by default), ``1d``/``d1``, ``0d``/``d0``, ``dd``, ``def``, ``bye``, and any result marked
    ``def`` or ``nm`` (no move made) are returned with ``graded=False`` and the reason.

    Raises:
        ResultError: for any other text, quoting it.
    """
    original = value if isinstance(value, str) else repr(value)
    text = _as_text(value)
    if not text:
        raise ResultError("result is blank")
    if text in _WINS:
        return PlayerResult(WIN, True, None, original)
    if text in _DRAWS:
        return PlayerResult(DRAW, True, None, original)
    if text in _LOSSES:
        return PlayerResult(LOSS, True, None, original)
    default = _player_default(text)
    if default is not None:
        score, reason = default
        return PlayerResult(score, False, reason, original)
    raise ResultError(f"result {quote(original)} not understood")


def _player_default(text: str) -> tuple[float | None, str] | None:
    """A default seen from one player's side, as (score awarded, reason), or None."""
    if text in ("+", "1d", "d1", "1 def", "1 (d)"):
        return WIN, "won by default"
    if text in ("-", "0d", "d0", "0 def", "0 (d)"):
        return LOSS, "lost by default"
    if text in ("dd", "d-d", "--", "double default"):
        return None, "double default"
    if text in _BYE:
        return None, "bye"
    if _DEFAULT_WORDS.search(text):
        core = _DEFAULT_WORDS.sub(" ", text).strip()
        kind = "no move made" if _NO_MOVE.search(text) else "default"
        if not core:
            return None, kind
        if core in _WINS:
            return WIN, f"won by {kind}" if kind == "default" else kind
        if core in _LOSSES:
            return LOSS, f"lost by {kind}" if kind == "default" else kind
        if core in _DRAWS:
            return DRAW, kind
    return None


_ROW_DEFAULTS: Final[dict[str, tuple[float | None, float | None, str]]] = {
    "+": (WIN, LOSS, "home won by default"),
    "-": (LOSS, WIN, "away won by default"),
    "+-": (WIN, LOSS, "home won by default"),
    "+:-": (WIN, LOSS, "home won by default"),
    "+/-": (WIN, LOSS, "home won by default"),
    "+ -": (WIN, LOSS, "home won by default"),
    "-+": (LOSS, WIN, "away won by default"),
    "-:+": (LOSS, WIN, "away won by default"),
    "-/+": (LOSS, WIN, "away won by default"),
    "- +": (LOSS, WIN, "away won by default"),
    "--": (LOSS, LOSS, "double default"),
    "-:-": (LOSS, LOSS, "double default"),
    "-/-": (LOSS, LOSS, "double default"),
    "- -": (LOSS, LOSS, "double default"),
    "dd": (LOSS, LOSS, "double default"),
    "d-d": (LOSS, LOSS, "double default"),
    "double default": (LOSS, LOSS, "double default"),
    "1d": (WIN, LOSS, "home won by default"),
    "d1": (WIN, LOSS, "home won by default"),
    "1d-0": (WIN, LOSS, "home won by default"),
    "1-0d": (WIN, LOSS, "home won by default"),
    "0d": (LOSS, WIN, "away won by default"),
    "d0": (LOSS, WIN, "away won by default"),
    "0-1d": (LOSS, WIN, "away won by default"),
    "0d-1": (LOSS, WIN, "away won by default"),
    "bye": (None, None, "bye"),
}


def parse_game_result(value: object) -> GameResult:
    """Read a game row's result from the home/white side: ``1-0``, ``0-1``, ``½-½``, ``1/2-1/2``,
    ``0.5-0.5``, ``=-=`` (``:`` may stand for ``-``); a one-sided result (``1``, ``W``, ``½``…)
    is read as the home player's.

    Defaults (docs/rules.md §1) — ``+``/``-``, ``+-``, ``-+``, ``--``, ``1d``/``d1``, ``dd``,
    ``def``, ``1-0 def``, ``bye``, ``1-0 nm`` (no move made) — come back with ``graded=False``
    and the reason.

    Raises:
        ResultError: for any other text, or scores that do not add up to one game.
    """
    original = value if isinstance(value, str) else repr(value)
    text = _as_text(value)
    if not text:
        raise ResultError("result is blank")
    if text in _ROW_DEFAULTS:
        return GameResult(*_ROW_DEFAULTS[text][:2], False, _ROW_DEFAULTS[text][2], original)
    if text in _BYE:
        return GameResult(None, None, False, "bye", original)
    marked = _DEFAULT_WORDS.search(text) is not None
    core = _DEFAULT_WORDS.sub(" ", text).strip() if marked else text
    kind = "no move made" if _NO_MOVE.search(text) else "default"
    sides = _split_row(core, original)
    home: float | None
    away: float | None
    if sides is None:
        if core in _WINS | _LOSSES | _DRAWS:
            player = parse_result(core)
            assert player.score is not None
            home, away = player.score, 1.0 - player.score
        elif marked and not core:
            return GameResult(None, None, False, kind, original)
        else:
            raise ResultError(f"result {quote(original)} not understood")
    else:
        home, away = sides
    if marked:
        if home == WIN:
            reason = "home won by default" if kind == "default" else kind
        elif away == WIN:
            reason = "away won by default" if kind == "default" else kind
        else:
            reason = "double default" if home == away == LOSS and kind == "default" else kind
        return GameResult(home, away, False, reason, original)
    assert home is not None
    assert away is not None
    if home + away != 1.0:
        raise ResultError(
            f"result {quote(original)} not understood: the scores add up to {home + away:g}, not 1"
        )
    return GameResult(home, away, True, None, original)


def _split_row(text: str, original: str) -> tuple[float, float] | None:
    """Split ``"1-0"``-like text into the two scores; ``None`` if it has no separator."""
    compact = text.replace(" ", "")
    for separator in ("-", ":"):
        if separator in compact:
            left, _, right = compact.partition(separator)
            if left in _ROW_SIDES and right in _ROW_SIDES:
                return _ROW_SIDES[left], _ROW_SIDES[right]
            if left == "":
                return None
            raise ResultError(f"result {quote(original)} not understood")
    return None
