"""Benchmark: one rating period of 100,000 games among 10,000 players.

Prints, does not assert. Run from the repository root:

    python benchmarks/bench_ratings.py

Measures xlgrade's bulk Glicko-2 (``rate_period_glicko2``) against PyPI ``glicko2`` (the
``bench`` extra pins 2.1.0) on the same period in the same run, xlgrade's bulk Elo
(``rate_period_elo``), and the peak memory of each (``tracemalloc``). Then it shows where and
why the two Glicko-2 results differ:

1. as they are: the peer's Step 5 function f(x) uses μ² where the paper has φ²;
2. the peer with only f(x) corrected (a subclass that overrides that one method with the
   paper's formula): the results then agree to the convergence tolerance ε;
3. the peer unmodified on a period in which every player has |μ| = φ (rating = 1500 ± RD),
   where μ² = φ² and the defect cannot bite: the results again agree.

Both sides use ratings at the start of the period for every game, as the paper does.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import math
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from xlgrade.elo import rate_period_elo
from xlgrade.glicko import rate_period_glicko2

PLAYERS = 10_000
GAMES = 100_000


def make_period(seed: int, mu_equals_phi: bool = False) -> dict[str, np.ndarray]:
    """A random period: ratings, RDs, volatilities, and games with white's score."""
    rng = np.random.default_rng(seed)
    rds = rng.uniform(50, 350, PLAYERS)
    if mu_equals_phi:
        ratings = 1500 + rng.choice([-1.0, 1.0], PLAYERS) * rds
    else:
        ratings = rng.normal(1500, 300, PLAYERS)
    sigmas = rng.uniform(0.04, 0.08, PLAYERS)
    white = rng.integers(0, PLAYERS, GAMES)
    black = (white + rng.integers(1, PLAYERS, GAMES)) % PLAYERS
    p_white = 1 / (1 + 10 ** (-(ratings[white] - ratings[black]) / 400))
    u = rng.random(GAMES)
    score = np.where(u < p_white - 0.1, 1.0, np.where(u < p_white + 0.1, 0.5, 0.0))
    return {
        "ratings": ratings,
        "rds": rds,
        "sigmas": sigmas,
        "white": white,
        "black": black,
        "score": score,
    }


def best_of(repeats: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """Fastest wall time of ``repeats`` calls, and the last result."""
    best, result = math.inf, None
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def peak_memory(fn: Callable[[], Any]) -> int:
    """Peak bytes allocated while ``fn`` runs (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def peer_inputs(
    period: dict[str, np.ndarray],
) -> list[tuple[list[float], list[float], list[float]]]:
    """Per player: opponents' ratings, opponents' RDs, scores — the peer's ``update_player``."""
    per_player: list[tuple[list[float], list[float], list[float]]] = [
        ([], [], []) for _ in range(PLAYERS)
    ]
    r, rd = period["ratings"].tolist(), period["rds"].tolist()
    for w, b, s in zip(
        period["white"].tolist(), period["black"].tolist(), period["score"].tolist(), strict=True
    ):
        per_player[w][0].append(r[b])
        per_player[w][1].append(rd[b])
        per_player[w][2].append(s)
        per_player[b][0].append(r[w])
        per_player[b][1].append(rd[w])
        per_player[b][2].append(1.0 - s)
    return per_player


def run_peer(
    player_class: type, period: dict[str, np.ndarray], inputs: list[Any]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rate every player of the period with the peer, from start-of-period ratings."""
    out = np.empty((3, PLAYERS))
    for i, (ratings, rds, scores) in enumerate(inputs):
        player = player_class(
            float(period["ratings"][i]), float(period["rds"][i]), float(period["sigmas"][i])
        )
        if ratings:
            player.update_player(ratings, rds, scores)
        else:
            player.did_not_compete()
        out[:, i] = (player.rating, player.rd, player.vol)
    return out[0], out[1], out[2]


def ours(period: dict[str, np.ndarray]) -> Any:
    return rate_period_glicko2(
        period["ratings"],
        period["rds"],
        period["sigmas"],
        period["white"],
        period["black"],
        period["score"],
        tau=0.5,
    )


def differences(name: str, peer: tuple[np.ndarray, ...], mine: Any) -> None:
    d_r = np.abs(peer[0] - mine.rating)
    d_rd = np.abs(peer[1] - mine.rd)
    d_s = np.abs(peer[2] - mine.volatility)
    print(
        f"| {name} | {d_r.max():.2e} | {d_rd.max():.2e} | {d_s.max():.2e} | "
        f"{int(np.sum(d_r > 0.01))} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="timing repeats for xlgrade")
    parser.add_argument("--peer-repeats", type=int, default=2, help="timing repeats for the peer")
    args = parser.parse_args()

    import glicko2  # the peer, from the bench extra

    peer_version = importlib.metadata.version("glicko2")

    class FixedPeer(glicko2.Player):  # type: ignore[misc,name-defined]
        """The peer with its Step 5 function using φ² (the paper's formula), nothing else."""

        def _f(self, x: float, delta: float, v: float, a: float) -> float:
            phi2 = self._Player__rd**2
            ex = math.exp(x)
            return (
                ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2)
                - (x - a) / self._tau**2
            )

    period = make_period(2024)
    inputs = peer_inputs(period)

    t_ours, mine = best_of(args.repeats, lambda: ours(period))
    t_peer, peer = best_of(args.peer_repeats, lambda: run_peer(glicko2.Player, period, inputs))
    m_ours = peak_memory(lambda: ours(period))
    m_peer = peak_memory(lambda: run_peer(glicko2.Player, period, inputs))

    elo_args = (period["ratings"], period["white"], period["black"], period["score"], 20.0)
    t_elo, _ = best_of(args.repeats, lambda: rate_period_elo(*elo_args))
    t_elo_log, _ = best_of(args.repeats, lambda: rate_period_elo(*elo_args, method="logistic"))
    m_elo = peak_memory(lambda: rate_period_elo(*elo_args))

    print(f"One rating period: {GAMES:,} games among {PLAYERS:,} players")
    print(f"numpy {np.__version__}, peer glicko2 {peer_version}")
    print()
    print("| Task | Time | Peak memory (tracemalloc) |")
    print("|---|---|---|")
    print(f"| xlgrade rate_period_glicko2 | {t_ours * 1e3:.1f} ms | {m_ours / 2**20:.1f} MiB |")
    print(
        f"| glicko2 {peer_version} Player.update_player × {PLAYERS:,} | {t_peer * 1e3:.0f} ms | "
        f"{m_peer / 2**20:.1f} MiB |"
    )
    print(
        f"| xlgrade rate_period_elo (table 8.1b) | {t_elo * 1e3:.1f} ms | {m_elo / 2**20:.1f} MiB |"
    )
    print(f"| xlgrade rate_period_elo (logistic) | {t_elo_log * 1e3:.1f} ms | |")
    print()
    print(f"Glicko-2 speed-up over glicko2 {peer_version}: {t_peer / t_ours:.0f}×")
    print()

    fixed = run_peer(FixedPeer, period, inputs)
    square = make_period(7, mu_equals_phi=True)
    square_inputs = peer_inputs(square)
    peer_square = run_peer(glicko2.Player, square, square_inputs)
    print("Largest differences, peer minus xlgrade, over all players:")
    print()
    print("| Comparison | rating | RD | volatility | players off by > 0.01 rating |")
    print("|---|---|---|---|---|")
    differences(f"glicko2 {peer_version} as published", peer, mine)
    differences(f"glicko2 {peer_version} with f(x) using φ²", fixed, mine)
    differences(f"glicko2 {peer_version} as published, every |μ| = φ", peer_square, ours(square))


if __name__ == "__main__":
    main()
