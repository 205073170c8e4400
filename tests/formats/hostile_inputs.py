"""Hostile and damaged inputs for every reader, shared by the fuzz tests
(``tests/formats/test_fuzz.py``) and the longer campaign (``benchmarks/fuzz_campaign.py``).

Each reader is run as the grader runs it, through the command line (:func:`xlgrade.cli.main`):
a TRF or an ECF file imported into a CSV folder, a card file, a CSV folder graded, a workbook
recalculated. The seeds are the real files in ``tests/data`` (and ``TRF_SHARED`` when it
is there), the example league and card, and the shipped books; a mutation flips, deletes,
repeats or inserts bytes, or puts in one of :data:`TOKENS` (the shapes that once made a reader
crash or run without bound). A workbook is mutated in the bytes of one of its parts too, and
zipped again, so that the damage reaches the reader behind the zip's checksums.

"Clean" is a return of 0 or 1 (``Error: …``): the suite sets ``XLGRADE_RAISE_INTERNAL``, so
anything else raises.
"""

from __future__ import annotations

import contextlib
import io
import random
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from tests.paths import EXAMPLES, ROOT, TRF, TRF_SHARED
from xlgrade.cli import main

__all__ = ["BOMBS", "READERS", "SEEDS", "TOKENS", "mutate", "run_reader"]

TOKENS: Final[tuple[bytes, ...]] = (
    "²".encode(),
    "١٢".encode(),
    b"9" * 5000,
    b"9" * 400,
    b"-Infinity",
    b"1e308",
    b"NaN",
    b"XXR 20000000",
    b"XXR 1000000",
    b"\r",
    b"\r\n",
    b'"',
    b",",
    b";",
    b"\t",
    b"\x00",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"x" * 140_000,
    b"#FINISH#",
    b"#PIN=1",
    b"001 ",
    b"=",
    b"[",
    b"'",
    b"1-0",
    b"\xbd-\xbd",
    b"def",
    b'<c r="XFD1048576"><v>1</v></c>',
    b'<c r="A1048577"><v>1</v></c>',
    b'<row r="99999999">',
    b"</sheetData>",
    b"&amp;",
    b"<![CDATA[",
    # Text a spreadsheet would take for a formula, at the start of a cell or a line.
    b'=HYPERLINK("http://x","y")',
    b"\n=1+1,",
    b"\n+44,",
    b"\n-2,",
    b"\n@SUM(A1),",
    b"\n\t=cmd,",
    b"\n\r=cmd,",
    # A cell longer than Excel holds.
    b'<row r="5"><c r="C5" t="inlineStr"><is><t>' + b"x" * 40_000 + b"</t></is></c></row>",
    # Encodings no part may declare, at a part's start or anywhere.
    b'<?xml version="1.0" encoding="x-unknown"?>',
    b'<?xml version="1.0" encoding="UTF-32"?>',
    b'<?xml version="1.0" encoding="Shift_JIS"?>',
    # Start tags left open many times (looked through again from each, they took minutes).
    b'<c r="A1" ' * 2_000,
    b'<c r="A1" t="e" ' * 2_000,
    b'<mergeCell ref="' * 2_000,
    # Values not of their cell's type.
    b'<c r="B2" t="n"><v>1e999x</v></c>',
    b'<c r="B2" t="b"><v>7</v></c>',
    # A web extension's property without its name, a value that is not JSON.
    b'<we:property value="1"/>',
    b'value="{not json"',
)
"""Shapes that once ended in a traceback or unbounded work (docs/limits.md), text that would
run as a formula, a cell longer than Excel's 32,767 characters, encodings no part may declare,
tags left open, values not of their cell's type and a damaged web extension; a workbook part is
also listed twice, one input in twenty (:func:`mutate`)."""
BOMBS: Final[tuple[bytes, ...]] = (b"<row/>" * 1_100_000, b"<c/>" * 6_100_000)
"""Empty-row and empty-cell bombs, past Excel's rows and the 6,000,000 cells read: put into a
workbook's part, one input in ten (:func:`mutate`)."""


def _files(folder: Path, pattern: str) -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in sorted(folder.glob(pattern)) if p.is_file()]


def _ecf_seed() -> bytes:
    from tests.formats.test_ecffile import EXPECTED

    return EXPECTED.encode("utf-8")


def _seeds() -> dict[str, list[tuple[str, bytes]]]:
    trf = _files(TRF, "*.trf")
    if TRF_SHARED.is_dir():
        known = {data for _, data in trf}
        trf += [(n, d) for n, d in _files(TRF_SHARED, "*.trf") if d not in known]
    league = {p.name: p.read_bytes() for p in (EXAMPLES / "league").glob("*.csv")}
    books = _files(ROOT / "workbook", "*.xls*")
    return {
        "TRF": sorted(trf, key=lambda seed: len(seed[1])),
        "ECF file": [("submission.txt", _ecf_seed())],
        "card file": [("yca-player.csv", (EXAMPLES / "yca-player.csv").read_bytes())],
        "CSV folder": [(name, data) for name, data in sorted(league.items())],
        "workbook": sorted(books, key=lambda seed: len(seed[1])),
    }


SEEDS: Final = _seeds()
"""Reader → its seeds, ``(name, bytes)``, smallest first."""


def _byte_mutation(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    kind = rng.randrange(6)
    if kind == 0 and data:  # flip a byte
        at = min(at, len(data) - 1)
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
    if kind == 1:  # delete a run
        return data[:at] + data[at + rng.randrange(1, 64) :]
    if kind == 2:  # repeat a run
        run = data[at : at + rng.randrange(1, 200)]
        return data[:at] + run * rng.randrange(2, 5) + data[at:]
    if kind == 3:  # random bytes
        return data[:at] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9))) + data[at:]
    if kind == 4:  # cut the file short
        return data[:at]
    return data[:at] + rng.choice(TOKENS) + data[at:]  # a hostile shape


def _part_mutation(data: bytes, rng: random.Random, rounds: int) -> bytes:
    """The workbook with one part's bytes mutated, zipped again (valid checksums)."""
    try:
        source = zipfile.ZipFile(io.BytesIO(data))
        infos = source.infolist()
    except zipfile.BadZipFile:
        return data
    xml = [i for i in infos if i.filename.endswith((".xml", ".rels"))]
    if not xml:
        return data
    target = rng.choice(xml).filename
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        for info in infos:
            content = source.read(info)
            if info.filename == target:
                for _ in range(rounds):
                    content = _byte_mutation(content, rng)
                if rng.random() < 0.1:
                    at = rng.randrange(len(content) + 1)
                    content = content[:at] + rng.choice(BOMBS) + content[at:]
            book.writestr(info.filename, content)
        if rng.random() < 0.05:  # a part listed twice, the copy's name in capitals
            book.writestr(target.upper(), b"<x/>")
    return out.getvalue()


def mutate(reader: str, seed: int, rounds: int) -> list[tuple[str, bytes]]:
    """The files of one input for ``reader``: a seed picked and mutated ``rounds`` times, all
    decided by ``seed`` (the same seed gives the same input)."""
    rng = random.Random(seed)
    seeds = SEEDS[reader]
    if reader == "CSV folder":  # a whole folder, one of its files mutated
        files = dict(seeds)
        name = rng.choice(sorted(files))
        for _ in range(rounds):
            files[name] = _byte_mutation(files[name], rng)
        return sorted(files.items())
    name, data = rng.choice(seeds)
    if reader == "workbook" and rng.random() < 0.7:
        return [(name, _part_mutation(data, rng, rounds))]
    for _ in range(rounds):
        data = _byte_mutation(data, rng)
    return [(name, data)]


def _argv(reader: str, folder: Path, files: Sequence[tuple[str, bytes]]) -> list[str]:
    for name, data in files:
        (folder / "in" / name).write_bytes(data)
    first = str(folder / "in" / files[0][0])
    if reader in ("TRF", "ECF file"):
        return ["import", first, "--into", str(folder / "league")]
    if reader == "card file":
        return ["card", first]
    if reader == "CSV folder":
        return ["season", str(folder / "in")]
    return ["recalc", first, "--out", str(folder / "out.xlsm")]


def run_reader(reader: str, files: Sequence[tuple[str, bytes]], folder: Path) -> int:
    """Run ``reader``'s command on ``files`` in ``folder`` (which must be empty), its output
    thrown away; returns its exit code: 0 a result, 1 ``Error: …``."""
    (folder / "in").mkdir()
    argv = _argv(reader, folder, files)
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        return main(argv)


READERS: Final[tuple[str, ...]] = tuple(SEEDS)
"""The readers, as :data:`SEEDS` names them."""
