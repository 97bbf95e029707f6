"""Server time of training you can watch: 200 SGD steps at batch 64.

    python benchmarks/bench_training.py

Prints, for a few networks:
- steps: the time to take 200 steps along a trajectory (each from the last state kept);
- blocks: the Training tab's frames of those steps, built a block of 20 at a time as
  the browser's player asks for them (each block: every frame so far, its figures
  kept from the block before where the kernels' fit stays; ui/batch/train_frames.py);
- last block: the slowest of those blocks (Play waits for it if it takes longer than
  the AHEAD frames it has left);
- replay: what the old page did, training from zero on every run to the step on screen
  (1 + 2 + ... + 20 tens of steps), for comparison.
Target: steps under TARGET_S in total; printed, never asserted.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_S = 0.5
STEPS, BATCH = 200, 64
NETWORKS = {
    "2 kernels 3x3, max 2": {"f": "2", "k": "3", "mode": "max", "kh": "2", "kw": "2"},
    "4 kernels 3x3, max 2": {"f": "4", "k": "3", "mode": "max", "kh": "2", "kw": "2"},
    "4 kernels 5x5, avg 3 s1 p1": {
        "f": "4",
        "k": "5",
        "mode": "avg",
        "kh": "3",
        "kw": "3",
        "sh": "1",
        "sw": "1",
        "pad": "1",
    },
}


def settings_of(query: dict[str, str]):
    from cnn.network import NetConfig
    from pooling import PoolConfig
    from teaching.batch.story import BatchSettings

    pool = PoolConfig(
        query["mode"],
        (int(query["kh"]), int(query["kw"])),
        stride=(int(query.get("sh", query["kh"])), int(query.get("sw", query["kw"]))),
        padding=int(query.get("pad", "0")),
    )
    network = NetConfig(int(query["f"]), int(query["k"]), True, pool)
    return BatchSettings("digits", BATCH, 0, network, "mean", 0.1, 0)


def steps_seconds(query: dict[str, str]) -> tuple[float, float]:
    """(along a trajectory, replayed from zero at every tenth step)."""
    from dataclasses import replace

    from teaching.batch.story import start_trajectory

    settings = settings_of(query)
    start = time.perf_counter()
    start_trajectory(settings).reach(STEPS)
    along = time.perf_counter() - start
    start = time.perf_counter()
    for tens in range(1, STEPS // 10 + 1):
        start_trajectory(replace(settings, steps=tens * 10)).reach(tens * 10)
    return along, time.perf_counter() - start


def block_seconds(query: dict[str, str]) -> tuple[float, float]:
    """(every block of the run's frames, built as the player asks; the slowest block)."""
    from teaching.batch.story import start_trajectory
    from ui.batch.train_frames import BLOCK, KernelFrames, KernelLook, run_states, training_block

    trajectory = start_trajectory(settings_of(query))
    kernels = KernelFrames(KernelLook(width_px=250, colour_bar=True, lecture=False))
    times = []
    for last in range(BLOCK, STEPS + 1, BLOCK):
        start = time.perf_counter()
        states = run_states(trajectory, last)
        training_block(states, kernels, keys=("loss", "kernels"), rate=0.1, reduction="mean")
        times.append(time.perf_counter() - start)
    return sum(times), max(times)


def main() -> None:
    from pooling import keep_freed_memory

    keep_freed_memory()  # as the app does at start-up: pooling/fast/memory.py
    print(f"{STEPS} steps at batch {BATCH} (target under {TARGET_S} s)")
    print(f"{'network':32} {'steps':>8} {'blocks':>8} {'last':>8} {'replay':>8}")
    for name, query in NETWORKS.items():
        along, replayed = steps_seconds(query)
        blocks, slowest = block_seconds(query)
        print(f"{name:32} {along:7.3f}s {blocks:7.3f}s {slowest:7.3f}s {replayed:7.3f}s")


if __name__ == "__main__":
    main()
