"""Text a grader types that starts with "=" is kept as text in a built book, never a formula."""

import datetime as dt
import io
import zipfile

from xlgrade.model import Game, Player
from xlgrade.workbook import build, layout, package


def test_a_result_typed_as_equals_dash_equals_stays_text() -> None:
    players = [Player("A", grade=100.0), Player("B", grade=100.0)]
    games = [Game("A", "B", "=-=", dt.date(2025, 9, 1)), Game("B", "A", "1-0", dt.date(2025, 9, 8))]
    data = build.build_workbook(players, games)
    header, first, second, *_ = package.read_sheets(data, [layout.RESULTS])[layout.RESULTS]
    assert first[header.index("Result")] == "=-="
    assert second[header.index("Result")] == "1-0"
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        parts = package.sheet_parts(data)
        sheet = book.read(parts[layout.RESULTS]).decode("utf-8")
    assert "<f>=-=</f>" not in sheet
    assert "<f>-=</f>" not in sheet
