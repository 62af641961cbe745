#!/usr/bin/env bash
# Growth of the plain commands, end to end through the CLI (file loading and output included):
# `gpuwcrt simulate` and `gpuwcrt rta` on N kernels, one stream per kernel (gen_workload.py,
# seed 1), N = 10^3 … 10^6. Each run is timed by /usr/bin/time (wall, user+sys CPU, peak RSS);
# the table shows medians over RUNS runs and the exponent fitted between consecutive sizes
# (log10 of the time ratio per factor 10 of kernels: 1 = linear, 2 = quadratic).
# Usage: bench/scale/run.sh [BUILD_DIR] [RUNS] [MAX_N]   (defaults: build 3 1000000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
runs=${2:-3}
max_n=${3:-1000000}
cmake --build "$build" --target gpuwcrt -j2 >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo "| command | kernels | blocks | wall median (s) | CPU median (s) | peak RSS median (MiB) | exponent (wall) | exponent (CPU) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for cmd in simulate rta; do
  prev_wall="" prev_cpu=""
  for n in 1000 10000 100000 1000000; do
    [ "$n" -le "$max_n" ] || continue
    file="$work/w$n.toml"
    [ -f "$file" ] || python3 "$here/gen_workload.py" "$n" 1 > "$file"
    blocks=$(awk -F' = ' '/^blocks/ {s += $2} END {print s}' "$file")
    : > "$work/times"
    for ((r = 0; r < runs; ++r)); do
      /usr/bin/time -f "%e %U %S %M" -o "$work/one" "$build/gpuwcrt" "$cmd" "$file" > /dev/null
      cat "$work/one" >> "$work/times"
    done
    wall=$(awk '{print $1}' "$work/times" | median)
    cpu=$(awk '{print $2 + $3}' "$work/times" | median)
    rss=$(awk '{print $4 / 1024}' "$work/times" | median)
    ew="-" ec="-"
    if [ -n "$prev_wall" ]; then
      ew=$(awk -v a="$prev_wall" -v b="$wall" 'BEGIN {printf "%.2f", (a > 0 && b > 0) ? log(b / a) / log(10) : 0}')
      ec=$(awk -v a="$prev_cpu" -v b="$cpu" 'BEGIN {printf "%.2f", (a > 0 && b > 0) ? log(b / a) / log(10) : 0}')
    fi
    printf "| %s | %s | %s | %s | %s | %.0f | %s | %s |\n" "$cmd" "$n" "$blocks" "$wall" "$cpu" "$rss" "$ew" "$ec"
    prev_wall=$wall prev_cpu=$cpu
  done
done
