#!/usr/bin/env python3
"""Writes a workload TOML of N kernels, one stream per kernel (no `stream` key), seeded.

Same distribution as bench/rta: 512-thread blocks (g_max = 8 on the TX2), g uniform in 1..20,
block_time uniform in {1/4, 2/4, ..., 10}, issue uniform in {0, 1/2, ..., 2}.
Usage: gen_workload.py N SEED > file.toml
"""
import random
import sys


def main():
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    out = sys.stdout
    lines = []
    for k in range(n):
        g = rng.randint(1, 20)
        c = rng.randint(1, 40)
        r = rng.randint(0, 4)
        lines.append(f'[[kernel]]\nname = "K{k}"\nblocks = {g}\nthreads = 512\n'
                     f'block_time = "{c}/4"\nissue = "{r}/2"\n\n')
        if len(lines) >= 10000:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))


if __name__ == "__main__":
    main()
