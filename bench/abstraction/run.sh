#!/usr/bin/env bash
# Reproduces the "abstraction" table of bench/RESULTS.md:
#   bench/abstraction/run.sh [BUILD_DIR] [RUNS] [CAP_S] [SIZES]
# Per n: RUNS seeded workloads of the bench/wcrt family (n kernels, one stream each, issued at
# 0, placement any; bench/README.md), each analysed by abstraction_bounds (--engine bounds)
# with a budget of CAP_S seconds, one workload after the other in one process (peak RSS is
# the process's high-water mark so far).
set -euo pipefail
build=${1:-build}
runs=${2:-3}
cap=${3:-60}
sizes=${4:-10,16,32}
cmake --build "$build" --target bench_abstraction -j "$(nproc)" >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
echo "command: bench/abstraction/run.sh $build $runs $cap $sizes"
"$build/bench/abstraction/bench_abstraction" --sizes "$sizes" --runs "$runs" --cap "$cap"
