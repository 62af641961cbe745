#!/bin/sh
# Lower bounds of `--engine bounds` with the scenario search (BUILD) against a baseline build
# (BASE, e.g. main) on camera pipelines: per operation the replayed LB of each, and the wall time.
#   bench/scenario_search/run.sh BUILD BASE TIMEOUT FILE...
# Each FILE runs `wcrt FILE --engine bounds --timeout TIMEOUT --json --max-memory 3072` once per
# binary, one after the other; the summary line per file gives the LB ratio new/base (median, min,
# max over operations), how many operations each has higher, and both wall times.
set -eu
build=$1 base=$2 timeout=$3
shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for f in "$@"; do
    for b in "$build" "$base"; do
        tag=$(echo "$b" | tr '/' '_')
        start=$(date +%s.%N)
        "$b/gpuwcrt" wcrt "$f" --engine bounds --timeout "$timeout" --json --max-memory 3072 >"$out/$tag.json" || true
        end=$(date +%s.%N)
        echo "$end - $start" | bc >"$out/$tag.time"
    done
    python3 - "$f" "$out/$(echo "$build" | tr '/' '_')" "$out/$(echo "$base" | tr '/' '_')" <<'PY'
import json, sys
from fractions import Fraction as F
f, new, base = sys.argv[1:]
a = {o["name"]: o for o in json.load(open(new + ".json"))["operations"]}
b = {o["name"]: o for o in json.load(open(base + ".json"))["operations"]}
ratios, higher, lower = [], 0, 0
for name, o in a.items():
    x, y = F(o["lower_bound"]), F(b[name]["lower_bound"])
    ratios.append(x / y)
    higher += x > y
    lower += x < y
    print(f"  {name:10s} base {float(y):9.3f}  new {float(x):9.3f}  ratio {float(x / y):.4f}")
ratios.sort()
med = ratios[len(ratios) // 2]
print(f"{f}: {len(ratios)} ops, LB new/base median {float(med):.4f} min {float(ratios[0]):.4f} max {float(ratios[-1]):.4f}; "
      f"new higher on {higher}, lower on {lower}; wall new {float(open(new + '.time').read()):.1f} s, "
      f"base {float(open(base + '.time').read()):.1f} s")
PY
done
