"""The camera table of bench/RESULTS.md from bench/camera/run.sh's raw lines on stdin:
'CONFIG SEED ENGINE WHICH REP EXIT WALL_S RSS_KB JSON_FILE', WHICH being bin or base.

One row per (configuration, engine, binary). Wall time: median and max over every run (seeds ×
repetitions); "base/bin" is the base row's median wall time over this row's (> 1: the binary
under test is faster). The quality columns come from the first repetition of each seed: UB/LB
per operation with exact rationals (JSON carries "3/2"); an operation without a proven upper
bound, or without a positive lower bound, is an infinite ratio (shown as "-" when it decides
the median or max) and is counted under "no UB" when the upper bound is missing. A run whose
exit code is neither 0 nor 2 (2: some answer only bounded) has no usable JSON and is listed
with its exit code."""
import json
import statistics
import sys
from collections import defaultdict
from fractions import Fraction

rows = defaultdict(lambda: {"walls": [], "rss": [], "states": [], "ratios": [], "exact": 0, "ops": 0,
                            "no_ub": 0, "seeds": set(), "errors": []})
order = []
for line in sys.stdin:
    config, seed, engine, which, rep, code, wall, kb, path = line.split()
    key = (config, engine, which)
    if key not in rows:
        order.append(key)
    r = rows[key]
    r["walls"].append(float(wall))
    r["rss"].append(int(kb) / 1024)
    r["seeds"].add(seed)
    if rep != "1":
        continue
    if code not in ("0", "2"):
        r["errors"].append(f"seed {seed}: exit {code}")
        continue
    with open(path) as f:
        out = json.load(f)
    stats = out.get("stats", {})
    if "abstract_states" in stats:
        r["states"].append(int(stats["abstract_states"]))
    for op in out["operations"]:
        r["ops"] += 1
        r["exact"] += op["status"] == "exact"
        lb, ub = op.get("wcrt"), op.get("upper_bound")
        r["no_ub"] += ub is None
        if lb is None or ub is None or Fraction(lb) <= 0:
            r["ratios"].append(None)
        else:
            r["ratios"].append(Fraction(ub) / Fraction(lb))


def ratio_text(values, pick):
    finite = [float("inf") if v is None else v for v in values]
    if not finite:
        return "-"
    v = max(finite) if pick == "max" else statistics.median(finite)
    return "-" if v == float("inf") else f"{float(v):.3f}"


print("| configuration | engine | binary | workloads | runs | wall median (s) | wall max (s) | base/bin wall |"
      " peak RSS max (MiB) | abstract states median | UB/LB median | UB/LB max | operations exact |"
      " operations without UB |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for config, engine, which in order:
    r = rows[(config, engine, which)]
    median = statistics.median(r["walls"])
    base = rows.get((config, engine, "base"))
    speed = "-"
    if base and base["walls"] and median > 0:
        speed = f"{statistics.median(base['walls']) / median:.2f}"
    cells = [config, engine, which, str(len(r["seeds"])), str(len(r["walls"])), f"{median:.2f}",
             f"{max(r['walls']):.2f}", speed, f"{max(r['rss']):.0f}",
             f"{statistics.median(r['states']):.0f}" if r["states"] else "-",
             ratio_text(r["ratios"], "median"), ratio_text(r["ratios"], "max"),
             f"{r['exact']}/{r['ops']}" + (f" ({'; '.join(r['errors'])})" if r["errors"] else ""),
             str(r["no_ub"])]
    print("| " + " | ".join(cells) + " |")
