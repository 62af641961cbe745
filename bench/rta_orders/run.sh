#!/usr/bin/env bash
# Reproduces the "rta_orders" table of bench/RESULTS.md:
#   bench/rta_orders/run.sh [BUILD_DIR] [RUNS] [SEARCH_CAP_S] [SIZES]
# Per n: RUNS workloads of the bench/wcrt family (bench/README.md, seed 1000·n + run); for each,
# RTA max over orders of every kernel by the search.
set -euo pipefail
build=${1:-build}
runs=${2:-3}
search_cap=${3:-60}
sizes=${4:-4,6,8,10,12,16,32,64}
cmake --build "$build" --target bench_rta_orders -j2 >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
echo "command: bench/rta_orders/run.sh $build $runs $search_cap $sizes"
"$build/bench/rta_orders/bench_rta_orders" --sizes "$sizes" --runs "$runs" --search-cap "$search_cap"
