#!/usr/bin/env bash
# WATERS 2019 as its model states it: every published version, and the challenge's mapped 2.0.0
# models, imported with their CPU side and ProcessRequirements, then `gpuwcrt certify` RUNS times
# (median wall and CPU time, peak RSS, exit code) and each requirement's answer of the last run.
# Usage: bench/waters2019/requirements.sh [BUILD_DIR] [RUNS]
# Grids of 2 blocks per kernel (the model gives none; named in every certificate's assumptions);
# the mapped 2.0.0 models give OS_Overhead no priority: --priority OS_Overhead=0, its 1.0.0 value.
set -euo pipefail
build=${1:-build}
runs=${2:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
grids=(--grid SFM_Function=2 --grid Localization_Function=2 --grid Lane_Detection_Function=2
       --grid Detection_Function=2)
data=tests/data/amalthea-waters2019
models=(cases/waters2019/ChallengeModel_release_fix.amxmi "$data/waters2019_0.9.9.amxmi"
        "$data/waters2019_1.0.0.amxmi" "$data/waters2019_2.0.0.amxmi" "$data/waters2019_2.0.0_mapped.amxmi"
        "$data/waters2019_2.0.0_mapped+safety.amxmi")
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
printf '%-32s %5s %8s %8s %8s\n' model exit "wall s" "CPU s" "RSS MiB"
for m in "${models[@]}"; do
  v=$(basename "$m" .amxmi)
  case $v in
    *mapped*) opts=(--grid SFM_Function=2 --grid Detection_Function=2 --priority OS_Overhead=0) ;;
    *) opts=("${grids[@]}") ;;
  esac
  "$build/gpuwcrt" import-amalthea "$m" "${opts[@]}" -o "$out/$v.toml" 2>/dev/null
  walls=() cpus=() rss=0 code=0
  for _ in $(seq "$runs"); do
    code=0
    /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$build/gpuwcrt" certify "$out/$v.toml" --json \
      >"$out/$v.json" 2>/dev/null || code=$?
    read -r wall user sys kb < <(tail -1 "$out/time")  # after "Command exited with …" when not 0
    walls+=("$wall") cpus+=("$(awk "BEGIN {print $user + $sys}")") rss=$((kb > rss ? kb : rss))
  done
  printf '%-32s %5s %8s %8s %8s\n' "$v" "$code" "$(median "${walls[@]}")" "$(median "${cpus[@]}")" $((rss / 1024))
  python3 - "$out/$v.json" <<'PY'
import json, sys
from fractions import Fraction
j = json.load(open(sys.argv[1]))
ms = lambda x: "-" if x is None else f"{float(Fraction(x)):.6g}"
for q in j["requirements"]:
    run = q.get("run") or {}
    part = f' (job {run["job"]}: CPU {ms(run["cpu_part"])} + GPU {ms(run["gpu_part"])})' if run else ""
    print(f'    {q["name"]:30} {q["verdict"]:9} lower {ms(q.get("lower")):>10} upper {ms(q.get("upper")):>10}{part}')
PY
done
