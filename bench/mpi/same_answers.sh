#!/usr/bin/env bash
# Identical answers for every number of processes: the test driver of tests/test_across_processes_mpi.cpp
# under mpirun with R = 1, 2, 3 and 4 processes (oversubscribed): on each of WORKLOADS seeded
# workloads (every feature the exact engine accepts, and the bench/wcrt family at n = 6) rank 0
# runs the search across the R processes and the search alone, and compares values, statuses
# and witnesses. Exit 1 on any difference.
#   bench/mpi/same_answers.sh [BUILD_DIR] [WORKLOADS]   (default: build 500)
set -euo pipefail
build=${1:-build}
workloads=${2:-500}
cmake --build "$build" --target gpuwcrt_tests -j 2 >/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 GPUWCRT_TEST_WORKLOADS=$workloads
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $(git rev-parse --short HEAD)"
echo "command: bench/mpi/same_answers.sh $build $workloads"
status=0
for r in 1 2 3 4; do
  start=$SECONDS
  if log=$(mpirun --oversubscribe -np "$r" -x GPUWCRT_TEST_WORKLOADS "$build/tests/gpuwcrt_tests" '[mpi-driver]' 2>&1); then
    echo "R=$r: $(grep -o 'compared .*' <<< "$log" | head -1), every answer equal ($((SECONDS - start)) s)"
  else
    echo "R=$r: ANSWERS DIFFER"
    grep -E 'FAILED|with expansion|REQUIRE|CHECK' <<< "$log" | head -20
    status=1
  fi
done
exit $status
