"""The fuzz campaign: many mutated inputs for every reader, beside the unmutated seeds in the
same run. For each reader it prints the inputs tried, how many gave a result and how many a
clean ``Error: …``, the crashes (anything else: a traceback, a process abort), the slowest
input and the peak memory of the process that read them, beside the largest input; each reader
runs in a process of its own, so the peak is that reader's. The mutations include text that
would run as a formula, a cell longer than Excel holds and empty-row and empty-cell bombs
(``tests.formats.hostile_inputs.TOKENS``).

    python benchmarks/fuzz_campaign.py [--inputs 2000] [--seed 1] [--reader TRF ...]
    python benchmarks/fuzz_campaign.py --limits

With ``--limits``, the two limits of docs/limits.md against memory and time, each in a
process of its own: a 50 MB CSV file with a bad header, refused (the time to read it and the
time to refuse it after), and a workbook whose Results part is 1 GB of ``<row/>``, refused;
each with its peak memory beside 20 times the file's size, the target.

A crash prints the reader, the seed and the rounds of mutation, which
``tests.formats.hostile_inputs.mutate`` turns back into the same input. The inputs are those
of the suite's fuzz tests (``tests/formats/test_fuzz.py``); see ``docs/limits.md``.
Prints figures; asserts nothing about time or memory.
"""

from __future__ import annotations

import argparse
import contextlib
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


def _bad_header(queue: multiprocessing.Queue[str]) -> None:
    """A 50 MB results CSV whose header heads no table, imported: the read, then the refusal."""
    from xlgrade.errors import FormatError
    from xlgrade.formats.detect import read_any, read_file

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.csv"
        with path.open("w", encoding="utf-8") as out:
            out.write("When,Who,Against,How\n")
            row = 0
            while out.tell() < 50_000_000:
                out.write(f"2025-10-{row % 28 + 1:02d},Smith {row % 500},1-0,Jones {row % 700}\n")
                row += 1
        size = path.stat().st_size
        base = _peak_mb()
        began = time.perf_counter()
        text = read_file(path)
        read = time.perf_counter() - began
        try:
            read_any(text, path.name)
        except FormatError as error:
            said = str(error)[:60]
        refused = time.perf_counter() - began - read
    queue.put(
        f"50 MB CSV, bad header: {size / 1e6:.0f} MB read in {read:.2f} s, refused "
        f"{refused:.3f} s after ({said}…); peak {_peak_mb() - base:.0f} MB over the process's "
        f"{base:.0f} MB, target 20 x the file: {20 * size / 2**20:.0f} MB"
    )


def _row_bomb(queue: multiprocessing.Queue[str]) -> None:
    """The example league book whose Results part ends in 1 GB of ``<row/>``, recalculated."""
    import io
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
                        block = b"<row/>" * 1_000_000
                        for _ in range(2**30 // len(block)):
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
        f"1 GB <row/> in a {size / 1e6:.1f} MB book: exit {code} in {took:.2f} s "
        f"({err.getvalue().strip().splitlines()[-1][-90:]}); peak {_peak_mb() - base:.0f} MB "
        f"over the process's {base:.0f} MB, target 20 x the file: {20 * size / 2**20:.0f} MB"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=2000, help="inputs per reader")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reader", action="append", choices=READERS, help="only these")
    parser.add_argument("--limits", action="store_true", help="time and memory of two limits")
    args = parser.parse_args()
    context = multiprocessing.get_context("fork")
    if args.limits:
        for measure in (_bad_header, _row_bomb):
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
