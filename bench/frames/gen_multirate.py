#!/usr/bin/env python3
"""A multi-rate camera-perception workload with periodic streams, for bench/frames/run.sh.

  gen_multirate.py STREAMS SEED [RANGE_PERCENT] [LOAD_PERCENT] [sporadic] [periods=P1,P2,...] > FILE.toml

STREAMS is 3 (a 30 Hz camera of high priority, a 15 Hz lane detector and a 10 Hz lidar) or 8
(three 30 Hz cameras, a 30 Hz fusion stream that waits on two of them, a 20 Hz radar, 15 Hz lane
and visualisation streams, a 10 Hz lidar). Camera periods are 100/3 ms (30 frames per second),
so the hyperperiod is 200 ms. Every stream is a copy in, 4 to 6 kernels and a copy out, with
block counts, threads and block times drawn from SEED; a kernel's block time ranges over
[(1 - RANGE_PERCENT/100)·C, C] (default 20), releases jitter by 1 ms (cameras) or 2 ms (others).
Each stream's deadline (on its copy out) is its period. Each kernel's duration alone (its blocks
in waves at their upper block time) is drawn so that the streams' durations add up to
LOAD_PERCENT (default 40) of the time: kernels of different streams overlap on the SMs, so the
GPU is busy less than that. With `sporadic`, the lidar and radar streams deliver frames at least
their period apart (min_interarrival) instead of exactly. With `periods=ms`, the periods are
the integer milliseconds models write (3 streams: 33/66/100, a hyperperiod of 3 300 ms; 8 streams:
33/66/66/100/100/200/33/66 in the order above as the
issue lists them, 6 600 ms, the fusion stream's waits then across rates); with `periods=P1,P2,...`, the streams'
periods in milliseconds in the order above (for hyperperiods from 200 ms to 100 s). The blocks
are drawn as without it (the same SEED gives the same kernels, each timed for its own period).
"""
import random
import sys
from fractions import Fraction as F

STREAMS = {
    3: [("camera", "high", F(100, 3), 1, []), ("lane", "low", F(200, 3), 2, []), ("lidar", "low", F(100), 2, [])],
    8: [("cam_front", "high", F(100, 3), 1, []), ("cam_left", "low", F(100, 3), 1, []),
        ("cam_right", "low", F(100, 3), 1, []), ("fusion", "low", F(100, 3), 1, ["cam_front", "cam_left"]),
        ("radar", "low", F(50), 2, []), ("lane", "low", F(200, 3), 2, []), ("viz", "low", F(200, 3), 2, []),
        ("lidar", "low", F(100), 2, [])],
}

INTEGER_MS = {3: [F(33), F(66), F(100)], 8: [F(33), F(66), F(66), F(100), F(100), F(200), F(33), F(66)]}


def decimal(x):
    """An exact decimal of at most 4 places (the block times are drawn on that grid)."""
    return f"{float(x):.4f}".rstrip("0").rstrip(".")


def main():
    if len(sys.argv) < 3 or int(sys.argv[1]) not in STREAMS:
        sys.exit(__doc__)
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    spread = F(int(sys.argv[3]) if len(sys.argv) > 3 else 20, 100)
    rng = random.Random(seed)
    streams = STREAMS[n]
    # GPU time per stream and frame, each kernel timed alone, as a share of its period.
    share = F(int(sys.argv[4]) if len(sys.argv) > 4 else 40, 100) / len(streams)
    out = [f'title = "multi-rate perception, {n} streams, seed {seed}"', 'time_unit = "ms"', ""]
    sporadic = "sporadic" in sys.argv[5:]
    periods = [a[len("periods="):] for a in sys.argv[5:] if a.startswith("periods=")]
    if periods:
        given = INTEGER_MS[n] if periods[0] == "ms" else [F(int(p)) for p in periods[0].split(",")]
        if len(given) != n:
            sys.exit(f"periods: {n} periods needed")
        streams = [(name, prio, p, jitter, waits) for (name, prio, _, jitter, waits), p in zip(streams, given)]
    for name, prio, period, jitter, _ in streams:
        rate = "min_interarrival" if sporadic and name in ("lidar", "radar") else "period"
        out += ["[[stream]]", f'name = "{name}"', f'priority = "{prio}"', f'{rate} = "{period}"', f"jitter = {jitter}", ""]
    last_kernel = {}
    for name, _, period, _, waits in streams:
        kernels = rng.randint(4, 6)
        budget = share * period  # milliseconds of the GPU alone per frame
        out += ["[[copy]]", f'name = "{name}_in"', f'stream = "{name}"', f"duration = {decimal(F(rng.randint(2, 9), 10))}", ""]
        weights = [rng.randint(1, 6) for _ in range(kernels)]
        for k in range(kernels):
            threads = rng.choice([128, 256, 512, 1024])
            blocks = rng.randint(2, 40)
            # Its duration alone is ceil(blocks / at_once) block times (at_once: the blocks that
            # fit on the 2 SMs by threads); that duration is its share of the stream's budget.
            at_once = max(1, 2048 // threads) * 2
            alone = budget * weights[k] / sum(weights)
            c = max(F(1, 1000), F(round(alone / -(-blocks // at_once) * 1000), 1000))
            lo = F(round(c * (1 - spread) * 10000), 10000)
            kname = f"{name}_k{k + 1}"
            out += ["[[kernel]]", f'name = "{kname}"', f'stream = "{name}"', f"blocks = {blocks}", f"threads = {threads}"]
            out += [f"block_time = [{decimal(lo)}, {decimal(c)}]" if lo < c else f"block_time = {decimal(c)}"]
            if k == 0 and waits:
                out += ["wait = [" + ", ".join(f'"{last_kernel[s]}"' for s in waits) + "]"]
            out += [""]
            last_kernel[name] = kname
        out += ["[[copy]]", f'name = "{name}_out"', f'stream = "{name}"', f"duration = {decimal(F(rng.randint(1, 5), 10))}",
                f'deadline = "{period}"', ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
