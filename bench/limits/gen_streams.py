#!/usr/bin/env python3
"""Writes a workload TOML of S streams x N operations with block-time ranges and issue jitter.

Each stream issues its operations in order: every fourth one at an instant with a jitter window
`issue = [t, t + j]` (t growing along the stream), the others back to back after it. Kernels
have 1..8 blocks of 256 or 512 threads and a block time `[c, c + c/2]`; every tenth operation is
a copy with a duration range. Seeded, so that a run can be repeated. With DEADLINE, every
operation gets `deadline = DEADLINE` (for `certify`); without it the output is unchanged.
Usage: gen_streams.py STREAMS OPS_PER_STREAM SEED [DEADLINE] > file.toml
"""
import random
import sys


def main():
    streams, per, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    deadline = f"deadline = {sys.argv[4]}\n" if len(sys.argv) > 4 else ""
    rng = random.Random(seed)
    out = [f'title = "{streams} streams x {per} operations, ranges and jitter (seed {seed})"\n\n']
    for s in range(streams):
        out.append(f'[[stream]]\nname = "S{s}"\npriority = "{"high" if s % 8 == 0 else "low"}"\n\n')
    for s in range(streams):
        t = rng.randint(0, 8)
        for k in range(per):
            name = f"S{s}_{k}"
            issue = ""
            if k % 4 == 0:
                t += rng.randint(1, 8)
                issue = f'issue = ["{t}/2", "{t + rng.randint(0, 2)}/2"]\n'
            if k % 10 == 9:
                d = rng.randint(1, 8)
                out.append(f'[[copy]]\nname = "{name}"\nstream = "S{s}"\n{issue}'
                           f'duration = ["{d}/4", "{d + rng.randint(0, d)}/4"]\n{deadline}\n')
                continue
            c = rng.randint(2, 20)
            out.append(f'[[kernel]]\nname = "{name}"\nstream = "S{s}"\n{issue}'
                       f'blocks = {rng.randint(1, 8)}\nthreads = {rng.choice([256, 512])}\n'
                       f'block_time = ["{c}/4", "{c + c // 2}/4"]\n{deadline}\n')
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
