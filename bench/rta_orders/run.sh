#!/usr/bin/env bash
# Reproduces the "rta_orders" table of bench/RESULTS.md:
#   bench/rta_orders/run.sh [BUILD_DIR] [RUNS] [SEARCH_CAP_S] [SMT_CAP_S] [ENUM_CAP_S] [SIZES] [SETS_CAP_S]
# Per n: RUNS workloads of the bench/wcrt family (bench/README.md, seed 1000·n + run); for each,
# RTA max over orders of every kernel by the dedicated search, the prefix-set pass, the SMT
# form and enumeration, one after the other in the same process (a cap of 0 skips that engine).
set -euo pipefail
build=${1:-build}
runs=${2:-3}
search_cap=${3:-60}
smt_cap=${4:-60}
enum_cap=${5:-60}
sizes=${6:-4,6,8,10,12,16,32,64}
sets_cap=${7:-0}
cmake --build "$build" --target bench_rta_orders -j2 >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
echo "command: bench/rta_orders/run.sh $build $runs $search_cap $smt_cap $enum_cap $sizes $sets_cap"
"$build/bench/rta_orders/bench_rta_orders" --sizes "$sizes" --runs "$runs" --search-cap "$search_cap" \
  --smt-cap "$smt_cap" --enum-cap "$enum_cap" --sets-cap "$sets_cap"
