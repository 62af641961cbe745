#!/usr/bin/env python3
"""The table of run.sh from its rows: FILE EXIT GPU_WALL GPU_KB NPT_WALL NPT_KB COMPARE_JSON.

Per instance: operations; kernel instances given to nptest (over the frames) and how many of
them may wait for their stream predecessor (where the precedence edges matter); gpuwcrt's operations with UB = LB and its largest UB/LB; nptest's
operations whose upper bound equals gpuwcrt's replayed lower bound (nptest proven exact there);
disagreements (gpuwcrt's LB above nptest's UB, or nptest's best case above gpuwcrt's UB: a
soundness bug in one of them); operations where gpuwcrt's UB exceeds nptest's, with the largest
ratio; wall time and peak RSS of each, and whether gpuwcrt's wall is within 10x nptest's + 1 s.
"""
import json
import sys
from fractions import Fraction as F


def ratio(a, b):
    return a / b if b else None


def fmt(x):
    return "–" if x is None else f"{float(x):.2f}"


def main():
    print("| file | ops | instances (wait on stream) | gpuwcrt exact | gpuwcrt UB/LB max | nptest UB = gpuwcrt LB | disagree | "
          "gpuwcrt UB > nptest UB (max ratio) | gpuwcrt wall, RSS | nptest wall, RSS | wall ≤ 10× + 1 s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for line in open(sys.argv[1]):
        name, code, gw, gk, nw, nk, rest = line.split(" ", 6)
        cmp = json.loads(rest)
        gpu = f"{float(gw):.2f} s, {int(gk) // 1024} MB (exit {code})"
        if "ops" not in cmp:
            print(f"| {name} | | | | | | | | {gpu} | | {cmp['class']} |")
            continue
        ops = cmp["ops"]
        n = len(ops)
        exact = sum(o["gpu_exact"] for o in ops)
        ubl = [ratio(F(o["gpu_ub"]), F(o["gpu_lb"])) for o in ops if o["gpu_ub"] != "None" and o["gpu_lb"] != "None"]
        above = [o for o in ops if o["gpu_ub_above"]]
        worst = max((ratio(F(o["gpu_ub"]), F(o["npt_ub"])) for o in above), default=None)
        within = float(gw) <= 10 * float(nw) + 1
        note = "" if cmp["class"] == "holds" else f" ({cmp['class']})"
        if "window" in cmp:
            note += f" (frames released before {cmp['window']})"
        print(f"| {name}{note} | {n} | {cmp.get('instances', '?')} ({cmp.get('waits', '?')}) | {exact} | {fmt(max(ubl, default=None))} | "
              f"{sum(o['npt_exact'] for o in ops)} | {sum(o['disagree'] for o in ops)} | "
              f"{len(above)} ({fmt(worst)}) | {gpu} | {float(nw):.2f} s, {int(nk) // 1024} MB | "
              f"{'yes' if within else 'no'} |")


if __name__ == "__main__":
    main()
