"""The fuzz campaign: many mutated inputs for every reader, beside the unmutated seeds in the
same run. For each reader it prints the inputs tried, how many gave a result and how many a
clean ``Error: …``, the crashes (anything else: a traceback, a process abort), the slowest
input and the peak memory of the process that read them; each reader runs in a process of
its own, so the peak is that reader's.

    python benchmarks/fuzz_campaign.py [--inputs 2000] [--seed 1] [--reader TRF ...]

A crash prints the reader, the seed and the rounds of mutation, which
``tests.formats.hostile_inputs.mutate`` turns back into the same input. The inputs are those
of the suite's fuzz tests (``tests/formats/test_fuzz.py``); see ``docs/limits.md``.
Prints figures; asserts nothing about time or memory.
"""

from __future__ import annotations

import argparse
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
    for _ in range(inputs):
        number, rounds = rng.randrange(2**32), rng.randrange(1, 5)
        began = time.perf_counter()
        try:
            with tempfile.TemporaryDirectory() as folder:
                code = run_reader(reader, mutate(reader, number, rounds), Path(folder))
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
    queue.put(
        f"{reader:<11} {inputs:>7} {counts.get(0, 0):>7} {counts.get(1, 0):>7} {len(crashes):>7}"
        f" {slowest[0]:>9.2f} {_peak_mb():>9.0f}   seeds alone: {seeds_time:.2f} s, "
        f"{seeds_peak:.0f} MB (exit {seeds_code}); slowest input seed={slowest[1]} "
        f"rounds={slowest[2]}" + "".join("\n" + line for line in crashes[:20])
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=2000, help="inputs per reader")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reader", action="append", choices=READERS, help="only these")
    args = parser.parse_args()
    context = multiprocessing.get_context("fork")
    print(
        f"{'reader':<11} {'inputs':>7} {'result':>7} {'Error':>7} {'crashes':>7} "
        f"{'slowest s':>9} {'peak MB':>9}"
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
