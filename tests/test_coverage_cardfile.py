"""The card file's refusals: each says the line and quotes the text."""

import pytest

from xlgrade.errors import FormatError
from xlgrade.formats.cardfile import read_card_file

GAMES = "result,opponent grade,estimated\n1,120,\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("grade,nan\n" + GAMES, "line 1: grade 'nan' is not a number"),
        ("name,X\ngrade,inf\n" + GAMES, "line 2: grade 'inf' is not a number"),
        (
            "previous games,19.5\nprevious points,2754\n" + GAMES,
            "line 1: previous games '19.5' is not a whole number of games",
        ),
        (
            "earlier games,-3\nearlier points,300\n" + GAMES,
            "line 1: earlier games '-3' is not a whole number of games",
        ),
        (
            "name,A. Player\ngrade,142\n",
            "line 1: no games: the file needs a line 'result,opponent grade,estimated'",
        ),
    ],
)
def test_a_bad_card_file_is_refused_with_its_line(text: str, message: str) -> None:
    with pytest.raises(FormatError) as error:
        read_card_file(text)
    assert str(error.value) == message
