#!/usr/bin/env bash
# The explicit engine (frontier sweep, values only, two threads) as oracle for the bounds engine
# on the 8 no-fairness (W <= 16, rep <= 4) points the memoised search had not answered
# (bench/RESULTS.md, warp), smallest first, one process at a time, niced. Prints the CSV rows of
# bounds_oracle and, per point, GNU time's wall seconds and peak RSS on stderr.
# Usage: bench/warp/oracle_open_points.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target bounds_oracle -j2 >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)" >&2
for point in "slot 16 3" "slow 15 3" "slow 16 3" "slot 15 4" "slow 14 4" "slot 16 4" "slow 15 4" "slow 16 4"; do
  read -r units warps rep <<<"$point"
  echo "== $units W=$warps rep=$rep" >&2
  nice -n 10 /usr/bin/time -f "%e s wall, %M KB peak RSS" "$build"/bench/warp/bounds_oracle --units "$units" \
    --min-warps "$warps" --max-warps "$warps" --min-rep "$rep" --max-rep "$rep" --timeout 5400 --threads 2
done
