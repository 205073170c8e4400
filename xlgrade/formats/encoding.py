"""A file's text, in the encoding it most likely is, whole or read as a stream of lines.

The encoding is a decision, the same for every file xlgrade reads (a file to import, a
league folder's CSV files): UTF-8 (a byte-order mark dropped); UTF-16 after its byte-order
mark (a spreadsheet's "Unicode text"); else Windows-1252, which pairing programs and
spreadsheets on Windows write, or ISO-8859-1 when a byte is none of Windows-1252's. Read as
either of those last two, the text may not be what was meant: :func:`not_utf8_note`, the one
note that says so, names the first byte that is not UTF-8 and its line, and every command
that reads such a file prints it.

A stream (:func:`read_streamed`) is decoded as it is read, a block at a time, as UTF-8 first:
the first byte that is not UTF-8 starts the reading again from the file's start in the
encoding the bytes then most likely are, so that a large UTF-8 file is never held whole and
a file in another encoding is read twice at most (three times when Windows-1252 fails too).
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Callable, Iterator
from typing import Final, TypeVar

__all__ = ["decode", "not_utf8_note", "read_streamed"]

_T = TypeVar("_T")
_BLOCK: Final = 2**20
"""Bytes read at a time when looking for the first byte that is not UTF-8."""
_FALLBACKS: Final = (("cp1252", "Windows-1252"), ("latin-1", "ISO-8859-1"))
"""The encodings a file that is not UTF-8 is read as, in order, with the names said."""


def not_utf8_note(byte: int, line: int, encoding: str) -> str:
    """The note that a file was not UTF-8 and was read as ``encoding``: ``byte`` (its value)
    on ``line`` is the first that is not UTF-8.

    >>> not_utf8_note(0xFC, 3, "Windows-1252")  # doctest: +NORMALIZE_WHITESPACE
    'not UTF-8 (byte 0xFC on line 3 is not UTF-8): read as Windows-1252, so check its
    accented letters; save the file as UTF-8 to be sure'
    """
    return (
        f"not UTF-8 (byte 0x{byte:02X} on line {line} is not UTF-8): read as {encoding}, so "
        "check its accented letters; save the file as UTF-8 to be sure"
    )


def decode(data: bytes, notes: list[str] | None = None) -> str:
    """File bytes as text, in the encoding they most likely are (module docstring); the note
    of :func:`not_utf8_note` to ``notes``, when given, for a text that is not UTF-8."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass  # not UTF-16 after all: read as the bytes below say
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        bad = error.start
    try:
        text, encoding = data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        text, encoding = data.decode("latin-1"), "ISO-8859-1"
    if notes is not None:
        notes.append(not_utf8_note(data[bad], data.count(b"\n", 0, bad) + 1, encoding))
    return text


class _UndecodableError(Exception):
    """The stream met bytes its encoding cannot decode: the reading starts again."""


def _lines(stream: io.TextIOWrapper) -> Iterator[str]:
    """The lines of ``stream`` (line ends kept, as the CSV reader wants them); bytes it
    cannot decode raise :class:`_UndecodableError`, which no reader of the lines catches."""
    try:
        yield from stream
    except UnicodeDecodeError:
        raise _UndecodableError from None


def _first_not_utf8(path: str | os.PathLike[str]) -> tuple[int, int]:
    """The value and the line of the first byte of the file that is not UTF-8, read a block
    at a time (the decoder keeps a character cut at a block's end for the next)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    lines = 0
    with open(path, "rb") as stream:
        while True:
            block = stream.read(_BLOCK)
            pending = decoder.getstate()[0]  # the bytes kept from the block before
            try:
                decoder.decode(block, final=not block)
            except UnicodeDecodeError as error:
                data = pending + block
                return data[error.start], lines + data.count(b"\n", 0, error.start) + 1
            if not block:
                return 0, lines + 1  # pragma: no cover - called only after a failure
            lines += block.count(b"\n")


def read_streamed(
    path: str | os.PathLike[str],
    read: Callable[[Iterator[str]], _T],
    notes: list[str] | None = None,
) -> _T:
    """What ``read`` makes of the file's lines, decoded as they are read (module docstring):
    ``read`` is called again, on the lines from the start, when a byte shows the file is not
    in the encoding tried (so it must keep nothing from a call that did not return). The note
    of :func:`not_utf8_note` goes to ``notes``, when given, for a file that is not UTF-8.

    Raises:
        OSError: the file cannot be read, naming it.
        Whatever ``read`` raises.
    """
    with open(path, "rb") as raw:
        start = raw.read(2)
    tried: list[tuple[str, str]] = [("utf-8-sig", "UTF-8"), *_FALLBACKS]
    if start in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        tried.insert(0, ("utf-16", "UTF-16"))
    for codec, name in tried:
        with open(path, "rb") as raw:
            stream = io.TextIOWrapper(raw, encoding=codec, newline="")
            try:
                done = read(_lines(stream))
            except _UndecodableError:
                continue
        if name in ("Windows-1252", "ISO-8859-1") and notes is not None:
            notes.append(not_utf8_note(*_first_not_utf8(path), name))
        return done
    raise AssertionError("ISO-8859-1 decodes every byte")  # pragma: no cover
