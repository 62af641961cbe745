#!/usr/bin/env bash
# WATERS 2019 as published (cases/waters2019/): imports the model of every version with the grids
# of cases/waters2019/README.md, checks that the versions give the same workload, then times
# `gpuwcrt wcrt` on it RUNS times (median wall time, peak RSS) and prints each operation's bound.
# Usage: bench/waters2019/run.sh [BUILD_DIR] [RUNS] [WCRT_OPTIONS...]
set -euo pipefail
build=${1:-build}
runs=${2:-3}
shift $(($# < 2 ? $# : 2))
bin="$build/gpuwcrt"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
grids=(--grid SFM_Function=2 --grid Localization_Function=2 --grid Lane_Detection_Function=2
       --grid Detection_Function=2)
models=(cases/waters2019/ChallengeModel_release_fix.amxmi tests/data/amalthea-waters2019/waters2019_0.9.9.amxmi
        tests/data/amalthea-waters2019/waters2019_1.0.0.amxmi tests/data/amalthea-waters2019/waters2019_2.0.0.amxmi)
for m in "${models[@]}"; do
  v=$(basename "$m" .amxmi)
  "$bin" import-amalthea "$m" "${grids[@]}" -o "$out/$v.toml"
  # The versions differ only in the file name and version the header names.
  grep -v -e '^#' -e '^title = ' -e '^source = ' "$out/$v.toml" >"$out/$v.body"
  cmp -s "$out/$v.body" "$out/ChallengeModel_release_fix.body" || { echo "$v differs from 0.9.8" >&2; exit 1; }
done
echo "all ${#models[@]} versions import to the same workload"
workload="$out/ChallengeModel_release_fix.toml"
walls=()
for r in $(seq 1 "$runs"); do
  set +e
  /usr/bin/time -f '%e %M' -o "$out/time" "$bin" wcrt "$workload" "$@" --json >"$out/wcrt.json" 2>"$out/wcrt.err"
  code=$?
  set -e
  # GNU time puts "Command exited with non-zero status N" before its line on a non-zero exit.
  read -r wall rss < <(tail -n 1 "$out/time")
  walls+=("$wall")
  echo "run $r: exit $code, wall ${wall} s, peak RSS $((rss / 1024)) MiB"
done
median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}')
echo "median wall: $median s over $runs runs"
python3 - "$out/wcrt.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for o in j.get("operations", []):
    print(f'{o["name"]:32} status={o.get("status")} wcrt={o.get("wcrt")} frame={o.get("frame")} '
          f'upper_bound={o.get("upper_bound")} deadline={o.get("deadline")}')
PY
