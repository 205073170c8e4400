"""The sources' worked examples, written once for every test that uses them.

YCA (Yorkshire Chess Association) grading pages, as docs/rules.md §2–§3 cite them:

- "The 40 Point Grading Horizon": a player graded 118 against seven opponents, the points of a
  win, a draw and a loss.
- "Grading Calculation Examples": a player graded 142 and his 17 games, the points the page
  prints for each and the four games it stars (the opponent is more than 40 below him and is
  counted as 102). Game 4's opponent is ungraded, shown with the working grade [136].
  "Total points gained = 2405".
"""

from typing import NamedTuple

__all__ = ["YCA_118_TABLE", "YCA_GAMES", "YCA_POINTS", "YCA_STARS", "YcaGame"]

# opponent's grade → points for (win, draw, loss), for a player graded 118.
YCA_118_TABLE: dict[int, tuple[int, int, int]] = {
    165: (208, 158, 108),
    158: (208, 158, 108),
    130: (180, 130, 80),
    118: (168, 118, 68),
    100: (150, 100, 50),
    78: (128, 78, 28),
    70: (128, 78, 28),
}


class YcaGame(NamedTuple):
    """One game of the 142 player's card as the page prints it."""

    score: float
    opponent: int
    estimated: bool
    points: int
    starred: bool


YCA_GAMES: list[YcaGame] = [
    YcaGame(0.5, 128, False, 128, False),
    YcaGame(1, 156, False, 206, False),
    YcaGame(1, 128, False, 178, False),
    YcaGame(0, 136, True, 86, False),
    YcaGame(1, 130, False, 180, False),
    YcaGame(0.5, 156, False, 156, False),
    YcaGame(1, 128, False, 178, False),
    YcaGame(0, 158, False, 108, False),
    YcaGame(1, 116, False, 166, False),
    YcaGame(1, 100, False, 152, True),
    YcaGame(0, 170, False, 120, False),
    YcaGame(0, 135, False, 85, False),
    YcaGame(1, 104, False, 154, False),
    YcaGame(0, 99, False, 52, True),
    YcaGame(1, 94, False, 152, True),
    YcaGame(1, 101, False, 152, True),
    YcaGame(1, 102, False, 152, False),
]
YCA_POINTS = [game.points for game in YCA_GAMES]
YCA_STARS = {number for number, game in enumerate(YCA_GAMES, start=1) if game.starred}
