"""The fuzz campaign: many mutated inputs for every reader, beside the unmutated seeds in the
same run. For each reader it prints the inputs tried, how many gave a result and how many a
clean ``Error: …``, the crashes (anything else: a traceback, a process abort), the slowest
input and the peak memory of the process that read them, beside the largest input; each reader
runs in a process of its own, so the peak is that reader's. The mutations include text that
would run as a formula, a cell longer than Excel holds and empty-row and empty-cell bombs
(``tests.formats.hostile_inputs.TOKENS``).

    python benchmarks/fuzz_campaign.py [--inputs 2000] [--seed 1] [--reader TRF ...]
    python benchmarks/fuzz_campaign.py --limits

With ``--limits``, the limits of docs/limits.md against memory and time, each in a process
of its own: a 50 MB CSV file with a bad header, refused as it is streamed (beside the whole
text read first, then refused); a good 54.5 MB results CSV imported into a new folder
(beside its text read whole and split into rows alone, as the reader did before it
streamed); and a workbook whose Results part is 1 GB of ``<row/>``, refused; each with its
peak memory beside 20 times the file's size, the target.

A crash prints the reader, the seed and the rounds of mutation, which
``tests.formats.hostile_inputs.mutate`` turns back into the same input. The inputs are those
of the suite's fuzz tests (``tests/formats/test_fuzz.py``); see ``docs/limits.md``.
Prints figures; asserts nothing about time or memory.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["XLGRADE_RAISE_INTERNAL"] = "1"  # a fault raises, to be counted as a crash

from tests.formats.hostile_inputs import READERS, SEEDS, mutate, run_reader


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _campaign(reader: str, inputs: int, seed: int, queue: multiprocessing.Queue[str]) -> None:
    rng = random.Random(seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        seeds_code = run_reader(
            reader, SEEDS[reader] if reader == "CSV folder" else SEEDS[reader][:1], Path(folder)
        )
    seeds_time, seeds_peak = time.perf_counter() - started, _peak_mb()
    counts = {0: 0, 1: 0}
    crashes: list[str] = []
    slowest = (0.0, 0, 0)
    largest = 0
    for _ in range(inputs):
        number, rounds = rng.randrange(2**32), rng.randrange(1, 5)
        began = time.perf_counter()
        try:
            files = mutate(reader, number, rounds)
            largest = max(largest, sum(len(data) for _, data in files))
            with tempfile.TemporaryDirectory() as folder:
                code = run_reader(reader, files, Path(folder))
            counts[code] = counts.get(code, 0) + 1
        except BaseException as error:  # a crash, whatever it is: counted and shown
            if isinstance(error, KeyboardInterrupt):
                raise
            where = traceback.extract_tb(error.__traceback__)[-1]
            crashes.append(
                f"    crash: seed={number} rounds={rounds}: {type(error).__name__}: "
                f"{str(error)[:120]} ({Path(where.filename).name}:{where.lineno})"
            )
        took = time.perf_counter() - began
        if took > slowest[0]:
            slowest = (took, number, rounds)
    peak = _peak_mb()
    queue.put(
        f"{reader:<11} {inputs:>7} {counts.get(0, 0):>7} {counts.get(1, 0):>7} {len(crashes):>7}"
        f" {slowest[0]:>9.2f} {peak:>9.0f} {largest / 2**20:>10.1f} {peak - seeds_peak:>9.0f}"
        f"   seeds alone: {seeds_time:.2f} s, "
        f"{seeds_peak:.0f} MB (exit {seeds_code}); slowest input seed={slowest[1]} "
        f"rounds={slowest[2]}" + "".join("\n" + line for line in crashes[:20])
    )


def _results_csv(path: Path, size: int, header: str) -> None:
    """A results CSV of about ``size`` bytes under ``header``: a game a line."""
    with path.open("w", encoding="utf-8") as out:
        out.write(header + "\n")
        row = 0
        while out.tell() < size:
            out.write(
                f"2025-10-{row % 28 + 1:02d},Smith John {row % 500},1-0,Jones Peter {row % 700},"
                f"Division {row % 4 + 1},{row % 8 + 1}\n"
            )
            row += 1


def _good_csv(queue: multiprocessing.Queue[str]) -> None:
    """A good results CSV of 54.5 MB (about 900,000 games) imported into a new folder, as
    ``xlgrade import`` runs."""
    from xlgrade.cli import main

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.csv"
        _results_csv(path, 54_500_000, "Date,Home player,Result,Away player,Division,Board")
        size = path.stat().st_size
        base = _peak_mb()
        began = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()) as said:
            code = main(["import", str(path), "--into", str(Path(folder) / "league")])
        took = time.perf_counter() - began
    first = said.getvalue().splitlines()[0] if said.getvalue() else ""
    queue.put(
        f"54.5 MB CSV, good: {size / 1e6:.1f} MB imported into a new folder, exit {code} in "
        f"{took:.1f} s ({first}); peak {_peak_mb() - base:.0f} MB over the process's "
        f"{base:.0f} MB ({(_peak_mb() - base) * 2**20 / size:.1f} x the file), target 20 x the "
        f"file: {20 * size / 2**20:.0f} MB"
    )


def _whole_text(queue: multiprocessing.Queue[str]) -> None:
    """The alternative: the same file's text read whole and split into rows by Python's CSV
    reader, as the reader did before it streamed (nothing more: no table read, no writing)."""
    import csv

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.csv"
        _results_csv(path, 54_500_000, "Date,Home player,Result,Away player,Division,Board")
        size = path.stat().st_size
        base = _peak_mb()
        began = time.perf_counter()
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
        took = time.perf_counter() - began
    queue.put(
        f"  beside it, the whole text read and split into {len(rows):,} rows alone: "
        f"{took:.1f} s, peak {_peak_mb() - base:.0f} MB over the process's {base:.0f} MB "
        f"({(_peak_mb() - base) * 2**20 / size:.1f} x the file)"
    )


def _bad_header(queue: multiprocessing.Queue[str]) -> None:
    """A 50 MB results CSV whose header heads no table, imported as ``xlgrade import`` reads
    it (:func:`xlgrade.formats.detect.import_file`, a stream); beside it, after, the whole
    text read first and then refused (:func:`read_file`, then :func:`read_any`)."""
    from xlgrade.errors import FormatError
    from xlgrade.formats.detect import import_file, read_any, read_file

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.csv"
        _results_csv(path, 50_000_000, "When,Who,Against,How,Where,Which")
        size = path.stat().st_size
        base = _peak_mb()
        began = time.perf_counter()
        try:
            import_file(path, path.name)
        except FormatError as error:
            said = str(error)[:60]
        refused = time.perf_counter() - began
        streamed = _peak_mb() - base
        began = time.perf_counter()
        text = read_file(path)
        read = time.perf_counter() - began
        with contextlib.suppress(FormatError):
            read_any(text, path.name)
        whole = time.perf_counter() - began
    queue.put(
        f"50 MB CSV, bad header: {size / 1e6:.0f} MB refused in {refused:.3f} s ({said}…), "
        f"peak {streamed:.0f} MB over the process's {base:.0f} MB, target 20 x the file: "
        f"{20 * size / 2**20:.0f} MB\n  beside it, the whole text read first: refused in "
        f"{whole:.2f} s ({read:.2f} s of it the read), peak {_peak_mb() - base:.0f} MB over "
        f"the process's {base:.0f} MB"
    )


def _row_bomb(queue: multiprocessing.Queue[str], element: bytes = b"<row/>") -> None:
    """The example league book whose Results part ends in 1 GB of ``element`` (``<row/>``),
    recalculated."""
    import zipfile

    from xlgrade.cli import main
    from xlgrade.workbook.relationships import sheet_parts

    seed = Path(__file__).resolve().parents[1] / "workbook" / "example-league.xlsm"
    data = seed.read_bytes()
    part = sheet_parts(data)["Results"]
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "bomb.xlsm"
        source = zipfile.ZipFile(io.BytesIO(data))
        with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as out:
            for info in source.infolist():
                content = source.read(info)
                if info.filename == part:
                    head, tail = content.split(b"</sheetData>")
                    with out.open(info.filename, "w", force_zip64=False) as stream:
                        stream.write(head)
                        block = element * 1_000_000
                        for _ in range(
                            600 * 2**20 // len(block) if element == b"<x/>" else 2**30 // len(block)
                        ):
                            stream.write(block)
                        stream.write(b"</sheetData>" + tail)
                else:
                    out.writestr(info, content)
        size = book.stat().st_size
        base = _peak_mb()
        began = time.perf_counter()
        with contextlib.redirect_stderr(io.StringIO()) as err:
            code = main(["recalc", str(book)])
        took = time.perf_counter() - began
    queue.put(
        f"{'600 MB' if element == b'<x/>' else '1 GB'} {element.decode()} in a "
        f"{size / 1e6:.1f} MB book: exit {code} in {took:.2f} s "
        f"({err.getvalue().strip().splitlines()[-1][-90:]}); peak {_peak_mb() - base:.0f} MB "
        f"over the process's {base:.0f} MB, target 20 x the file: {20 * size / 2**20:.0f} MB"
    )


def _padding(queue: multiprocessing.Queue[str]) -> None:
    """The example league book whose Results part ends in 600 MB of ``<x/>`` (neither a row
    nor a cell), recalculated."""
    _row_bomb(queue, b"<x/>")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=2000, help="inputs per reader")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reader", action="append", choices=READERS, help="only these")
    parser.add_argument("--limits", action="store_true", help="time and memory of two limits")
    args = parser.parse_args()
    context = multiprocessing.get_context("fork")
    if args.limits:
        for measure in (_bad_header, _good_csv, _whole_text, _row_bomb, _padding):
            queue: multiprocessing.Queue[str] = context.Queue()
            worker = context.Process(target=measure, args=(queue,))
            worker.start()
            worker.join()
            print(queue.get(), flush=True)
        return 0
    print(
        f"{'reader':<11} {'inputs':>7} {'result':>7} {'Error':>7} {'crashes':>7} "
        f"{'slowest s':>9} {'peak MB':>9} {'largest MB':>10} {'over seeds':>9}"
    )
    crashed = False
    for reader in args.reader or READERS:
        queue: multiprocessing.Queue[str] = context.Queue()
        worker = context.Process(target=_campaign, args=(reader, args.inputs, args.seed, queue))
        worker.start()
        worker.join()
        if worker.exitcode != 0:
            print(f"{reader:<11} the process ended with exit code {worker.exitcode} (an abort)")
            crashed = True
            continue
        line = queue.get()
        crashed = crashed or "crash:" in line
        print(line, flush=True)
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
