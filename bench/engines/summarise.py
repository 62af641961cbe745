"""One table row of bench/engines/run.sh from lines 'EXIT WALL_S RSS_KB JSON_FILE' on stdin.

UB/LB is taken per operation with exact rationals (JSON carries "3/2"); an operation without a
proven upper bound or without a lower bound counts as ratio infinity (shown as "-" when it is
the median or max). States come from the engine's JSON stats when it reports them."""
import json
import statistics
import sys
from fractions import Fraction

family, size, engine = sys.argv[1:4]
walls, rss, states, ratios = [], [], [], []
exact = total = 0
errors = []
for line in sys.stdin:
    code, wall, kb, path = line.split()
    walls.append(float(wall))
    rss.append(int(kb) / 1024)
    if code not in ("0", "2"):
        errors.append(f"exit {code}")
        continue
    with open(path) as f:
        out = json.load(f)
    st = out.get("stats", {})
    if "states" in st:
        states.append(int(st["states"]))
    for op in out["operations"]:
        total += 1
        exact += op["status"] == "exact"
        lb, ub = op.get("wcrt"), op.get("upper_bound")
        if lb is None or ub is None or Fraction(lb) == 0:
            ratios.append(None)
        else:
            ratios.append(Fraction(ub) / Fraction(lb))


def ratio_text(values, pick):
    # A missing bound is an infinite ratio: it shows as "-" when it decides the median or max.
    finite = [float("inf") if v is None else v for v in values]
    if not finite:
        return "-"
    v = max(finite) if pick == "max" else statistics.median(finite)
    return "-" if v == float("inf") else f"{float(v):.3f}"


row = [family, size, engine, str(len(walls)),
       f"{statistics.median(walls):.2f}" if walls else "-",
       f"{max(walls):.2f}" if walls else "-",
       f"{max(rss):.0f}" if rss else "-",
       f"{statistics.median(states):.0f}" if states else "-",
       ratio_text(ratios, "median"), ratio_text(ratios, "max"),
       f"{exact}/{total}" + (f" ({', '.join(errors)})" if errors else "")]
print("| " + " | ".join(row) + " |")
