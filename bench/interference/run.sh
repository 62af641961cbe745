#!/usr/bin/env bash
# The interference bound's wall time on camera pipelines of growing size (bench/RESULTS.md,
# "interference").   bench/interference/run.sh [BUILD_DIR] [RUNS] [SIZES]
set -euo pipefail
build=${1:-build}
runs=${2:-3}
sizes=${3:-3x8,4x10,8x6,16x16,32x32}
cmake --build "$build" --target bench_interference -j 2 >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "command: bench/interference/run.sh $build $runs $sizes; commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo
"$build/bench/interference/bench_interference" "$runs" "$sizes"
