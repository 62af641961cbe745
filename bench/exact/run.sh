#!/usr/bin/env bash
# Reproduces the "exact" tables of bench/RESULTS.md:
#   bench/exact/run.sh [BUILD_DIR] [CAP_S] [SIZES] [RUNS] [BEAM_SIZES]
# The bench/wcrt family (bench/README.md: n kernels, one stream each, issued at 0, placement any),
# one process per workload (peak RSS is that run's, /usr/bin/time -v semantics via getrusage):
# - exact engine, CAP_S seconds each; for n <= 6 also the SMT engine and enumeration in the same
#   process (any disagreement with an exact answer is exit 1);
# - beam mode (B = 16 per set of determined operations, at most 20000 states per level) on
#   BEAM_SIZES, against an exact run in the same process where one finishes within CAP_S, and
#   against the busy-time upper bound everywhere.
set -euo pipefail
build=${1:-build}
cap=${2:-60}
sizes=${3:-6,8,10,12,16}
runs=${4:-3}
beam_sizes=${5:-10,16,32}
cmake --build "$build" --target bench_exact -j 2 >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: bench/exact/run.sh $build $cap $sizes $runs $beam_sizes"
echo
echo "| n | run | mode | seconds | states stored | peak states per level | peak RSS | kernels exact | other engines, same process | expansions, merged or dominated |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in ${sizes//,/ }; do
  for ((r = 0; r < runs; ++r)); do
    extra=()
    if [ "$n" -le 6 ]; then extra=(--smt-cap "$cap" --enum-cap "$cap"); fi
    "$build/bench/exact/bench_exact" "$n" "$r" --cap "$cap" "${extra[@]}"
  done
done
echo
echo "| n | run | mode | seconds | states stored | peak states per level | peak RSS | kernels exact | busy-time UB / beam LB | beam vs exact | expansions, merged or dominated |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for n in ${beam_sizes//,/ }; do
  for ((r = 0; r < runs; ++r)); do
    ref=()
    if [ "$n" -le 10 ]; then ref=(--ref-cap "$cap"); fi
    "$build/bench/exact/bench_exact" "$n" "$r" --beam 16 --level-cap 20000 --cap "$cap" "${ref[@]}"
  done
done
echo
echo "Pipeline family (model/generate/pipeline_workload.hpp, 64 operations: 4 streams x 4 iterations of copy-in, 2 kernels, copy-out; s1 high priority):"
echo
echo "| n | run | mode | seconds | states stored | peak states per level | peak RSS | operations exact | busy-time UB / beam LB | beam vs exact | expansions, merged or dominated |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for ((r = 0; r < runs; ++r)); do "$build/bench/exact/bench_exact" pipeline "$r" --cap "$cap"; done
for ((r = 0; r < runs; ++r)); do
  "$build/bench/exact/bench_exact" pipeline "$r" --beam 16 --level-cap 20000 --cap "$cap" --ref-cap "$cap"
done
