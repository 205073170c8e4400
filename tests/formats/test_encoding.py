"""A file's text in the encoding it most likely is: whole (``decode``) or as a stream of lines
(``read_streamed``), which starts again from the file's start when a byte shows the file is
not UTF-8, with the one note that says so."""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from pathlib import Path

import pytest

from xlgrade.formats import encoding
from xlgrade.formats.encoding import decode, not_utf8_note, read_streamed


def _all(lines: Iterator[str]) -> str:
    return "".join(lines)


@pytest.mark.parametrize(
    ("data", "text", "note"),
    [
        ("Name\nMüller\n".encode(), "Name\nMüller\n", None),
        (codecs.BOM_UTF8 + "Name\r\nMüller\r\n".encode(), "Name\r\nMüller\r\n", None),
        ("Name\nMüller\n".encode("utf-16"), "Name\nMüller\n", None),
        # 0xFC is "ü" in Windows-1252 and no UTF-8; 0x81 is none of Windows-1252's bytes.
        ("Name\nMüller\n".encode("cp1252"), "Name\nMüller\n", (0xFC, 2, "Windows-1252")),
        (b"Name\rSmith\rK\x81hn\r", "Name\rSmith\rK\x81hn\r", (0x81, 1, "ISO-8859-1")),
    ],
)
def test_a_stream_is_read_as_the_whole_bytes_are_decoded(
    tmp_path: Path, data: bytes, text: str, note: tuple[int, int, str] | None
) -> None:
    # A file of CR line ends is one line for the count of "\n" (the note's line), as decode
    # counts it.
    path = tmp_path / "file.csv"
    path.write_bytes(data)
    whole: list[str] = []
    streamed: list[str] = []
    assert decode(data, whole) == text
    assert read_streamed(path, _all, streamed) == text
    assert whole == streamed == ([not_utf8_note(*note)] if note else [])


def test_a_byte_that_is_not_utf8_far_into_the_file_starts_the_reading_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Blocks of 7 bytes: the search for the first bad byte keeps a character cut at a block's
    # end ("é" is two bytes in UTF-8) for the next block.
    monkeypatch.setattr(encoding, "_BLOCK", 7)
    good = "Name\n" + "Renée\n" * 5000  # UTF-8, far past the first block the stream decodes
    path = tmp_path / "players.csv"
    path.write_bytes(good.encode() + "Müller\n".encode("cp1252"))
    calls: list[int] = []

    def count(lines: Iterator[str]) -> int:
        calls.append(1)
        return sum(1 for _ in lines)

    notes: list[str] = []
    assert read_streamed(path, count, notes) == 5002
    assert len(calls) == 2  # UTF-8 first, then from the start as Windows-1252
    assert notes == [not_utf8_note(0xFC, 5002, "Windows-1252")]
    # Read as Windows-1252, the UTF-8 "é" before it is two characters: hence the note.
    assert read_streamed(path, _all).startswith("Name\nRenÃ©e\n")


def test_a_reader_that_stops_early_decodes_no_further(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(b"Who,What\n" + b"a,b\n" * 300_000 + b"M\xfcller,c\n")
    notes: list[str] = []
    assert read_streamed(path, lambda lines: next(lines), notes) == "Who,What\n"
    assert notes == []  # the byte 0xFC, 1.2 MB on, was never read
