#!/usr/bin/env python3
"""Workloads of the class gpuwcrt and nptest both model exactly (README.md), for run.sh.

  gen_shared.py frame N SEED [RANGE_PERCENT] [LOAD_PERCENT] [CHAINED_PERCENT] > FILE.toml
  gen_shared.py periodic SEED fixed|ranges [LOAD_PERCENT] [RANGE_PERCENT] > FILE.toml

Every block fills an SM (1024 threads, 48 KiB shared memory), one priority, no copies, integer
ms periods. `frame`: one frame of N kernels over 4 streams, kernel i in stream i mod 4, issued
at strictly increasing integer instants (no two streams issue together, so no launch-order
choice), gaps drawn so that the kernels' work alone is LOAD_PERCENT (default 60) of the time;
block times [lo, hi] with lo = hi · (1 − RANGE_PERCENT/100) rounded up (default 40);
CHAINED_PERCENT (default 0) of the kernels after the first four are issued with their stream
predecessor instead (no `issue`), so they join the EE queue when it completes. `periodic`: 4
streams with periods 10, 20, 20 and 40 ms (hyperperiod 40), offsets with distinct residues
modulo 10 plus s/10 ms for stream s (no two streams issue together), 1–3 kernels per frame,
the first at the release, the others 1–3 ms later, block times in 0.1 ms; `fixed` point block
times, `ranges` with RANGE_PERCENT (default 40).
Whether a drawn workload is inside the class (its queue order fixed in every scenario) is
decided by shared_class.py on nptest's completion windows, not here.
"""
import math
import random
import sys

HEADER = ['time_unit = "ms"', ""]


def tenths(x):
    return f"{x // 10}" if x % 10 == 0 else f"{x // 10}.{x % 10}"


def kernel(name, stream, blocks, hi, spread, issue=None, unit=1):
    """HI and the derived lower end are in units of 1/UNIT ms (UNIT 1 or 10)."""
    lo = max(1, math.ceil(hi * (100 - spread) / 100))
    show = tenths if unit == 10 else str
    time = f"[{show(lo)}, {show(hi)}]" if lo < hi else show(hi)
    lines = ["[[kernel]]", f'name = "{name}"', f'stream = "{stream}"']
    if issue is not None:
        lines.append(f"issue = {issue}")
    return lines + [f"blocks = {blocks}", "threads = 1024", "shared_mem = 49152", f"block_time = {time}", ""]


def frame(n, seed, spread, load, chained):
    rng = random.Random(seed)
    out = [f'title = "one frame, {n} kernels in 4 streams, seed {seed}, ranges {spread} %"'] + HEADER
    for s in range(4):
        out += ["[[stream]]", f'name = "s{s}"', ""]
    t = 0
    for i in range(n):
        blocks, hi = rng.randint(1, 6), rng.randint(2, 10)
        # A chained kernel is issued with its stream predecessor and joins when it completes.
        chain = i >= 4 and rng.randrange(100) < chained
        out += kernel(f"k{i}", f"s{i % 4}", blocks, hi, spread, None if chain else t)
        mean_gap = math.ceil(blocks / 2) * hi * 100 / load
        t += rng.randint(1, max(1, round(2 * mean_gap) - 1))
    return out


def periodic(seed, ranges, load, spread):
    rng = random.Random(seed)
    spread = spread if ranges else 0
    periods = [10, 20, 20, 40]
    offsets = rng.sample(range(10), 4)
    out = [f'title = "4 periodic streams (10/20/20/40 ms), seed {seed}, '
           f'{f"ranges {spread} %" if ranges else "fixed times"}"'] + HEADER
    body = []
    for s, (period, offset) in enumerate(zip(periods, offsets)):
        # s/10 ms more: every issue instant of stream s is s/10 past a whole ms, so no two
        # streams ever issue at one instant (which would be a launch-order choice, §4).
        out += ["[[stream]]", f'name = "p{s}"', f"period = {period}", f"offset = {offset}.{s}", ""]
        budget = period * load / 100 / 4  # ms of the two SMs per frame
        count = rng.randint(1, 3)
        issue = 0
        for k in range(count):
            blocks = rng.randint(1, 4)
            hi = max(2, round(budget * 10 * 2 / count / blocks))  # in 0.1 ms
            body += kernel(f"p{s}k{k}", f"p{s}", blocks, hi, spread, issue if k else None, 10)
            issue += rng.randint(1, 3)
    return out + body


def main():
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "frame":
        spread = int(a[3]) if len(a) > 3 else 40
        print("\n".join(frame(int(a[1]), int(a[2]), spread, int(a[4]) if len(a) > 4 else 60,
                               int(a[5]) if len(a) > 5 else 0)))
    elif len(a) >= 3 and a[0] == "periodic" and a[2] in ("fixed", "ranges"):
        print("\n".join(periodic(int(a[1]), a[2] == "ranges", int(a[3]) if len(a) > 3 else 60,
                                  int(a[4]) if len(a) > 4 else 40)))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
