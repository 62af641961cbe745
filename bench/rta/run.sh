#!/usr/bin/env bash
# Benchmarks the thesis RTA on 10^4, 10^5 and 10^6 random kernels (seeded), one process per
# size so that peak_rss_mib is that size's own peak. Usage: bench/rta/run.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-5}
cmake --build "$build" --target bench_rta -j2 >/dev/null
for n in 10000 100000 1000000; do
  "$build/bench/rta/bench_rta" "$n" "$runs" 1
done
