#!/usr/bin/env bash
# Reproduces the "wcrt" table of bench/RESULTS.md:
#   bench/wcrt/run.sh [BUILD_DIR] [RUNS] [ENUM_CAP_S] [SMT_CAP_S] [SIZES] [--priorities-copies]
# Per n: RUNS seeded random workloads (bench/README.md); for each, the WCRT of every kernel
# by the SMT engine and by exhaustive enumeration, one after the other in the same process.
set -euo pipefail
build=${1:-build}
runs=${2:-3}
enum_cap=${3:-600}
smt_cap=${4:-600}
sizes=${5:-4,6,8,10,12,14,16}
extra=${6:-}  # --priorities-copies: the "wcrt with priorities and copies" table
cmake --build "$build" --target bench_wcrt -j "$(nproc)" >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
echo "command: bench/wcrt/run.sh $build $runs $enum_cap $smt_cap $sizes $extra"
"$build/bench/wcrt/bench_wcrt" --sizes "$sizes" --runs "$runs" --enum-cap "$enum_cap" --smt-cap "$smt_cap" $extra
