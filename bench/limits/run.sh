#!/usr/bin/env bash
# Reproduces the "limits" table of bench/RESULTS.md: does `wcrt --timeout T` end within T + 1 s
# on the largest workloads of the benchmark families, and how much memory does it take?
#   bench/limits/run.sh [BUILD_DIR] [TIMEOUTS] [POLICIES] [MAX_MEMORY]
# A second table repeats the first-fit runs (the most memory-hungry) with --max-memory
# MAX_MEMORY (MiB, default 500): peak RSS must stay near it and the runs end all the same.
# Workloads: bench/wcrt's n = 16 family (three seeds, written by `bench_wcrt --dump`) and the
# same family at n = 20 (20 kernels issued together, the issue's example). Each run is one
# process measured by /usr/bin/time -v (wall clock, peak RSS); runs are sequential.
set -euo pipefail
build=${1:-build}
timeouts=${2:-"1 5"}
policies=${3:-"any most-room first-fit"}
max_memory=${4:-500}
cmake --build "$build" --target gpuwcrt bench_wcrt -j 2 >/dev/null
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$build/bench/wcrt/bench_wcrt" --sizes 16 --runs 3 --enum-cap 0 --smt-cap 0 --dump "$dir" >/dev/null 2>&1
"$build/bench/wcrt/bench_wcrt" --sizes 20 --runs 1 --enum-cap 0 --smt-cap 0 --dump "$dir" >/dev/null 2>&1

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "command: bench/limits/run.sh $build \"$timeouts\" \"$policies\" $max_memory"
over=0
table() {  # table POLICIES [extra gpuwcrt options]
    local policies=$1
    shift
    echo
    echo "| workload | policy | --timeout | options | wall | peak RSS | exit | statuses | within T + 1 s |"
    echo "|---|---|---|---|---|---|---|---|---|"
for file in "$dir"/n16-run0.toml "$dir"/n16-run1.toml "$dir"/n16-run2.toml "$dir"/n20-run0.toml; do
    for policy in $policies; do
        for t in $timeouts; do
            set +e
            /usr/bin/time -v "$build/gpuwcrt" wcrt "$file" --policy "$policy" --timeout "$t" --json "$@" \
                >"$dir/out.json" 2>"$dir/time.txt"
            set -e
            wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
            secs=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; print s }')
            rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
            code=$(sed -n 's/.*Exit status: //p' "$dir/time.txt")
            # e.g. "2 exact, 14 unknown (timeout)": every unknown has an unknown_reason
            exact=$(grep -c '"status": "exact"' "$dir/out.json" || true)
            statuses=$(grep -o '"unknown_reason": "[a-z ]*"' "$dir/out.json" | sed 's/.*: "//; s/"$//' | sort | uniq -c |
                       awk -v e="$exact" 'BEGIN { if (e > 0) { printf "%d exact", e; sep = ", " } }
                                          { n = $1; $1 = ""; printf "%s%d unknown (%s)", sep, n, substr($0, 2); sep = ", " }')
            ok=$(awk -v s="$secs" -v t="$t" 'BEGIN { print (s <= t + 1) ? "yes" : "NO" }')
            [ "$ok" = yes ] || over=$((over + 1))
            echo "| $(basename "$file" .toml) | $policy | $t s | $* | ${secs} s | $((rss / 1024)) MiB | $code | $statuses | $ok |"
        done
    done
done
}
table "$policies"
table first-fit --max-memory "$max_memory"
echo
echo "runs over T + 1 s: $over"
