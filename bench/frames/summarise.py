#!/usr/bin/env python3
"""Turns bench/frames/run.sh's runs (FILE EXIT WALL_S RSS_KB JSON per line) into a markdown table."""
import json
import statistics
import sys
from collections import OrderedDict
from fractions import Fraction


def main():
    runs = OrderedDict()
    for line in open(sys.argv[1]):
        name, code, wall, rss, path = line.split()
        runs.setdefault(name, []).append((int(code), float(wall), int(rss), path))
    print("| file | ops | wall (median) | peak RSS | exit | bounded | UB/LB max | UB/LB median | argument |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, rs in runs.items():
        d = json.load(open(rs[-1][3]))
        ops = d["operations"]
        bounded = sum(1 for o in ops if o["upper_bound"])
        ratios = sorted(Fraction(o["upper_bound"]) / Fraction(o["wcrt"]) for o in ops
                        if o["upper_bound"] and o["wcrt"] and Fraction(o["wcrt"]) > 0)
        argument = []
        if d.get("overload"):
            argument.append("overload: " + d["overload"]["reason"][:60])
        if d.get("steady_over_hyperperiods"):
            argument.append(f"steady over {d['steady_over_hyperperiods']} H")
        if d.get("closed_after_hyperperiods"):
            argument.append(f"idle after {d['closed_after_hyperperiods']} H")
        if d.get("explored_window_hyperperiods"):
            argument.append(f"explored in a window of {d['explored_window_hyperperiods']} H")
        if d.get("busy_window"):
            argument.append(f"busy window {float(Fraction(d['busy_window'])):g}")
        print(f"| {name} | {len(ops)} | {statistics.median(r[1] for r in rs):.2f} s | "
              f"{max(r[2] for r in rs) / 1024:.0f} MB | {rs[-1][0]} | {bounded} of {len(ops)} | "
              f"{float(ratios[-1]) if ratios else float('nan'):.2f} | "
              f"{float(ratios[len(ratios) // 2]) if ratios else float('nan'):.2f} | {', '.join(argument) or 'none'} |")


if __name__ == "__main__":
    main()
