#!/usr/bin/env bash
# Builds and runs the warp benchmark; prints the machine, the date and the Markdown table that
# bench/RESULTS.md quotes. Usage: bench/warp/run.sh [build-dir] [--runs N --smt-runs M --timeout S]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target bench_warp -j2 >/dev/null
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; date: $(date -u +%Y-%m-%d)"
"$build"/bench/warp/bench_warp "$@"
