#!/usr/bin/env bash
# WATERS 2019 as published (cases/waters2019/) and the workloads made from it: imports the model
# of every version with the grids of cases/waters2019/README.md and checks that the versions give
# the same workload, then times `gpuwcrt wcrt` and `gpuwcrt certify` RUNS times on each input
# (median wall time, median CPU time = user + system, peak RSS, exit code; on a shared machine the
# CPU time is the figure that compares) and prints each answer of the last run:
#   - the workload imported from each version (0.9.8, 0.9.9, 1.0.0, 2.0.0): four time-sliced contexts;
#   - cases/slices/*.toml: the sliced cases, two and four contexts (certify where a deadline is stated);
#   - bench/waters2019/mapped-gpu.toml: the challenge's remapping, SFM and Detection on the GPU;
#   - bench/waters2019/cpu-side/*.toml: the hand CPU side, without and with the GPU's contexts
#     (certify only: the CPU <-> GPU fixed point).
# Usage: bench/waters2019/run.sh [BUILD_DIR] [RUNS] [OPTIONS...]   (OPTIONS go to every command)
# WATERS_BENCH_ONLY=REGEX times only the inputs whose file name matches (grep -E).
# BUILD_DIR may be any directory holding a `gpuwcrt` binary (an older build, to compare).
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
inputs=()
for m in "${models[@]}"; do
  v=$(basename "$m" .amxmi)
  "$bin" import-amalthea "$m" "${grids[@]}" -o "$out/$v.toml" 2>/dev/null
  # The versions differ only in the file name and version the header names.
  grep -v -e '^#' -e '^title = ' -e '^source = ' "$out/$v.toml" >"$out/$v.body"
  cmp -s "$out/$v.body" "$out/ChallengeModel_release_fix.body" || { echo "$v differs from 0.9.8" >&2; exit 1; }
  inputs+=("$out/$v.toml")
done
echo "all ${#models[@]} versions import to the same workload"
inputs+=(cases/slices/*.toml bench/waters2019/mapped-gpu.toml bench/waters2019/cpu-side/*.toml)

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }

summary() {  # the answers of one --json output, one line each
  python3 - "$1" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except ValueError:
    sys.exit(0)
for o in j.get("operations", []):
    print(f'    {o["name"]:30} {o.get("verdict") or o.get("status")}: wcrt={o.get("wcrt")} frame={o.get("frame")} '
          f'upper={o.get("upper_bound")} deadline={o.get("deadline")}')
for q in j.get("requirements", []):
    print(f'    {q["name"]:30} {q.get("verdict")}: lower={q.get("lower")} upper={q.get("upper")} limit={q.get("limit")}')
if j.get("rounds") is not None:
    print(f'    fixed point: proven={j.get("proven")} rounds={j.get("rounds")} {j.get("reason") or ""}')
PY
}

printf '%-34s %-8s %5s %9s %9s %8s\n' input command exit "wall s" "CPU s" "RSS MiB"
for input in "${inputs[@]}"; do
  name=$(basename "$input")
  [ -z "${WATERS_BENCH_ONLY:-}" ] || grep -qE "$WATERS_BENCH_ONLY" <<<"$name" || continue
  for command in wcrt certify; do
    case "$input" in
      */cpu-side/*) [ "$command" = certify ] || continue ;;  # [[cpu_task]]s: certify only
      */round-robin.toml) [ "$command" = wcrt ] || continue ;;  # no deadline to certify
    esac
    walls=() cpus=()
    for r in $(seq 1 "$runs"); do
      set +e
      /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$bin" "$command" "$input" "$@" --json >"$out/run.json" 2>"$out/run.err"
      code=$?
      set -e
      # GNU time puts "Command exited with non-zero status N" before its line on a non-zero exit.
      read -r wall user system rss < <(tail -n 1 "$out/time")
      walls+=("$wall")
      cpus+=("$(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')")
    done
    printf '%-34s %-8s %5s %9s %9s %8s\n' "$name" "$command" "$code" "$(median "${walls[@]}")" \
      "$(median "${cpus[@]}")" "$((rss / 1024))"
    summary "$out/run.json"
  done
done
