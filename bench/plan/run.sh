#!/usr/bin/env bash
# Reproduces the "plan" table of bench/RESULTS.md (issue 22):
#   bench/plan/run.sh [BUILD_DIR] [TIMEOUT_S] [RUNS]     (SKIP_BUILD=1: use the binaries as built)
# For every workload of three families, in the same run: the wall time of `gpuwcrt wcrt` with
# the default plan (--engine auto) and with each single engine (exact, bounds), each a whole
# process (loading, RTA columns, output), and the operations each makes exact. The ratio is
# auto's time over the fastest single engine that makes at least the same operations exact
# ("-" when none does). Families: bench/wcrt (n = 6…16 kernels, one stream each), the pipeline
# family (model/generate/pipeline_workload, 2–4 streams) and the camera family
# (bench/camera/gen_camera, fixed times, 3–5 streams × 8 kernels).
set -euo pipefail
build=${1:-build}
timeout=${2:-20}
runs=${3:-2}
[[ -n ${SKIP_BUILD:-} ]] || cmake --build "$build" --target gpuwcrt gen_family gen_camera -j2 >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
echo "command: bench/plan/run.sh $build $timeout $runs"
files=()
for n in 6 8 10 12 14 16; do
    mapfile -t -O "${#files[@]}" files < <("$build/bench/engines/gen_family" wcrt "$n" "$runs" "$dir")
done
for s in 2 3 4; do
    mapfile -t -O "${#files[@]}" files < <("$build/bench/engines/gen_family" pipeline "$s" "$runs" "$dir")
done
for s in 3 4 5; do
    for r in $(seq 1 "$runs"); do
        f="$dir/camera-s$s-k8-run$r.toml"
        "$build/bench/camera/gen_camera" "$s" 8 "$r" fixed -o "$f" >/dev/null
        files+=("$f")
    done
done
# One run: "SECONDS EXACT_OPS EXACT_NAMES" (names sorted, comma separated).
measure() {
    local file=$1 engine=$2 t0 t1 out
    t0=$(date +%s%N)
    out=$("$build/gpuwcrt" wcrt "$file" --engine "$engine" --timeout "$timeout" --max-memory 3000 --json 2>/dev/null || true)
    t1=$(date +%s%N)
    local names
    names=$(jq -r '[.operations[] | select(.status == "exact") | .name] | sort | join(",")' <<<"$out" 2>/dev/null || echo "")
    local count
    count=$(jq '[.operations[] | select(.status == "exact")] | length' <<<"$out" 2>/dev/null || echo 0)
    echo "$(((t1 - t0) / 1000000)) $count $names"
}
# Every name of $1 (comma separated) is in $2.
covers() {
    local want=$2 have=$1
    [[ -z $want ]] && return 0
    local IFS=,
    for x in $want; do [[ ",$have," == *",$x,"* ]] || return 1; done
}
printf '| workload | ops | auto ms | auto exact | exact ms | exact exact | bounds ms | bounds exact | fastest single | ratio |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for f in "${files[@]}"; do
    ops=$(grep -c '^\[\[\(kernel\|copy\)\]\]' "$f" || true)
    read -r a_ms a_n a_names <<<"$(measure "$f" auto)"
    read -r e_ms e_n e_names <<<"$(measure "$f" exact)"
    read -r b_ms b_n b_names <<<"$(measure "$f" bounds)"
    best="-"
    best_ms=""
    if covers "${e_names:-}" "${a_names:-}" && [[ $e_n -gt 0 || $a_n -eq 0 ]]; then best=exact; best_ms=$e_ms; fi
    if covers "${b_names:-}" "${a_names:-}" && [[ $b_n -gt 0 || $a_n -eq 0 ]] && { [[ -z $best_ms ]] || ((b_ms < best_ms)); }; then
        best=bounds
        best_ms=$b_ms
    fi
    ratio="-"
    [[ -n $best_ms && $best_ms -gt 0 ]] && ratio=$(awk -v a="$a_ms" -v b="$best_ms" 'BEGIN { printf "%.2f", a / b }')
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(basename "$f" .toml)" "$ops" "$a_ms" "$a_n" \
        "$e_ms" "$e_n" "$b_ms" "$b_n" "$best" "$ratio"
done
