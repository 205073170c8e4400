"""A TRF player line whose fields are not in their columns is an error naming the line and
quoting it, and a folder file that cannot be exported is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from xlgrade.cli import main
from xlgrade.errors import FormatError
from xlgrade.formats.trf import parse_trf

TRF = Path(__file__).resolve().parent / "data" / "trf"


def test_a_player_line_out_of_its_columns_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.trf"
    junk.write_text("012 Junk\n001    1 m    Foo, Bar  xx\n", encoding="ascii")
    assert main(["import", str(junk), "--into", str(tmp_path / "imp")]) == 1
    assert capsys.readouterr().err == (
        "Error: junk.trf: line 2: player line not in the TRF columns (the name, columns 15-47, "
        "is 'Foo, Bar  xx'): '001    1 m    Foo, Bar  xx'\n"
    )
    assert not (tmp_path / "imp").exists()


def test_a_character_between_two_fields_is_an_error() -> None:
    line = "001    1 m    Foo, Bar" + " " * 25 + "x1500"
    with pytest.raises(FormatError) as error:
        parse_trf(f"012 Junk\n{line}\n")
    assert str(error.value) == (
        "line 2: player line not in the TRF columns (column 48, between two fields, holds "
        f"'x'): {line!r}"
    )


@pytest.mark.parametrize("name", ["2020_06.trf", "example1.trf", "san_viator_2018.trf"])
def test_the_real_reports_still_read(name: str) -> None:
    text = (TRF / name).read_bytes().decode("utf-8", errors="replace")
    assert parse_trf(text).players


def test_an_unreadable_folder_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "results.csv").write_text(
        "Home player,Result,Away player,Date\nA,1-0,B,31/02/2026\n", encoding="utf-8"
    )
    assert main(["export", str(tmp_path), "--csv", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == (
        "Error: results.csv: line 2: date '31/02/2026' is not a date (YYYY-MM-DD or DD/MM/YYYY)\n"
    )
