#!/usr/bin/env bash
# Reproduces the "plan" table of bench/RESULTS.md:
#   bench/plan/run.sh [BUILD_DIR] [TIMEOUT_S] [RUNS] [REPS]   (SKIP_BUILD=1: use the binaries as built)
# RUNS workloads (seeds) per family size; each engine timed REPS times per workload (interleaved),
# the median reported; a workload whose exact operations differ between repetitions is flagged.
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
reps=${4:-3}
[[ -n ${SKIP_BUILD:-} ]] || cmake --build "$build" --target gpuwcrt gen_family gen_camera -j2 >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
echo "command: bench/plan/run.sh $build $timeout $runs $reps"
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
# The median of the numbers on standard input.
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# Times every engine $reps times, interleaved; sets X_ms (median), X_n, X_names and `stable`.
measure_all() {
    local file=$1 engine rep ms n names
    declare -gA times=() first=()
    stable=yes
    for rep in $(seq 1 "$reps"); do
        for engine in auto exact bounds; do
            read -r ms n names <<<"$(measure "$file" "$engine")"
            times[$engine]+="$ms "
            if [[ $rep -eq 1 ]]; then first[$engine]="$n ${names:-}"
            elif [[ ${first[$engine]} != "$n ${names:-}" ]]; then stable=no; fi
        done
    done
    a_ms=$(tr ' ' '\n' <<<"${times[auto]}" | grep . | median)
    e_ms=$(tr ' ' '\n' <<<"${times[exact]}" | grep . | median)
    b_ms=$(tr ' ' '\n' <<<"${times[bounds]}" | grep . | median)
    read -r a_n a_names <<<"${first[auto]}"
    read -r e_n e_names <<<"${first[exact]}"
    read -r b_n b_names <<<"${first[bounds]}"
}
printf '| workload | ops | auto ms | auto exact | exact ms | exact exact | bounds ms | bounds exact | fastest single | ratio | same exact set in every rep |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|\n'
for f in "${files[@]}"; do
    ops=$(grep -c '^\[\[\(kernel\|copy\)\]\]' "$f" || true)
    measure_all "$f"
    best="-"
    best_ms=""
    if covers "${e_names:-}" "${a_names:-}" && [[ $e_n -gt 0 || $a_n -eq 0 ]]; then best=exact; best_ms=$e_ms; fi
    if covers "${b_names:-}" "${a_names:-}" && [[ $b_n -gt 0 || $a_n -eq 0 ]] && { [[ -z $best_ms ]] || ((b_ms < best_ms)); }; then
        best=bounds
        best_ms=$b_ms
    fi
    ratio="-"
    [[ -n $best_ms && $best_ms -gt 0 ]] && ratio=$(awk -v a="$a_ms" -v b="$best_ms" 'BEGIN { printf "%.2f", a / b }')
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(basename "$f" .toml)" "$ops" "$a_ms" "$a_n" \
        "$e_ms" "$e_n" "$b_ms" "$b_n" "$best" "$ratio" "$stable"
done
