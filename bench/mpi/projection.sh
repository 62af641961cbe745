#!/usr/bin/env bash
# The projection of docs/theory/distributed.md ("Projecting a larger search"), checked where it can be:
# the reference is the bench/wcrt family's n = 10 run 0 (complete, mpirun -np 2); pilots are the
# first levels of the target workloads (one process, cut by --timeout PILOT_S); the n = 11 runs
# are also searched to the end under mpirun -np 2 and compared with their projections.
#   bench/mpi/projection.sh [BUILD_DIR] [PILOT_S] [CHECK_RUNS] [PROJECT_SIZES]
# (default: build 5 "0 2" "12 14"; CHECK_RUNS: runs of n = 11 searched to the end)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
pilot_s=${2:-5}
check_runs=${3:-0 2}
sizes=${4:-12 14}
cmake --build "$build" --target gpuwcrt gen_family -j 2 >/dev/null
source "$here/setup.sh"
echo "command: bench/mpi/projection.sh $build $pilot_s \"$check_runs\" \"$sizes\"   (raw: $out)"
for n in 10 11 $sizes; do "$build/bench/engines/gen_family" wcrt "$n" 3 "$out" >/dev/null; done
exact() { "$build/gpuwcrt" wcrt "$1" --engine exact --json "${@:2}" 2>/dev/null || true; }
mpirun --oversubscribe -np 2 "$build/gpuwcrt" wcrt "$out/wcrt-n10-run0.toml" --engine exact --json \
  --threads 1 > "$out/ref.json" 2>/dev/null
for run in $check_runs; do
  echo
  echo "n = 11 run $run:"
  exact "$out/wcrt-n11-run$run.toml" --timeout "$pilot_s" > "$out/pilot-n11-$run.json"
  mpirun --oversubscribe -np 2 "$build/gpuwcrt" wcrt "$out/wcrt-n11-run$run.toml" --engine exact --json \
    --threads 1 --timeout 900 > "$out/n11-$run.json" 2>/dev/null || true
  python3 "$here/project.py" "$out/ref.json" "$out/pilot-n11-$run.json" "$out/n11-$run.json"
done
for n in $sizes; do
  echo
  echo "n = $n run 0:"
  exact "$out/wcrt-n$n-run0.toml" --timeout "$pilot_s" > "$out/pilot-n$n.json"
  python3 "$here/project.py" "$out/ref.json" "$out/pilot-n$n.json"
done
